"""What a test computes from (segments x statistics) matrices and their draws, for any metric: the checks, a
corpus score from column sums, the scores of resampled sums, and sacreBLEU's interval and p-value.

Everything here reads a metric through the seam only (:attr:`~bleu_core.metrics.base.Metric.width` and
:meth:`~bleu_core.metrics.base.Metric.score_many`): a resample is a column sum, scored by one vectorised call.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from bleu_core.errors import InputError
from bleu_core.metrics import Metric
from bleu_core.metrics.base import Float32Resampling, FloatRows, ScalarScore

from .resample import bootstrap_sums, ordered_float32_sums
from .trials import Method

__all__ = [
    "check_matrices",
    "drawn_score",
    "estimate_ci",
    "float_rows",
    "matrix_score",
    "p_value",
    "resampled_scores",
    "scores_of_sums",
    "signature_of_test",
]


def check_matrices(matrices: Sequence[np.ndarray], metric: Metric) -> list[np.ndarray]:
    """The systems' statistics as arrays, each (segments x ``metric.width``) over the same segments.

    Raises:
        InputError: no system, a matrix of another shape, systems of different lengths, no segment.

    Example:
        >>> from bleu_core.metrics import Bleu
        >>> check_matrices([np.zeros((2, 6))], Bleu())
        Traceback (most recent call last):
        ...
        bleu_core.errors.InputError: matrix: system 1: expected a (segments x 10) statistics matrix, got shape (2, 6)
    """
    out = [np.asarray(m) for m in matrices]
    if not out:
        raise InputError("no systems given", "systems")
    width = metric.width
    for i, m in enumerate(out):
        if m.ndim != 2 or m.shape[1] != width:
            raise InputError(
                f"system {i + 1}: expected a (segments x {width}) statistics matrix, got shape {m.shape}", "matrix"
            )
        if len(m) != len(out[0]):
            raise InputError(f"system {i + 1} has {len(m)} segments, the first has {len(out[0])}", "matrix")
    if len(out[0]) == 0:
        raise InputError("no segments to resample", "matrix")
    return out


def matrix_score(matrix: np.ndarray, metric: Metric) -> float:
    """The corpus score of one system's (segments x width) statistics, the number a user reads: the metric of their
    column sums, as sacreBLEU computes it (:class:`~bleu_core.metrics.base.ScalarScore`'s scalar arithmetic where
    the metric has it). A test's real difference is :func:`drawn_score`'s instead.

    Example:
        >>> from bleu_core.metrics import Bleu
        >>> round(matrix_score(np.array([[4, 4, 4, 3, 2, 1, 4, 3, 2, 1]] * 3), Bleu()), 9)
        100.0
    """
    sums = matrix.sum(axis=0)
    if isinstance(metric, ScalarScore):
        return float(metric.scalar_score(sums))
    return float(metric.score_many(sums[None, :])[0])


def drawn_score(matrix: np.ndarray, metric: Metric) -> float:
    """The corpus score in the arithmetic of the draws (:meth:`~bleu_core.metrics.base.Metric.score_many`): what an
    approximate-randomization trial's scores are compared with. A trial that swaps only segments of equal
    statistics reproduces the real sums, and its difference must then equal the real one to the bit, not exceed
    it by an ulp of another arithmetic (:func:`matrix_score`'s).

    Example:
        >>> from bleu_core.metrics import Bleu
        >>> m = np.array([[9, 11, 6, 3, 1, 0, 9, 8, 7, 6]] * 5)
        >>> abs(drawn_score(m, Bleu()) - matrix_score(m, Bleu())) < 1e-12
        True
    """
    return float(metric.score_many(matrix.sum(axis=0)[None, :])[0])


def scores_of_sums(sums: np.ndarray, n_systems: int, metric: Metric, *, resampled: bool = False) -> np.ndarray:
    """The scores of rows of summed statistics of ``n_systems`` systems side by side: (rows x systems).

    ``resampled``: the rows are bootstrap resamples, scored as sacreBLEU scores them (in float32 for a metric that
    is :class:`~bleu_core.metrics.base.Float32Resampling`: TER, chrF; BLEU's own ``score_many`` otherwise)."""
    width = sums.shape[1] // n_systems
    score = metric.score_many_float32 if resampled and isinstance(metric, Float32Resampling) else metric.score_many
    return np.stack([score(sums[:, j * width : (j + 1) * width]) for j in range(n_systems)], axis=1)


def resampled_scores(
    rng: np.random.Generator,
    n_samples: int,
    matrices: Sequence[np.ndarray],
    metric: Metric,
    resampled: np.ndarray | None = None,
    *,
    nrefs: int | str | None = None,
) -> np.ndarray:
    """The scores of ``n_samples`` bootstrap resamples of every system: (samples x systems); from ``resampled``
    (``resample.resample_sums`` of the same matrices and seed) when given, else drawn from ``rng``. ``nrefs``
    lets a :class:`~bleu_core.metrics.base.FloatRows` metric sum sacreBLEU's own float rows in the drawn order."""
    if resampled is None:
        rows = float_rows(metric, matrices, nrefs)
        if rows is not None:
            return scores_of_sums(ordered_float32_sums(rng, n_samples, rows), len(matrices), metric, resampled=True)
        return scores_of_sums(bootstrap_sums(rng, n_samples, matrices), len(matrices), metric, resampled=True)
    width = metric.width
    if resampled.ndim != 2 or resampled.shape[0] < n_samples or resampled.shape[1] != width * len(matrices):
        raise InputError(
            f"resampled sums of shape {resampled.shape} do not cover {n_samples} resamples of "
            f"{len(matrices)} systems x {width} statistics",
            "resampled",
        )
    return scores_of_sums(resampled[:n_samples], len(matrices), metric, resampled=True)


def float_rows(metric: Metric, matrices: Sequence[np.ndarray], nrefs: int | str | None) -> list[np.ndarray] | None:
    """sacreBLEU's float rows of every matrix when the metric's statistics stand for such rows
    (:class:`~bleu_core.metrics.base.FloatRows`: TER with several references), else None."""
    if nrefs is None or not isinstance(metric, FloatRows):
        return None
    rows = [metric.float_rows(m, nrefs) for m in matrices]
    return None if any(r is None for r in rows) else rows  # type: ignore[return-value]


def estimate_ci(scores: np.ndarray) -> tuple[float, float, float, float]:
    """sacreBLEU's ``estimate_ci``: the mean, the half width, and the 2.5% / 97.5% order statistics.

    Example:
        >>> estimate_ci(np.arange(1000.0))
        (499.5, 474.5, 25.0, 974.0)
    """
    ordered = np.sort(scores)
    lower = len(ordered) // 40
    upper = len(ordered) - lower - 1
    low, high = float(ordered[lower]), float(ordered[upper])
    return float(ordered.mean()), 0.5 * (high - low), low, high


def p_value(stats: np.ndarray, real: float) -> float:
    """sacreBLEU's (after multeval) p-value: the draws whose statistic is strictly greater than the real one,
    plus one, over the draws plus one.

    Example:
        >>> p_value(np.array([0.5, 1.5, 2.5]), 1.5)
        0.5
    """
    return (int(np.sum(stats > real)) + 1) / (len(stats) + 1)


def signature_of_test(metric: Metric, nrefs: int | str, method: Method, trials: int, seed: int) -> str:
    """The metric's signature with the test, its draws and its seed (``...|bs:1000|rs:12345|...``)."""
    return metric.signature(nrefs, **{method: trials, "rs": seed})
