"""The store's interface and its SQL, shared by SQLite and PostgreSQL.

One class, :class:`SqlStore`, holds every query; a backend gives it a transaction (:meth:`SqlStore._backend_tx`), a
placeholder style and the kinds of its driver's errors. Every call is one transaction, committed before the call
returns (an acknowledged write is on disk) or rolled back whole; concurrent writes meet in unique keys and
``INSERT ... ON CONFLICT`` upserts, never in read-modify-write, so none overwrites another. Ids are random hex
strings made here (no backend-specific sequences; hex, so that they can end widget keys); secrets (the teacher's
token, a student's browser secret, a view's delete token) and client keys are kept only as SHA-256 hashes.

Every failure is a :class:`StoreError` whose message a student can read: a refusal (a closed round, a cap, a taken
nickname) or :class:`StoreUnavailableError` when the database itself fails (down, restarting, disk full, read-only).
"""

from __future__ import annotations

import errno
import json
import logging
import queue
import secrets
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import AbstractContextManager, contextmanager
from typing import Any, Literal

from bleu_app.store.follow import SCHEMA as FOLLOW_SCHEMA, FollowQueries
from bleu_app.store.model import (
    CODE_ALPHABET,
    CODE_LEN,
    GUESS_WINDOW_S,
    IDLE_CONNECTIONS,
    MAX_NICK,
    MAX_REFS,
    ROOM_TTL_S,
    ROUND_RATE,
    ROUND_TRANSLATE,
    Cursor,
    ErrorKind,
    Identity,
    LimitReachedError,
    Limits,
    NewRoom,
    NewStudent,
    NicknameTakenError,
    NotYoursError,
    Rating,
    Reason,
    Room,
    RoomGoneError,
    RoomState,
    StoreError,
    StoreUnavailableError,
    Student,
    Submission,
    clean_text,
    nickname_key,
    reserved_nickname,
    secret_hash,
)
from bleu_app.store.views import ViewQueries

