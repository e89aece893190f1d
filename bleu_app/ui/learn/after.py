""" "After BLEU" on the Learn page (issue 33): chrF and TER on the paper's sentences, and what a difference means to
people, one function per step (``steps`` draws each one's heading and opening prose, then calls it); the data
comes from ``frames.after`` through ``cached_after``."""

from __future__ import annotations

import streamlit as st

from bleu_app.frames import after as frames
from bleu_app.ui import cached_after, state
from bleu_app.ui.components import scores
from bleu_app.ui.learn.lecture import Lecture
from bleu_core.config import BleuConfig
from bleu_core.significance.thresholds import CITATION

__all__ = ["chrf", "chrf_bug", "chrf_bug_slide", "chrf_slide", "people", "ter", "ter_slide"]

_ANSWERS = ("higher", "lower", "the same")
_ROUND = "learn.after.chrf_bug"  # the round's radio (its widget key)


def chrf(w: Lecture) -> None:
    """BLEU beside chrF on the paper's candidates, footnote 4's paraphrase and a wrong inflection."""
    st.table(cached_after.chrf_table(w.config), hide_index=True)
    for what, signature in frames.signatures(w.config)[:2]:
        scores.signature(signature, what=what)


def chrf_slide(w: Lecture) -> None:
    """The chrF table on a slide: without the candidates' long texts (the notes have them)."""
    table = cached_after.chrf_table(w.config).to_pandas().drop(columns=["candidate", "references"])
    st.table(table, hide_index=True)
    for what, signature in frames.signatures(w.config)[:2]:
        scores.signature(signature, what=what)


def ter(w: Lecture) -> None:
    """TER's edits on Candidate 2, with the count over the average reference length."""
    table, n = cached_after.ter_table()
    st.markdown(
        f"Candidate 2 against its closest reference (Reference {n['reference']}): **{n['edits']} edits** over an "
        f"average reference length of {n['length']} words: **TER = {n['ter']}**."
    )
    st.table(table.to_pandas(), hide_index=True)
    scores.signature(frames.signatures(w.config)[2][1], what="TER")


def ter_slide(w: Lecture) -> None:
    """TER's count and its edits grouped by kind: one screen."""
    table, n = cached_after.ter_table()
    st.markdown(f"Candidate 2 → Reference {n['reference']}: **{n['edits']} edits / {n['length']} = TER {n['ter']}**")
    st.table(frames.ter_by_kind(table.to_pandas()), hide_index=True)
    scores.signature(frames.signatures(w.config)[2][1], what="TER")


def people(w: Lecture) -> None:
    """The share of judges expected to agree with a difference, for BLEU and chrF."""
    st.table(cached_after.people_table(), hide_index=True)
    st.caption(f"Source: {CITATION}. Computed from their published constants.")


def chrf_bug(w: Lecture) -> None:
    """The prediction round: the corpus, a prediction, then the scores right and misimplemented."""
    _round(w, slide=False)


def chrf_bug_slide(w: Lecture) -> None:
    """The round on a slide, built up: the corpus and the question, then the answer in the corpus's place."""
    _round(w, slide=True)


def _round(w: Lecture, *, slide: bool) -> None:
    del w  # the round's numbers do not depend on the lecture's BLEU settings
    table, lab = cached_after.chrf_lab()
    guess = state.get(_ROUND)
    if not (slide and guess):
        st.table(lab, hide_index=True)
    question = "B's corpus chrF with that implementation is ..."
    guess = st.radio(question, _ANSWERS, index=None, horizontal=True, key=_ROUND)
    if guess is None:
        st.caption("Choose an answer to see the scores.")
        return
    answer = table.to_pandas()
    b = answer.iloc[1]
    gap = float(b["chrF, dropped"]) - float(b["chrF (sacreBLEU)"])
    right = _ANSWERS[0] if gap > 0 else _ANSWERS[1] if gap < 0 else _ANSWERS[2]
    verdict = "Right" if guess == right else f"Not quite: it is {right}"
    st.markdown(f"**{verdict}.** Dropped references inflate recall, and the ranking of A and B turns over:")
    st.table(answer.drop(columns=["sentences matching nothing"]) if slide else answer, hide_index=True)
    scores.signature(frames.signatures(BleuConfig.paper())[1][1].replace("nrefs:var", "nrefs:1"), what="chrF")
