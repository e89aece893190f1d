"""Part II of the Learn page, "Does BLEU work?" (the paper's sections 3-6): the quotes with their numbers and the
app's live recomputations beside them, one function per step (``steps`` draws each one's heading and opening
prose, then calls it); the data comes from ``frames.part2``."""

from __future__ import annotations

import re

import streamlit as st

from bleu_app.frames import part2 as frames
from bleu_app.ui import cached, cached_human
from bleu_app.ui.components import scores, vega
from bleu_app.ui.learn.lecture import Lecture
from bleu_core.metrics.bleu import make_signature

__all__ = [
    "blind",
    "blind_slide",
    "blocks",
    "blocks_slide",
    "correlation",
    "evaluation",
    "evaluation_slide",
    "human",
    "intro",
    "references",
    "references_slide",
]


def intro(w: Lecture) -> None:
    """Part II's opening paragraph (shown above its first step in the full page)."""
    w.doc("part2")


def evaluation(w: Lecture) -> None:
    """The paper's Table 1, as printed, and drawn with Table 2's spread over its 20 blocks."""
    evaluation_slide(w)
    vega.vega(cached_human.systems_spec())


def evaluation_slide(w: Lecture) -> None:
    """Table 1 alone: the slide is one screen (the chart is the page's)."""
    st.table(frames.table_1_frame())


def references(w: Lecture) -> None:
    """More references, higher scores: Example 1's Candidate 1 and the demo corpus, computed."""
    config = w.config
    one, demo = cached.part2_references(config)
    st.markdown("**Example 1, Candidate 1** (computed)")
    st.table(one)
    scores.signature(make_signature(config, "var"))
    st.markdown("**The built-in demo corpus** (30 invented segments, two invented references; computed)")
    st.table(demo)
    scores.signature(make_signature(config, "var"))


def references_slide(w: Lecture) -> None:
    """Example 1's Candidate 1 against all its references and each alone (the demo corpus's table is the page's)."""
    one, _ = cached.part2_references(w.config)
    st.table(one)
    scores.signature(make_signature(w.config, "var"))


def blocks_slide(w: Lecture) -> None:
    """The critical values in one line, then Table 2 with the unpaired t beside it."""
    st.markdown(
        f"Student's t at 95% (*computed*): **{frames.t_critical(19):.3f}** one-sided with 19 df · "
        f"**{frames.t_critical(19, one_sided=False):.3f}** two-sided · "
        f"**{frames.t_critical(5):.3f}** one-sided with 5 df"
    )
    st.table(frames.table_2_frame())


def blocks(w: Lecture) -> None:
    """The block test's critical values, computed, and the paper's Table 2."""
    left, mid, right = st.columns(3)
    left.metric("one-sided 95%, 19 df (computed)", f"{frames.t_critical(19):.3f}")
    mid.metric("two-sided 95%, 19 df (computed)", f"{frames.t_critical(19, one_sided=False):.3f}")
    right.metric("one-sided 95%, 5 df (computed)", f"{frames.t_critical(5):.3f}")
    st.table(frames.table_2_frame())


def human(w: Lecture) -> None:
    """The human evaluation: the step's prose is all of it."""


def correlation(w: Lecture) -> None:
    """The paper's correlations with their 95% intervals, computed."""
    rows = []
    for group, key in (
        ("monolingual (Figure 5)", "r monolingual (Figure 5)"),
        ("bilingual (Figure 6)", "r bilingual (Figure 6)"),
    ):
        r = float(frames.PAPER_HUMAN[key])
        lo, hi = frames.fisher_interval(r, len(frames.SYSTEMS))
        rows.append(
            {
                "group": group,
                "r (the paper)": frames.PAPER_HUMAN[key],
                "points": len(frames.SYSTEMS),
                "95% interval (computed)": f"{lo:.2f} to {hi:.3f}",
            }
        )
    st.table(rows)


def blind(w: Lecture) -> None:
    """What BLEU does not see, computed under the sidebar's settings."""
    st.table(cached.blind_spots(w.config))
    scores.signature(make_signature(w.config, "var"))


_REFERENCE = re.compile(r"^Example 1's Reference (\d) .*")


def blind_slide(w: Lecture) -> None:
    """The table of what BLEU does not see, its rows named short enough for one line each on a slide."""
    table = cached.blind_spots(w.config).to_pandas()
    table["candidate"] = [
        _REFERENCE.sub(r"Reference \1 against the other two", name)
        if i
        else "“East Asian economy” vs “economy of East Asia”"
        for i, name in enumerate(table["candidate"])
    ]
    st.table(table, hide_index=True)
    scores.signature(make_signature(w.config, "var"))