# Versioned schema: (version, statements). Applied in order at start, each version in one transaction with its
# row in schema_version; types are the common subset of SQLite and PostgreSQL (TEXT, BIGINT, DOUBLE PRECISION).
MIGRATIONS: tuple[tuple[int, tuple[str, ...]], ...] = (
    (
        1,
        (
            """CREATE TABLE rooms (
                id TEXT PRIMARY KEY, code TEXT NOT NULL UNIQUE, teacher_hash TEXT NOT NULL UNIQUE,
                source TEXT NOT NULL, refs TEXT NOT NULL, config TEXT NOT NULL,
                created_at DOUBLE PRECISION NOT NULL, expires_at DOUBLE PRECISION NOT NULL,
                round INTEGER NOT NULL DEFAULT 1, round_open INTEGER NOT NULL DEFAULT 1)""",
            """CREATE TABLE students (
                id TEXT PRIMARY KEY, room_id TEXT NOT NULL REFERENCES rooms(id) ON DELETE CASCADE,
                nickname TEXT NOT NULL, joined_at DOUBLE PRECISION NOT NULL)""",
            "CREATE INDEX students_room ON students(room_id)",
            """CREATE TABLE submissions (
                id TEXT PRIMARY KEY, room_id TEXT NOT NULL REFERENCES rooms(id) ON DELETE CASCADE,
                student_id TEXT NOT NULL REFERENCES students(id) ON DELETE CASCADE,
                round INTEGER NOT NULL, text TEXT NOT NULL, hidden INTEGER NOT NULL DEFAULT 0,
                submitted_at DOUBLE PRECISION NOT NULL, UNIQUE (student_id, round))""",
            "CREATE INDEX submissions_room ON submissions(room_id)",
            """CREATE TABLE ratings (
                room_id TEXT NOT NULL REFERENCES rooms(id) ON DELETE CASCADE,
                student_id TEXT NOT NULL REFERENCES students(id) ON DELETE CASCADE,
                submission_id TEXT NOT NULL REFERENCES submissions(id) ON DELETE CASCADE,
                rating INTEGER NOT NULL CHECK (rating BETWEEN 1 AND 5),
                rated_at DOUBLE PRECISION NOT NULL, PRIMARY KEY (student_id, submission_id))""",
            "CREATE INDEX ratings_room ON ratings(room_id)",
            """CREATE TABLE corpora (
                digest TEXT PRIMARY KEY, content TEXT NOT NULL, bytes BIGINT NOT NULL,
                created_at DOUBLE PRECISION NOT NULL)""",
            """CREATE TABLE views (
                id TEXT PRIMARY KEY, digest TEXT REFERENCES corpora(digest), settings TEXT NOT NULL,
                delete_hash TEXT NOT NULL, created_at DOUBLE PRECISION NOT NULL,
                expires_at DOUBLE PRECISION NOT NULL)""",
        ),
    ),
    (
        # issue 36: a room's version (the dashboard redraws when it moves), who made a room or a view (hashed
        # client keys, for the caps), a student's browser secret (hashed) and nickname key (unique per room; NULL
        # for the anonymous and for students who joined before this version, whose names may repeat), wrong room
        # codes per client, and the indexes a one-statement purge's cascades use
        2,
        (
            "ALTER TABLE rooms ADD COLUMN version BIGINT NOT NULL DEFAULT 0",
            "ALTER TABLE rooms ADD COLUMN creator TEXT",
            "CREATE INDEX rooms_expires ON rooms(expires_at)",
            "CREATE INDEX rooms_creator ON rooms(creator)",
            "ALTER TABLE students ADD COLUMN secret_hash TEXT",
            "ALTER TABLE students ADD COLUMN nick_key TEXT",
            "CREATE UNIQUE INDEX students_nick ON students(room_id, nick_key)",
            "CREATE INDEX ratings_submission ON ratings(submission_id)",
            "ALTER TABLE views ADD COLUMN creator TEXT",
            "CREATE INDEX views_expires ON views(expires_at)",
            "CREATE INDEX views_creator ON views(creator)",
            "CREATE INDEX views_digest ON views(digest)",
            "CREATE TABLE guesses (client TEXT NOT NULL, at DOUBLE PRECISION NOT NULL)",
            "CREATE INDEX guesses_client ON guesses(client, at)",
        ),
    ),
    # issue 34: the slide a room's teacher shows (the phones that follow it read it) and the class's poll answers
    (3, FOLLOW_SCHEMA),
)

_LOG = logging.getLogger(__name__)


