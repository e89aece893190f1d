"""How well a metric agrees with human scores over systems, as WMT's metrics task measures it.

Five statistics, the ones mt-metrics-eval reports at system level: Pearson's r, Spearman's rho, Kendall's tau-b
and tau-c, and pairwise accuracy (Kocmi et al., 2021: the share of system pairs the metric orders as the humans
do). Each gets a 95% interval from a bootstrap over systems (draw n systems with replacement, recompute), since
with a dozen systems one system more or less moves r a lot.

Ties: tau-b corrects for ties in either ranking (scipy's default); tau-c (Stuart's) for rankings with fewer
distinct values than systems; Spearman gives tied values their average rank; pairwise accuracy counts a pair as
agreeing when both orderings have the same sign, so a pair tied in both agrees and a pair tied in one only does
not.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Final

import numpy as np

__all__ = [
    "STATISTICS",
    "Agreement",
    "agreement",
    "kendall_tau_b",
    "kendall_tau_c",
    "pairwise_accuracy",
    "pearson",
    "spearman",
]

STATISTICS: Final = ("pearson", "spearman", "kendall_tau_b", "kendall_tau_c", "pairwise_accuracy")
_MIN_SYSTEMS: Final = 3  # below this every correlation is +1, -1 or undefined by construction


def pearson(x: Sequence[float] | np.ndarray, y: Sequence[float] | np.ndarray) -> float:
    """Pearson's r; nan for fewer than 3 points or a constant side.

    Example:
        >>> round(pearson([1, 2, 3], [2, 4, 7]), 4)
        0.9934
    """
    xa, ya = np.asarray(x, float), np.asarray(y, float)
    if len(xa) < _MIN_SYSTEMS or xa.std() == 0 or ya.std() == 0:
        return math.nan
    return float(np.corrcoef(xa, ya)[0, 1])


def _average_ranks(v: np.ndarray) -> np.ndarray:
    order = np.argsort(v, kind="stable")
    ranks = np.empty(len(v))
    sv = v[order]
    i = 0
    while i < len(v):
        j = i
        while j + 1 < len(v) and sv[j + 1] == sv[i]:
            j += 1
        ranks[order[i : j + 1]] = (i + j) / 2 + 1
        i = j + 1
    return ranks


def spearman(x: Sequence[float] | np.ndarray, y: Sequence[float] | np.ndarray) -> float:
    """Spearman's rho: Pearson's r of the ranks, tied values at their average rank.

    Example:
        >>> round(spearman([1, 2, 3, 4], [10, 30, 20, 40]), 4)
        0.8
    """
    xa, ya = np.asarray(x, float), np.asarray(y, float)
    if len(xa) < _MIN_SYSTEMS:
        return math.nan
    return pearson(_average_ranks(xa), _average_ranks(ya))


def _pair_signs(x: Sequence[float] | np.ndarray, y: Sequence[float] | np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    xa, ya = np.asarray(x, float), np.asarray(y, float)
    i, j = np.triu_indices(len(xa), 1)
    return np.sign(xa[i] - xa[j]), np.sign(ya[i] - ya[j])


def kendall_tau_b(x: Sequence[float] | np.ndarray, y: Sequence[float] | np.ndarray) -> float:
    """Kendall's tau-b: (concordant - discordant) / sqrt((pairs untied in x) (pairs untied in y)).

    Example:
        >>> round(kendall_tau_b([1, 2, 3, 4], [1, 3, 2, 4]), 4)
        0.6667
    """
    if len(x) < _MIN_SYSTEMS:
        return math.nan
    sx, sy = _pair_signs(x, y)
    s = float(np.sum(sx * sy))
    denom = math.sqrt(float(np.count_nonzero(sx)) * float(np.count_nonzero(sy)))
    return s / denom if denom else math.nan


def kendall_tau_c(x: Sequence[float] | np.ndarray, y: Sequence[float] | np.ndarray) -> float:
    """Stuart's tau-c: 2 (concordant - discordant) / (n^2 (m - 1) / m), m the fewer distinct values of the two.

    Example:
        >>> round(kendall_tau_c([1, 2, 3, 4], [1, 3, 3, 4]), 4)
        0.9375
    """
    n = len(x)
    m = min(len(set(x)), len(set(y)))
    if n < _MIN_SYSTEMS or m < 2:
        return math.nan
    sx, sy = _pair_signs(x, y)
    return 2 * float(np.sum(sx * sy)) / (n * n * (m - 1) / m)


def pairwise_accuracy(x: Sequence[float] | np.ndarray, y: Sequence[float] | np.ndarray) -> float:
    """The share of pairs ordered the same way (same sign of difference, a tie agreeing only with a tie).

    Example:
        >>> pairwise_accuracy([1, 2, 3, 4], [1, 3, 2, 4])
        0.8333333333333334
    """
    if len(x) < 2:
        return math.nan
    sx, sy = _pair_signs(x, y)
    return float(np.mean(sx == sy))


_FUNCS: Final[dict[str, Callable[[Sequence[float] | np.ndarray, Sequence[float] | np.ndarray], float]]] = {
    "pearson": pearson,
    "spearman": spearman,
    "kendall_tau_b": kendall_tau_b,
    "kendall_tau_c": kendall_tau_c,
    "pairwise_accuracy": pairwise_accuracy,
}


@dataclass(frozen=True, slots=True)
class Agreement:
    """BLEU against human scores over ``n`` systems.

    Attributes:
        n: systems with both scores.
        values: each statistic of STATISTICS (nan when undefined).
        intervals: each statistic's 95% bootstrap interval over systems ((nan, nan) when undefined).
        trials: bootstrap draws; resamples where a statistic is undefined (all systems alike) are left out.
        seed: the draws' seed.
        note: what the numbers can say when there are too few systems, else "".
    """

    n: int
    values: dict[str, float]
    intervals: dict[str, tuple[float, float]]
    trials: int
    seed: int
    note: str


def _note(metric: Sequence[float], human: Sequence[float]) -> str:
    n = len(metric)
    if n == 0:
        return "No system has both a BLEU and a human score: nothing to correlate."
    if n == 1:
        return "One system has both scores: a correlation needs at least two (and means little under about five)."
    if n == 2:
        same = (metric[0] - metric[1]) * (human[0] - human[1]) > 0
        order = "the same way" if same else "differently"
        return (
            "Two systems: any correlation of two points is +1 or -1 by construction, so it is not shown. "
            f"What two points say: BLEU and the human scores order the two systems {order}."
        )
    return ""


def agreement(metric: Sequence[float], human: Sequence[float], *, trials: int = 1000, seed: int = 12345) -> Agreement:
    """Every statistic with its bootstrap interval over systems.

    Example:
        >>> a = agreement([20.0, 25.0, 27.0, 30.0], [0.1, 0.3, 0.2, 0.5], trials=200)
        >>> a.values["pairwise_accuracy"], round(a.values["kendall_tau_b"], 3)
        (0.8333333333333334, 0.667)
        >>> agreement([20.0, 25.0], [0.3, 0.1]).note.endswith("order the two systems differently.")
        True
    """
    if len(metric) != len(human):
        raise ValueError(f"{len(metric)} metric scores but {len(human)} human scores")
    n = len(metric)
    note = _note(metric, human)
    nan2 = (math.nan, math.nan)
    if n < _MIN_SYSTEMS:
        return Agreement(n, dict.fromkeys(STATISTICS, math.nan), dict.fromkeys(STATISTICS, nan2), 0, seed, note)
    m, h = np.asarray(metric, float), np.asarray(human, float)
    values = {k: f(m, h) for k, f in _FUNCS.items()}
    draws = np.random.default_rng(seed).integers(0, n, size=(trials, n))
    boot = _bootstrap(m, h, draws)
    intervals: dict[str, tuple[float, float]] = {}
    for k in STATISTICS:
        b = boot[k][~np.isnan(boot[k])]
        intervals[k] = (float(np.quantile(b, 0.025)), float(np.quantile(b, 0.975))) if len(b) else nan2
    return Agreement(n, values, intervals, trials, seed, note)


def _rows_pearson(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    xc, yc = x - x.mean(axis=1, keepdims=True), y - y.mean(axis=1, keepdims=True)
    sxx, syy = (xc * xc).sum(axis=1), (yc * yc).sum(axis=1)
    # a constant side (every drawn system alike) has no correlation; tiny variances from rounding count as none
    ok = (sxx > 1e-24) & (syy > 1e-24)
    out = np.full(len(x), math.nan)
    out[ok] = (xc * yc).sum(axis=1)[ok] / np.sqrt(sxx[ok] * syy[ok])
    return np.asarray(np.clip(out, -1.0, 1.0), float)


def _rows_average_ranks(x: np.ndarray) -> np.ndarray:
    less = (x[:, :, None] > x[:, None, :]).sum(axis=2)
    equal = (x[:, :, None] == x[:, None, :]).sum(axis=2)
    return np.asarray(less + (equal + 1) / 2, float)


def _rows_distinct(x: np.ndarray) -> np.ndarray:
    return np.asarray(1 + (np.diff(np.sort(x, axis=1), axis=1) != 0).sum(axis=1), int)


def _bootstrap(m: np.ndarray, h: np.ndarray, draws: np.ndarray) -> dict[str, np.ndarray]:
    """Every statistic on every resample at once (the scalar functions above, row by row), in chunks of
    draws small enough that the n x n rank comparisons stay a few tens of MB."""
    n = draws.shape[1]
    i, j = np.triu_indices(n, 1)
    chunk = max(1, 2_000_000 // max(1, n * n))
    parts: dict[str, list[np.ndarray]] = {k: [] for k in STATISTICS}
    for start in range(0, len(draws), chunk):
        d = draws[start : start + chunk]
        x, y = m[d], h[d]
        parts["pearson"].append(_rows_pearson(x, y))
        parts["spearman"].append(_rows_pearson(_rows_average_ranks(x), _rows_average_ranks(y)))
        sx, sy = np.sign(x[:, i] - x[:, j]), np.sign(y[:, i] - y[:, j])
        s = (sx * sy).sum(axis=1)
        denom = np.sqrt(np.count_nonzero(sx, axis=1) * np.count_nonzero(sy, axis=1).astype(float))
        with np.errstate(invalid="ignore", divide="ignore"):
            parts["kendall_tau_b"].append(np.where(denom > 0, s / np.where(denom > 0, denom, 1), math.nan))
            mm = np.minimum(_rows_distinct(x), _rows_distinct(y)).astype(float)
            parts["kendall_tau_c"].append(np.where(mm >= 2, 2 * s / (n * n * (mm - 1) / np.maximum(mm, 1)), math.nan))
        parts["pairwise_accuracy"].append((sx == sy).mean(axis=1))
    return {k: np.concatenate(v) for k, v in parts.items()}
