"""The store's values, errors, limits and text rules: what a caller of the store handles, without its SQL.

:mod:`bleu_app.store.base` holds the queries (one class for SQLite and PostgreSQL); this module the dataclasses it
returns, the :class:`StoreError` family it raises, the :class:`Limits` it enforces (read from the environment) and
the cleaning every stored text goes through (:func:`clean_text`).
"""

from __future__ import annotations

import hashlib
import os
import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, fields
from typing import Any, ClassVar, Literal, Protocol

MAX_TEXT = 1000  # characters in a translation, a source or a reference
MAX_NICK = 40
MAX_REFS = 8
ROOM_TTL_S = 24 * 3600
VIEW_TTL_S = 30 * 24 * 3600
CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I/L
# 31**8 = 8.5e11 codes (39.6 bits): at 18 guesses a second against 1,000 open rooms, a first hit takes 1.5 years
# on average (6 characters took 6 days against 100 rooms)
CODE_LEN = 8
GUESS_WINDOW_S = 600  # the guess budget (Limits.code_guesses) counts wrong room codes over this window
# The Sentence page explains at most 20,000 characters of candidate and references (its own limit), plus a second
# candidate as long; 4 UTF-8 bytes a character at most, and room for JSON's escapes
SENTENCE_VIEW_BYTES = 256 * 1024
ROUND_TRANSLATE, ROUND_RATE = 1, 2


# --- errors -------------------------------------------------------------------------------------------------------
class StoreError(Exception):
    """A request the store refuses or cannot carry out; the message says what happened and what to do, in words a
    student can read (shown to the user as it is). Nothing of a call that raised it was saved."""


Reason = Literal["down", "full", "read-only", "busy"]


class StoreUnavailableError(StoreError):
    """The database failed (down or restarting, disk full, read-only, locked too long), not the request; ``reason``
    says which. The call saved nothing and can be tried again; the server's log has the driver's error."""

    MESSAGES: ClassVar[dict[Reason, str]] = {
        "down": "The server's database is unavailable, so nothing was saved: try again in a moment.",
        "busy": "The server's database is busy, so nothing was saved: try again in a moment.",
        "full": "The server's disk is full, so nothing was saved: tell your teacher (the server needs more space).",
        "read-only": "The server's database is read-only, so nothing was saved: tell your teacher (the server's "
        "data directory must be writable).",
    }

    def __init__(self, reason: Reason = "down") -> None:
        super().__init__(self.MESSAGES[reason])
        self.reason: Reason = reason


class RoomGoneError(StoreError):
    """The room (or the student in it) no longer exists: deleted by the teacher, or expired."""

    def __init__(self, message: str = "This room no longer exists (deleted or expired).") -> None:
        super().__init__(message)


LimitName = Literal["students_per_room", "rooms", "rooms_per_client", "views_per_client", "view_size", "code_guesses"]


class LimitReachedError(StoreError):
    """A cap or a throttle (:class:`Limits`): ``limit`` names it; the message gives its value and what to do."""

    def __init__(self, limit: LimitName, message: str) -> None:
        super().__init__(message)
        self.limit: LimitName = limit


class NicknameTakenError(StoreError):
    """Another student in the room has this nickname (compared without case), or it is kept for the teacher."""


class NotYoursError(StoreError):
    """The browser's secret is not this student's: someone opened another student's link."""


# --- limits ---------------------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True, kw_only=True)
class Limits:
    """Caps and throttles, each read from an environment variable (:data:`LIMIT_ENV`) when the store opens.

    Example:
        >>> Limits.from_env({"BLEU_EXPLORER_MAX_STUDENTS": "60"}).students_per_room
        60
        >>> Limits.from_env({}).students_per_room
        200
    """

    students_per_room: int = 200  # a lecture hall; the dashboard redraws 300 translations in about 0.7 s of CPU
    rooms: int = 1000  # live rooms in the store (about 9 KB of text each at most)
    rooms_per_client: int = 10  # live rooms one client key (a browser session or an address) may hold
    views_per_client: int = 50  # live shared views one client key may hold
    view_mb: float = 50  # one corpus view (a sentence view has its page's own limit, SENTENCE_VIEW_BYTES)
    views_mb: float = 200  # every view's text together; beyond it the largest views are forgotten first
    code_guesses: int = 20  # wrong room codes one client key may try in GUESS_WINDOW_S

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> Limits:
        env = os.environ if environ is None else environ
        values: dict[str, Any] = {}
        for f in fields(cls):
            raw = env.get(LIMIT_ENV[f.name], "").strip()
            if not raw:
                continue
            whole = not f.name.endswith("_mb")
            try:
                value = int(raw) if whole else float(raw)
            except ValueError:
                value = 0
            if not value > 0 or (whole and value < 1):
                kind = "a whole number of at least 1" if whole else "a number of megabytes above 0"
                raise StoreError(f"{LIMIT_ENV[f.name]} must be {kind}, got {raw!r}.")
            values[f.name] = value
        return cls(**values)

    def bytes_of(self, what: Literal["view", "views"]) -> int:
        """``view_mb`` or ``views_mb`` in bytes."""
        return int((self.view_mb if what == "view" else self.views_mb) * 2**20)


