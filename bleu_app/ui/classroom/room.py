"""What the Class page's views share: who is who in the URL (``?teach=TOKEN`` the teacher, ``?room=CODE`` a student's
join link, ``&s=ID`` the student once joined), the room's address, a round's status and leaving a room."""

from __future__ import annotations

from typing import Final
from urllib.parse import urlsplit

import streamlit as st

from bleu_app.store import ROUND_TRANSLATE, Room
from bleu_app.store.base import CODE_ALPHABET, CODE_LEN
from bleu_app.ui import state

TEACH: Final = "teach"  # query parameters
ROOM: Final = "room"
STUDENT: Final = "s"


def clean_code(code: str) -> str:
    """A room code as typed: letters of the code alphabet only, upper case, at most CODE_LEN."""
    return "".join(c for c in code.upper() if c in CODE_ALPHABET)[:CODE_LEN]


def base_url() -> str:
    """scheme://host of the page as the browser sees it (the join link and QR code point there)."""
    url = st.context.url or ""
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}" if parts.scheme and parts.netloc else "http://localhost:8501"


def round_status(room: Room) -> str:
    """The room's round and whether it is open, as the teacher and the students read it."""
    what = "Round 1: translate" if room.round == ROUND_TRANSLATE else "Round 2: rate the others' translations"
    return f"{what} ({'open' if room.round_open else 'closed'})"


def leave() -> None:
    """Forget the room (the session's and the URL's)."""
    state.leave_class()
    for key in (TEACH, ROOM, STUDENT):
        st.query_params.pop(key, None)
