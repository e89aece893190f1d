"""What a served app refuses from its clients (issue 24.3).

Streamlit honours a ``clear_cache`` message from any browser session: it clears ``st.cache_data`` and
``st.cache_resource`` for every session of the process (``AppSession._handle_clear_cache_request``), and one
client sending it 20 times a second made a class's Learn visits 4x slower. The browser sends it only from the
developer menu ("Clear cache", shown in development), and Streamlit offers no hook to filter what clients send,
so :func:`refuse_clear_cache` wraps that one method at app start: outside development mode the request is
logged and ignored. Development mode is ``make dev`` (``server.runOnSave`` on: someone is editing the code).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from streamlit import config
from streamlit.runtime.app_session import AppSession

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
