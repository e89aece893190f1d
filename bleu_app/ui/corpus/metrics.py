"""The chosen metrics on the corpus and compare pages: a score card per metric, the systems table with every
metric's columns and signatures, and per metric the interval chart, the significance matrix and the ranking in
clusters (``bleu_app.frames.metrics`` resolves the sidebar's choice; every number here is cached in ``cached``).

Each chart and table says which metric it shows; an error rate (TER) ranks lowest first and says so.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import pandas as pd
import streamlit as st

from bleu_app import markup
from bleu_app.frames import agreement, corpus as frames, metrics as metric_frames, signs
from bleu_app.frames.metrics import Shown
from bleu_app.frames.names import with_short_names
from bleu_app.ui import cached, state
from bleu_app.ui.components import scores
from bleu_app.views.ranking import RankingView, ranking_view
from bleu_core.config import BleuConfig
from bleu_core.data.corpus import Corpus
from bleu_core.significance.families import Family

__all__ = ["MetricResult", "chosen", "rankings", "results", "score_cards", "signature_lines", "systems_table"]


@dataclass(frozen=True)
class MetricResult:
    """One chosen metric on the compare page: the systems table, the significance frame and their ranking view."""

    shown: Shown
    systems: pd.DataFrame
    significance: pd.DataFrame
    view: RankingView


def chosen(corpus: Corpus, config: BleuConfig) -> list[Shown]:
    """The metrics the sidebar chose that this corpus can show (BLEU when none)."""
    return metric_frames.resolve(state.metric_keys(), config, corpus)


def results(
    corpus: Corpus,
    shown: Sequence[Shown],
    baseline: str,
    method: str,
    trials: int,
    seed: int,
    *,
    family: Family = "all",
) -> list[MetricResult]:
    """Every chosen metric's systems table, significance frame and ranking with ``family``'s marks (raises the
    core's ``InputError``)."""
    pool = cached.pool_size(method, trials, seed)
    cached.pools(corpus, shown, pool, cached.DEFAULT_SEED)  # every metric's resamples from one set of draws
    if method == "bs" and seed != cached.DEFAULT_SEED:
        cached.pools(corpus, shown, trials, seed)  # the test's own draws
    out = []
    for s in shown:
        systems = cached.systems_frame(corpus, s, baseline, pool)
        significance = cached.significance_frame(corpus, s, method, trials, seed)
        view = ranking_view(systems, significance, corpus.names, baseline, metric=s.metric, family=family)
        out.append(MetricResult(s, systems, significance, view))
    return out


def signature_lines(shown: Shown, nrefs: int, **test: int) -> str:
    """Markdown: the metric's name, our signature and sacreBLEU's (or that it has none), spaced at the bars."""
    ours, theirs = metric_frames.signatures(shown.metric, nrefs, **test)
    text = f"**{markup.md_escape(shown.name)}**: {_sig(ours)}"
    if theirs is not None:
        text += f"  \nsacreBLEU: {_sig(theirs)}"
    elif not shown.imported:
        text += "  \n(no sacreBLEU signature: sacreBLEU cannot express these settings)"
    return text


def _sig(sig: str) -> str:
    return sig.replace("|", " | ").replace("_", "\\_").replace("*", "\\*")


def systems_table(corpus: Corpus, found: Sequence[MetricResult], config: BleuConfig) -> pd.DataFrame:
    """The systems table with every chosen metric's score, interval and difference to the baseline (rows in the
    first metric's ranking), and every metric's signatures under it; returns the table."""
    first = found[0].view
    table = metric_frames.side_by_side([(r.shown.metric, r.systems) for r in found], first.order)
    table = agreement.with_human_accuracy(table, [r.shown.metric for r in found])
    fmt: dict[str, Any] = {
        agreement.accuracy_column(r.shown.name): st.column_config.NumberColumn(format="%.0f%%") for r in found
    }
    for r in found:  # a difference (and its interval's ends) that rounds to zero shows no sign (never "-0.00")
        differences = (metric_frames.vs_baseline(r.shown.name), *metric_frames.vs_interval(r.shown.name))
        for column in differences:
            if column in table:
                digits = metric_frames.decimals(r.shown.metric)
                table[column] = signs.zero_unsigned(table[column], digits, rounded=False)
        number = metric_frames.number_format(r.shown.metric)
        low, high = metric_frames.ci_columns(r.shown.name)
        fmt |= {c: st.column_config.NumberColumn(format=number) for c in (r.shown.name, low, high)}
        signed = metric_frames.number_format(r.shown.metric, signed=True)
        fmt |= {c: st.column_config.NumberColumn(format=signed) for c in differences}
    fmt |= {
        frames.BP: st.column_config.NumberColumn(format="%.3f"),
        frames.RATIO: st.column_config.NumberColumn(format="%.3f"),
        **{
            f"p{n}": st.column_config.NumberColumn(f"p{n} %", format="%.2f")
            for n in range(1, config.max_ngram_order + 1)
        },
    }
    shown = with_short_names(table, first.labels)  # the charts' names; the file's own in a column
    st.dataframe(shown, hide_index=True, key="compare.systems", column_config=fmt)
    if any(agreement.accuracy_column(r.shown.name) in table for r in found):
        st.caption(agreement.ACCURACY_CAVEAT)
    nrefs = cached.nrefs(corpus)
    with st.container(border=True):
        for r in found:
            st.caption(signature_lines(r.shown, nrefs, bs=cached.CI_DRAWS, rs=cached.DEFAULT_SEED))
    return table


def chart_key(base: str, shown: Shown, index: int) -> str:
    """A chart's widget key: the first metric's keeps the page's old key (links and tests name it)."""
    return base if index == 0 else f"{base}.{shown.key}"


def rankings(corpus: Corpus, found: Sequence[MetricResult], baseline: str, method: str, trials: int, seed: int) -> None:
    """Per metric, two to a row: the significance matrix with its test's signatures; under them each metric's
    ranking in clusters at the page's width (half of it cut the score column off: a ranking has up to seven
    columns; the metrics' ranks side by side are the agreement section's)."""
    nrefs = cached.nrefs(corpus)
    for start in range(0, len(found), 2):
        row = found[start : start + 2]
        columns = st.columns(2) if len(found) > 1 else [st.container()]
        for i, (col, r) in enumerate(zip(columns, row, strict=False), start=start):
            with col:
                st.altair_chart(r.view.heatmap, key=chart_key("compare.matrix", r.shown, i))  # type: ignore[call-overload]
                st.caption(signature_lines(r.shown, nrefs, **{method: trials}, rs=seed))
        for r in row:
            _ranking(r, baseline)


def _ranking(r: MetricResult, baseline: str) -> None:
    lower = "" if r.shown.metric.higher_is_better else " (lower is better)"
    st.markdown(f"**Ranked by {markup.md_escape(r.shown.name)}{lower}, in significance clusters**")
    view = r.view
    st.html(
        markup.ranking_html(
            view.ranked, view.labels, baseline, score=view.score, digits=view.digits, vs=view.vs, vs_head=view.vs_head
        )
    )
    st.caption(markup.md_escape(view.mark_note))


def learning_curve(first: MetricResult) -> None:
    """When the systems are checkpoints of one run: the first metric's learning curve (nothing otherwise)."""
    curve = first.view.curve
    if curve is None:
        return
    st.altair_chart(curve, key="compare.curve")  # type: ignore[call-overload]
    st.caption(
        "The systems' names differ only by their numbers, so they are read as checkpoints of one run, in natural "
        "order (ckpt-2 before ckpt-10). Bands: the 95% intervals above; hover a point for the full name."
    )


def score_cards(corpus: Corpus, system: str, shown: Sequence[Shown]) -> None:
    """The corpus page's card for each chosen metric other than BLEU (BLEU's is the page's own, below): the
    system's score, its 95% interval and both signatures."""
    others = [s for s in shown if not s.is_bleu]
    if not others:
        return
    nrefs = cached.nrefs(corpus)
    for col, s in zip(st.columns(len(others) if len(others) > 1 else 2), others, strict=False):
        score, low, high = cached.metric_interval(corpus, system, s, every=others)
        digits = metric_frames.decimals(s.metric)
        with col, st.container(border=True):
            lower = " (lower is better)" if not s.metric.higher_is_better else ""
            st.metric(
                f"Corpus {markup.md_escape(s.name)} of {markup.md_escape(system)}",
                f"{score:.{digits}f}",
                help=_card_help(s) + lower,
            )
            st.markdown(f"95% interval: **{low:.{digits}f} to {high:.{digits}f}**")
            scores.signature(s.metric.signature(nrefs))
            theirs = metric_frames.signatures(s.metric, nrefs)[1]
            if theirs is not None:
                scores.signature(theirs, what="sacreBLEU")
            interval = s.metric.signature(nrefs, bs=cached.CI_DRAWS, rs=cached.DEFAULT_SEED)
            scores.signature(interval, what="95% interval")


def _card_help(s: Shown) -> str:
    if s.imported:
        return "The mean of the imported segment scores of this system (the file's own numbers)."
    return f"sacreBLEU's corpus {s.metric.sacrebleu_name} (its default options), from summed statistics."
