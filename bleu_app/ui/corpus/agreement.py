"""Where the chosen metrics part, on the Corpus and Compare pages (issue 33): the systems ranked by each metric side
by side with the moves highlighted, and Kendall's tau between the metrics' rankings. The numbers come from the
metrics' cached statistics (``cached.metric_matrices``); the frames are ``bleu_app.frames.agreement``'s."""

from __future__ import annotations

from collections.abc import Sequence

import pandas as pd
import streamlit as st

from bleu_app import markup
from bleu_app.charts import agreement as charts
from bleu_app.frames import agreement, corpus as frames, metrics as metric_frames
from bleu_app.frames.metrics import Shown
from bleu_app.ui import cached
from bleu_app.ui.components import widgets
from bleu_app.ui.corpus import difference, selection
from bleu_core.data.corpus import Corpus

__all__ = ["HIGHLIGHT", "section", "sentences_section"]

HIGHLIGHT = "background-color: rgba(255, 165, 0, 0.28)"  # amber at low opacity: readable on light and dark themes


def _moved(table: pd.DataFrame, shown: Sequence[Shown]) -> pd.DataFrame:
    """The Styler's cell styles: a metric's rank where it differs from the first metric's, and the moves."""
    styles = pd.DataFrame("", index=table.index, columns=table.columns)
    first = agreement.rank_column(shown[0].name)
    for s in shown[1:]:
        column = agreement.rank_column(s.name)
        styles.loc[table[column] != table[first], column] = HIGHLIGHT
    styles.loc[table[agreement.MOVE] != "", agreement.MOVE] = HIGHLIGHT
    return styles


def section(corpus: Corpus, shown: Sequence[Shown], *, key: str, system: str | None = None) -> None:
    """The rank table and the tau table of the chosen metrics (a hint to choose more below two); ``system``
    (the corpus page's) is named in the caption. On the corpus page (``system``), which scores one system
    otherwise, every system's every metric is counted for it: on request above the compare page's limit for its
    costly sections, as the buckets are (chrF on 50,000 lines x 4 systems was most of that page's time)."""
    st.subheader("Do the metrics rank the systems alike?")
    if len(shown) < 2 or len(corpus.systems) < 2:
        st.caption("Choose two or more metrics in the sidebar (and load two or more systems) to see where they part.")
        return
    what = "Every system under every chosen metric"
    if system is not None and not widgets.on_request(what, corpus, f"{key}.on", difference.BUCKETS_AUTO_SEGMENTS):
        return
    metrics = [s.metric for s in shown]
    scores = agreement.corpus_scores(metrics, [cached.metric_matrices(corpus, s) for s in shown])
    table = agreement.rank_table(scores, metrics)
    fmt = {s.name: st.column_config.NumberColumn(format=metric_frames.number_format(s.metric)) for s in shown}
    st.dataframe(
        table.style.apply(lambda t: _moved(t, shown), axis=None),
        hide_index=True,
        key=f"{key}.ranks",
        column_config=fmt,
    )
    lower = [s.name for s in shown if not s.metric.higher_is_better]
    note = f" {', '.join(lower)}: lower is better, so its best system is rank 1." if lower else ""
    mine = f" {markup.md_escape(system)} is the system on this page." if system else ""
    st.caption(
        f"Rows in {markup.md_escape(shown[0].name)}'s order; highlighted: a rank another metric gives differently "
        f"(▲ up, ▼ down against {markup.md_escape(shown[0].name)}).{note}{mine}"
    )
    taus = agreement.tau_table(scores, metrics)
    st.dataframe(
        taus,
        hide_index=True,
        key=f"{key}.tau",
        column_config={agreement.TAU: st.column_config.NumberColumn(format="%.3f")},
    )
    st.caption(
        "Kendall's tau-b between two metrics' system rankings: 1 when they order every pair of systems alike, -1 "
        "when they reverse every pair (ties counted as tau-b does); the corpus scores above, on these lines."
    )


def sentences_section(corpus: Corpus, sentences: pd.DataFrame, system: str, others: Sequence[Shown]) -> None:
    """Sentence BLEU against another chosen metric's sentence score (chrF first), and the sentences they part on
    most with their texts; a point or a row opens the One sentence page. A point per sentence: on request above
    the compare page's limit for its costly sections (50,000 points are a megabyte sent and drawn)."""
    st.subheader("Sentence by sentence: where BLEU and another metric part")
    if not others:
        st.caption("Choose chrF (or TER, or an imported score) in the sidebar to see where it parts from BLEU.")
        return
    what = "The scatter of sentence scores"
    if not widgets.on_request(what, corpus, "corpus.disagree_on", difference.BUCKETS_AUTO_SEGMENTS):
        return
    other = next((s for s in others if s.metric.sacrebleu_name == "chrf"), others[0])
    y = metric_frames.segment_column(other.metric)
    lower = not other.metric.higher_is_better
    top = agreement.disagreements(sentences, frames.SENT_BLEU, y, b_lower_is_better=lower)
    chart = charts.segment_scatter(
        sentences, frames.SENT_BLEU, y, marked=top[frames.SEGMENT].tolist(), percent=not other.imported
    )
    st.altair_chart(
        chart,
        key="corpus.disagree_scatter",
        on_select=selection.point_opener("corpus.disagree_scatter", charts.SEGMENT_PICK, frames.SEGMENT, system),
        selection_mode=charts.SEGMENT_PICK,
    )
    turned = f" ({markup.md_escape(other.name)} turned: lower is better)" if lower else ""
    st.caption(
        f"Diamonds: the sentences of {markup.md_escape(system)} that sentence BLEU and {markup.md_escape(y)} rank "
        f"furthest apart among its sentences{turned}: rank gap in percentile points, positive where "
        f"{markup.md_escape(y)} likes the sentence more. Click a point or select a row to open it on the One sentence "
        "page."
    )
    st.dataframe(
        top,
        hide_index=True,
        key="corpus.disagree",
        selection_mode="single-row",
        on_select=selection.row_opener("corpus.disagree", top[frames.SEGMENT].tolist(), system),
        column_config={
            frames.SENT_BLEU: st.column_config.NumberColumn(format="%.2f"),
            y: st.column_config.NumberColumn(format=metric_frames.number_format(other.metric)),
            agreement.GAP: st.column_config.NumberColumn(format="%+.0f"),
            **{c: st.column_config.TextColumn(width="large") for c in (frames.SOURCE, frames.REF, frames.HYP)},
        },
    )
