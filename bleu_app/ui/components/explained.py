"""chrF and TER explained on the One sentence page (issue 33): for each chosen metric, what it counted in this
sentence (chrF's orders against the reference it chose, TER's edits), the tables from
``bleu_app.frames.metric_explain``."""

from __future__ import annotations

from collections.abc import Sequence

import streamlit as st

from bleu_app import markup
from bleu_app.frames import metric_explain as frames
from bleu_app.frames.metrics import Shown
from bleu_core.metrics.chrf import Chrf
from bleu_core.metrics.ter import Ter
from bleu_core.metrics.ter_edits import ter_edits
from bleu_core.teaching.chrf_explain import explain_chrf

__all__ = ["metrics_explained"]


def metrics_explained(hyp: str, refs: Sequence[str], shown: Sequence[Shown]) -> None:
    """A section per chosen chrF or TER: what it counted in this sentence."""
    for s in shown:
        if isinstance(s.metric, Chrf):
            _chrf(hyp, refs, s.metric)
        elif isinstance(s.metric, Ter):
            _ter(hyp, refs, s.metric)


def _chrf(hyp: str, refs: Sequence[str], metric: Chrf) -> None:
    e = explain_chrf(hyp, list(refs), metric=metric)
    st.subheader(f"{metric.name} explained")
    chosen = f"reference {e.ref_index + 1}" if len(refs) > 1 else "the reference"
    others = ", ".join(f"reference {k + 1}: {v:.2f}" for k, v in enumerate(e.ref_scores) if k != e.ref_index)
    why = f" (its sentence {metric.name} is the best: {e.score:.2f}; {others})" if others else ""
    st.markdown(
        f"{metric.name} = **{e.score:.2f}** against {chosen}{why}. It counts character n-grams of orders 1 to "
        f"{metric.char_order} (spaces {'kept' if metric.whitespace else 'removed'})"
        + (f" and word n-grams of orders 1 to {metric.word_order}" if metric.word_order else "")
        + "; a wrong inflection still shares most of its characters, so it earns part of the credit BLEU "
        "gives none."
    )
    table = frames.chrf_order_frame(e)
    percent = st.column_config.NumberColumn(format="%.2f")  # one number of decimals down each column
    st.dataframe(
        table,
        hide_index=True,
        key="sentence.chrf_orders",
        column_config={c: percent for c in table.columns if str(c).endswith(" %")},
    )
    how = (
        "the mean of the orders' F (an order one side lacks counts an epsilon: chrF++.py's smoothing)"
        if metric.eps_smoothing
        else "precision and recall averaged over the orders both sides have (the effective order), then their "
        f"F{metric.beta:g}: recall weighs {metric.beta:g} times as much as precision"
    )
    st.caption(f"How the orders combine: {how}. The counts are sacreBLEU's statistics for this sentence.")
    _highlight(hyp, refs[e.ref_index], metric)


def _ter(hyp: str, refs: Sequence[str], metric: Ter) -> None:
    o = metric.options
    e = ter_edits(
        hyp,
        list(refs),
        normalized=o.normalized,
        no_punct=o.no_punct,
        asian_support=o.asian_support,
        case_sensitive=o.case_sensitive,
    )
    st.subheader("TER explained")
    chosen = f"reference {e.ref_index + 1} (the fewest edits)" if len(refs) > 1 else "the reference"
    st.markdown(
        f"TER = {e.num_edits} edits / {e.ref_length:g} reference words (the references' average length) = "
        f"**{e.score:.2f}**, the edits that turn the candidate into {chosen}. A shift moves a block of words and "
        "counts one edit; lower is better."
    )
    steps = [f"{markup.md_escape(name)}: “{markup.md_escape(text)}”" for name, text in e.hypothesis.steps]
    if steps:
        st.caption("What TER's preprocessing did to the candidate first: " + "; ".join(steps))
    st.dataframe(frames.ter_edit_frame(e), hide_index=True, key="sentence.ter_edits")


def _highlight(hyp: str, ref: str, metric: Chrf) -> None:
    """The matched character n-grams of one order, marked in the candidate and the chosen reference."""
    n = st.select_slider(
        "Show the matched character n-grams of order",
        list(range(1, metric.char_order + 1)),
        value=min(3, metric.char_order),
        key="sentence.chrf_n",
    )
    h, r, matches = frames.char_matches(hyp, ref, n, whitespace=metric.whitespace, lowercase=metric.lowercase)
    st.html(
        f'<div class="chrf-marks"><p><b>Candidate:</b> {frames.marked_html(hyp, h)}</p>'
        f"<p><b>Reference:</b> {frames.marked_html(ref, r)}</p></div>"
    )
    st.caption(f"{matches} matched {n}-grams of characters (marked: their first occurrences on each side).")
