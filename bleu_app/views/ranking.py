"""The systems ranked in significance clusters, as values: what the compare page and the report both show.

From the systems table and the pairwise significance frame: the ranking (clusters, rank ranges), every table in
score order, the short names for chart axes, the CI chart coloured by cluster, the significance matrix and the
ranked table. The page lays them out with Streamlit, the report as HTML; neither orders or ranks on its own.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import altair as alt
import pandas as pd

from bleu_app.charts import corpus as charts
from bleu_app.charts.checkpoints import learning_curve
from bleu_app.frames import corpus as frames
from bleu_app.frames.metrics import decimals
from bleu_app.frames.names import labels as short_labels
from bleu_app.frames.signs import signed as signed_number
from bleu_core.display.marks import Marks, family_marks
from bleu_core.display.names import checkpoint_order
from bleu_core.metrics import Bleu, Metric
from bleu_core.significance.families import Family
from bleu_core.significance.ranking import Ranking

__all__ = ["RankingView", "mark_cells", "ranking_view", "run_marks"]


_CLI_FLAG: dict[str, str] = {"all": "", "baseline": " --baseline-only", "consecutive": " --consecutive"}


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
    marks: each system's one comparison and its mark (``*``), decided by
        :func:`bleu_core.display.marks.family_marks` as the CLI decides them (its ``words`` say which test).
    vs: by name, the marked column's cell: the difference to the system compared with and ``*`` when marked.
    curve: when the systems are checkpoints (``bleu_core.display.names.checkpoint_order``), the learning curve:
        the score with its interval by checkpoint in natural order; None otherwise.
    digits: the decimals its numbers are shown with.
    """

    ranking: Ranking
    order: tuple[str, ...]
    labels: dict[str, str]
    systems: pd.DataFrame
    ranked: pd.DataFrame
    ci_chart: alt.TopLevelMixin
    heatmap: alt.TopLevelMixin
    marks: Marks | None = None
    vs: dict[str, str] = field(default_factory=dict)
    curve: alt.TopLevelMixin | None = None
    score: str = frames.BLEU
    digits: int = 2

    @property
    def mark_note(self) -> str:
        """What the marked column shows and which test its ``*`` is, as the CLI that marks the same says it."""
        if self.marks is None:
            return ""
        flag = _CLI_FLAG[self.marks.test.family]
        return (
            f"{self.vs_head}: the {self.score} difference; * = {self.marks.words} (the test "
            f"'bleu-explorer compare{flag}' marks)."
        )

    @property
    def vs_head(self) -> str:
        """The head of the marked column: what each system's difference is taken from."""
        return "vs previous" if self.marks is not None and self.marks.test.family == "consecutive" else "vs baseline"


def ranking_view(
    systems: pd.DataFrame,
    significance: pd.DataFrame,
    names: Sequence[str],
    baseline: str,
    *,
    metric: Metric | None = None,
    family: Family = "all",
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
    marks = run_marks(significance, list(names), baseline, family, alpha=ranking.alpha)
    scores = dict(zip(systems[frames.SYSTEM], systems[score], strict=True))
    vs = mark_cells(marks, scores, baseline, digits)
    checkpoints = checkpoint_order(list(names))
    curve = None
    if checkpoints is not None:
        curve = learning_curve(ordered, checkpoints, labels=labels, score=score, digits=digits)
    return RankingView(ranking, order, labels, ordered, ranked, ci, heatmap, marks, vs, curve, score, digits)


def run_marks(significance: pd.DataFrame, names: list[str], baseline: str, family: Family, *, alpha: float) -> Marks:
    """The marks of ``family`` from the long significance frame (raw and Holm-over-every-pair p-values)."""
    raw = frames.pair_matrix(significance, names, frames.P_RAW)
    adjusted = frames.pair_matrix(significance, names, frames.P_HOLM)
    return family_marks(names, raw, adjusted, baseline=baseline, family=family, alpha=alpha)


def mark_cells(marks: Marks, scores: Mapping[str, float], baseline: str, digits: int) -> dict[str, str]:
    """By name: the difference to the system its comparison is with, ``*`` when marked; ``baseline`` on the
    baseline's row, ``—`` where there is no comparison (the first checkpoint).

    Example:
        >>> from bleu_core.display.marks import family_marks
        >>> p = [[float("nan"), 0.01], [0.01, float("nan")]]
        >>> m = family_marks(["a", "b"], p, p, baseline="a", family="all")
        >>> mark_cells(m, {"a": 20.0, "b": 21.5}, "a", 2)
        {'a': 'baseline', 'b': '+1.50*'}
    """
    out = {}
    for name in marks.order:
        other = marks.against(name)
        if other is None:
            out[name] = "baseline" if name == baseline and marks.test.family != "consecutive" else "—"
        else:
            out[name] = signed_number(scores[name] - scores[other], digits) + ("*" if marks.marked(name) else "")
    return out
