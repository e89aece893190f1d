"""Teacher tools at the top of the Learn page (teaching review proposal I): a 50-minute lesson plan with a deep link
for each block, and the printable handout of the paper's worked numbers (``bleu_app.handout``)."""

from __future__ import annotations

import re
from typing import Final

import streamlit as st

from bleu_app.ui import cached, docs
from bleu_app.ui.learn import steps

__all__ = ["EXPANDER", "FILE_NAME", "FOLDED", "body", "show"]

EXPANDER: Final = "For the teacher: a 50-minute lesson plan and a printable handout"
FOLDED: Final = "About this page, and for the teacher: a lesson plan and a printable handout"
FILE_NAME: Final = "bleu-worked-numbers.html"


def show() -> None:
    """A collapsed expander: the plan (``docs/learn/plan.md``) and the handout's download button."""
    with st.expander(EXPANDER, expanded=False, icon=":material/co_present:"):
        body()


def app_address() -> str | None:
    """This page's address in the user's browser without its query (``st.context.url``), or None where Streamlit
    does not give it (a test run)."""
    url = st.context.url
    return url.split("?", 1)[0].split("#", 1)[0] if url else None


LINK: Final = re.compile(r"\]\((\?[^)]*)\)")


def plan_text(base: str | None) -> str:
    """The plan (its steps numbered) with its links made whole: a bare ``?present=1&step=opening`` pasted in a slide
    opens nothing, so each link points at ``base`` + query where the app's address is known."""
    text = _plan()
    return LINK.sub(lambda m: f"]({base}{m.group(1)})", text) if base else text


def _plan() -> str:
    return steps.expand(docs.text("plan"))


def slide_links(base: str | None) -> str:
    """Every link of the plan, one a line with its minutes, as pasted into slides: the full address where it is
    known, else the query (to add to the app's address)."""
    rows = [line for line in _plan().splitlines() if line.startswith("| ") and LINK.search(line)]
    out = []
    for row in rows:
        minutes = row.strip("| ").split("|", 1)[0].strip()
        out.append(f"{minutes:>5} min  {base or ''}{LINK.findall(row)[0]}")
    return "\n".join(out)


def body() -> None:
    """The plan, its links for slides and the handout's download button (in an expander of the caller's)."""
    base = app_address()
    st.markdown(plan_text(base))
    if base:
        st.caption("For your slides or course page, the links as full addresses (the copy button is at the right):")
    else:
        st.caption(
            "For your slides: add each of these to the app's address (the part of this page's address before "
            "any `?`), as in `https://…/learn?present=1&step=opening`:"
        )
    st.code(slide_links(base), language=None, wrap_lines=False)
    st.download_button(
        "Download the handout (HTML, printable, works offline)",
        cached.handout_html(),
        file_name=FILE_NAME,
        mime="text/html",
        key="learn.handout",
        on_click="ignore",
        icon=":material/download:",
    )
