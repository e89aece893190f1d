"""What the Class page's views share: who is who in the URL (``?teach=TOKEN`` the teacher, ``?room=CODE`` a student's
join link, ``&s=ID`` the student once joined) and in the browser (the student's secret, in a cookie), the room's
address, a round's status and leaving a room."""

from __future__ import annotations

import json
from email.utils import formatdate
from typing import Final
from urllib.parse import urlsplit

import streamlit as st

from bleu_app.store import ROUND_TRANSLATE, Room
from bleu_app.store.model import CODE_ALPHABET, CODE_LEN
from bleu_app.ui import state
from bleu_app.ui.components import identity
from bleu_app.ui.components.identity import SECRET_COOKIE

TEACH: Final = "teach"  # query parameters
TEACHER: Final = "teacher"  # the teacher's room code, in the address bar instead of the token
PROJECT: Final = "present"  # =1: the projector view of the teacher's dashboard (presenter mode's large type)
NAMES: Final = "names"  # =1: the projector view shows nicknames (hidden by default)
ROOM: Final = "room"
STUDENT: Final = "s"
_ID, _SECRET = identity.ID, identity.SECRET  # a student id and a browser secret as the store makes them
TEACHER_COOKIE: Final = "bleu_teacher_"  # + the room code: the teacher's token, kept out of every URL


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
    for key in (TEACH, TEACHER, PROJECT, NAMES, ROOM, STUDENT):
        st.query_params.pop(key, None)


def browser_secret(student_id: str) -> str | None:
    """The secret this browser keeps for the student ``student_id`` (its cookie, which the browser sends when it
    opens the page's connection), or None."""
    return dict(browser_students()).get(student_id)


def browser_students() -> list[tuple[str, str]]:
    """Every (student id, secret) this browser keeps (its cookies), as :func:`keep_in_browser` wrote them."""
    return identity.browser_students()


def keep_in_browser(student_id: str, secret: str, expires_at: float) -> None:
    """Ask the browser to keep the student's secret in a cookie until the room expires (``expires_at``, epoch
    seconds), so that a reload, a reconnect to another app process or a restarted server still knows the student."""
    if _ID.fullmatch(student_id):
        _cookie(f"{SECRET_COOKIE}{student_id}", secret, expires_at)


def teacher_in_browser(code: object) -> str | None:
    """The teacher's token this browser keeps for room ``code`` (``?teacher=CODE``: a reload, or the projector
    view opened in another tab), or None."""
    value = st.context.cookies.get(f"{TEACHER_COOKIE}{clean_code(str(code or ''))}")
    return str(value) if value and _SECRET.fullmatch(str(value)) else None


def keep_teacher(room: Room, token: str, *, cookie: bool = True) -> None:
    """The token out of the address bar: the session and a cookie keep it, the URL names the room's code (public:
    the students have it), so that the screen a class sees, a photo of it and the server's log hold no secret.
    ``cookie=False`` (the projector view) writes no script holding the token into the page."""
    state.put(state.CLASS_TEACH, token)
    st.query_params.pop(TEACH, None)
    st.query_params[TEACHER] = room.code
    if cookie and teacher_in_browser(room.code) != token:
        _cookie(f"{TEACHER_COOKIE}{room.code}", token, room.expires_at)


def _cookie(name: str, value: str, expires_at: float) -> None:
    """Streamlit cannot set a cookie from the server: a one-line script does (``st.html`` runs it when its text
    changes, so once here; nothing else is loaded)."""
    if not _SECRET.fullmatch(value):
        return  # ids and secrets are the store's (hex, URL-safe base64): anything else is never written into a script
    until = formatdate(expires_at, usegmt=True)
    cookie = json.dumps(f"{name}={value}; expires={until}; path=/; samesite=strict")
    st.html(
        f"<script>document.cookie = {cookie} + (location.protocol === 'https:' ? '; secure' : '');</script>",
        unsafe_allow_javascript=True,
    )
