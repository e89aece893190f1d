"""The store on SQLite (standard library): one file in the data directory, WAL mode so that several app processes
on one machine share it, ``synchronous=FULL`` so that a committed write survives a power cut, every transaction
``BEGIN IMMEDIATE`` (writers queue on the busy timeout instead of failing on a stale snapshot)."""

from __future__ import annotations

import os
import sqlite3
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from bleu_app.store.base import SqlStore
from bleu_app.store.model import Cursor, ErrorKind, Limits, Reason

BUSY_TIMEOUT_S = 30.0


class SqliteStore(SqlStore):
    backend = "sqlite"

    def __init__(self, path: Path, *, clock: Callable[[], float] = time.time, limits: Limits | None = None) -> None:
        super().__init__(clock=clock, limits=limits)
        self.path = Path(path)
        with self._guard():  # a read-only or full data directory fails here as it would on any call
            self.path.parent.mkdir(parents=True, exist_ok=True)
            with self._conn() as conn:
                conn.execute("PRAGMA journal_mode=WAL")
        self.migrate()

    def _connect(self) -> sqlite3.Connection:
        conn = sqlite3.connect(self.path, timeout=BUSY_TIMEOUT_S, isolation_level=None, check_same_thread=False)
        conn.execute("PRAGMA foreign_keys=ON")
        conn.execute("PRAGMA synchronous=FULL")
        conn.execute(f"PRAGMA busy_timeout={int(BUSY_TIMEOUT_S * 1000)}")
        return conn

    def _error_kind(self, exc: BaseException) -> ErrorKind | None:
        if isinstance(exc, sqlite3.IntegrityError):
            return "conflict"
        if isinstance(exc, sqlite3.ProgrammingError):
            return None  # a bug in a query, not the database failing
        if isinstance(exc, sqlite3.DatabaseError):  # operational: locked, full, read-only, I/O; a damaged file
            return "unavailable"
        return super()._error_kind(exc)

    def _reason(self, exc: BaseException) -> Reason:
        name = getattr(exc, "sqlite_errorname", "")
        if name == "SQLITE_FULL":
            return "full"
        if name.startswith("SQLITE_READONLY"):
            return "read-only"
        if name.startswith(("SQLITE_BUSY", "SQLITE_LOCKED")):
            return "busy"
        if name == "SQLITE_CANTOPEN" and not os.access(self.path.parent, os.W_OK):
            return "read-only"  # WAL needs its -shm and -wal files beside the database
        return super()._reason(exc)

    @contextmanager
    def _backend_tx(self) -> Iterator[Cursor]:
        with self._conn() as conn:
            cur = conn.cursor()
            cur.execute("BEGIN IMMEDIATE")
            try:
                yield cur
            except BaseException:
                conn.rollback()
                raise
            conn.commit()
