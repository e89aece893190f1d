"""Teacher tools at the top of the Learn page (teaching review proposal I): a 50-minute lesson plan with a deep link
for each block, and the printable handout of the paper's worked numbers (``bleu_app.handout``)."""

from __future__ import annotations

from typing import Final

import streamlit as st

from bleu_app import handout

from . import docs

__all__ = ["EXPANDER", "FILE_NAME", "FOLDED", "body", "show"]

EXPANDER: Final = "For the teacher: a 50-minute lesson plan and a printable handout"
FOLDED: Final = "About this page, and for the teacher: a lesson plan and a printable handout"
FILE_NAME: Final = "bleu-worked-numbers.html"


@st.cache_resource(show_spinner=False)
def _handout() -> str:
    return handout.handout_html()


def show() -> None:
    """A collapsed expander: the plan (``docs/learn/plan.md``) and the handout's download button."""
    with st.expander(EXPANDER, expanded=False, icon=":material/co_present:"):
        body()


def body() -> None:
    """The plan and the handout's download button (in an expander of the caller's)."""
    docs.show("plan")
    st.download_button(
        "Download the handout (HTML, printable, works offline)",
        _handout(),
        file_name=FILE_NAME,
        mime="text/html",
        key="learn.handout",
        on_click="ignore",
        icon=":material/download:",
    )