LIMIT_ENV: dict[str, str] = {
    "students_per_room": "BLEU_EXPLORER_MAX_STUDENTS",
    "rooms": "BLEU_EXPLORER_MAX_ROOMS",
    "rooms_per_client": "BLEU_EXPLORER_ROOMS_PER_CLIENT",
    "views_per_client": "BLEU_EXPLORER_VIEWS_PER_CLIENT",
    "view_mb": "BLEU_EXPLORER_VIEW_MAX_MB",
    "views_mb": "BLEU_EXPLORER_VIEWS_MAX_MB",
    "code_guesses": "BLEU_EXPLORER_CODE_GUESSES",
}


# --- values ---------------------------------------------------------------------------------------------------
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
    version: int = 0  # moves on every write to the room (join, submit, hide, rate, round): see room_version


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
class NewStudent:
    """A student who just joined, and the secret that binds them to their browser (the store keeps its hash)."""

    student: Student
    secret: str


@dataclass(frozen=True, slots=True)
class Identity:
    """Who a student link names, seen from one browser: ``student`` is None when the link names no student (left,
    or the room is gone); ``yours`` says whether this browser's secret is theirs (students who joined before
    secrets existed are anybody's, as before)."""

    student: Student | None
    yours: bool


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
class RoomState:
    """Everything the dashboard shows, read in one transaction (so the counts agree with each other)."""

    room: Room
    students: int
    submissions: tuple[Submission, ...]
    ratings: tuple[Rating, ...]


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


@dataclass(frozen=True, slots=True)
class SharedView:
    """A view with its stored text or corpus, read in one transaction."""

    view: View
    content: str | None


class Cursor(Protocol):
    @property
    def rowcount(self) -> int: ...

    def execute(self, sql: str, params: Sequence[Any] = ()) -> Any: ...
    def fetchone(self) -> Any: ...
    def fetchall(self) -> list[Any]: ...


def secret_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def digest_of(content: str) -> str:
    """The content address of a corpus: SHA-256 of its UTF-8 text.

    Example:
        >>> digest_of("a")[:12]
        'ca978112ca1b'
    """
    return hashlib.sha256(content.encode("utf-8")).hexdigest()


# --- text -----------------------------------------------------------------------------------------------------
# Bidi embeddings, overrides and isolates (U+202A-U+202E, U+2066-U+2069) are removed from every text: they are the
# only characters that reorder what is shown, whole words at a time ("\u202eloot" reads "tool" on the projector).
# Arabic or Hebrew needs none of them: the Unicode bidirectional algorithm lays out right-to-left letters by their
# own direction. Texts keep the other format characters, which move no letter: the marks (LRM, RLM, ALM) that
# place punctuation beside right-to-left words, ZWNJ and ZWJ that join letters (Persian, Indic scripts) and emoji,
# the zero-width space that separates Thai words.
BIDI_CONTROLS = "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
_DROP_BIDI = dict.fromkeys(map(ord, BIDI_CONTROLS))
_JOINERS = frozenset("\u200c\u200d")
# nicknames a student may not take (compared by their letters, without case): the dashboard is projected
RESERVED_NICKS = frozenset(
    {
        "teacher",
        "theteacher",
        "yourteacher",
        "instructor",
        "professor",
        "prof",
        "lecturer",
        "tutor",
        "admin",
        "administrator",
        "moderator",
        "system",
        "server",
    }
)


def clean_text(text: str, *, what: str, limit: int = MAX_TEXT, name: bool = False) -> str:
    """Text as stored: stripped, at most ``limit`` characters, no NUL (PostgreSQL refuses it) and no bidi
    embedding, override or isolate (:data:`BIDI_CONTROLS`). A ``name`` (a nickname: one line of a table or a
    label) also loses its control characters and every invisible format character but the joiners, and its runs
    of white space become one space.

    Example:
        >>> clean_text("  a b ", what="translation")
        'a b'
        >>> clean_text("\u202eloot", what="nickname", name=True)
        'loot'
        >>> hebrew = "\u05e9\u05dc\u05d5\u05dd \u200f!"  # a right-to-left mark stays: it moves no letter
        >>> clean_text(hebrew, what="translation") == hebrew
        True
        >>> clean_text("x" * 5, what="nickname", limit=3)
        Traceback (most recent call last):
        ...
        bleu_app.store.base.StoreError: The nickname is too long: 5 characters, at most 3.
    """
    text = text.replace("\x00", "").translate(_DROP_BIDI)
    if name:
        kept = []
        for ch in text:
            if ch.isspace():
                kept.append(" ")
            elif ch in _JOINERS or unicodedata.category(ch) not in ("Cc", "Cf"):
                kept.append(ch)
        text = " ".join("".join(kept).split())
    text = text.strip()
    if len(text) > limit:
        raise StoreError(f"The {what} is too long: {len(text):,} characters, at most {limit:,}.")
    return text


def nickname_key(nickname: str) -> str:
    """What makes two nicknames the same in a room: NFKC, case folded, without format characters (a joiner is
    invisible) and with single spaces.

    Example:
        >>> nickname_key(" Alice\u200d ") == nickname_key("ALICE")
        True
    """
    text = unicodedata.normalize("NFKC", nickname).casefold()
    return " ".join("".join(ch for ch in text if unicodedata.category(ch) != "Cf").split())


def reserved_nickname(key: str) -> bool:
    return "".join(ch for ch in key if ch.isalpha()) in RESERVED_NICKS


def mb_text(n_bytes: int) -> str:
    return f"{n_bytes / 2**20:,.1f} MB" if n_bytes >= 2**20 else f"{n_bytes / 1024:,.0f} KB"


IDLE_CONNECTIONS = 8  # connections a process keeps open between calls (a store is shared by its sessions)
ErrorKind = Literal["conflict", "unavailable"]
