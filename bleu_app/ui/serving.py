"""What a served app refuses from its clients (issue 24.3, 24.4).

Streamlit honours a ``clear_cache`` message from any browser session: it clears ``st.cache_data`` and
``st.cache_resource`` for every session of the process (``AppSession._handle_clear_cache_request``), and one
client sending it 20 times a second made a class's Learn visits 4x slower. The browser sends it only from the
developer menu ("Clear cache", shown in development), and Streamlit offers no hook to filter what clients send,
so :func:`refuse_clear_cache` wraps that one method at app start: outside development mode the request is
logged and ignored. Development mode is ``make dev`` (``server.runOnSave`` on: someone is editing the code).

Streamlit also keeps every file a session uploads, whether or not a widget uses it: one client asked for 20
upload URLs and parked 1 GB. :func:`bound_session_uploads` refuses (HTTP 413) an upload that would take what one
session holds past :func:`session_upload_limit`: a folder's limit (ten files' worth) plus one file.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any, Final

from starlette.exceptions import HTTPException
from streamlit import config
from streamlit.runtime.app_session import AppSession
from streamlit.runtime.memory_uploaded_file_manager import MemoryUploadedFileManager
from streamlit.runtime.uploaded_file_manager import UploadedFileRec

_log = logging.getLogger(__name__)
_GUARD = "_bleu_explorer_guard"


def development() -> bool:
    """Whether the server runs as ``make dev`` does (``server.runOnSave``): only then do clients clear caches."""
    return bool(config.get_option("server.runOnSave"))


def refuse_clear_cache() -> None:
    """Make ``AppSession``'s clear-cache handler a logged no-op outside :func:`development` (once per process)."""
    original: Callable[[Any], None] = AppSession._handle_clear_cache_request
    if getattr(original, _GUARD, False):
        return

    def guarded(self: Any) -> None:
        if development():
            original(self)
            return
        _log.warning("refused a clear_cache request from session %s (only `make dev` honours it)", self.id)

    setattr(guarded, _GUARD, True)
    AppSession._handle_clear_cache_request = guarded  # type: ignore[method-assign]


SESSION_UPLOAD_FILES: Final = 11
"""One session may hold this many files' worth of uploads (``server.maxUploadSize`` each): a folder may hold ten
(``bleu_core.data.corpus``), plus one."""


def session_upload_limit() -> int:
    """Bytes of uploads one session may hold at once."""
    return int(SESSION_UPLOAD_FILES * float(config.get_option("server.maxUploadSize")) * 2**20)


def bound_session_uploads() -> None:
    """Make Streamlit's upload store refuse a file that takes a session past :func:`session_upload_limit`
    (once per process; the upload answers 413 and is not kept)."""
    original: Callable[[Any, str, UploadedFileRec], None] = MemoryUploadedFileManager.add_file
    if getattr(original, _GUARD, False):
        return

    def add_file(self: Any, session_id: str, file: UploadedFileRec) -> None:
        limit = session_upload_limit()
        with self._lock:
            held = sum(len(f.data) for k, f in self.file_storage.get(session_id, {}).items() if k != file.file_id)
        if held + len(file.data) > limit:
            _log.warning("refused an upload of %d bytes from session %s holding %d", len(file.data), session_id, held)
            raise HTTPException(
                status_code=413,
                detail=f"this session already holds {held / 2**20:,.0f} MB of uploads, at most "
                f"{limit / 2**20:,.0f} MB: load or remove those first",
            )
        original(self, session_id, file)

    setattr(add_file, _GUARD, True)
    MemoryUploadedFileManager.add_file = add_file  # type: ignore[method-assign]
