"""The Learn page: one step (presenter mode, a step's link) or the whole page, the lecture's steps in their tabs."""

from __future__ import annotations

import streamlit as st

from bleu_app.ui import state
from bleu_app.ui.components import scores
from bleu_app.ui.learn import follow, links, notes, part2, present, steps, teacher
from bleu_app.ui.learn.lecture import Lecture
from bleu_core.config import BleuConfig
from bleu_core.errors import InputError


def show() -> None:
    """The page the URL asks for."""
    if follow.following():  # a student's phone in step with the lecture: the slides are written for the paper's
        follow.phone(steps.load(BleuConfig.paper()))
        st.stop()
    if not present.presenting():  # presenter mode: the step's own heading is the slide's title
        st.title("Learn BLEU, step by step")
    # Everything that is not text comes from the cache layer: built once per (example, settings) for every session.
    try:
        w = steps.load(state.config())
    except InputError as exc:
        scores.user_error(exc, what="These settings cannot score the paper's examples")
        st.stop()
    follow.come_back()
    at = present.current()
    if at is not None:  # presenter mode (its slides or its notes) or a link to one step
        if state.notes_window():
            notes.show(w)
        else:
            present.show_step(at, w)
        st.stop()
    _top(w)
    tabs = st.tabs(list(steps.TABS.values()), default=present.default_tab())
    for tab, part in zip(tabs, steps.TABS, strict=True):
        with tab:
            if part == "part2":
                part2.intro(w)
            for step in steps.in_part(part):
                steps.draw(step, w)


def _top(w: Lecture) -> None:
    """The page's introduction, the teacher's tools and, under other settings than the paper's, the way back."""
    if links.linked():  # a link to a tab or an item: the intro and the plan folded, so what it names is near the top
        with st.expander(teacher.FOLDED, expanded=False, icon=":material/info:"):
            w.doc("intro")
            teacher.body()
    else:
        teacher.show()
        w.doc("intro")
    if not state.is_paper_config():
        with st.container(border=True):
            w.doc("settings_note")
            st.button(
                "Use the paper's settings",
                key="learn.use_paper",
                on_click=state.use_paper_preset,
                type="primary",
                icon=":material/history_edu:",
            )
