"""The store's interface and its SQL, shared by SQLite and PostgreSQL.

One class, :class:`SqlStore`, holds every query; a backend gives it a transaction (:meth:`SqlStore._tx`) and a
placeholder style. Every write is one transaction, committed before the call returns (an acknowledged write is on
disk); concurrent writes meet in unique keys and ``INSERT ... ON CONFLICT`` upserts, never in read-modify-write, so
none overwrites another. Ids are random hex strings made here (no backend-specific sequences; hex, so that they
can end widget keys); secrets (the teacher's token, a view's delete token) are kept only as SHA-256 hashes.
"""

from __future__ import annotations

import hashlib
import json
import queue
import secrets
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass
from typing import Any, Protocol

MAX_TEXT = 1000  # characters in a translation, a source or a reference
MAX_NICK = 40
MAX_REFS = 8
ROOM_TTL_S = 24 * 3600
VIEW_TTL_S = 30 * 24 * 3600
MAX_CORPORA_BYTES = 200 * 1024 * 1024  # the views' size cap: all stored corpora together
CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I/L
CODE_LEN = 6
ROUND_TRANSLATE, ROUND_RATE = 1, 2

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
)


class StoreError(Exception):
    """A request the store refuses; the message names the problem (shown to the user as it is)."""


@dataclass(frozen=True, slots=True)
class Room:
    id: str
    code: str
    source: str
    refs: tuple[str, ...]
    config: dict[str, Any]
    created_at: float
    expires_at: float
    round: int
    round_open: bool


@dataclass(frozen=True, slots=True)
class NewRoom:
    """A created room and its teacher token (shown once; the store keeps only its hash)."""

    room: Room
    teacher_token: str


@dataclass(frozen=True, slots=True)
class Student:
    id: str
    room_id: str
    nickname: str


@dataclass(frozen=True, slots=True)
class Submission:
    id: str
    room_id: str
    student_id: str
    nickname: str
    round: int
    text: str
    hidden: bool
    submitted_at: float


@dataclass(frozen=True, slots=True)
class Rating:
    student_id: str
    submission_id: str
    rating: int


@dataclass(frozen=True, slots=True)
class View:
    id: str
    digest: str | None
    settings: dict[str, Any]
    created_at: float
    expires_at: float


@dataclass(frozen=True, slots=True)
class NewView:
    view: View
    delete_token: str


class Cursor(Protocol):
    @property
    def rowcount(self) -> int: ...

    def execute(self, sql: str, params: Sequence[Any] = ()) -> Any: ...
    def fetchone(self) -> Any: ...
    def fetchall(self) -> list[Any]: ...


def _hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def digest_of(content: str) -> str:
    """The content address of a corpus: SHA-256 of its UTF-8 text.

    Example:
        >>> digest_of("a")[:12]
        'ca978112ca1b'
    """
    return hashlib.sha256(content.encode("utf-8")).hexdigest()


def clean_text(text: str, *, what: str, limit: int = MAX_TEXT) -> str:
    """Text as stored: stripped, non-empty, at most ``limit`` characters, no NUL (PostgreSQL refuses it).

    Example:
        >>> clean_text("  a b ", what="translation")
        'a b'
        >>> clean_text("x" * 5, what="nickname", limit=3)
        Traceback (most recent call last):
        ...
        bleu_app.store.base.StoreError: The nickname is too long: 5 characters, at most 3.
    """
    text = text.replace("\x00", "").strip()
    if len(text) > limit:
        raise StoreError(f"The {what} is too long: {len(text):,} characters, at most {limit:,}.")
    return text


IDLE_CONNECTIONS = 8  # connections a process keeps open between calls (a store is shared by its sessions)


