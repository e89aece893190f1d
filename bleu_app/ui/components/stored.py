"""The one door from the Class and Share paths to the store: :func:`attempt` runs one store call and turns every
:class:`~bleu_app.store.StoreError` into one message on the page, so that no driver error reaches a student as
Streamlit's exception box.

A refusal (a closed round, a cap, a taken nickname, another student's link) is shown as the store words it. A
database that fails (down or restarting, busy, disk full, read-only: :class:`~bleu_app.store.StoreUnavailableError`)
is shown as what it means for what the user did: "Not sent: the server's database is unavailable; your text is
kept, try again." The store saved nothing of a call that raised (one transaction per call), and the callers keep
what the user typed: their boxes stay on the page, or keep their value while hidden (``persist_state``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Final, Literal, TypeVar

import streamlit as st

from bleu_app.store import StoreError, StoreUnavailableError
from bleu_app.store.model import Reason

T = TypeVar("T")
Action = Literal["send", "save", "load"]

HEAD: Final[dict[Action, str]] = {"send": "Not sent", "save": "Not saved", "load": "Cannot load this now"}
WHY: Final[dict[Reason, str]] = {
    "down": "the server's database is unavailable",
    "busy": "the server's database is busy",
    "full": "the server's disk is full",
    "read-only": "the server's database is read-only",
}
# what the reader can do: wait for a restart, or have the server mended (a full disk does not empty itself)
TODO: Final[dict[Reason, str]] = {
    "down": "try again",
    "busy": "try again",
    "full": "try again once the server has more space (tell whoever runs it)",
    "read-only": "try again once the server's data directory is writable (tell whoever runs it)",
}


@dataclass(frozen=True, slots=True)
class Refused:
    """A store call that did not happen: the sentence shown, and why the database failed (worth a retry), or None
    when the store refused the request itself."""

    message: str
    reason: Reason | None

    @property
    def why(self) -> str:
        """What went wrong, as a clause ("the server's database is unavailable"), or the refusal's sentence."""
        return WHY[self.reason] if self.reason is not None else self.message


def message(exc: StoreError, *, action: Action = "send", kept: bool = False) -> str:
    """What the user reads for a store error: a refusal as the store words it; a failed database as what it
    means for ``action`` (``kept``: the user's typed text is still on the page).

    Example:
        >>> message(StoreUnavailableError("down"), kept=True)
        "Not sent: the server's database is unavailable; your text is kept, try again."
        >>> message(StoreUnavailableError("busy"), action="load")
        "Cannot load this now: the server's database is busy, try again."
        >>> message(StoreError("Translation is closed."))
        'Translation is closed.'
    """
    if not isinstance(exc, StoreUnavailableError):
        return str(exc)
    return f"{HEAD[action]}: {WHY[exc.reason]}{'; your text is kept' if kept else ''}, {TODO[exc.reason]}."


def attempt(call: Callable[[], T], *, action: Action = "send", kept: bool = False, show: bool = True) -> T | Refused:
    """``call()`` (one store call), or :class:`Refused` when it raised a ``StoreError``: the message is shown
    where the call was made (``show``), as :func:`message` words it. Other exceptions are bugs and propagate."""
    try:
        return call()
    except StoreError as exc:
        reason = exc.reason if isinstance(exc, StoreUnavailableError) else None
        refused = Refused(message(exc, action=action, kept=kept), reason)
    if show:
        st.error(refused.message, icon=":material/error:" if refused.reason is None else ":material/cloud_off:")
    return refused


def retry_button(key: str) -> None:
    """A button that runs the page again (after a failed read, the page shows only the message and this)."""
    if st.button("Try again", key=key, icon=":material/refresh:"):
        st.rerun()
