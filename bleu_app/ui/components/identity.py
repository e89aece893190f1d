"""Which students of the live class this browser is: the secrets the store gave it when it joined, kept in cookies
(``bleu_student_<id>``) so that a reload, another app process or another page of the app still knows it. Shared
by the Class page (its join and "Go on") and the Learn page's phones that follow a lecture (their polls)."""

from __future__ import annotations

import re
from typing import Final

import streamlit as st

__all__ = ["SECRET_COOKIE", "browser_students"]

SECRET_COOKIE: Final = "bleu_student_"  # + the student's id: the browser secret the store gave at the join
ID: Final = re.compile(r"[0-9a-f]{1,64}")
SECRET: Final = re.compile(r"[A-Za-z0-9_-]{1,128}")


def browser_students() -> list[tuple[str, str]]:
    """Every (student id, secret) this browser keeps (its cookies, sent when it opens the page's connection)."""
    found = []
    for name, value in st.context.cookies.items():
        sid = name.removeprefix(SECRET_COOKIE)
        if name.startswith(SECRET_COOKIE) and ID.fullmatch(sid) and value and SECRET.fullmatch(str(value)):
            found.append((sid, str(value)))
    return found
