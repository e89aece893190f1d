"""Part II of the Learn page, "Does BLEU work?" (the paper's sections 3-6): the quotes with their numbers and the
app's live recomputations beside them. The page calls ``show``; the data comes from ``frames.part2``."""

from __future__ import annotations

from collections.abc import Callable

import pyarrow as pa
import streamlit as st

from bleu_app import samples
from bleu_app.frames import part2 as frames
from bleu_core.config import BleuConfig
from bleu_core.metrics.bleu import make_signature

from . import docs, render

__all__ = ["HEADERS", "STEPS", "intro", "show"]

HEADERS = (
    "12 · The evaluation: 500 sentences, five systems (§3)",
    "13 · More references, higher scores (§3)",
    "14 · Is the difference reliable? 20 blocks (§3)",
    "15 · The human evaluation (§4)",
    "16 · BLEU against the humans: 0.99 and 0.96 (§5)",
    "17 · What BLEU does not see, and where next (footnote 4, §6)",
)


@st.cache_resource(max_entries=64, show_spinner=False)
def _references(config: BleuConfig) -> tuple[pa.Table, pa.Table]:
    demo = frames.demo_references_frame(samples.demo_corpus(), config)
    return pa.Table.from_pandas(frames.references_frame(config)), pa.Table.from_pandas(demo)


@st.cache_resource(max_entries=64, show_spinner=False)
def _blind_spots(config: BleuConfig) -> pa.Table:
    return pa.Table.from_pandas(frames.blind_spots_frame(config))


def intro() -> None:
    """Part II's opening paragraph (shown above its first step in the full page)."""
    docs.show("p2_intro")


def _evaluation(config: BleuConfig) -> None:
    st.header(HEADERS[0])
    docs.show("p2_eval")
    st.table(frames.table_1_frame())


def _references_step(config: BleuConfig) -> None:
    st.header(HEADERS[1])
    docs.show("p2_refs")
    one, demo = _references(config)
    st.markdown("**Example 1, Candidate 1** (computed)")
    st.table(one)
    render.signature(make_signature(config, "var"))
    st.markdown("**The built-in demo corpus** (30 invented segments, two invented references; computed)")
    st.table(demo)
    render.signature(make_signature(config, "var"))


def _blocks(config: BleuConfig) -> None:
    st.header(HEADERS[2])
    docs.show("p2_blocks")
    left, mid, right = st.columns(3)
    left.metric("one-sided 95%, 19 df (computed)", f"{frames.t_critical(19):.3f}")
    mid.metric("two-sided 95%, 19 df (computed)", f"{frames.t_critical(19, one_sided=False):.3f}")
    right.metric("one-sided 95%, 5 df (computed)", f"{frames.t_critical(5):.3f}")
    st.table(frames.table_2_frame())


def _human(config: BleuConfig) -> None:
    st.header(HEADERS[3])
    docs.show("p2_human")


def _correlation(config: BleuConfig) -> None:
    st.header(HEADERS[4])
    docs.show("p2_corr")
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


def _blind(config: BleuConfig) -> None:
    st.header(HEADERS[5])
    docs.show("p2_blind")
    st.table(_blind_spots(config))
    render.signature(make_signature(config, "var"))


STEPS: tuple[tuple[str, Callable[[BleuConfig], None]], ...] = tuple(
    zip(HEADERS, (_evaluation, _references_step, _blocks, _human, _correlation, _blind), strict=True)
)


def show(config: BleuConfig) -> None:
    """The six steps of Part II under the sidebar's ``config`` (for the live tables)."""
    intro()
    for _, step in STEPS:
        step(config)
