"""The "Why do A and B differ?" section as values: what the compare page and the report both show.

One function builds the section's numbers, frames and charts from the systems' statistics matrices; the page
(``bleu_app.ui.corpus.difference``) lays them out with Streamlit widgets, the report (``bleu_app.report``) as HTML.
Neither computes anything of its own, so the two cannot drift apart.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import altair as alt
import numpy as np
import pandas as pd

from bleu_app.charts import difference as charts
from bleu_app.frames import difference as frames
from bleu_app.frames.names import labels as short_labels
from bleu_core.config import BleuConfig
from bleu_core.data.corpus import Corpus
from bleu_core.metrics.bleu import make_signature, score_many
from bleu_core.teaching.decomposition import Decomposition, decompose_matrices
from bleu_core.teaching.shares import GapShares, gap_shares

__all__ = ["DifferenceView", "difference_view", "pick_pair"]

AXIS_NOTE = "The axis does not start at 0: the A and B bars are cut at the axis floor."


@dataclass(frozen=True)
class DifferenceView:
    """Everything the section shows.

    Attributes:
        a, b: the two systems (B − A).
        decomposition: the exact split of B − A.
        terms: each term's name and its value in BLEU points (BP first, then one per order), whatever ``unit``.
        waterfall: the waterfall chart (``None`` when the log ratio is not finite).
        versus: every system against ``baseline`` as a chart (``None`` with one system).
        skipped: systems whose split against the baseline is not finite, with why.
        gap: the sentences with the largest shares of the gap (``frames.gap_sentences``).
        shares: every sentence's share of the gap (``bleu_core.teaching.shares``; its note says why when none).
        curve: the cumulative share over the sentences, largest first (``None`` when no share is defined).
        signature: the BLEU signature of the numbers.
    """

    a: str
    b: str
    decomposition: Decomposition
    terms: tuple[tuple[str, float], ...]
    waterfall: alt.LayerChart | alt.FacetChart | None
    versus: alt.LayerChart | alt.FacetChart | None
    skipped: Mapping[str, str]
    gap: pd.DataFrame
    shares: GapShares
    curve: alt.LayerChart | alt.FacetChart | None
    signature: str


def pick_pair(
    mats: Mapping[str, np.ndarray], config: BleuConfig, baseline: str, a: str | None, b: str | None
) -> tuple[str, str]:
    """A and B as given when they name two different systems; else A = the baseline and B = the best other."""
    names = list(mats)
    a = a if a in names else baseline
    if b in names and b != a:
        return a, str(b)
    scores = {n: float(score_many(mats[n].sum(axis=0)[None, :], config)[0]) for n in names if n != a}
    return a, max(scores, key=scores.__getitem__)


def difference_view(
    corpus: Corpus,
    mats: Mapping[str, np.ndarray],
    config: BleuConfig,
    *,
    baseline: str,
    a: str,
    b: str,
    unit: frames.Unit = "points",
    top: int = 25,
) -> DifferenceView:
    """The section for systems ``a`` and ``b`` (and every system against ``baseline``), in ``unit``."""
    d = decompose_matrices(mats[a], mats[b], config)
    values = [d.points_bp, *d.points_precision_terms]
    terms = tuple(zip(frames.term_names(config.max_ngram_order), values, strict=True))
    waterfall = None
    labels = short_labels(list(corpus.names))  # the short names of every other chart and table
    if d.finite:
        name_a, name_b = labels[a], labels[b]
        title = [f"{name_a} (A) → {name_b} (B)", frames.UNIT_TITLES[unit]]  # two lines: one was cut at 390 px
        waterfall = charts.waterfall_chart(frames.waterfall(d, name_a, name_b, unit), unit, title=title)
    others, skipped = frames.versus_baseline(mats, config, baseline, unit)
    versus = charts.versus_baseline_chart(others, unit, baseline, labels=labels) if len(others) else None
    shares = gap_shares(mats[a], mats[b], config)
    curve = charts.gap_curve_chart(frames.gap_curve(shares), shares.gap) if shares.finite else None
    gap = frames.gap_sentences(
        mats[a],
        mats[b],
        config,
        corpus.system(a).lines,
        corpus.system(b).lines,
        corpus.ref_streams,
        top=top,
        source=corpus.source.lines if corpus.source is not None else None,
        shares=shares,
    )
    signature = make_signature(config, len(corpus.references))
    return DifferenceView(a, b, d, terms, waterfall, versus, skipped, gap, shares, curve, signature)
