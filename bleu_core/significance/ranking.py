"""Systems ranked by score, in significance clusters, each with the range of ranks it could take.

WMT's findings, mt-metrics-eval and Pearmut print a ranking as groups of systems that are not significantly
different, separated by lines. The rule here (issue 21): systems are ordered by score; a cluster boundary lies
between ranks k and k+1 when every system ranked 1..k is significantly better than every system ranked
k+1..n (Holm-corrected p-value below ``alpha`` and a higher score). A system's rank range is
``1 + (systems significantly better than it)`` to ``n - (systems significantly worse than it)``: the ranks it
could take given the significant pairs.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

__all__ = ["RankedSystem", "Ranking", "rank_pairwise", "rank_systems"]


@dataclass(frozen=True, slots=True)
class RankedSystem:
    """One system's place.

    Attributes:
        name: the system.
        score: its score under the metric.
        rank: its position by score, 1 = best.
        rank_range: the best and worst rank it could take given the significant pairs.
        cluster: its group, 1 = the top group.
        index: its position in the input order.
    """

    name: str
    score: float
    rank: int
    rank_range: tuple[int, int]
    cluster: int
    index: int


@dataclass(frozen=True, slots=True)
class Ranking:
    """Systems by score with their clusters.

    Attributes:
        systems: best first.
        alpha: the significance level the clusters use.
        boundaries: the ranks k after which a cluster line is drawn (between k and k + 1).
    """

    systems: tuple[RankedSystem, ...]
    alpha: float
    boundaries: tuple[int, ...]

    def _repr_html_(self) -> str:  # Jupyter: the ranked table (renderer: bleu_core.display.notebook)
        from bleu_core.rendering import to_html

        return to_html(self)

    @property
    def clusters(self) -> tuple[tuple[RankedSystem, ...], ...]:
        """The groups, top first."""
        cuts = (0, *self.boundaries, len(self.systems))
        return tuple(self.systems[a:b] for a, b in itertools.pairwise(cuts))


class _Pairwise(Protocol):  # what bleu_core.significance.PairwiseResult exposes
    @property
    def names(self) -> tuple[str, ...]: ...
    @property
    def scores(self) -> tuple[float, ...]: ...
    @property
    def adjusted(self) -> tuple[tuple[float, ...], ...]: ...
    @property
    def higher_is_better(self) -> bool: ...


def rank_systems(
    names: Sequence[str],
    scores: Sequence[float],
    adjusted: Sequence[Sequence[float]],
    alpha: float = 0.05,
    *,
    higher_is_better: bool = True,
) -> Ranking:
    """Rank systems and cut clusters from a symmetric matrix of corrected p-values.

    Ties in score keep the input order. A missing p-value (``nan``) is not significant. ``higher_is_better``: the
    metric's direction (``Metric.higher_is_better``; False for an error rate, whose lowest score ranks first).

    Example:
        >>> p = [[math.nan, 0.01, 0.001], [0.01, math.nan, 0.4], [0.001, 0.4, math.nan]]
        >>> r = rank_systems(["a", "b", "c"], [30.0, 25.0, 24.5], p)
        >>> [(s.name, s.rank, s.rank_range, s.cluster) for s in r.systems], r.boundaries
        ([('a', 1, (1, 1), 1), ('b', 2, (2, 3), 2), ('c', 3, (2, 3), 2)], (1,))
        >>> [s.name for s in rank_systems(["a", "b", "c"], [30.0, 25.0, 24.5], p, higher_is_better=False).systems]
        ['c', 'b', 'a']
    """
    n = len(names)
    if len(scores) != n or len(adjusted) != n or any(len(row) != n for row in adjusted):
        raise ValueError(f"{n} names need {n} scores and an {n} x {n} matrix of p-values")
    sign = 1.0 if higher_is_better else -1.0
    order = sorted(range(n), key=lambda i: -sign * scores[i])

    def better(i: int, j: int) -> bool:
        p = adjusted[i][j]
        return sign * scores[i] > sign * scores[j] and not math.isnan(p) and p < alpha

    boundaries = tuple(k for k in range(1, n) if all(better(i, j) for i in order[:k] for j in order[k:]))
    cluster_of = {}
    cluster = 1
    for pos, i in enumerate(order, start=1):
        cluster_of[i] = cluster
        if pos in boundaries:
            cluster += 1
    systems = tuple(
        RankedSystem(
            name=names[i],
            score=float(scores[i]),
            rank=pos,
            rank_range=(1 + sum(better(j, i) for j in range(n)), n - sum(better(i, j) for j in range(n))),
            cluster=cluster_of[i],
            index=i,
        )
        for pos, i in enumerate(order, start=1)
    )
    return Ranking(systems, alpha, boundaries)


def rank_pairwise(pairwise: _Pairwise, alpha: float = 0.05) -> Ranking:
    """:func:`rank_systems` of a :class:`~bleu_core.significance.PairwiseResult` (its Holm-corrected p-values, in its
    metric's direction)."""
    return rank_systems(
        pairwise.names, pairwise.scores, pairwise.adjusted, alpha, higher_is_better=pairwise.higher_is_better
    )
