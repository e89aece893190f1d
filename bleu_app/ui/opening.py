"""The Learn page's opening, step 0 (teaching review proposal A): Example 1 with no numbers, a class vote, then the
reveal of what each candidate shares with the references — the paper's list (section 2) and the engine's runs.

The vote and the reveal are kept in the session (not only in the widgets, whose state Streamlit drops when a
presenter moves to another step), so going back to step 0 shows the class's answer again.
"""

from __future__ import annotations

import html
from typing import Final

import streamlit as st

from bleu_app.frames import opening as frames
from bleu_core.config import BleuConfig
from bleu_core.metrics.bleu import make_signature
from bleu_core.teaching.paper import EXAMPLE_1

from . import docs, render

__all__ = ["CHOICES", "KEPT", "REVEALED", "TITLE", "VOTE", "show"]

TITLE: Final = "0 · Which translation is better? (§2)"
VOTE: Final = "learn.vote"  # the radio
KEPT: Final = "learn.vote_kept"  # the class's answer, kept when the radio is not on screen
REVEALED: Final = "learn.vote_revealed"
CHOICES: Final = ("Candidate 1", "Candidate 2", "We cannot tell")


@st.cache_resource(show_spinner=False)
def _computed() -> tuple[tuple[frames.Shared, ...], tuple[tuple[frames.Run, ...], ...], tuple[dict[str, str], ...]]:
    expls = [frames.explained(i) for i in range(len(EXAMPLE_1.candidates))]
    return frames.paper_list(), tuple(frames.shared_runs(e) for e in expls), tuple(frames.summary(e) for e in expls)


def _keep() -> None:
    st.session_state[KEPT] = st.session_state.get(VOTE)


def _reveal(on: bool) -> None:
    st.session_state[REVEALED] = on


def _refs(refs: tuple[int, ...]) -> str:
    return ", ".join(f"Reference {k}" for k in refs) if refs else "none"


def runs_html(runs: tuple[frames.Run, ...]) -> str:
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


def show(config: BleuConfig | None = None) -> None:
    """Step 0: the vote, then (on the button) the reveal."""
    ss = st.session_state
    st.header(TITLE)
    docs.show("00b_opening")
    # the paper's sentences as it prints them (fixed text with no Markdown in it)
    for k, cand in enumerate(EXAMPLE_1.candidates, start=1):
        st.markdown(f"**Candidate {k}:** {cand}")
    st.markdown("**The three references** (human translations):")
    st.markdown("\n".join(f"{k}. {ref}" for k, ref in enumerate(EXAMPLE_1.references, start=1)))
    # The radio always starts from the kept answer. Back on this step the server may still hold the widget's value
    # while the browser mounts a fresh radio from its default: with the kept answer as the default both agree (the
    # key alone is the widget's identity, so the default may change). Restoring it through the Session State API
    # instead left the browser's radio blank.
    kept = ss.get(KEPT)
    index = CHOICES.index(kept) if kept in CHOICES else None
    st.radio("The class's vote: which translation is better?", CHOICES, index=index, key=VOTE, on_change=_keep)
    vote = ss.get(VOTE)
    if not ss.get(REVEALED):
        st.button(
            "Reveal what each shares with the references",
            key="learn.vote_reveal",
            on_click=_reveal,
            args=(True,),
            type="primary",
            icon=":material/visibility:",
        )
        return
    paper_list, runs, summaries = _computed()
    verdict = {
        "Candidate 1": "The class picked **Candidate 1**, as the paper does.",
        "Candidate 2": "The class picked **Candidate 2**; the paper calls Candidate 1 the good translation.",
        "We cannot tell": "The class could not tell; the paper calls Candidate 1 the good translation.",
    }.get(vote or "", "No vote was recorded; the paper calls Candidate 1 the good translation.")
    st.markdown(verdict)
    docs.show("00c_reveal")
    docs.show("00d_runs")
    for k, cand_runs in enumerate(runs, start=1):
        st.markdown(f"**Candidate {k}** — shared runs (computed)")
        render.show_html(runs_html(cand_runs))
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
    render.signature(make_signature(BleuConfig.paper(), len(EXAMPLE_1.references)), what="Counts (the paper's preset)")
    st.button("Hide the answer again", key="learn.vote_hide", on_click=_reveal, args=(False,))
