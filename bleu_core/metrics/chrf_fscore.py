"""chrF's f-score of (summed) statistics, operation for operation as sacreBLEU 2.6.0's ``CHRF._compute_f_score``.

Three forms of the same arithmetic: one row in pure Python (:meth:`FScore.one`: a corpus, a sentence, the choice of
a segment's best reference); every row of a matrix in float64 (:meth:`FScore.many`: equal to sacreBLEU on integer
sums, which its corpus score and its ``--paired-ar`` shuffles are); and every row in the float32 arithmetic of its
paired bootstrap (:meth:`FScore.many_float32`). The statistics are ``[hyp, ref, match]`` per order (characters,
then words); ``beta`` weighs recall.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

if TYPE_CHECKING:
    import numpy as np

__all__ = ["EPS", "FScore"]

EPS: Final = 1e-16
"""sacreBLEU's epsilon (chrF++.py's smoothing, and the precision and recall of an order one side lacks)."""


@dataclass(frozen=True, slots=True)
class FScore:
    """The f-score of ``orders`` orders with recall weighed by ``beta``, averaged as ``eps_smoothing`` says.

    Example:
        >>> stats = [3, 3, 2, 0, 2, 0]  # the second order: no hypothesis n-gram
        >>> FScore(orders=2, beta=2, eps_smoothing=False).one(stats)  # the effective order: the first alone
        66.66666666666666
        >>> FScore(orders=2, beta=2, eps_smoothing=True).one(stats)  # both orders, the second an epsilon
        33.33333333333333
    """

    orders: int
    beta: float
    eps_smoothing: bool

    @property
    def factor(self) -> float:
        """beta ** 2 as Python multiplies it into a float (an int beta's square is exact)."""
        return float(self.beta**2)

    @property
    def onep(self) -> float:
        """1 + beta ** 2, likewise."""
        return float(1 + self.beta**2)

    def one(self, stats: Sequence[float]) -> float:
        """One row (0-100): ``CHRF._compute_f_score`` in pure Python."""
        factor, onep = self.factor, self.onep
        score, avg_prec, avg_rec, effective = 0.0, 0.0, 0.0, 0
        for i in range(self.orders):
            n_hyp, n_ref, n_match = stats[3 * i : 3 * i + 3]
            prec = n_match / n_hyp if n_hyp > 0 else EPS
            rec = n_match / n_ref if n_ref > 0 else EPS
            denom = factor * prec + rec
            score += (onep * prec * rec / denom) if denom > 0 else EPS
            if n_hyp > 0 and n_ref > 0:
                avg_prec += prec
                avg_rec += rec
                effective += 1
        if self.eps_smoothing:
            return 100 * score / self.orders
        if effective:
            avg_prec /= effective
            avg_rec /= effective
        if avg_prec + avg_rec:
            score = onep * avg_prec * avg_rec
            score /= factor * avg_prec + avg_rec
            return 100 * score
        return 0.0

    def many(self, m: np.ndarray) -> np.ndarray:
        """Every row of a float64 (rows x 3 * orders) matrix: :meth:`one` vectorised, the same bits."""
        import numpy as np

        n = len(m)
        factor, onep = self.factor, self.onep
        score, avg_prec, avg_rec = np.zeros(n), np.zeros(n), np.zeros(n)
        effective = np.zeros(n, dtype=np.int64)
        with np.errstate(divide="ignore", invalid="ignore"):
            for i in range(self.orders):
                n_hyp, n_ref, n_match = m[:, 3 * i], m[:, 3 * i + 1], m[:, 3 * i + 2]
                has_hyp, has_ref = n_hyp > 0, n_ref > 0
                prec = np.where(has_hyp, n_match / np.where(has_hyp, n_hyp, 1.0), EPS)
                rec = np.where(has_ref, n_match / np.where(has_ref, n_ref, 1.0), EPS)
                denom = factor * prec + rec
                positive = denom > 0
                score = score + np.where(positive, onep * prec * rec / np.where(positive, denom, 1.0), EPS)
                both = has_hyp & has_ref
                avg_prec = np.where(both, avg_prec + prec, avg_prec)
                avg_rec = np.where(both, avg_rec + rec, avg_rec)
                effective += both
            if self.eps_smoothing:
                return 100 * score / self.orders
            some = effective > 0
            avg_prec = np.where(some, avg_prec / np.maximum(effective, 1), 0.0)
            avg_rec = np.where(some, avg_rec / np.maximum(effective, 1), 0.0)
            nonzero = (avg_prec + avg_rec) != 0
            f = onep * avg_prec * avg_rec / np.where(nonzero, factor * avg_prec + avg_rec, 1.0)
            return np.where(nonzero, 100 * f, 0.0)

    def many_float32(self, m: np.ndarray) -> np.ndarray:
        """Every row of a float32 matrix as sacreBLEU's paired bootstrap scores a resample's float32 sums.

        With numpy 2's promotion rules (NEP 50) ``_compute_f_score`` then computes in float32 wherever a float32
        statistic enters and in Python floats where only the epsilon and the constants do; the score is a Python
        float when no float32 reached it (``0.0`` without a match). The result is the array sacreBLEU makes of the
        scores: float32, or float64 (float32 values, exactly) when any score is a Python float.
        """
        import numpy as np

        f32 = np.float32
        n = len(m)
        score = np.zeros(n)  # the values, exactly; is32: whether the value is a float32 (else a Python float)
        is32 = np.zeros(n, dtype=bool)
        avg_prec, avg_rec = np.zeros(n, dtype=f32), np.zeros(n, dtype=f32)
        effective = np.zeros(n, dtype=np.int64)
        with np.errstate(divide="ignore", invalid="ignore", over="ignore", under="ignore"):
            for i in range(self.orders):
                n_hyp, n_ref, n_match = m[:, 3 * i], m[:, 3 * i + 1], m[:, 3 * i + 2]
                has_hyp, has_ref = n_hyp > 0, n_ref > 0
                prec = n_match / np.where(has_hyp, n_hyp, f32(1))  # float32 where has_hyp (else EPS, a float)
                rec = n_match / np.where(has_ref, n_ref, f32(1))
                term, term32 = self._term32(has_hyp, has_ref, prec, rec)
                either = is32 | term32
                summed32 = (score.astype(f32) + term.astype(f32)).astype(np.float64)
                score, is32 = np.where(either, summed32, score + term), either
                both = has_hyp & has_ref
                avg_prec = np.where(both, avg_prec + prec, avg_prec)
                avg_rec = np.where(both, avg_rec + rec, avg_rec)
                effective += both
            values, is_float = self._final32(score, is32, avg_prec, avg_rec, effective)
        return values if is_float.any() else values.astype(f32)

    def _term32(
        self, has_hyp: np.ndarray, has_ref: np.ndarray, prec: np.ndarray, rec: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray]:
        """One order's term of the eps sum: its value (float64) and whether it is a float32 (else a Python float).
        Four cases of (prec, rec): (float32, float32), (float32, EPS), (EPS, float32), (EPS, EPS)."""
        import numpy as np

        f32 = np.float32
        beta2 = self.beta**2
        # the constants as numpy casts them when they meet a float32 (Python numbers are "weak" under NEP 50)
        factor32, onep32, eps32 = f32(1) * beta2, f32(1) * (1 + beta2), f32(1) * EPS
        factor, onep = self.factor, self.onep
        d_both = factor32 * prec + rec
        d_hyp = factor32 * prec + eps32
        d_ref = f32(factor * EPS) + rec
        t_both = onep32 * prec * rec / np.where(d_both > 0, d_both, f32(1))
        t_hyp = onep32 * prec * eps32 / d_hyp
        t_ref = f32(onep * EPS) * rec / np.where(d_ref > 0, d_ref, f32(1))
        t_none = onep * EPS * EPS / (factor * EPS + EPS)
        cases = [has_hyp & has_ref, has_hyp, has_ref]
        # float32 values held exactly in float64 (a Python float default would be cast to float32 by select)
        term = np.select(cases, [t.astype(np.float64) for t in (t_both, t_hyp, t_ref)], np.float64(t_none))
        # a denominator of 0 adds the Python float EPS; so do the terms without a float32 in them
        term32 = np.select(cases, [d_both > 0, True, d_ref > 0], False)
        return np.where(term32 | ~(has_hyp | has_ref), term, EPS), term32

    def _final32(
        self, score: np.ndarray, is32: np.ndarray, avg_prec: np.ndarray, avg_rec: np.ndarray, effective: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray]:
        """The scores from the sums (float64 values) and which of them are Python floats."""
        import numpy as np

        f32 = np.float32
        beta2 = self.beta**2
        factor32, onep32 = f32(1) * beta2, f32(1) * (1 + beta2)
        if self.eps_smoothing:
            as32 = (f32(100) * score.astype(f32) / f32(self.orders)).astype(np.float64)
            return np.where(is32, as32, 100 * score / self.orders), ~is32
        some = effective > 0
        avg_prec = np.where(some, avg_prec / np.maximum(effective, 1).astype(f32), f32(0))
        avg_rec = np.where(some, avg_rec / np.maximum(effective, 1).astype(f32), f32(0))
        nonzero = some & ((avg_prec + avg_rec) != 0)
        f = onep32 * avg_prec * avg_rec / np.where(nonzero, factor32 * avg_prec + avg_rec, f32(1))
        return np.where(nonzero, (f32(100) * f).astype(np.float64), 0.0), ~nonzero
