"""One store for state that outlives a browser session: class rooms and shared views.

SQLite by default (a file in the data directory: ``BLEU_EXPLORER_DATA_DIR`` or ``data/`` in the project);
PostgreSQL when ``BLEU_EXPLORER_DATABASE_URL=postgresql://...`` is set. :func:`get_store` gives the process's
store for the current environment (one per URL or directory, made once). No Streamlit here.
"""

from __future__ import annotations

import logging
import os
import threading
import time
from pathlib import Path

from bleu_app.store.base import SqlStore as SqlStore
from bleu_app.store.follow import Slide as Slide
from bleu_app.store.model import (
    CODE_LEN as CODE_LEN,
    LIMIT_ENV as LIMIT_ENV,
    MAX_NICK as MAX_NICK,
    MAX_TEXT as MAX_TEXT,
    ROOM_TTL_S as ROOM_TTL_S,
    ROUND_RATE as ROUND_RATE,
    ROUND_TRANSLATE as ROUND_TRANSLATE,
    VIEW_TTL_S as VIEW_TTL_S,
    Identity as Identity,
    LimitReachedError as LimitReachedError,
    Limits as Limits,
    NewRoom as NewRoom,
    NewStudent as NewStudent,
    NewView as NewView,
    NicknameTakenError as NicknameTakenError,
    NotYoursError as NotYoursError,
    Rating as Rating,
    Room as Room,
    RoomGoneError as RoomGoneError,
    RoomState as RoomState,
    SharedView as SharedView,
    StoreError as StoreError,
    StoreUnavailableError as StoreUnavailableError,
    Student as Student,
    Submission as Submission,
    View as View,
    digest_of as digest_of,
)

DATA_DIR_ENV = "BLEU_EXPLORER_DATA_DIR"
DATABASE_URL_ENV = "BLEU_EXPLORER_DATABASE_URL"
DB_FILE = "bleu-explorer.sqlite3"
PROJECT_DATA = Path(__file__).resolve().parents[2] / "data"

_stores: dict[str, SqlStore] = {}
_purged: dict[str, float] = {}  # store key -> monotonic time of its last purge
_lock = threading.Lock()
PURGE_EVERY_S = 3600.0  # a server that runs for weeks deletes what expired at least this often, not only at start
_monotonic = time.monotonic  # the purge clock (a test moves it)
_LOG = logging.getLogger(__name__)


def data_dir() -> Path:
    return Path(os.environ.get(DATA_DIR_ENV) or PROJECT_DATA)


def location() -> str:
    """Where the store lives, as said to users: the PostgreSQL URL without its password, or the SQLite file."""
    url = os.environ.get(DATABASE_URL_ENV, "")
    if url:
        head, _, tail = url.partition("@")
        return f"{head.split(':', 1)[0]}://…@{tail}" if tail else url
    return str(data_dir() / DB_FILE)


def open_store(url: str | None = None, directory: Path | None = None) -> SqlStore:
    """A new store: PostgreSQL for a ``postgresql://`` (or ``postgres://``) URL, else SQLite in ``directory``; its
    caps from the environment (:class:`Limits`). A database that cannot be reached or written raises
    :class:`StoreUnavailableError`; a bad URL or limit, :class:`StoreError`."""
    if url:
        if not url.startswith(("postgresql://", "postgres://")):
            raise StoreError(f"{DATABASE_URL_ENV} must start with postgresql://, got {url.split(':', 1)[0]}:")
        from bleu_app.store.postgres import PostgresStore

        return PostgresStore(url)
    from bleu_app.store.sqlite import SqliteStore

    return SqliteStore((directory or data_dir()) / DB_FILE)


def get_store() -> SqlStore:
    """The process's store for the current environment (migrated on first use). Its expired rooms and views
    are deleted on first use (what expired while no process ran) and again whenever the last purge is more
    than ``PURGE_EVERY_S`` old (a long-running server). A purge the database refuses is logged and tried again
    at the next call (a read-only store still serves what it holds); a store that cannot be opened raises
    :class:`StoreUnavailableError` and is tried again at the next call."""
    url = os.environ.get(DATABASE_URL_ENV, "")
    key = url or str(data_dir())
    with _lock:
        store = _stores.get(key)
        if store is None:
            store = _stores[key] = open_store(url or None)
        now = _monotonic()
        if key not in _purged or now - _purged[key] >= PURGE_EVERY_S:
            try:
                store.purge_expired()
            except StoreUnavailableError as exc:
                _LOG.warning("purge of expired rooms and views failed: %s", exc.__cause__ or exc)
            else:
                _purged[key] = now
        return store
