"""Why do A and B differ? The exact decomposition of a BLEU difference, and each sentence's share of it.

BLEU is a product, ``BP * exp(sum_n w_n log p_n)``, so the ratio of two scores splits exactly in the
log domain::

    log(BLEU_B / BLEU_A) = (log BP_B - log BP_A) + sum_n (w_n,B log p_n,B - w_n,A log p_n,A)

``p_n`` are the precisions the score was computed with, i.e. *after* the chosen smoothing (exp, floor,
add-k; none leaves them raw) and ``w_n`` the normalised weights over the orders that entered the mean
(uniform 1/N by default; with effective order the two systems may keep different orders, which is why
each side carries its own weight). Both sides' weights sum to 1, so the percent scale cancels.

A precision of 0 (possible only without smoothing, or with ``floor`` at 0) makes its log term
-infinity and the score 0 (sacreBLEU floors ``log 0`` at -9999999999, which is 0 after ``exp``); the
decomposition then says so (``finite`` is False and ``note`` names the order and the system) instead
of inventing a number.

The terms are translated into BLEU points with the logarithmic mean of the two scores (Ang 2004's
LMDI): ``points_k = term_k * (BLEU_B - BLEU_A) / log(BLEU_B / BLEU_A)``. The points add up to
``BLEU_B - BLEU_A`` exactly, and unlike a sequential waterfall (swap BP first, then p_1, ...) they do
not depend on the order in which the terms are taken.

Per sentence, the exact leave-one-out effect on the difference: the statistics are sums, so the
corpus without sentence i is a subtraction and a rescoring from sums (:func:`leave_one_out_difference`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from bleu_core.config import BleuConfig
from bleu_core.errors import InputError
from bleu_core.metrics.bleu import score_from_stats

if TYPE_CHECKING:
    import numpy as np

__all__ = ["Decomposition", "SideTerms", "decompose", "decompose_matrices", "leave_one_out_difference", "side_terms"]


@dataclass(frozen=True, slots=True)
class SideTerms:
    """One system's log BLEU, split: ``log(score / 100) = log_bp + sum(log_precision_terms)``.

    Attributes:
        score: BLEU (0-100).
        bp: the brevity penalty.
        log_bp: ``log BP`` (-inf when BP is 0: an empty output).
        precisions: the precisions in percent, after smoothing (as ``BleuScore.precisions``).
        weights: the normalised weight of each order in the mean (0 for an order left out).
        log_precision_terms: ``w_n * log(p_n / 100)`` per order (-inf for a zero precision with weight).
    """

    score: float
    bp: float
    log_bp: float
    precisions: tuple[float, ...]
    weights: tuple[float, ...]
    log_precision_terms: tuple[float, ...]


@dataclass(frozen=True, slots=True)
class Decomposition:
    """``log(BLEU_B / BLEU_A)`` split into the brevity penalty and one term per n-gram order.

    Attributes:
        baseline_score: BLEU_A.
        score: BLEU_B.
        bleu: ``BLEU_B - BLEU_A`` in BLEU points.
        log_ratio: ``log(BLEU_B / BLEU_A)``; ``log_bp + sum(log_precision_terms)`` (nan or ±inf when a
            score is 0).
        log_bp: ``log BP_B - log BP_A``.
        log_precision_terms: per order n, ``w_n,B log p_n,B - w_n,A log p_n,A``.
        points_bp: ``log_bp`` in BLEU points (logarithmic-mean weighting; nan when not finite).
        points_precision_terms: each precision term in BLEU points; with ``points_bp`` they sum to ``bleu``.
        smoothing: the smoothing the precisions were taken under (``exp``, ``floor[0.10]``, ``none``...).
        finite: False when a score is 0 (a zero precision without smoothing, or an empty output).
        note: why the decomposition is not finite, naming order and system ("" when finite).
        a: A's side.
        b: B's side.
    """

    baseline_score: float
    score: float
    bleu: float
    log_ratio: float
    log_bp: float
    log_precision_terms: tuple[float, ...]
    points_bp: float
    points_precision_terms: tuple[float, ...]
    smoothing: str
    finite: bool
    note: str
    a: SideTerms
    b: SideTerms

    def to_dict(self) -> dict[str, object]:
        """The ``difference`` object of ``bleu-explorer compare --json``; a number that is not finite is
        ``null`` (JSON has no infinity) and ``note`` says why."""
        return {
            "bleu": self.bleu,
            "log_ratio": _json_number(self.log_ratio),
            "log_bp": _json_number(self.log_bp),
            "log_precision_terms": [_json_number(t) for t in self.log_precision_terms],
            "points": {
                "bp": _json_number(self.points_bp),
                "precision_terms": [_json_number(t) for t in self.points_precision_terms],
            },
            "smoothing": self.smoothing,
            "finite": self.finite,
            "note": self.note or None,
        }

    def format(self, name_a: str = "A", name_b: str = "B") -> str:
        """One line: the difference in points and where it comes from (terms in points, then log units).

        Example:
            >>> a = [16, 18, 17, 10, 7, 4, 18, 17, 16, 15]  # A is short: c = 16 < r = 18
            >>> print(decompose(a, [18, *a[1:]]).format())  # B: same matches, full length
            B - A = +5.93 BLEU = BP +5.93, p1 +0.00, p2 +0.00, p3 +0.00, p4 +0.00 (log ratio +0.1250; exp smoothing)
        """
        if not self.finite:
            return f"{name_b} - {name_a} = {self.bleu:+.2f} BLEU; log ratio not finite: {self.note}"
        parts = [f"BP {self.points_bp:+.2f}"] + [
            f"p{n} {t:+.2f}" for n, t in enumerate(self.points_precision_terms, start=1)
        ]
        return (
            f"{name_b} - {name_a} = {self.bleu:+.2f} BLEU = {', '.join(parts)} "
            f"(log ratio {self.log_ratio:+.4f}; {self.smoothing} smoothing)"
        )


def _json_number(x: float) -> float | None:
    return x if math.isfinite(x) else None


def _smoothing_label(config: BleuConfig) -> str:
    value = config.effective_smooth_value
    if config.smooth_method in ("floor", "add-k") and value is not None:
        return f"{config.smooth_method}[{value:.2f}]"
    return config.smooth_method


def _weights(config: BleuConfig, eff_order: int) -> tuple[float, ...]:
    # the normalisation of score_from_stats, order for order
    order = config.max_ngram_order
    if config.weights is None:
        w = [1.0] * eff_order
    else:
        w = list(config.weights[:eff_order])
        if sum(w) == 0:
            w = [1.0] * eff_order
    total = sum(w)
    return tuple([x / total for x in w] + [0.0] * (order - eff_order))


def side_terms(stats: Sequence[float], config: BleuConfig = BleuConfig()) -> SideTerms:
    """Split one system's log BLEU from its summed statistics ``[c, r, correct_1..N, total_1..N]``.

    Example:
        >>> t = side_terms([18, 16, 17, 10, 7, 4, 18, 17, 16, 15], BleuConfig.paper())
        >>> round(math.log(t.score / 100), 12) == round(t.log_bp + sum(t.log_precision_terms), 12)
        True
    """
    order = config.max_ngram_order
    row = [float(x) for x in stats]
    if len(row) != 2 + 2 * order:
        raise InputError(f"expected {2 + 2 * order} statistics for max order {order}, got {len(row)}", "stats")
    s = score_from_stats(row[2 : 2 + order], row[2 + order :], int(row[0]), int(row[1]), config)
    # no match at all: sacreBLEU returns 0 before choosing the orders (eff_order 0); every order then counts
    weights = _weights(config, s.eff_order or order)
    terms = []
    for w, p in zip(weights, s.precisions, strict=True):
        if w == 0.0:
            terms.append(0.0)
        elif p <= 0.0:
            terms.append(-math.inf)
        else:
            terms.append(w * math.log(p / 100.0))
    log_bp = math.log(s.bp) if s.bp > 0 else -math.inf
    return SideTerms(s.score, s.bp, log_bp, tuple(s.precisions), weights, tuple(terms))


def _diff(b: float, a: float) -> float:
    if math.isinf(a) and math.isinf(b) and (a > 0) == (b > 0):
        return math.nan  # -inf - -inf: undefined
    return b - a


def _log_mean(a: float, b: float) -> float:
    # (b - a) / (log b - log a), continuous at a == b; the LMDI weight
    if a <= 0 or b <= 0:
        return math.nan
    if a == b:
        return a
    return (b - a) / (math.log(b) - math.log(a))


def _note(a: SideTerms, b: SideTerms, config: BleuConfig) -> str:
    bits = []
    for label, side in (("A", a), ("B", b)):
        if side.score > 0:
            continue
        if side.bp == 0:
            bits.append(f"{label} has no output tokens (BP = 0)")
            continue
        zeros = [n for n, t in enumerate(side.log_precision_terms, start=1) if t == -math.inf]
        if zeros:
            orders = ", ".join(f"p{n}" for n in zeros)
            bits.append(f"{label} has {orders} = 0 under {_smoothing_label(config)} smoothing (log term -inf)")
        else:
            bits.append(f"{label} scores 0")
    return "; ".join(bits)


def decompose(stats_a: Sequence[float], stats_b: Sequence[float], config: BleuConfig = BleuConfig()) -> Decomposition:
    """The exact split of ``log(BLEU_B / BLEU_A)`` from the two systems' summed statistics.

    Args:
        stats_a: A's (the baseline's) corpus statistics ``[c, r, correct_1..N, total_1..N]``.
        stats_b: B's.
        config: the BLEU settings (smoothing, weights, effective order, max order).

    Returns:
        The :class:`Decomposition`; ``log_ratio == log_bp + sum(log_precision_terms)`` up to rounding.

    Example:
        >>> a = [18, 16, 17, 10, 7, 4, 18, 17, 16, 15]  # the paper's Candidate 1, r = 16
        >>> b = [18, 16, 17, 12, 9, 6, 18, 17, 16, 15]  # more 2-, 3- and 4-gram matches
        >>> d = decompose(a, b, BleuConfig.paper())
        >>> round(d.log_ratio, 12) == round(d.log_bp + sum(d.log_precision_terms), 12), d.log_bp
        (True, 0.0)
        >>> [round(t, 4) for t in d.log_precision_terms]
        [0.0, 0.0456, 0.0628, 0.1014]
        >>> round(sum(d.points_precision_terms) + d.points_bp - d.bleu, 9)
        0.0
    """
    a = side_terms(stats_a, config)
    b = side_terms(stats_b, config)
    log_bp = _diff(b.log_bp, a.log_bp)
    terms = tuple(_diff(tb, ta) for tb, ta in zip(b.log_precision_terms, a.log_precision_terms, strict=True))
    finite = a.score > 0 and b.score > 0
    if finite:
        log_ratio = math.log(b.score) - math.log(a.score)
    elif a.score == 0 and b.score == 0:
        log_ratio = math.nan
    else:
        log_ratio = math.inf if a.score == 0 else -math.inf
    lm = _log_mean(a.score, b.score)
    return Decomposition(
        baseline_score=a.score,
        score=b.score,
        bleu=b.score - a.score,
        log_ratio=log_ratio,
        log_bp=log_bp,
        log_precision_terms=terms,
        points_bp=lm * log_bp if finite else math.nan,
        points_precision_terms=tuple(lm * t if finite else math.nan for t in terms),
        smoothing=_smoothing_label(config),
        finite=finite,
        note="" if finite else _note(a, b, config),
        a=a,
        b=b,
    )


def decompose_matrices(matrix_a: np.ndarray, matrix_b: np.ndarray, config: BleuConfig = BleuConfig()) -> Decomposition:
    """:func:`decompose` of two (segments x statistics) matrices (summed first)."""
    _check_pair(matrix_a, matrix_b, config)
    return decompose(matrix_a.sum(axis=0).tolist(), matrix_b.sum(axis=0).tolist(), config)


def _check_pair(matrix_a: np.ndarray, matrix_b: np.ndarray, config: BleuConfig) -> None:
    width = 2 + 2 * config.max_ngram_order
    for label, m in (("A", matrix_a), ("B", matrix_b)):
        if m.ndim != 2 or m.shape[1] != width:
            raise InputError(f"system {label}: expected a (segments x {width}) matrix, got shape {m.shape}", "matrix")
    if matrix_a.shape != matrix_b.shape:
        raise InputError(f"A has {len(matrix_a)} segments, B has {len(matrix_b)}", "matrix")


def leave_one_out_difference(
    matrix_a: np.ndarray, matrix_b: np.ndarray, config: BleuConfig = BleuConfig()
) -> np.ndarray:
    """Each sentence's exact share of ``BLEU_B - BLEU_A``: the difference minus the difference without it.

    Positive: the sentence carries part of B's lead (without it B's lead shrinks); negative: it works
    for A. The corpus without sentence i is ``totals - row_i`` for each system, rescored from the sums
    (no re-tokenization). The effects do not add up to the difference: BLEU is not additive over
    sentences, only its statistics are.

    Example:
        >>> import numpy as np
        >>> a = np.array([[4, 4, 4, 3, 2, 1, 4, 3, 2, 1], [5, 6, 3, 1, 0, 0, 5, 4, 3, 2]])
        >>> b = np.array([[4, 4, 4, 3, 2, 1, 4, 3, 2, 1], [6, 6, 5, 3, 1, 0, 6, 5, 4, 3]])
        >>> [round(x, 4) for x in leave_one_out_difference(a, b).tolist()]
        [-8.8888, 9.7453]
    """
    import numpy as np

    from bleu_core.metrics.bleu import score_many

    _check_pair(matrix_a, matrix_b, config)
    if len(matrix_a) == 0:
        return np.zeros(0)
    ta, tb = matrix_a.sum(axis=0), matrix_b.sum(axis=0)
    full = float(score_many(tb[None, :], config)[0] - score_many(ta[None, :], config)[0])
    without = score_many(tb[None, :] - matrix_b, config) - score_many(ta[None, :] - matrix_a, config)
    out: np.ndarray = full - without
    return out
