"""What a served app refuses from its clients (issue 24.3, 24.4).

Streamlit honours a ``clear_cache`` message from any browser session: it clears ``st.cache_data`` and
``st.cache_resource`` for every session of the process (``AppSession._handle_clear_cache_request``), and one
client sending it 20 times a second made a class's Learn visits 4x slower. The browser sends it only from the
developer menu ("Clear cache", shown in development), and Streamlit offers no hook to filter what clients send,
so :func:`refuse_clear_cache` wraps that one method at app start: outside development mode the request is
logged and ignored. Development mode is ``make dev`` (``server.runOnSave`` on: someone is editing the code).

Streamlit also keeps every file a session uploads, whether or not a widget uses it: one client asked for 20
upload URLs and parked 1 GB. :func:`bound_session_uploads` refuses (HTTP 413) an upload that would take what one
session holds past :func:`session_upload_limit` (a folder's limit, ten files' worth, plus one file), or what all the
process's sessions hold past :func:`process_upload_limit` (sessions are free: issue 36, S7).
"""

from __future__ import annotations

import logging
import os
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


PROCESS_UPLOAD_ENV: Final = "BLEU_EXPLORER_UPLOADS_MAX_MB"
PROCESS_UPLOAD_MB: Final = 2_000
"""All sessions of one process together may hold this many MB of uploads (``PROCESS_UPLOAD_ENV`` sets it): about
three sessions' full folders at ``server.maxUploadSize`` 50 MB. Uploads are let go once read, so this bounds what is
parked, not what a class loads over a lesson."""


def process_upload_limit() -> int:
    """Bytes of uploads all the sessions of this process may hold at once."""
    raw = os.environ.get(PROCESS_UPLOAD_ENV, "")
    try:
        mb = float(raw) if raw.strip() else PROCESS_UPLOAD_MB
    except ValueError:
        _log.warning("%s=%r is not a number of MB; using %d", PROCESS_UPLOAD_ENV, raw, PROCESS_UPLOAD_MB)
        mb = PROCESS_UPLOAD_MB
    return int(mb * 2**20)


def bound_session_uploads() -> None:
    """Make Streamlit's upload store refuse a file that takes a session past :func:`session_upload_limit`
    (once per process; the upload answers 413 and is not kept)."""
    original: Callable[[Any, str, UploadedFileRec], None] = MemoryUploadedFileManager.add_file
    if getattr(original, _GUARD, False):
        return

    def add_file(self: Any, session_id: str, file: UploadedFileRec) -> None:
        limit, ceiling = session_upload_limit(), process_upload_limit()
        with self._lock:
            held = sum(len(f.data) for k, f in self.file_storage.get(session_id, {}).items() if k != file.file_id)
            everyone = sum(
                len(f.data)
                for sid, files in self.file_storage.items()
                for k, f in files.items()
                if (sid, k) != (session_id, file.file_id)
            )
        if everyone + len(file.data) > ceiling:  # sessions are free: one client opening many could park gigabytes
            _log.warning("refused an upload of %d bytes: the process holds %d of uploads", len(file.data), everyone)
            raise HTTPException(
                status_code=413,
                detail=f"the server holds {everyone / 2**20:,.0f} MB of uploads from all its visitors, at most "
                f"{ceiling / 2**20:,.0f} MB: try again in a minute",
            )
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
