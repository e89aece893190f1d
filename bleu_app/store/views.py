"""The shared views' queries: corpora stored once by digest, views with their settings, caps and eviction.

A part of :class:`bleu_app.store.base.SqlStore` (which inherits it) kept in a module of its own: it uses only the
store's transaction (``_tx``), its query runner (``_run``), its writers' lock (``_lock``), its clock and its limits.
"""

from __future__ import annotations

import json
import logging
import secrets
from collections.abc import Callable
from contextlib import AbstractContextManager
from typing import Any, Literal

from bleu_app.store.model import (
    SENTENCE_VIEW_BYTES,
    VIEW_TTL_S,
    Cursor,
    LimitReachedError,
    Limits,
    NewView,
    SharedView,
    View,
    digest_of,
    mb_text,
    secret_hash,
)

_LOG = logging.getLogger(__name__)


class ViewQueries:
    """Corpora and shared views (see the module's docstring); the store supplies what the stubs below declare."""

    clock: Callable[[], float]
    limits: Limits

    def _tx(self) -> AbstractContextManager[Cursor]:  # pragma: no cover - SqlStore's
        raise NotImplementedError

    def _run(self, cur: Cursor, sql: str, params: Any = ()) -> Any:  # pragma: no cover - SqlStore's
        raise NotImplementedError

    def _lock(self, cur: Cursor, name: Literal["rooms", "views"]) -> None:  # pragma: no cover - SqlStore's
        raise NotImplementedError

    # --- corpora and views --------------------------------------------------------------------------------------
    def put_corpus(self, content: str) -> str:
        """Store a corpus once by its digest (storing it again is a no-op); returns the digest."""
        with self._tx() as cur:
            self._lock(cur, "views")
            return self._put_corpus(cur, content)

    def _put_corpus(self, cur: Cursor, content: str) -> str:
        """Insert a corpus; when the views' store would pass ``limits.views_mb``, the largest stored corpora (the
        oldest first among equals) go first, with the views that show them: one client's flood then costs the
        flood, not everyone's next share."""
        digest = digest_of(content)
        size = len(content.encode("utf-8"))
        self._run(cur, "SELECT 1 FROM corpora WHERE digest = ?", (digest,))
        if cur.fetchone():
            return digest
        cap = self.limits.bytes_of("views")
        if size > cap:
            raise LimitReachedError(
                "view_size",
                f"This view is too large to share: {mb_text(size)}, more than the {mb_text(cap)} kept in all.",
            )
        self._run(cur, "SELECT COALESCE(SUM(bytes), 0) FROM corpora")
        excess = int(cur.fetchone()[0]) + size - cap
        if excess > 0:
            self._run(cur, "SELECT digest, bytes FROM corpora ORDER BY bytes DESC, created_at, digest")
            evict: list[str] = []
            for old, n in cur.fetchall():
                if excess <= 0:
                    break
                evict.append(old)
                excess -= int(n)
            for old in evict:
                self._run(cur, "DELETE FROM views WHERE digest = ?", (old,))
                self._run(cur, "DELETE FROM corpora WHERE digest = ?", (old,))
            _LOG.info("views' store full: forgot %d corpora, largest first, for one of %d bytes", len(evict), size)
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

    def create_view(
        self, settings: dict[str, Any], corpus: str | None = None, *, ttl_s: float = VIEW_TTL_S, client: str = ""
    ) -> NewView:
        """Store a view: its settings and its text or corpus (once per content). A sentence view (``settings["page"]
        == "sentence"``) holds at most ``SENTENCE_VIEW_BYTES``, another at most ``limits.view_mb``; with
        ``client`` (an opaque key: a session id), one client holds at most ``limits.views_per_client`` live views.
        Each raises :class:`LimitReachedError`. A full store forgets its largest views instead of refusing."""
        page = settings.get("page")
        if corpus is not None:
            size = len(corpus.encode("utf-8"))
            most = SENTENCE_VIEW_BYTES if page == "sentence" else self.limits.bytes_of("view")
            if size > most:
                what = "one sentence" if page == "sentence" else "one shared corpus"
                raise LimitReachedError(
                    "view_size",
                    f"This view is too large to share: {mb_text(size)}, and {what} may take {mb_text(most)}. Share a "
                    "shorter text, or a smaller corpus.",
                )
        view_id, token, now = secrets.token_urlsafe(16), secrets.token_urlsafe(16), self.clock()
        creator = secret_hash(client) if client else None
        with self._tx() as cur:  # the corpus and the view in one transaction: a purge cannot come between
            self._lock(cur, "views")
            if creator is not None:
                self._run(cur, "SELECT COUNT(*) FROM views WHERE creator = ? AND expires_at > ?", (creator, now))
                if int(cur.fetchone()[0]) >= self.limits.views_per_client:
                    raise LimitReachedError(
                        "views_per_client",
                        f"You have shared {self.limits.views_per_client} views, the most one session keeps: delete "
                        "one you no longer need with its delete link, or wait until they expire.",
                    )
            digest = self._put_corpus(cur, corpus) if corpus is not None else None
            self._run(
                cur,
                "INSERT INTO views (id, digest, settings, delete_hash, created_at, expires_at, creator) "
                "VALUES (?, ?, ?, ?, ?, ?, ?)",
                (view_id, digest, json.dumps(settings, sort_keys=True), secret_hash(token), now, now + ttl_s, creator),
            )
        return NewView(View(view_id, digest, dict(settings), now, now + ttl_s), token)

    def _view(self, cur: Cursor, view_id: str) -> View | None:
        self._run(
            cur,
            "SELECT id, digest, settings, created_at, expires_at FROM views WHERE id = ? AND expires_at > ?",
            (view_id, self.clock()),
        )
        row = cur.fetchone()
        return View(row[0], row[1], json.loads(row[2]), row[3], row[4]) if row else None

    def view(self, view_id: str) -> View | None:
        with self._tx() as cur:
            return self._view(cur, view_id)

    def load_view(self, view_id: str) -> SharedView | None:
        """A view and its content in one transaction. None means there is no such view (never made, deleted,
        expired, or forgotten when the store was full); a database that fails raises :class:`StoreUnavailableError`
        instead, so a link is never called gone because the server had a problem."""
        with self._tx() as cur:
            view = self._view(cur, view_id)
            if view is None:
                return None
            content = None
            if view.digest is not None:
                self._run(cur, "SELECT content FROM corpora WHERE digest = ?", (view.digest,))
                row = cur.fetchone()
                if not row:
                    return None
                content = str(row[0])
        return SharedView(view, content)

    def delete_view(self, view_id: str, delete_token: str) -> bool:
        """Delete a view with its delete token, and its corpus at once when no other view uses it (in the same
        transaction: the text a sharer deletes does not wait for the next purge); False when the token does not
        match (or the view is gone)."""
        with self._tx() as cur:
            self._run(cur, "SELECT delete_hash, digest FROM views WHERE id = ?", (view_id,))
            row = cur.fetchone()
            if not row or not secrets.compare_digest(row[0], secret_hash(delete_token)):
                return False
            self._run(cur, "DELETE FROM views WHERE id = ?", (view_id,))
            if row[1] is not None:
                self._run(
                    cur,
                    "DELETE FROM corpora WHERE digest = ? AND NOT EXISTS (SELECT 1 FROM views WHERE digest = ?)",
                    (row[1], row[1]),
                )
        return True
