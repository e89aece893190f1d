"""Part I of the Learn page: the walk through the paper's section 2, one function per step, so that the page
can show them all or one at a time (presenter mode, ``?step=N``)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import streamlit as st

from bleu_app import samples
from bleu_app.frames import sentence as frames
from bleu_core.config import BleuConfig
from bleu_core.metrics.bleu import make_signature
from bleu_core.teaching.explain import SegmentExplanation

from . import docs, render, shared, state

__all__ = ["STEPS", "Walk", "load"]

ZERO_KEYS = ("ex1", "ex1c2", "ex2", "ex3", "ex4", "ex4c2")
ex3, ex4a, ex4b = samples.SENTENCE_SAMPLES["ex3"], samples.SENTENCE_SAMPLES["ex4"], samples.SENTENCE_SAMPLES["ex4c2"]


@dataclass(frozen=True, slots=True)
class Walk:
    """What the steps show, under one setting (everything shared by every session)."""

    config: BleuConfig
    c1: SegmentExplanation
    c2: SegmentExplanation
    e2: SegmentExplanation
    e3: SegmentExplanation
    e4a: SegmentExplanation
    e4b: SegmentExplanation
    pooled: Any
    zero_orders: Any


def load(config: BleuConfig) -> Walk:
    """The paper's examples under ``config``; raises ``InputError`` when the settings cannot score them."""
    return Walk(
        config,
        shared.example("ex1", config),
        shared.example("ex1c2", config),
        shared.example("ex2", config),
        shared.example("ex3", config),
        shared.example("ex4", config),
        shared.example("ex4c2", config),
        shared.pooling_table(config),
        shared.zero_orders_table(ZERO_KEYS, config),
    )


def _step1(w: Walk) -> None:
    e2 = w.e2
    st.header("1 · Plain precision: Example 2 (§2.1)")
    docs.show("00a_plain")
    if state.is_paper_config():
        with st.container(border=True):
            docs.show("counted")
    st.markdown("**Example 2.** The candidate and its two references:")
    render.show_html(render.candidate_html(e2, n=1) + render.references_html(e2, best_match=False))
    st.metric(
        "Plain precision (no clipping)",
        frames.fraction(*frames.plain_precision(e2, 1)),
        help="Every candidate word that occurs in some reference counts.",
    )


def _step2(w: Walk) -> None:
    config, c1, c2, e2 = w.config, w.c1, w.c2, w.e2
    st.header("2 · Clipping: the modified unigram precision (§2.1)")
    docs.show("01_unigram")
    st.metric(
        "Modified precision p₁",
        frames.fraction(e2.orders[0].matches, e2.orders[0].total),
        help="Each word's count clipped by Max_Ref_Count.",
    )
    st.table(shared.clip_table("ex2", config, 1), hide_index=False)
    st.markdown("**Example 1.** The three references:")
    docs.show("02_clipping")
    render.show_html(render.references_html(c1, best_match=False))
    st.markdown(
        f"**Candidate 1** — modified unigram precision "
        f"**p₁ = {frames.fraction(c1.orders[0].matches, c1.orders[0].total)}**"
    )
    render.show_html(render.legend_html() + render.candidate_html(c1, n=1))
    st.table(shared.clip_table("ex1", config, 1), hide_index=False)
    st.markdown(f"**Candidate 2** — **p₁ = {frames.fraction(c2.orders[0].matches, c2.orders[0].total)}**")
    render.show_html(render.candidate_html(c2, n=1))
    with st.expander("Candidate 2's clipping table"):
        st.table(shared.clip_table("ex1c2", config, 1), hide_index=False)


def _step3(w: Walk) -> None:
    config, c1, c2, e2 = w.config, w.c1, w.c2, w.e2
    st.header("3 · Bigrams and longer n-grams (§2.1)")
    docs.show("03_bigrams")
    left, right = st.columns(2)
    with left:
        st.markdown(
            f"**Candidate 1: p₂ = {frames.fraction(c1.orders[1].matches, c1.orders[1].total)}**"
            if len(c1.orders) > 1
            else "Max order is 1: no bigrams."
        )
        render.show_html(render.candidate_html(c1, n=2))
    with right:
        st.markdown(
            f"**Candidate 2: p₂ = {frames.fraction(c2.orders[1].matches, c2.orders[1].total)}**"
            if len(c2.orders) > 1
            else ""
        )
        render.show_html(render.candidate_html(c2, n=2))
    if len(e2.orders) > 1:
        st.markdown(f"**Example 2: p₂ = {frames.fraction(e2.orders[1].matches, e2.orders[1].total)}**")
    with st.expander("The bigram clipping tables"):
        st.markdown("**Candidate 1**")
        st.table(shared.clip_table("ex1", config, 2), hide_index=False)
        st.markdown("**Candidate 2**")
        st.table(shared.clip_table("ex1c2", config, 2), hide_index=False)


def _step4(w: Walk) -> None:
    st.header("4 · A corpus: add the counts, then divide (§2.1.1)")
    docs.show("03b_corpus")
    st.table(w.pooled, hide_index=False)


