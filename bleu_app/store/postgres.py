"""The store on PostgreSQL through psycopg 3 (the optional extra ``[postgres]``), for several app processes on
several machines: ``BLEU_EXPLORER_DATABASE_URL=postgresql://...``. Each call is one transaction on a pooled
connection; migrating processes queue on an advisory lock."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from bleu_app.store.base import Cursor, SqlStore, StoreError

MIGRATION_LOCK = 0x424C4555  # "BLEU"


class PostgresStore(SqlStore):
    backend = "postgresql"
    placeholder = "%s"

    def __init__(self, url: str, *, clock: Callable[[], float] = time.time) -> None:
        super().__init__(clock=clock)
        try:
            import psycopg
        except ImportError as exc:  # pragma: no cover - the extra is installed in the tests
            raise StoreError(
                "BLEU_EXPLORER_DATABASE_URL names PostgreSQL but psycopg is not installed: "
                "pip install 'bleu-explorer[postgres]'"
            ) from exc
        self._psycopg = psycopg
        self.url = url
        self.migrate()

    def _connect(self) -> Any:
        return self._psycopg.connect(self.url, autocommit=False)

    def _usable(self, conn: Any) -> bool:
        return not conn.closed

    @contextmanager
    def _tx(self) -> Iterator[Cursor]:
        with self._conn() as conn, conn.transaction(), conn.cursor() as cur:
            yield cur

    def _lock_for_migration(self, cur: Cursor) -> None:
        cur.execute("SELECT pg_advisory_xact_lock(%s)", (MIGRATION_LOCK,))
