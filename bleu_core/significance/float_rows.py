"""Approximate randomization on a metric whose statistics stand for sacreBLEU's float rows (TER with several
references: the averaged reference lengths), done as sacreBLEU does it, so that its ties break the same way.

A shuffle that swaps only segments whose contributions cancel leaves the difference exactly as it was; with TER's
small integer edit counts such shuffles are common, and whether one counts as "greater" than the real difference
then rests on the last bits of float sums. sacreBLEU computes ``pos_sel @ bl_stats + neg_sel @ sys_stats`` on its
float64 rows and compares with corpus scores summed in Python; this module does the same operations on the same
rows (:meth:`~bleu_core.metrics.base.FloatRows.float_rows`, which ``estimates.float_rows`` asks for), so the
p-values are sacreBLEU's bit for bit. With integer statistics (BLEU, chrF, TER with one reference) every sum is exact
and ``pairwise`` counts draws instead.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from bleu_core.metrics import Metric

from .estimates import p_value

__all__ = ["ar_p_values", "sacrebleu_scores"]


def sacrebleu_scores(metric: Metric, rows: Sequence[np.ndarray]) -> list[float]:
    """Each system's corpus score as sacreBLEU sums its rows (``sum_of_lists``: Python floats, in segment order).

    Example:
        >>> from bleu_core.metrics import Ter
        >>> sacrebleu_scores(Ter(), [np.array([[1.0, 10 / 3], [0.0, 4 / 3]])])
        [21.428571428571427]
    """
    out = []
    for r in rows:
        totals = [0.0] * r.shape[1]
        for row in r.tolist():
            totals = [t + v for t, v in zip(totals, row, strict=True)]
        out.append(float(metric.score_many(np.array([totals]))[0]))
    return out


def ar_p_values(
    rng: np.random.Generator, n_trials: int, rows: Sequence[np.ndarray], real: Sequence[float], metric: Metric
) -> np.ndarray:
    """Every pair's AR p-value (symmetric, ``nan`` on the diagonal) as sacreBLEU's ``_paired_ar_test`` computes it
    with the first of the two as baseline, from one draw of ``rng.integers(2, size=(trials, n), dtype=bool)``."""
    pos = rng.integers(2, size=(n_trials, len(rows[0])), dtype=bool)
    neg = ~pos
    on = [pos @ r for r in rows]
    off = [neg @ r for r in rows]
    k = len(rows)
    p = np.full((k, k), math.nan)
    for i in range(k):
        for j in range(i + 1, k):
            a = metric.score_many(on[i] + off[j])
            b = metric.score_many(off[i] + on[j])
            p[i, j] = p[j, i] = p_value(np.abs(a - b), abs(real[i] - real[j]))
    return p
