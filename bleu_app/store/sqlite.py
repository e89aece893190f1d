"""The store on SQLite (standard library): one file in the data directory, WAL mode so that several app processes
on one machine share it, ``synchronous=FULL`` so that a committed write survives a power cut, every transaction
``BEGIN IMMEDIATE`` (writers queue on the busy timeout instead of failing on a stale snapshot)."""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from bleu_app.store.base import Cursor, SqlStore

BUSY_TIMEOUT_S = 30.0


class SqliteStore(SqlStore):
    backend = "sqlite"

    def __init__(self, path: Path, *, clock: Callable[[], float] = time.time) -> None:
        super().__init__(clock=clock)
        self.path = Path(path)
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

    @contextmanager
    def _tx(self) -> Iterator[Cursor]:
        with self._conn() as conn:
            cur = conn.cursor()
            cur.execute("BEGIN IMMEDIATE")
            try:
                yield cur
            except BaseException:
                conn.rollback()
                raise
            conn.commit()
