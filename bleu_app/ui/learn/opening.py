"""The Learn page's opening, its first step (teaching review proposal A): Example 1 with no numbers, a class vote,
then the reveal of what each candidate shares with the references — the paper's list (section 2) and the engine's
runs.

The vote and the reveal are kept in the session (not only in the widgets, whose state Streamlit drops when a
presenter moves to another step), so going back to the opening shows the class's answer again.
"""

from __future__ import annotations

import html
from typing import Final

import streamlit as st

from bleu_app.lessons import opening as lesson
from bleu_app.ui import cached, state
from bleu_app.ui.components import highlight, scores
from bleu_app.ui.learn.lecture import Lecture
from bleu_core.config import BleuConfig
from bleu_core.metrics.bleu import make_signature
from bleu_core.teaching.paper import EXAMPLE_1

__all__ = ["CHOICES", "sentences", "show", "slide"]

CHOICES: Final = ("Candidate 1", "Candidate 2", "We cannot tell")


def _keep() -> None:
    state.put(state.VOTE_KEPT, state.get(state.VOTE))


def _reveal(on: bool) -> None:
    state.put(state.VOTE_REVEALED, on)


def _refs(refs: tuple[int, ...]) -> str:
    return ", ".join(f"Reference {k}" for k in refs) if refs else "none"


def runs_html(runs: tuple[lesson.Run, ...]) -> str:
    """The candidate as runs: each shared run one highlighted span with its references (R1, R2 …) beside it, a
    word no reference has underlined as unmatched. Escaped."""
    parts = []
    for run in runs:
        if run.refs:
            where = " ".join(f"R{k}" for k in run.refs)
            title = html.escape(f"in {_refs(run.refs)}", quote=True)
            # the run's last word and its tags in one unbreakable box: a narrow screen never wraps them apart
            *head, last = run.tokens
            lead = html.escape(" ".join(head) + " ") if head else ""
            tags = html.escape(where).replace(" ", "&nbsp;")
            parts.append(
                f'<span class="bleu-tok matched" title="{title}">{lead}<span class="bleu-keep">'
                f"{html.escape(last)}<sub>{tags}</sub></span></span>"
            )
        else:
            text = html.escape(" ".join(run.tokens))
            parts.append(f'<span class="bleu-tok unmatched" title="in no reference">{text}</span>')
    return f'<div class="bleu-text" dir="auto">{" ".join(parts)}</div>'


def sentences() -> None:
    """Example 1's candidates and references as the paper prints them (fixed text with no Markdown in it)."""
    for k, cand in enumerate(EXAMPLE_1.candidates, start=1):
        st.markdown(f"**Candidate {k}:** {cand}")
    st.markdown("**The three references** (human translations):")
    st.markdown("\n".join(f"{k}. {ref}" for k, ref in enumerate(EXAMPLE_1.references, start=1)))


def _vote(*, horizontal: bool = False) -> str | None:
    """The class's vote; its answer.

    The radio always starts from the kept answer. Back on this step the server may still hold the widget's value
    while the browser mounts a fresh radio from its default: with the kept answer as the default both agree (the
    key alone is the widget's identity, so the default may change). Restoring it through the Session State API
    instead left the browser's radio blank."""
    kept = state.get(state.VOTE_KEPT)
    index = CHOICES.index(kept) if kept in CHOICES else None
    st.radio(
        "The class's vote: which translation is better?",
        CHOICES,
        index=index,
        key=state.VOTE,
        on_change=_keep,
        horizontal=horizontal,
    )
    vote: str | None = state.get(state.VOTE)
    return vote


def _reveal_button(*, beside: bool = False) -> None:
    st.button(
        "Reveal what each shares with the references",
        key="learn.vote_reveal",
        on_click=_reveal,
        args=(True,),
        type="primary",
        icon=":material/visibility:",
        width="stretch" if beside else "content",
        wrap=True if beside else None,  # beside the vote on a slide: on two lines, never cut
    )


def _verdict(vote: str | None) -> str:
    return {
        "Candidate 1": "The class picked **Candidate 1**, as the paper does.",
        "Candidate 2": "The class picked **Candidate 2**; the paper calls Candidate 1 the good translation.",
        "We cannot tell": "The class could not tell; the paper calls Candidate 1 the good translation.",
    }.get(vote or "", "No vote was recorded; the paper calls Candidate 1 the good translation.")


def _runs(runs: tuple[tuple[lesson.Run, ...], ...]) -> None:
    for k, cand_runs in enumerate(runs, start=1):
        st.markdown(f"**Candidate {k}** — shared runs (computed)")
        highlight.show_html(runs_html(cand_runs))


def slide(w: Lecture) -> None:
    """The opening as a slide: the sentences, then the vote in a row with Reveal; revealed, the verdict, the runs and
    the paper's list (a build: taller than the screen, the clicker scrolls it), the reveal's prose in the notes."""
    if not state.get(state.VOTE_REVEALED):
        sentences()
        left, right = st.columns([3, 2], vertical_alignment="bottom")
        with left:
            _vote(horizontal=True)
        with right:
            _reveal_button(beside=True)
        return
    left, right = st.columns([3, 1], vertical_alignment="center")
    left.markdown(_verdict(state.get(state.VOTE)))
    right.button("Hide the answer", key="learn.vote_hide", on_click=_reveal, args=(False,), width="stretch")
    _revealed()


def _revealed() -> None:
    """The reveal's runs and tables (its prose is the page's, and the speaker's notes on a slide)."""
    paper_list, runs, summaries = cached.opening()
    _runs(runs)
    st.table(
        [
            {
                "the paper's phrase": s.phrase,
                "the paper: shared with": _refs(s.paper_refs),
                "found in (computed)": _refs(s.found_in),
            }
            for s in paper_list
        ]
    )
    st.table(
        {f"Candidate {k}": summary for k, summary in enumerate(summaries, start=1)},
    )
    scores.signature(make_signature(BleuConfig.paper(), len(EXAMPLE_1.references)), what="Counts (the paper's preset)")


def show(w: Lecture) -> None:
    """The opening: the vote, then (on the button) the reveal."""
    sentences()
    vote = _vote()
    if not state.get(state.VOTE_REVEALED):
        _reveal_button()
        return
    st.markdown(_verdict(vote))
    w.doc("opening_reveal")
    w.doc("opening_runs")
    _revealed()
    st.button("Hide the answer again", key="learn.vote_hide", on_click=_reveal, args=(False,))