class SqlStore(ViewQueries, FollowQueries):
    """Rooms, students, submissions, ratings, rounds, views and corpora on one SQL database."""

    placeholder = "?"
    backend = "sql"

    def __init__(self, *, clock: Callable[[], float] = time.time, limits: Limits | None = None) -> None:
        self.clock = clock
        self.limits = Limits.from_env() if limits is None else limits
        self._idle: queue.LifoQueue[Any] = queue.LifoQueue(IDLE_CONNECTIONS)

    # --- backend hooks ----------------------------------------------------------------------------------------
    def _connect(self) -> Any:  # pragma: no cover - every backend overrides it
        """A new connection to the database (backends override)."""
        raise NotImplementedError

    def _usable(self, conn: Any) -> bool:
        """Whether a pooled connection can be used again (PostgreSQL: it answers)."""
        return True

    def _error_kind(self, exc: BaseException) -> ErrorKind | None:
        """How the driver's error reads at the store's boundary: a unique key met by a concurrent write, the
        database failing, or None (a bug: raised as it is)."""
        return "unavailable" if isinstance(exc, OSError) else None

    def _reason(self, exc: BaseException) -> Reason:
        """Why the database failed, from the driver's error (backends refine it)."""
        if isinstance(exc, OSError):
            if exc.errno in (errno.ENOSPC, errno.EDQUOT):
                return "full"
            if exc.errno in (errno.EROFS, errno.EACCES, errno.EPERM):
                return "read-only"
        return "down"

    def _backend_tx(self) -> AbstractContextManager[Cursor]:  # pragma: no cover - every backend overrides it
        raise NotImplementedError

    def _lock(self, cur: Cursor, name: Literal["rooms", "views"]) -> None:
        """Serialise the writers that check a cap before they insert (SQLite: BEGIN IMMEDIATE already did)."""

    @contextmanager
    def _conn(self) -> Iterator[Any]:
        """A connection from the pool (up to ``IDLE_CONNECTIONS`` kept between calls), returned after use; one the
        database failed on is closed instead (a pooled connection is checked before use, :meth:`_usable`)."""
        try:
            conn = self._idle.get_nowait()
        except queue.Empty:
            conn = self._connect()
        else:
            if not self._usable(conn):
                self._close_quietly(conn)
                conn = self._connect()
        try:
            yield conn
        except BaseException as exc:
            if self._error_kind(exc) == "unavailable":
                self._close_quietly(conn)
            else:
                self._give_back(conn)
            raise
        self._give_back(conn)

    def _give_back(self, conn: Any) -> None:
        try:
            self._idle.put_nowait(conn)
        except queue.Full:
            self._close_quietly(conn)

    @staticmethod
    def _close_quietly(conn: Any) -> None:
        try:
            conn.close()
        except Exception:  # a connection the database dropped may fail to close: it is gone either way
            _LOG.debug("closing a failed connection", exc_info=True)

    @contextmanager
    def _guard(self) -> Iterator[None]:
        """The store's boundary: a driver's error (or an OSError) inside becomes a :class:`StoreError` (a concurrent
        write met a unique key) or :class:`StoreUnavailableError` (the database failed), logged with its cause."""
        try:
            yield
        except StoreError:
            raise
        except Exception as exc:
            kind = self._error_kind(exc)
            if kind is None:
                raise
            if kind == "conflict":
                raise StoreError(
                    "Someone else saved the same thing at the same moment, so nothing was saved: try again."
                ) from exc
            reason = self._reason(exc)
            _LOG.warning("%s store unavailable (%s): %s: %s", self.backend, reason, type(exc).__name__, exc)
            raise StoreUnavailableError(reason) from exc

    @contextmanager
    def _tx(self) -> Iterator[Cursor]:
        """One transaction: committed when the block ends, rolled back whole when it raises; every driver error
        leaves as a StoreError (:meth:`_guard`)."""
        with self._guard(), self._backend_tx() as cur:
            yield cur

    def close(self) -> None:
        """Close the pooled connections (a connection in use is closed when it comes back to a full pool)."""
        while True:
            try:
                self._close_quietly(self._idle.get_nowait())
            except queue.Empty:
                return

    def _q(self, sql: str) -> str:
        return sql if self.placeholder == "?" else sql.replace("?", self.placeholder)

    def _run(self, cur: Cursor, sql: str, params: Sequence[Any] = ()) -> Any:
        return cur.execute(self._q(sql), tuple(params))

    # --- migrations -------------------------------------------------------------------------------------------
    def _lock_for_migration(self, cur: Cursor) -> None:
        """Serialise migrating processes (SQLite: the write lock BEGIN IMMEDIATE took; PostgreSQL overrides)."""

    def migrate(self) -> int:
        """Apply every migration newer than the database's version; returns the version reached."""
        with self._tx() as cur:
            self._lock_for_migration(cur)
            self._run(cur, "CREATE TABLE IF NOT EXISTS schema_version (version INTEGER PRIMARY KEY)")
            self._run(cur, "SELECT MAX(version) FROM schema_version")
            current = cur.fetchone()[0] or 0
            for version, statements in MIGRATIONS:
                if version <= current:
                    continue
                for stmt in statements:
                    self._run(cur, stmt)
                self._run(cur, "INSERT INTO schema_version (version) VALUES (?)", (version,))
                current = version
        return int(current)

    def schema_version(self) -> int:
        with self._tx() as cur:
            self._run(cur, "SELECT MAX(version) FROM schema_version")
            return int(cur.fetchone()[0] or 0)

    # --- rooms ------------------------------------------------------------------------------------------------
    @staticmethod
    def _room(row: Sequence[Any]) -> Room:
        room_id, code, source, refs, config, created, expires, round_no, open_, version = row
        refs, config = tuple(json.loads(refs)), json.loads(config)
        return Room(room_id, code, source, refs, config, created, expires, round_no, bool(open_), int(version))

    _ROOM_COLS = "id, code, source, refs, config, created_at, expires_at, round, round_open, version"

    def create_room(
        self,
        source: str,
        refs: Sequence[str],
        config: dict[str, Any],
        *,
        ttl_s: float = ROOM_TTL_S,
        client: str = "",
    ) -> NewRoom:
        """A new room with an unused code. ``client`` is an opaque key of who asks (a session id, an address):
        with it, one client holds at most ``limits.rooms_per_client`` live rooms; the store at most
        ``limits.rooms``. Raises :class:`LimitReachedError` beyond either."""
        source, cleaned = _room_texts(source, refs, ttl_s)
        now = self.clock()
        token = secrets.token_urlsafe(24)
        room_id = secrets.token_hex(12)
        creator = secret_hash(client) if client else None
        with self._tx() as cur:
            self._lock(cur, "rooms")
            self._check_room_caps(cur, creator, now)
            for _ in range(20):
                code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LEN))
                # an expired room's code may be given again: drop expired rooms first
                self._run(cur, "DELETE FROM rooms WHERE code = ? AND expires_at <= ?", (code, now))
                self._run(cur, "SELECT 1 FROM rooms WHERE code = ?", (code,))
                if not cur.fetchone():
                    break
            else:  # pragma: no cover - 20 taken codes in a row out of 8.5e11
                raise StoreError("Could not find a free room code; try again.")
            self._run(
                cur,
                f"INSERT INTO rooms ({self._ROOM_COLS}, teacher_hash, creator) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, 1, 1, 0, ?, ?)",
                (
                    room_id,
                    code,
                    source,
                    json.dumps(cleaned),
                    json.dumps(config),
                    now,
                    now + ttl_s,
                    secret_hash(token),
                    creator,
                ),
            )
        room = Room(room_id, code, source, tuple(cleaned), dict(config), now, now + ttl_s, 1, True, 0)
        return NewRoom(room, token)

    def _check_room_caps(self, cur: Cursor, creator: str | None, now: float) -> None:
        """Refuse a room beyond the store's open rooms or the client's (:class:`LimitReachedError`)."""
        self._run(cur, "SELECT COUNT(*) FROM rooms WHERE expires_at > ?", (now,))
        if int(cur.fetchone()[0]) >= self.limits.rooms:
            raise LimitReachedError(
                "rooms",
                f"This server already holds {self.limits.rooms:,} open rooms, its most: try again when one "
                "expires or is deleted.",
            )
        if creator is None:
            return
        self._run(cur, "SELECT COUNT(*) FROM rooms WHERE creator = ? AND expires_at > ?", (creator, now))
        if int(cur.fetchone()[0]) >= self.limits.rooms_per_client:
            raise LimitReachedError(
                "rooms_per_client",
                f"You already have {self.limits.rooms_per_client} open rooms, the most one browser may "
                "keep: delete one you no longer need (Delete this room, on its teacher view) or wait "
                "until one expires.",
            )

    def _room_where(self, cur: Cursor, where: str, value: str) -> Room | None:
        self._run(
            cur, f"SELECT {self._ROOM_COLS} FROM rooms WHERE {where} = ? AND expires_at > ?", (value, self.clock())
        )
        row = cur.fetchone()
        return self._room(row) if row else None

    def room(self, room_id: str) -> Room | None:
        with self._tx() as cur:
            return self._room_where(cur, "id", room_id)

    def room_by_code(self, code: str, *, client: str = "") -> Room | None:
        """The open room with this code (case does not matter), or None. With ``client`` (an opaque key: a
        session id or an address), each wrong code counts against that client's guess budget
        (``limits.code_guesses`` per ``GUESS_WINDOW_S``); past it every lookup from that client raises
        :class:`LimitReachedError`, the right code too, until its wrong guesses age out."""
        code = code.strip().upper()
        now = self.clock()
        with self._tx() as cur:
            if not client:
                return self._room_where(cur, "code", code)
            who = secret_hash(client)
            self._run(cur, "SELECT COUNT(*) FROM guesses WHERE client = ? AND at > ?", (who, now - GUESS_WINDOW_S))
            if int(cur.fetchone()[0]) >= self.limits.code_guesses:
                raise LimitReachedError(
                    "code_guesses",
                    f"Too many wrong room codes from here ({self.limits.code_guesses} in "
                    f"{GUESS_WINDOW_S // 60} minutes): wait a few minutes, or open your teacher's join link or "
                    "QR code.",
                )
            room = self._room_where(cur, "code", code)
            if room is None:
                self._run(cur, "INSERT INTO guesses (client, at) VALUES (?, ?)", (who, now))
            return room

    def room_by_teacher(self, token: str) -> Room | None:
        with self._tx() as cur:
            return self._room_where(cur, "teacher_hash", secret_hash(token))

    def room_version(self, room_id: str) -> int | None:
        """A number that moves on every write to the room (a join, a translation, a hide, a rating, a round), or
        None when the room is gone: the dashboard recomputes only when it differs from the one it drew."""
        with self._tx() as cur:
            self._run(cur, "SELECT version FROM rooms WHERE id = ? AND expires_at > ?", (room_id, self.clock()))
            row = cur.fetchone()
        return int(row[0]) if row else None

    def room_state(self, room_id: str) -> RoomState | None:
        """The room, its number of students, its round-1 submissions (oldest first) and ratings, in one
        transaction; None when the room is gone."""
        with self._tx() as cur:
            room = self._room_where(cur, "id", room_id)
            if room is None:
                return None
            self._run(cur, "SELECT COUNT(*) FROM students WHERE room_id = ?", (room_id,))
            students = int(cur.fetchone()[0])
            subs = self._submissions(cur, room_id)
            ratings = self._ratings(cur, room_id)
        return RoomState(room, students, tuple(subs), tuple(ratings))

    def _touch(self, cur: Cursor, room_id: str) -> None:
        """Move the room's version, first in a writing transaction: on PostgreSQL this locks the room's row, so
        the writes to one room that check something first (a cap, the round) queue there."""
        self._run(
            cur, "UPDATE rooms SET version = version + 1 WHERE id = ? AND expires_at > ?", (room_id, self.clock())
        )
        if cur.rowcount != 1:
            raise RoomGoneError()

    def set_round(self, room_id: str, round_no: int, *, open_: bool) -> Room:
        """The teacher opens or closes a round (1: translate, 2: rate); one round is current at a time."""
        if round_no not in (ROUND_TRANSLATE, ROUND_RATE):
            raise StoreError(f"Unknown round {round_no}: rounds are 1 (translate) and 2 (rate).")
        with self._tx() as cur:
            self._touch(cur, room_id)
            self._run(cur, "UPDATE rooms SET round = ?, round_open = ? WHERE id = ?", (round_no, int(open_), room_id))
            room = self._room_where(cur, "id", room_id)
        assert room is not None  # touched in this transaction
        return room

    def delete_room(self, room_id: str) -> None:
        """The room and everything in it (students, submissions, ratings: the foreign keys cascade)."""
        with self._tx() as cur:
            self._run(cur, "DELETE FROM rooms WHERE id = ?", (room_id,))

    def purge_expired(self) -> int:
        """Delete expired rooms (with their contents, by cascade), expired views, corpora no view uses and wrong
        room codes past the guess window, one statement each in one transaction; returns how many rooms and views
        went."""
        now = self.clock()
        with self._tx() as cur:
            self._run(cur, "DELETE FROM rooms WHERE expires_at <= ?", (now,))
            rooms = max(int(cur.rowcount), 0)
            self._run(cur, "DELETE FROM views WHERE expires_at <= ?", (now,))
            views = max(int(cur.rowcount), 0)
            self._run(
                cur, "DELETE FROM corpora WHERE NOT EXISTS (SELECT 1 FROM views WHERE views.digest = corpora.digest)"
            )
            self._run(cur, "DELETE FROM guesses WHERE at <= ?", (now - GUESS_WINDOW_S,))
        return rooms + views

    # --- students, submissions, ratings ------------------------------------------------------------------------
    def enrol(self, room_id: str, nickname: str = "") -> NewStudent:
        """A new student in the room, with the secret their browser keeps (the store keeps its hash; show the
        student's own page only to a browser that holds it: :meth:`identify`). Nicknames are unique in a room
        without regard to case, and the teacher's names are kept (:class:`NicknameTakenError`); a room takes at
        most ``limits.students_per_room`` students (:class:`LimitReachedError`)."""
        secret = secrets.token_urlsafe(24)
        return NewStudent(self._add_student(room_id, nickname, secret_hash(secret)), secret)

    def join(self, room_id: str, nickname: str = "") -> Student:
        """:meth:`enrol` without a browser secret: the student is anybody's who holds their id, as every student
        was before issue 36 (a bench, a test)."""
        return self._add_student(room_id, nickname, None)

    def _add_student(self, room_id: str, nickname: str, secret_hash: str | None) -> Student:
        nick = clean_text(nickname, what="nickname", limit=MAX_NICK, name=True)
        key = nickname_key(nick) or None
        if key is not None and reserved_nickname(key):
            raise NicknameTakenError(f"“{nick}” is kept for the teacher: choose another nickname.")
        sid = secrets.token_hex(12)
        with self._tx() as cur:
            self._touch(cur, room_id)
            self._run(cur, "SELECT COUNT(*) FROM students WHERE room_id = ?", (room_id,))
            if int(cur.fetchone()[0]) >= self.limits.students_per_room:
                raise LimitReachedError(
                    "students_per_room",
                    f"This room is full: {self.limits.students_per_room} students, the most a room takes. Ask your "
                    "teacher to open a second room.",
                )
            if key is not None:
                self._run(cur, "SELECT 1 FROM students WHERE room_id = ? AND nick_key = ?", (room_id, key))
                if cur.fetchone():
                    raise NicknameTakenError(f"Someone in this room is already called “{nick}”: choose another name.")
            self._run(
                cur,
                "INSERT INTO students (id, room_id, nickname, joined_at, secret_hash, nick_key) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                (sid, room_id, nick, self.clock(), secret_hash, key),
            )
        return Student(sid, room_id, nick)

    def student(self, student_id: str) -> Student | None:
        with self._tx() as cur:
            self._run(cur, "SELECT id, room_id, nickname FROM students WHERE id = ?", (student_id,))
            row = cur.fetchone()
        return Student(*row) if row else None

    def identify(self, student_id: str, secret: str | None) -> Identity:
        """Who the student link ``student_id`` names, and whether ``secret`` (what this browser kept from
        :meth:`enrol`, or None) is theirs."""
        with self._tx() as cur:
            self._run(cur, "SELECT id, room_id, nickname, secret_hash FROM students WHERE id = ?", (student_id,))
            row = cur.fetchone()
        if not row:
            return Identity(None, False)
        return Identity(Student(row[0], row[1], row[2]), _matches(row[3], secret))

    def _check_secret(self, cur: Cursor, student: Student, secret: str | None) -> None:
        self._run(cur, "SELECT secret_hash FROM students WHERE id = ? AND room_id = ?", (student.id, student.room_id))
        row = cur.fetchone()
        if not row:
            raise RoomGoneError("You are no longer in this room (it was deleted or has expired).")
        if secret is not None and not _matches(row[0], secret):
            who = f"“{student.nickname}”" if student.nickname else "another student"
            raise NotYoursError(f"This link is {who}'s, not yours, so nothing was sent: join the room as yourself.")

    def students_count(self, room_id: str) -> int:
        with self._tx() as cur:
            self._run(cur, "SELECT COUNT(*) FROM students WHERE room_id = ?", (room_id,))
            return int(cur.fetchone()[0])

    def _open_room(self, cur: Cursor, room_id: str, round_no: int) -> None:
        self._touch(cur, room_id)
        self._run(cur, "SELECT round, round_open FROM rooms WHERE id = ?", (room_id,))
        row = cur.fetchone()
        if int(row[0]) != round_no or not row[1]:
            what = "Translation" if round_no == ROUND_TRANSLATE else "Rating"
            raise StoreError(f"{what} is closed: the teacher has not opened that round (or has closed it).")

    def submit(self, student: Student, text: str, *, secret: str | None = None) -> Submission:
        """The student's translation for round 1: one per student, replaced while the round is open. With
        ``secret`` (the browser's, from :meth:`enrol`), a browser that is not the student's raises
        :class:`NotYoursError` and changes nothing."""
        text = clean_text(text, what="translation")
        if not text:
            raise StoreError("The translation is empty.")
        now = self.clock()
        with self._tx() as cur:
            self._open_room(cur, student.room_id, ROUND_TRANSLATE)
            self._check_secret(cur, student, secret)
            self._run(
                cur,
                "INSERT INTO submissions (id, room_id, student_id, round, text, submitted_at) "
                "VALUES (?, ?, ?, ?, ?, ?) "
                "ON CONFLICT (student_id, round) DO UPDATE SET text = excluded.text, "
                "submitted_at = excluded.submitted_at",
                (secrets.token_hex(12), student.room_id, student.id, ROUND_TRANSLATE, text, now),
            )
            self._run(
                cur, "SELECT id FROM submissions WHERE student_id = ? AND round = ?", (student.id, ROUND_TRANSLATE)
            )
            sub_id = cur.fetchone()[0]
        return Submission(sub_id, student.room_id, student.id, student.nickname, ROUND_TRANSLATE, text, False, now)

    def _submissions(self, cur: Cursor, room_id: str) -> list[Submission]:
        self._run(
            cur,
            "SELECT s.id, s.room_id, s.student_id, st.nickname, s.round, s.text, s.hidden, s.submitted_at "
            "FROM submissions s JOIN students st ON st.id = s.student_id WHERE s.room_id = ? "
            "ORDER BY s.submitted_at, s.id",
            (room_id,),
        )
        return [Submission(r[0], r[1], r[2], r[3], int(r[4]), r[5], bool(r[6]), float(r[7])) for r in cur.fetchall()]

    def submissions(self, room_id: str, *, include_hidden: bool = True) -> list[Submission]:
        """Round-1 submissions of a room, oldest first."""
        with self._tx() as cur:
            subs = self._submissions(cur, room_id)
        return [s for s in subs if include_hidden or not s.hidden]

    def own_submission(self, student: Student) -> Submission | None:
        return next((s for s in self.submissions(student.room_id) if s.student_id == student.id), None)

    def hide(self, room_id: str, submission_id: str, *, hidden: bool = True) -> None:
        with self._tx() as cur:
            self._touch(cur, room_id)
            self._run(
                cur,
                "UPDATE submissions SET hidden = ? WHERE id = ? AND room_id = ?",
                (int(hidden), submission_id, room_id),
            )

    def remove_student(self, room_id: str, student_id: str) -> None:
        """The teacher removes a student from the room: their translation, the ratings they gave and the ratings
        their translation got go with them (the foreign keys cascade). Their browser's secret names nobody after."""
        with self._tx() as cur:
            self._touch(cur, room_id)
            self._run(cur, "DELETE FROM students WHERE id = ? AND room_id = ?", (student_id, room_id))

    def to_rate(self, student: Student, k: int = 3) -> list[Submission]:
        """Up to ``k`` visible translations of others for this student to rate: those with the fewest ratings so
        far, ties broken by a hash of (student, submission) so that students see different ones."""
        with self._tx() as cur:
            subs = [s for s in self._submissions(cur, student.room_id) if not s.hidden and s.student_id != student.id]
            ratings = self._ratings(cur, student.room_id)
        counts: dict[str, int] = {}
        for r in ratings:
            counts[r.submission_id] = counts.get(r.submission_id, 0) + 1
        subs.sort(key=lambda s: (counts.get(s.id, 0), secret_hash(student.id + s.id)))
        return subs[:k]

    def rate(self, student: Student, submission_id: str, rating: int, *, secret: str | None = None) -> None:
        """A rating from 1 (very bad) to 5 (very good) of another student's translation; the last one counts.
        ``secret`` as for :meth:`submit`."""
        self.rate_many(student, {submission_id: rating}, secret=secret)

    def rate_many(self, student: Student, ratings: Mapping[str, int], *, secret: str | None = None) -> int:
        """Several ratings (submission id -> 1 to 5) in one transaction: all are saved or none (a form's ratings
        are never half-sent). ``secret`` as for :meth:`submit`. Returns how many were saved."""
        for rating in ratings.values():
            if not isinstance(rating, int) or not 1 <= rating <= 5:
                raise StoreError(f"A rating is a whole number from 1 to 5, got {rating!r}.")
        if not ratings:
            return 0
        with self._tx() as cur:
            self._open_room(cur, student.room_id, ROUND_RATE)
            self._check_secret(cur, student, secret)
            for submission_id, rating in ratings.items():
                self._rate(cur, student, submission_id, rating)
        return len(ratings)

    def _rate(self, cur: Cursor, student: Student, submission_id: str, rating: int) -> None:
        self._run(
            cur, "SELECT student_id FROM submissions WHERE id = ? AND room_id = ?", (submission_id, student.room_id)
        )
        row = cur.fetchone()
        if not row:
            raise StoreError("That translation is not in this room.")
        if row[0] == student.id:
            raise StoreError("Students do not rate their own translation.")
        self._run(
            cur,
            "INSERT INTO ratings (room_id, student_id, submission_id, rating, rated_at) VALUES (?, ?, ?, ?, ?) "
            "ON CONFLICT (student_id, submission_id) DO UPDATE SET rating = excluded.rating, "
            "rated_at = excluded.rated_at",
            (student.room_id, student.id, submission_id, rating, self.clock()),
        )

    def _ratings(self, cur: Cursor, room_id: str) -> list[Rating]:
        self._run(
            cur, "SELECT student_id, submission_id, rating FROM ratings WHERE room_id = ? ORDER BY rated_at", (room_id,)
        )
        return [Rating(r[0], r[1], int(r[2])) for r in cur.fetchall()]

    def ratings(self, room_id: str) -> list[Rating]:
        with self._tx() as cur:
            return self._ratings(cur, room_id)


def _room_texts(source: str, refs: Sequence[str], ttl_s: float) -> tuple[str, list[str]]:
    """A new room's source and references, cleaned and checked (:class:`StoreError` naming what is wrong)."""
    source = clean_text(source, what="source")
    cleaned = [clean_text(r, what=f"reference {i + 1}") for i, r in enumerate(refs)]
    cleaned = [r for r in cleaned if r]
    if not source:
        raise StoreError("The source is empty: type what the students translate.")
    if not cleaned:
        raise StoreError("No reference: a room needs at least one reference translation.")
    if len(cleaned) > MAX_REFS:
        raise StoreError(f"Too many references: {len(cleaned)}, at most {MAX_REFS}.")
    if not 60 <= ttl_s <= 30 * 24 * 3600:
        raise StoreError("A room lives between one minute and 30 days.")
    return source, cleaned


def _matches(stored_hash: str | None, secret: str | None) -> bool:
    """A stored secret hash against what a browser holds; a student from before secrets (NULL) is anybody's."""
    if stored_hash is None:
        return True
    return secret is not None and secrets.compare_digest(stored_hash, secret_hash(secret))
