"""The store on PostgreSQL through psycopg 3 (the optional extra ``[postgres]``), for several app processes on
several machines: ``BLEU_EXPLORER_DATABASE_URL=postgresql://...``. Each call is one transaction on a pooled
connection, checked before use (a server restart leaves every pooled connection dead until it is used); migrating
processes, and writers that check a cap before they insert, queue on advisory locks."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, Literal

from bleu_app.store.base import SqlStore
from bleu_app.store.model import Cursor, ErrorKind, Limits, Reason, StoreError

MIGRATION_LOCK = 0x424C4555  # "BLEU"
LOCKS = {"rooms": MIGRATION_LOCK + 1, "views": MIGRATION_LOCK + 2}
CONNECT_TIMEOUT_S = 10  # unless the URL sets connect_timeout: an unreachable host fails a call, not hangs it


class PostgresStore(SqlStore):
    backend = "postgresql"
    placeholder = "%s"

    def __init__(self, url: str, *, clock: Callable[[], float] = time.time, limits: Limits | None = None) -> None:
        super().__init__(clock=clock, limits=limits)
        try:
            import psycopg
            from psycopg.conninfo import conninfo_to_dict
        except ImportError as exc:  # pragma: no cover - the extra is installed in the tests
            raise StoreError(
                "BLEU_EXPLORER_DATABASE_URL names PostgreSQL but psycopg is not installed: "
                "pip install 'bleu-explorer[postgres]'"
            ) from exc
        self._psycopg = psycopg
        self.url = url
        try:
            given = conninfo_to_dict(url)
        except psycopg.ProgrammingError as exc:
            raise StoreError(f"BLEU_EXPLORER_DATABASE_URL is not a PostgreSQL URL: {exc}") from None
        self._connect_kwargs: dict[str, Any] = {"connect_timeout": CONNECT_TIMEOUT_S}
        if "connect_timeout" in given:
            self._connect_kwargs = {}
        self.migrate()

    def _connect(self) -> Any:
        return self._psycopg.connect(self.url, autocommit=False, **self._connect_kwargs)

    def _usable(self, conn: Any) -> bool:
        """A round trip on the pooled connection (an empty query, as psycopg_pool's check does): after a server
        restart the socket is dead but ``closed`` stays False until it is used."""
        if conn.closed or conn.broken:
            return False
        try:
            conn.autocommit = True
            conn.execute("")
            conn.autocommit = False
        except self._psycopg.Error:
            return False
        return True

    def _error_kind(self, exc: BaseException) -> ErrorKind | None:
        pg = self._psycopg
        if isinstance(exc, pg.IntegrityError):
            return "conflict"
        if isinstance(exc, (pg.OperationalError, pg.InterfaceError, pg.errors.ReadOnlySqlTransaction)):
            return "unavailable"
        return super()._error_kind(exc)

    def _reason(self, exc: BaseException) -> Reason:
        state = getattr(exc, "sqlstate", None) or ""
        if state.startswith("53"):  # insufficient resources: disk full, out of memory, too many connections
            return "full" if state == "53100" else "busy"
        if state == "25006":
            return "read-only"
        if state in ("55P03", "40001", "40P01"):  # lock not available, serialization failure, deadlock
            return "busy"
        return super()._reason(exc)

    @contextmanager
    def _backend_tx(self) -> Iterator[Cursor]:
        with self._conn() as conn, conn.transaction(), conn.cursor() as cur:
            yield cur

    def _lock(self, cur: Cursor, name: Literal["rooms", "views"]) -> None:
        cur.execute("SELECT pg_advisory_xact_lock(%s)", (LOCKS[name],))

    def _lock_for_migration(self, cur: Cursor) -> None:
        cur.execute("SELECT pg_advisory_xact_lock(%s)", (MIGRATION_LOCK,))
