"""The systems ranked in significance clusters, as values: what the compare page and the report both show.

From the systems table and the pairwise significance frame: the ranking (clusters, rank ranges), every table in
score order, the short names for chart axes, the CI chart coloured by cluster, the significance matrix and the
ranked table. The page lays them out with Streamlit, the report as HTML; neither orders or ranks on its own.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import altair as alt
import pandas as pd

from bleu_app.charts import corpus as charts
from bleu_app.frames import corpus as frames
from bleu_app.frames.metrics import decimals
from bleu_app.frames.names import labels as short_labels
from bleu_core.metrics import Bleu, Metric
from bleu_core.significance.ranking import Ranking

__all__ = ["RankingView", "ranking_view"]


@dataclass(frozen=True)
class RankingView:
    """Attributes:
    ranking: systems by score with cluster and rank range.
    order: system names, best first.
    labels: each name's short label for chart axes (full names in data and tooltips).
    systems: the systems table in score order.
    ranked: the ranked table (``frames.ranking_frame``) the page and report draw with ``markup.ranking_html``.
    ci_chart: the score with its interval per system, coloured by cluster.
    heatmap: the Holm-corrected significance matrix in score order.
    score: the score's column (the metric's name).
    digits: the decimals its numbers are shown with.
    """

    ranking: Ranking
    order: tuple[str, ...]
    labels: dict[str, str]
    systems: pd.DataFrame
    ranked: pd.DataFrame
    ci_chart: alt.TopLevelMixin
    heatmap: alt.TopLevelMixin
    score: str = frames.BLEU
    digits: int = 2


def ranking_view(
    systems: pd.DataFrame,
    significance: pd.DataFrame,
    names: Sequence[str],
    baseline: str,
    *,
    metric: Metric | None = None,
) -> RankingView:
    """Rank ``systems`` (``frames.system_table`` of ``metric``, BLEU by default) by score into clusters from
    ``significance`` (``frames.significance_frame``, Holm-corrected) and build what shows them; an error rate
    (TER) ranks lowest first."""
    metric = metric if metric is not None else Bleu()
    score, better, digits = metric.name, metric.higher_is_better, decimals(metric)
    ranking = frames.ranking(systems, significance, score=score, higher_is_better=better)
    order = tuple(s.name for s in ranking.systems)
    labels = short_labels(list(names))
    ordered = frames.in_order(systems, list(order))
    clusters = {s.name: s.cluster for s in ranking.systems}
    ci = charts.systems_ci_chart(
        ordered, baseline, clusters=clusters, labels=labels, score=score, higher_is_better=better, digits=digits
    )
    heatmap = charts.significance_heatmap(
        significance, list(order), labels=labels, score=score, higher_is_better=better, digits=digits
    )
    ranked = frames.ranking_frame(ordered, ranking, score=score)
    return RankingView(ranking, order, labels, ordered, ranked, ci, heatmap, score, digits)