class SqlStore:
    """Rooms, students, submissions, ratings, rounds, views and corpora on one SQL database."""

    placeholder = "?"
    backend = "sql"

    def __init__(self, *, clock: Callable[[], float] = time.time) -> None:
        self.clock = clock
        self._idle: queue.LifoQueue[Any] = queue.LifoQueue(IDLE_CONNECTIONS)

    # --- backend hooks ----------------------------------------------------------------------------------------
    def _connect(self) -> Any:  # pragma: no cover - every backend overrides it
        """A new connection to the database (backends override)."""
        raise NotImplementedError

    def _usable(self, conn: Any) -> bool:
        """Whether a pooled connection can be used again (PostgreSQL: not closed by the server)."""
        return True

    @contextmanager
    def _conn(self) -> Iterator[Any]:
        """A connection from the pool (up to ``IDLE_CONNECTIONS`` kept between calls), returned after use."""
        try:
            conn = self._idle.get_nowait()
        except queue.Empty:
            conn = self._connect()
        if not self._usable(conn):
            conn = self._connect()
        try:
            yield conn
        finally:
            try:
                self._idle.put_nowait(conn)
            except queue.Full:
                conn.close()

    def _tx(self) -> AbstractContextManager[Cursor]:  # pragma: no cover - every backend overrides it
        raise NotImplementedError

    def close(self) -> None:
        """Close the pooled connections (a connection in use is closed when it comes back to a full pool)."""
        while True:
            try:
                self._idle.get_nowait().close()
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
        return Room(
            row[0], row[1], row[2], tuple(json.loads(row[3])), json.loads(row[4]), row[5], row[6], row[7], bool(row[8])
        )

    _ROOM_COLS = "id, code, source, refs, config, created_at, expires_at, round, round_open"

    def create_room(
        self, source: str, refs: Sequence[str], config: dict[str, Any], *, ttl_s: float = ROOM_TTL_S
    ) -> NewRoom:
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
        now = self.clock()
        token = secrets.token_urlsafe(24)
        for _ in range(20):
            code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LEN))
            room_id = secrets.token_hex(12)
            with self._tx() as cur:
                # an expired room's code may be given again: drop expired rooms first
                self._run(cur, "DELETE FROM rooms WHERE code = ? AND expires_at <= ?", (code, now))
                self._run(cur, "SELECT 1 FROM rooms WHERE code = ?", (code,))
                if cur.fetchone():
                    continue
                self._run(
                    cur,
                    f"INSERT INTO rooms ({self._ROOM_COLS}, teacher_hash) VALUES (?, ?, ?, ?, ?, ?, ?, 1, 1, ?)",
                    (room_id, code, source, json.dumps(cleaned), json.dumps(config), now, now + ttl_s, _hash(token)),
                )
            room = Room(room_id, code, source, tuple(cleaned), dict(config), now, now + ttl_s, 1, True)
            return NewRoom(room, token)
        raise StoreError("Could not find a free room code; try again.")  # pragma: no cover

    def _room_where(self, where: str, value: str) -> Room | None:
        with self._tx() as cur:
            self._run(
                cur, f"SELECT {self._ROOM_COLS} FROM rooms WHERE {where} = ? AND expires_at > ?", (value, self.clock())
            )
            row = cur.fetchone()
        return self._room(row) if row else None

    def room(self, room_id: str) -> Room | None:
        return self._room_where("id", room_id)

    def room_by_code(self, code: str) -> Room | None:
        return self._room_where("code", code.strip().upper())

    def room_by_teacher(self, token: str) -> Room | None:
        return self._room_where("teacher_hash", _hash(token))

    def set_round(self, room_id: str, round_no: int, *, open_: bool) -> Room:
        """The teacher opens or closes a round (1: translate, 2: rate); one round is current at a time."""
        if round_no not in (ROUND_TRANSLATE, ROUND_RATE):
            raise StoreError(f"Unknown round {round_no}: rounds are 1 (translate) and 2 (rate).")
        with self._tx() as cur:
            self._run(cur, "UPDATE rooms SET round = ?, round_open = ? WHERE id = ?", (round_no, int(open_), room_id))
        room = self.room(room_id)
        if room is None:
            raise StoreError("This room no longer exists (deleted or expired).")
        return room

    def delete_room(self, room_id: str) -> None:
        """The room and everything in it (students, submissions, ratings)."""
        with self._tx() as cur:
            for table in ("ratings", "submissions", "students"):
                self._run(cur, f"DELETE FROM {table} WHERE room_id = ?", (room_id,))
            self._run(cur, "DELETE FROM rooms WHERE id = ?", (room_id,))

    def purge_expired(self) -> int:
        """Delete expired rooms (with their contents) and views; returns how many rooms and views went."""
        now = self.clock()
        with self._tx() as cur:
            self._run(cur, "SELECT id FROM rooms WHERE expires_at <= ?", (now,))
            rooms = [r[0] for r in cur.fetchall()]
        for room_id in rooms:
            self.delete_room(room_id)
        with self._tx() as cur:
            self._run(cur, "DELETE FROM views WHERE expires_at <= ?", (now,))
            views = max(int(cur.rowcount), 0)
            self._run(
                cur, "DELETE FROM corpora WHERE digest NOT IN (SELECT digest FROM views WHERE digest IS NOT NULL)"
            )
        return len(rooms) + views

    # --- students, submissions, ratings ------------------------------------------------------------------------
    def join(self, room_id: str, nickname: str = "") -> Student:
        nick = clean_text(nickname, what="nickname", limit=MAX_NICK)
        sid = secrets.token_hex(12)
        with self._tx() as cur:
            self._run(cur, "SELECT 1 FROM rooms WHERE id = ? AND expires_at > ?", (room_id, self.clock()))
            if not cur.fetchone():
                raise StoreError("This room no longer exists (deleted or expired).")
            self._run(
                cur,
                "INSERT INTO students (id, room_id, nickname, joined_at) VALUES (?, ?, ?, ?)",
                (sid, room_id, nick, self.clock()),
            )
        return Student(sid, room_id, nick)

    def student(self, student_id: str) -> Student | None:
        with self._tx() as cur:
            self._run(cur, "SELECT id, room_id, nickname FROM students WHERE id = ?", (student_id,))
            row = cur.fetchone()
        return Student(*row) if row else None

    def students_count(self, room_id: str) -> int:
        with self._tx() as cur:
            self._run(cur, "SELECT COUNT(*) FROM students WHERE room_id = ?", (room_id,))
            return int(cur.fetchone()[0])

    def _open_room(self, cur: Cursor, room_id: str, round_no: int) -> None:
        self._run(cur, "SELECT round, round_open FROM rooms WHERE id = ? AND expires_at > ?", (room_id, self.clock()))
        row = cur.fetchone()
        if not row:
            raise StoreError("This room no longer exists (deleted or expired).")
        if int(row[0]) != round_no or not row[1]:
            what = "Translation" if round_no == ROUND_TRANSLATE else "Rating"
            raise StoreError(f"{what} is closed: the teacher has not opened that round (or has closed it).")

    def submit(self, student: Student, text: str) -> Submission:
        """The student's translation for round 1: one per student, replaced while the round is open."""
        text = clean_text(text, what="translation")
        if not text:
            raise StoreError("The translation is empty.")
        now = self.clock()
        with self._tx() as cur:
            self._open_room(cur, student.room_id, ROUND_TRANSLATE)
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

    def submissions(self, room_id: str, *, include_hidden: bool = True) -> list[Submission]:
        """Round-1 submissions of a room, oldest first."""
        with self._tx() as cur:
            self._run(
                cur,
                "SELECT s.id, s.room_id, s.student_id, st.nickname, s.round, s.text, s.hidden, s.submitted_at "
                "FROM submissions s JOIN students st ON st.id = s.student_id WHERE s.room_id = ? "
                "ORDER BY s.submitted_at, s.id",
                (room_id,),
            )
            rows = cur.fetchall()
        subs = [Submission(r[0], r[1], r[2], r[3], int(r[4]), r[5], bool(r[6]), float(r[7])) for r in rows]
        return [s for s in subs if include_hidden or not s.hidden]

    def own_submission(self, student: Student) -> Submission | None:
        return next((s for s in self.submissions(student.room_id) if s.student_id == student.id), None)

    def hide(self, room_id: str, submission_id: str, *, hidden: bool = True) -> None:
        with self._tx() as cur:
            self._run(
                cur,
                "UPDATE submissions SET hidden = ? WHERE id = ? AND room_id = ?",
                (int(hidden), submission_id, room_id),
            )

    def to_rate(self, student: Student, k: int = 3) -> list[Submission]:
        """Up to ``k`` visible translations of others for this student to rate: those with the fewest ratings so
        far, ties broken by a hash of (student, submission) so that students see different ones."""
        subs = [s for s in self.submissions(student.room_id, include_hidden=False) if s.student_id != student.id]
        counts: dict[str, int] = {}
        for r in self.ratings(student.room_id):
            counts[r.submission_id] = counts.get(r.submission_id, 0) + 1
        subs.sort(key=lambda s: (counts.get(s.id, 0), _hash(student.id + s.id)))
        return subs[:k]

    def rate(self, student: Student, submission_id: str, rating: int) -> None:
        """A rating from 1 (very bad) to 5 (very good) of another student's translation; the last one counts."""
        if not isinstance(rating, int) or not 1 <= rating <= 5:
            raise StoreError(f"A rating is a whole number from 1 to 5, got {rating!r}.")
        with self._tx() as cur:
            self._open_room(cur, student.room_id, ROUND_RATE)
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

    def ratings(self, room_id: str) -> list[Rating]:
        with self._tx() as cur:
            self._run(
                cur,
                "SELECT student_id, submission_id, rating FROM ratings WHERE room_id = ? ORDER BY rated_at",
                (room_id,),
            )
            return [Rating(r[0], r[1], int(r[2])) for r in cur.fetchall()]

    # --- corpora and views --------------------------------------------------------------------------------------
    def put_corpus(self, content: str) -> str:
        """Store a corpus once by its digest (storing it again is a no-op); returns the digest."""
        with self._tx() as cur:
            return self._put_corpus(cur, content)

    def _put_corpus(self, cur: Cursor, content: str) -> str:
        digest = digest_of(content)
        size = len(content.encode("utf-8"))
        self._run(cur, "SELECT 1 FROM corpora WHERE digest = ?", (digest,))
        if cur.fetchone():
            return digest
        self._run(cur, "SELECT COALESCE(SUM(bytes), 0) FROM corpora")
        if int(cur.fetchone()[0]) + size > MAX_CORPORA_BYTES:
            raise StoreError("The store of shared views is full; try again after old views expire.")
        self._run(
            cur,
            "INSERT INTO corpora (digest, content, bytes, created_at) VALUES (?, ?, ?, ?) "
            "ON CONFLICT (digest) DO NOTHING",
            (digest, content, size, self.clock()),
        )
        return digest

    def corpus(self, digest: str) -> str | None:
        with self._tx() as cur:
            self._run(cur, "SELECT content FROM corpora WHERE digest = ?", (digest,))
            row = cur.fetchone()
        return str(row[0]) if row else None

    def corpora_count(self) -> int:
        with self._tx() as cur:
            self._run(cur, "SELECT COUNT(*) FROM corpora")
            return int(cur.fetchone()[0])

    def create_view(self, settings: dict[str, Any], corpus: str | None = None, *, ttl_s: float = VIEW_TTL_S) -> NewView:
        view_id, token, now = secrets.token_urlsafe(16), secrets.token_urlsafe(16), self.clock()
        with self._tx() as cur:  # the corpus and the view in one transaction: a purge cannot come between
            digest = self._put_corpus(cur, corpus) if corpus is not None else None
            self._run(
                cur,
                "INSERT INTO views (id, digest, settings, delete_hash, created_at, expires_at) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                (view_id, digest, json.dumps(settings, sort_keys=True), _hash(token), now, now + ttl_s),
            )
        return NewView(View(view_id, digest, dict(settings), now, now + ttl_s), token)

    def view(self, view_id: str) -> View | None:
        with self._tx() as cur:
            self._run(
                cur,
                "SELECT id, digest, settings, created_at, expires_at FROM views WHERE id = ? AND expires_at > ?",
                (view_id, self.clock()),
            )
            row = cur.fetchone()
        return View(row[0], row[1], json.loads(row[2]), row[3], row[4]) if row else None

    def delete_view(self, view_id: str, delete_token: str) -> bool:
        """Delete a view with its delete token; False when the token does not match (or the view is gone)."""
        with self._tx() as cur:
            self._run(cur, "SELECT delete_hash FROM views WHERE id = ?", (view_id,))
            row = cur.fetchone()
            if not row or not secrets.compare_digest(row[0], _hash(delete_token)):
                return False
            self._run(cur, "DELETE FROM views WHERE id = ?", (view_id,))
        return True