def _step5(w: Walk) -> None:
    config, c1, c2 = w.config, w.c1, w.c2
    st.header("5 · Precision decays with n (§2.1.3)")
    docs.show("04_decay")
    left, right = st.columns(2)
    with left:
        st.markdown(f"**Candidate 1:** {render.precision_summary(c1)}")
        render.vega(shared.decay_spec("ex1", config, together=("ex1", "ex1c2")))
    with right:
        st.markdown(f"**Candidate 2:** {render.precision_summary(c2)}")
        render.vega(shared.decay_spec("ex1c2", config, together=("ex1", "ex1c2")))


def _step6(w: Walk) -> None:
    c1, c2 = w.c1, w.c2
    st.header("6 · The geometric mean (§2.1.3)")
    docs.show("04b_geomean")
    for name, ex in (("Candidate 1", c1), ("Candidate 2", c2)):
        expr, geo = frames.geometric_mean(ex)
        geo_text = "0" if geo is None else f"{geo:.4f}"
        st.markdown(
            f"**{name}:** geometric mean {expr} = **{geo_text}**; arithmetic mean {frames.arithmetic_mean(ex):.4f}"
        )


def _step7(w: Walk) -> None:
    e3 = w.e3
    st.header("7 · Short candidates: Example 3 (§2.2)")
    docs.show("06a_short")
    st.markdown(f"**Example 3** — candidate *{ex3.hyp}*: {render.precision_summary(e3)}")


def _step8(w: Walk) -> None:
    e4a, e4b = w.e4a, w.e4b
    st.header("8 · Why not recall: Example 4 (§2.2.1)")
    docs.show("07_recall")
    left, right = st.columns(2)
    with left:
        render.recall_card(ex4a.label, e4a)
    with right:
        render.recall_card(ex4b.label, e4b)
    render.show_html(render.references_html(e4a, best_match=False))


def _step9(w: Walk) -> None:
    config, e3 = w.config, w.e3
    st.header("9 · The brevity penalty (§2.2.2)")
    docs.show("06_brevity")
    st.markdown(f"**Example 3** — candidate *{ex3.hyp}* and Example 1's references:")
    render.show_html(render.references_html(e3))
    left, right = st.columns([2, 3])
    with left:
        st.metric("c (candidate length)", e3.hyp_len)
        st.metric("r (best match length)", e3.closest_ref_len, help=f"Reference lengths {list(e3.ref_lens)}")
        st.metric("BP = exp(1 − r/c)", f"{e3.score.bp:.5f}")
    with right:
        render.vega(shared.bp_spec("ex3", config))
    st.subheader("The best match length: 12, 15 and 17 words")
    docs.show("06b_best_match")
    lens = samples.BEST_MATCH_EXAMPLE[1]
    st.table(shared.best_match_table(tuple(lens), (10, 12, 13, 14, 16, 17, 20)), hide_index=False)


def _step10(w: Walk) -> None:
    config, c1 = w.config, w.c1
    st.header("10 · BLEU, in the log domain (§2.3)")
    docs.show("05_logdomain")
    log_spec, log_table = shared.log_terms("ex1", config)
    left, right = st.columns([3, 2])
    with left:
        render.vega(log_spec)
    with right:
        st.markdown("**Candidate 1's terms**")
        st.table(log_table, hide_index=False)
        render.score_headline("BLEU = exp(log BLEU)", c1.score)
        st.markdown("**The toy corpus's terms** (step 4)")
        st.table(shared.corpus_log_terms(config), hide_index=False)
        corpus, mean = shared.corpus_vs_mean(config)
        st.markdown(
            f"The toy corpus's BLEU is **{corpus:.2f}**. The mean of its six sentence scores, **{mean:.2f}**, is "
            "not BLEU: the sentences' counts are pooled first (step 4)."
        )


def _step11(w: Walk) -> None:
    config = w.config
    st.header("11 · Why five of the six candidates score 0 (§2.1.3, footnote 5)")
    docs.show("08_zero")
    st.dataframe(w.zero_orders, hide_index=True, width="stretch", key="learn.zero_orders")
    render.signature(make_signature(config, 3))


STEPS: tuple[tuple[str, Callable[[Walk], None]], ...] = (
    ("1 · Plain precision: Example 2 (§2.1)", _step1),
    ("2 · Clipping: the modified unigram precision (§2.1)", _step2),
    ("3 · Bigrams and longer n-grams (§2.1)", _step3),
    ("4 · A corpus: add the counts, then divide (§2.1.1)", _step4),
    ("5 · Precision decays with n (§2.1.3)", _step5),
    ("6 · The geometric mean (§2.1.3)", _step6),
    ("7 · Short candidates: Example 3 (§2.2)", _step7),
    ("8 · Why not recall: Example 4 (§2.2.1)", _step8),
    ("9 · The brevity penalty (§2.2.2)", _step9),
    ("10 · BLEU, in the log domain (§2.3)", _step10),
    ("11 · Why five of the six candidates score 0 (§2.1.3, footnote 5)", _step11),
)
