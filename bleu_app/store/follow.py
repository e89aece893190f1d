"""Phones in step with a lecture (issue 34): the slide a room's teacher is showing and the class's poll answers.

A part of :class:`bleu_app.store.base.SqlStore` (which inherits it) kept in a module of its own, as the views' queries
are. The current slide is one row per room, written only with the teacher's token (so a photographed presenter URL
moves nothing) and read by each following phone every second: one indexed read of one short row. A poll answer is
one row per (room, poll, student): a student's first answer counts, later ones change nothing. Both tables go with
their room (the foreign keys cascade on delete and on the purge of expired rooms).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass
from typing import Any, Final

from bleu_app.store.model import Cursor, RoomGoneError, StoreError, Student, secret_hash

__all__ = ["MAX_KEY", "SCHEMA", "FollowQueries", "Slide"]

MAX_KEY: Final = 64  # a step's, a poll's or an answer's key (the app's own short keys, never typed text)

# migration 3 of the store's schema (``base.MIGRATIONS``)
SCHEMA: Final = (
    """CREATE TABLE slides (
        room_id TEXT PRIMARY KEY REFERENCES rooms(id) ON DELETE CASCADE,
        step TEXT NOT NULL, poll TEXT, moved_at DOUBLE PRECISION NOT NULL)""",
    """CREATE TABLE poll_answers (
        room_id TEXT NOT NULL REFERENCES rooms(id) ON DELETE CASCADE,
        poll TEXT NOT NULL, student_id TEXT NOT NULL REFERENCES students(id) ON DELETE CASCADE,
        answer TEXT NOT NULL, answered_at DOUBLE PRECISION NOT NULL, PRIMARY KEY (room_id, poll, student_id))""",
    "CREATE INDEX poll_answers_student ON poll_answers(student_id)",
)


@dataclass(frozen=True, slots=True)
class Slide:
    """The slide a room's teacher shows: the step's key, when the teacher moved to it (the store's clock) and the
    poll the phones answer there (None: no poll; the lab's is its round: a variant on a corpus)."""

    step: str
    moved_at: float
    poll: str | None = None


def _key(value: str, what: str) -> str:
    if not value or len(value) > MAX_KEY:
        raise StoreError(f"A {what} is 1 to {MAX_KEY} characters, got {len(value)}.")
    return value


class FollowQueries:
    """The slide and the polls (see the module's docstring); the store supplies what the stubs below declare."""

    clock: Callable[[], float]

    def _tx(self) -> AbstractContextManager[Cursor]:  # pragma: no cover - SqlStore's
        raise NotImplementedError

    def _run(self, cur: Cursor, sql: str, params: Any = ()) -> Any:  # pragma: no cover - SqlStore's
        raise NotImplementedError

    def _check_secret(self, cur: Cursor, student: Student, secret: str | None) -> None:  # pragma: no cover
        raise NotImplementedError

    def show_slide(self, teacher_token: str, step: str, *, poll: str | None = None) -> str:
        """The room whose teacher holds ``teacher_token`` now shows ``step`` (and ``poll``) on the phones that follow
        it; returns the room's id. Raises :class:`RoomGoneError` when the token opens no open room."""
        step = _key(step, "step")
        poll = None if poll is None else _key(poll, "poll")
        now = self.clock()
        with self._tx() as cur:
            self._run(
                cur, "SELECT id FROM rooms WHERE teacher_hash = ? AND expires_at > ?", (secret_hash(teacher_token), now)
            )
            row = cur.fetchone()
            if not row:
                raise RoomGoneError("This lecture's room no longer exists (deleted or expired).")
            self._run(
                cur,
                "INSERT INTO slides (room_id, step, poll, moved_at) VALUES (?, ?, ?, ?) ON CONFLICT (room_id) "
                "DO UPDATE SET step = excluded.step, poll = excluded.poll, moved_at = excluded.moved_at",
                (row[0], step, poll, now),
            )
        return str(row[0])

    def slide(self, room_id: str) -> Slide | None:
        """The slide the room's teacher shows, or None (no lecture presented to this room yet, or the room is gone).
        The one read a following phone makes every second."""
        with self._tx() as cur:
            self._run(cur, "SELECT step, moved_at, poll FROM slides WHERE room_id = ?", (room_id,))
            row = cur.fetchone()
        return Slide(str(row[0]), float(row[1]), None if row[2] is None else str(row[2])) if row else None

    def answer_poll(self, student: Student, poll: str, answer: str, *, secret: str | None = None) -> bool:
        """The student's answer to a poll: the first one counts (True), any later one changes nothing (False).
        ``secret`` as for ``submit``: a browser that is not the student's raises ``NotYoursError``."""
        poll, answer = _key(poll, "poll"), _key(answer, "poll answer")
        with self._tx() as cur:
            self._check_secret(cur, student, secret)
            self._run(
                cur,
                "INSERT INTO poll_answers (room_id, poll, student_id, answer, answered_at) VALUES (?, ?, ?, ?, ?) "
                "ON CONFLICT (room_id, poll, student_id) DO NOTHING",
                (student.room_id, poll, student.id, answer, self.clock()),
            )
            return int(cur.rowcount) == 1

    def poll_answer(self, student: Student, poll: str) -> str | None:
        """The answer the student gave to the poll, or None."""
        with self._tx() as cur:
            self._run(
                cur,
                "SELECT answer FROM poll_answers WHERE room_id = ? AND poll = ? AND student_id = ?",
                (student.room_id, poll, student.id),
            )
            row = cur.fetchone()
        return str(row[0]) if row else None

    def poll_counts(self, room_id: str, poll: str, options: Sequence[str] = ()) -> dict[str, int]:
        """How many students gave each answer to the poll: every one of ``options`` (0 when none chose it, in
        their order), then any other answer stored."""
        with self._tx() as cur:
            self._run(
                cur,
                "SELECT answer, COUNT(*) FROM poll_answers WHERE room_id = ? AND poll = ? GROUP BY answer",
                (room_id, poll),
            )
            found = {str(a): int(n) for a, n in cur.fetchall()}
        return {**dict.fromkeys(options, 0), **found}
