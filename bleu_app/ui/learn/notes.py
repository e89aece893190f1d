"""A presenter's speaker notes (``?present=1&notes=1&deck=ID``), in a second window beside the slides (issue 34):
the step's prose that the slide leaves out, a timer, the next step's title, and Previous / Next buttons (and the
same keys) that move the slides too. The window polls its deck every second, so a move made on the slides shows
here within a second; both windows read the deck (``cached.Deck``), neither talks to the other."""

from __future__ import annotations

import time

import streamlit as st

from bleu_app.ui import cached
from bleu_app.ui.learn import present, steps
from bleu_app.ui.learn.lecture import Lecture

__all__ = ["clock", "show"]


def clock(seconds: float) -> str:
    """Minutes and seconds, as a timer shows them.

    Example:
        >>> clock(754.9), clock(3600)
        ('12:34', '60:00')
    """
    whole = int(max(seconds, 0))
    return f"{whole // 60:02d}:{whole % 60:02d}"


def show(w: Lecture) -> None:
    """The notes window of this session's deck."""
    st.markdown(f"<style>{present.FOCUS_CSS}</style>", unsafe_allow_html=True)
    _window(present.deck_id(), w)


def _restart(deck: str) -> None:
    cached.deck(deck).restart()


@st.fragment(run_every=present.FOLLOW_S)
def _window(deck: str, w: Lecture) -> None:
    """The deck's step as notes; run again every second (the timer, and a move made in the slides' window)."""
    shown = cached.deck(deck)
    key = shown.step or steps.KEYS[0]
    shown.move(key)
    step, at = steps.get(key), steps.number(key)
    last = len(steps.STEPS) - 1
    prev, timer, nxt = st.columns([1, 3, 1], vertical_alignment="center")
    prev.button(
        "← Previous",
        key="learn.step_prev",
        disabled=at <= 0,
        on_click=present.go,
        args=(steps.KEYS[max(at - 1, 0)],),
        width="stretch",
    )
    nxt.button(
        "Next →",
        key="learn.step_next",
        disabled=at >= last,
        on_click=present.go,
        args=(steps.KEYS[min(at + 1, last)],),
        width="stretch",
    )
    now = time.monotonic()
    timer.markdown(
        f"### :material/timer: {clock(now - shown.started)}\n\n{clock(now - shown.moved)} on this step",
        text_alignment="center",
    )
    with st.container(key="learn-notes-step"):
        st.subheader(steps.heading(step), anchor=False)
        following = steps.heading(steps.STEPS[at + 1]) if at < last else "the end of the lecture"
        st.caption(f"Next: {following}")
    with st.container(border=True, key="learn-notes"):
        if step.doc:
            w.notes(step.doc)
            for name in step.more:  # what the page shows of the step beside its figure
                w.doc(name)
        else:
            st.markdown("No notes for this screen: it is the class's.")
    st.button(
        "Restart the timer", key="learn.notes_restart", on_click=_restart, args=(deck,), icon=":material/restart_alt:"
    )
    present.keys(key, sidebar=False)
