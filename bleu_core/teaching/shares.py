"""Each sentence's share of a BLEU difference, shares that add up to the difference exactly.

BLEU is not additive over sentences; its statistics are. A leave-one-out effect (B - A with the sentence minus
B - A without it, :func:`bleu_core.teaching.decomposition.leave_one_out_difference`) answers "what if this sentence
were gone", but those effects do not add up to the gap: on a real pair they can sum to about 0.

A share answers "how much of the gap is this sentence's". Walk the corpus statistics on the straight line from A's
sums to B's, ``S(a) = S_A + a (S_B - S_A)`` for ``a`` from 0 to 1. Along it, ``log BLEU`` changes by
``log(BLEU_B / BLEU_A)`` and, at every point, its change is the gradient times ``S_B - S_A``, which is the sum over
sentences of ``d_i = b_i - a_i`` (sentence i's statistics in B minus in A). So sentence i's share is

    share_i = integral from 0 to 1 of  grad log BLEU(S(a)) . d_i  da  =  G . d_i

with ``G`` the integrated gradient, the same for every sentence (integrated gradients, Sundararajan et al. 2017;
Aumann-Shapley cost sharing). The shares add up to ``log(BLEU_B / BLEU_A)`` exactly, do not depend on the order of
the sentences, and a sentence that both systems translate the same way (``d_i = 0``) has a share of exactly 0.

``G`` has a closed form: ``log BLEU = log BP(c, r) + sum_n w_n (log m_n - log t_n)``, each term the log of a
quantity linear in ``a``, whose integral is ``1 / L(x_0, x_1)`` (``L`` the logarithmic mean); the brevity penalty's
``1 - r / c`` is integrated over the part of the line where ``c < r``. The log shares are turned into BLEU points
with the logarithmic mean of the two scores (as the decomposition's terms are, Ang 2004's LMDI), so the points add up
to ``BLEU_B - BLEU_A``.

Which scores this applies to: corpus BLEU whose precisions are smooth along the line, i.e. every order's match count
positive at both ends (or 0 at both ends under ``exp`` or ``floor`` smoothing, where the smoothed precision depends on
``t_n`` only), every order with n-grams at both ends. Otherwise the score jumps (to 0, or between smoothing cases)
somewhere on the line and no share is defined: :attr:`GapShares.note` says why.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from bleu_core.config import BleuConfig
from bleu_core.errors import InputError

if TYPE_CHECKING:
    import numpy as np

__all__ = ["GapShares", "gap_shares", "integrated_gradient"]

SHARES_NAME = "share of B − A (integrated gradients of log BLEU from A's corpus statistics to B's)"


@dataclass(frozen=True, slots=True, eq=False)
class GapShares:
    """Every sentence's share of ``BLEU_B - BLEU_A``.

    Attributes:
        points: per sentence, its share in BLEU points; they add up to ``gap`` (``None`` when not ``finite``).
        log_shares: per sentence, its share of ``log(BLEU_B / BLEU_A)``; they add up to ``log_ratio``.
        gap: ``BLEU_B - BLEU_A`` (0-100 scale).
        log_ratio: ``log(BLEU_B / BLEU_A)``.
        finite: whether shares are defined for this pair under this configuration.
        note: why not, when they are not.
        name: what a share is, for a column header or a caption.
    """

    points: np.ndarray | None
    log_shares: np.ndarray | None
    gap: float
    log_ratio: float
    finite: bool
    note: str = ""
    name: str = field(default=SHARES_NAME)


def _inv_log_mean(x0: float, x1: float) -> float:
    """``integral_0^1 da / (x0 + a (x1 - x0))`` for positive ``x0``, ``x1``: 1 / their logarithmic mean."""
    d = x1 - x0
    if d == 0:
        return 1.0 / x0
    return math.log1p(d / x0) / d


def _bp_gradient(c0: float, c1: float, r0: float, r1: float) -> tuple[float, float]:
    """The integrals over ``a`` in [0, 1] of ``d log BP / dc`` and ``d log BP / dr`` on the straight line.

    ``log BP = 1 - r / c`` where ``c < r`` and 0 elsewhere (continuous at ``c = r``), so the integrals run over
    the part of the line where ``c(a) < r(a)``: one interval, since ``r - c`` is linear in ``a``.
    """
    g0, g1 = r0 - c0, r1 - c1
    if g0 <= 0 and g1 <= 0:
        return 0.0, 0.0
    lo, hi = 0.0, 1.0
    if g0 <= 0 < g1:
        lo = g0 / (g0 - g1)
    elif g1 <= 0 < g0:
        hi = g0 / (g0 - g1)
    dc, dr = c1 - c0, r1 - r0
    ca, cb = c0 + lo * dc, c0 + hi * dc
    if dc == 0:
        grad_r = -(hi - lo) / c0
        grad_c = (r0 * (hi - lo) + dr * (hi * hi - lo * lo) / 2) / (c0 * c0)
        return grad_c, grad_r
    grad_r = -math.log(cb / ca) / dc
    k = dr / dc  # r = k c + q along the line
    q = r0 - k * c0
    grad_c = (k * math.log(cb / ca) + q * (1 / ca - 1 / cb)) / dc  # integral of (k u + q) / u^2 du / dc
    return grad_c, grad_r


def _weights(config: BleuConfig) -> list[float]:
    order = config.max_ngram_order
    w = list(config.weights[:order]) if config.weights is not None else [1.0] * order
    total = sum(w)
    return [x / total for x in w]


def integrated_gradient(
    stats_a: Sequence[float], stats_b: Sequence[float], config: BleuConfig = BleuConfig()
) -> tuple[list[float] | None, str]:
    """The integrated gradient of ``log BLEU`` on the straight line from ``stats_a`` to ``stats_b``.

    Args:
        stats_a, stats_b: summed statistics ``[c, r, m_1..m_N, t_1..t_N]``.
        config: the BLEU configuration the scores are taken under.

    Returns:
        ``G``, one value per statistic (its dot product with ``stats_b - stats_a`` is ``log(BLEU_B / BLEU_A)``),
        and an empty note; or ``None`` and why no gradient is defined.

    Example:
        >>> a, b = [18, 16, 17, 10, 7, 4, 18, 17, 16, 15], [14, 18, 8, 3, 1, 1, 14, 13, 12, 11]
        >>> g, note = integrated_gradient(a, b, BleuConfig.paper())
        >>> from bleu_core.metrics.bleu import score_from_stats
        >>> bleu_a, bleu_b = (score_from_stats(s[2:6], s[6:], s[0], s[1], BleuConfig.paper()).score for s in (a, b))
        >>> round(sum(gi * (y - x) for gi, x, y in zip(g, a, b)), 6), round(math.log(bleu_b / bleu_a), 6), note
        (-1.328848, -1.328848, '')
    """
    order = config.max_ngram_order
    if len(stats_a) != 2 + 2 * order or len(stats_b) != len(stats_a):
        raise InputError(f"expected two rows of {2 + 2 * order} statistics", "stats")
    if config.use_effective_order:
        return None, "effective order changes which orders count along the way"
    smooth = config.smooth_method
    k = (config.effective_smooth_value or 0.0) if smooth == "add-k" else 0.0
    if smooth == "floor" and not config.effective_smooth_value:
        smooth = "none"
    if stats_a[0] <= 0 or stats_b[0] <= 0:
        return None, "a system has no output (c = 0), so its BLEU is 0"
    if not any(stats_a[2 : 2 + order]) or not any(stats_b[2 : 2 + order]):
        return None, "a system has no match at all, so its BLEU is 0"
    grad = [0.0] * len(stats_a)
    grad[0], grad[1] = _bp_gradient(float(stats_a[0]), float(stats_b[0]), float(stats_a[1]), float(stats_b[1]))
    for n, w in enumerate(_weights(config), start=1):
        shift = k if n > 1 else 0.0
        m0, m1 = float(stats_a[1 + n]) + shift, float(stats_b[1 + n]) + shift
        t0, t1 = float(stats_a[1 + order + n]) + shift, float(stats_b[1 + order + n]) + shift
        if t0 <= 0 or t1 <= 0:
            return None, f"a system has no {n}-grams, so the order drops out at one end"
        if m0 > 0 and m1 > 0:
            grad[1 + n] = w * _inv_log_mean(m0, m1)
        elif m0 > 0 or m1 > 0 or smooth not in ("exp", "floor"):
            return None, f"a system has no {n}-gram match, so its precision jumps to 0 or to a smoothed value"
        grad[1 + order + n] = -w * _inv_log_mean(t0, t1)
    return grad, ""


def gap_shares(matrix_a: np.ndarray, matrix_b: np.ndarray, config: BleuConfig = BleuConfig()) -> GapShares:
    """Every sentence's share of ``BLEU_B - BLEU_A``, adding up to it exactly (see the module's docstring).

    Args:
        matrix_a, matrix_b: (segments x statistics) matrices of the two systems on the same references.
        config: the BLEU configuration.

    Example:
        >>> import numpy as np
        >>> a = np.array([[4, 4, 4, 3, 2, 1, 4, 3, 2, 1], [5, 6, 3, 1, 0, 0, 5, 4, 3, 2]])
        >>> b = np.array([[4, 4, 4, 3, 2, 1, 4, 3, 2, 1], [6, 6, 5, 3, 1, 0, 6, 5, 4, 3]])
        >>> s = gap_shares(a, b)
        >>> [round(x, 4) for x in s.points.tolist()], round(s.gap, 4)  # the first sentence is the same in both
        ([0.0, 9.7453], 9.7453)
    """
    import numpy as np

    from bleu_core.metrics.bleu import score_many

    width = 2 + 2 * config.max_ngram_order
    for label, m in (("A", matrix_a), ("B", matrix_b)):
        if m.ndim != 2 or m.shape[1] != width:
            raise InputError(f"system {label}: expected a (segments x {width}) matrix, got shape {m.shape}", "matrix")
    if matrix_a.shape != matrix_b.shape:
        raise InputError(f"A has {len(matrix_a)} segments, B has {len(matrix_b)}", "matrix")
    ta, tb = matrix_a.sum(axis=0), matrix_b.sum(axis=0)
    score_a, score_b = (float(x) for x in score_many(np.stack([ta, tb]), config))
    gap = score_b - score_a
    if score_a <= 0 or score_b <= 0:
        return GapShares(None, None, gap, math.nan, False, "a BLEU of 0 has no logarithm")
    log_ratio = math.log(score_b / score_a)
    grad, note = integrated_gradient(ta.tolist(), tb.tolist(), config)
    if grad is None:
        return GapShares(None, None, gap, log_ratio, False, note)
    d = matrix_b.astype(np.float64) - matrix_a.astype(np.float64)
    log_shares: np.ndarray = d @ np.asarray(grad)
    # the logarithmic mean of the two scores turns log terms into points that add up to the gap (LMDI)
    scale = gap / log_ratio if log_ratio != 0 else score_a
    points: np.ndarray = log_shares * scale
    return GapShares(points, log_shares, gap, log_ratio, True)
