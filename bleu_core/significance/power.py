"""Statistical power of a paired test on one test set: the smallest BLEU difference it detects, and the segments
a given difference needs (Card et al. 2020, "With Little Power Comes Great Responsibility", EMNLP).

The method. A paired test on ``n`` segments sees the difference ``d = BLEU(system) - BLEU(baseline)`` with a
sampling error whose standard deviation ``se`` is estimated by the paired bootstrap itself: the spread of
``d`` over sacreBLEU's resamples of the test set (the same draws as ``compare``). With ``d`` approximately normal
around the true difference ``delta``, a test that rejects when ``|d| > z_crit * se`` detects ``delta`` with
probability ``Phi(|delta| / se - z_crit)``; setting that to the wanted power gives the minimum detectable
difference ``MDE = (z_crit + z_power) * se``. The critical value is the test's own:

* sacreBLEU's paired bootstrap (``bs``) compares the *centred* resampled ``|d*| - mean|d*|`` with the observed
  ``|d|``: away from zero that is ``d* - d`` against ``|d|``, a one-tailed rule, so ``z_crit = z_{1-alpha}``
  (1.645 at alpha 0.05; MDE = 2.49 se at 80% power);
* a two-sided test (approximate randomization, ``ar``; and the textbook formula) uses ``z_{1-alpha/2}``
  (1.960; MDE = 2.80 se), taking the bootstrap se as the spread of its null distribution.

Assumptions: segments (or documents, for the block version) are independent draws from the population of
test items, so ``se`` shrinks as ``1 / sqrt(n)`` and ``segments_needed(delta) = n * (MDE / delta)^2``; the
difference is near normal (BLEU is a ratio of sums over hundreds of segments); ``se`` at the true difference is
the one measured at the observed one. tests/core/test_power.py plants a difference of one MDE into a real WMT21
system and checks that sacreBLEU's paired bootstrap detects it on resampled test sets about 80% of the time.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from statistics import NormalDist
from typing import Literal

import numpy as np

from bleu_core.config import BleuConfig
from bleu_core.errors import InputError
from bleu_core.metrics import Metric, as_metric

from .resample import DEFAULT_SEED, resample_sums
from .trials import check_trials

__all__ = ["Power", "critical_z", "median_mde", "power_analysis"]

Test = Literal["bs", "ar"]


def critical_z(alpha: float, test: Test = "bs") -> float:
    """The normal critical value of a paired test at level ``alpha``: one-tailed for sacreBLEU's paired bootstrap
    (its p-value is a one-tailed share of centred resamples), two-tailed for ``ar``.

    Example:
        >>> round(critical_z(0.05), 3), round(critical_z(0.05, "ar"), 3)
        (1.645, 1.96)
    """
    if not 0 < alpha < 1:
        raise InputError(f"must be between 0 and 1, got {alpha!r}", "alpha")
    if test not in ("bs", "ar"):
        raise InputError(f"unknown test {test!r} (known: bs, ar)", "test")
    return NormalDist().inv_cdf(1 - alpha if test == "bs" else 1 - alpha / 2)


@dataclass(frozen=True, slots=True)
class Power:
    """What a paired test on this test set can detect, for one system against the baseline.

    Attributes:
        n: segments (or documents) the test set has: the unit resampled.
        unit: ``segment``, or ``document`` for the document-block bootstrap.
        difference: the observed ``BLEU(system) - BLEU(baseline)``.
        se: the standard deviation of that difference over the bootstrap resamples.
        alpha: the test's level.
        power: the wanted probability of detecting a true difference of ``mde``.
        test: ``bs`` (sacreBLEU's paired bootstrap) or ``ar`` (two-sided).
        mde: the minimum detectable difference, ``(critical_z + z_power) * se``, in BLEU points.
        n_samples: bootstrap resamples behind ``se``.
        seed: their seed.
        signature: the BLEU signature with resamples, seed (and ``block:doc`` for documents).
    """

    n: int
    unit: Literal["segment", "document"]
    difference: float
    se: float
    alpha: float
    power: float
    test: Test
    mde: float
    n_samples: int
    seed: int
    signature: str

    def needed(self, delta: float) -> int:
        """Segments (documents, for ``unit == "document"``) a test set from the same population needs for this
        test to detect a true difference of ``delta`` BLEU points with :attr:`power`: ``n * (mde / delta)^2``,
        rounded up (at least 1).

        Example:
            >>> p = Power(1000, "segment", 0.4, 0.2, 0.05, 0.8, "bs", 0.5, 1000, 1, "")
            >>> p.needed(0.5), p.needed(0.25), p.needed(1.0)
            (1000, 4000, 250)
        """
        if not math.isfinite(delta) or delta == 0:
            raise InputError(f"must be a difference other than 0, got {delta!r}", "delta")
        return max(1, math.ceil(self.n * (self.mde / abs(delta)) ** 2 - 1e-9))

    def power_at(self, delta: float, n: int | None = None) -> float:
        """The probability that the test detects a true difference ``delta`` on ``n`` segments (default: this
        test set's), ``Phi(|delta| / se_n - critical_z)`` with ``se_n = se * sqrt(self.n / n)``.

        Example:
            >>> p = Power(1000, "segment", 0.4, 0.2, 0.05, 0.8, "bs", 0.2 * (1.6449 + 0.8416), 1000, 1, "")
            >>> round(p.power_at(p.mde), 3), round(p.power_at(p.mde, 4000), 3)
            (0.8, 1.0)
        """
        size = self.n if n is None else n
        if size < 1:
            raise InputError(f"must be at least 1, got {size!r}", "segments")
        if self.se == 0:
            return 1.0 if delta else self.alpha
        se_n = self.se * math.sqrt(self.n / size)
        return NormalDist().cdf(abs(delta) / se_n - critical_z(self.alpha, self.test))


def _checked(matrices: Sequence[np.ndarray], width: int) -> list[np.ndarray]:
    mats = [np.asarray(m) for m in matrices]
    for i, m in enumerate(mats):
        if m.ndim != 2 or m.shape[1] != width or len(m) != len(mats[0]):
            raise InputError(
                f"matrix {i + 1} has shape {m.shape}; expected ({len(mats[0])} x {width}) like the baseline", "matrix"
            )
    return mats


def _sums(mats: list[np.ndarray], width: int, n_samples: int, seed: int, resampled: np.ndarray | None) -> np.ndarray:
    if resampled is None:
        return resample_sums(mats, n_samples, seed)
    if len(resampled) < n_samples or resampled.shape[1] != width * len(mats):
        raise InputError(f"has shape {resampled.shape}; expected >= {n_samples} x {width * len(mats)}", "resampled")
    return resampled[:n_samples]


def power_analysis(
    baseline: np.ndarray,
    systems: Sequence[np.ndarray],
    metric: Metric | BleuConfig = BleuConfig(),
    *,
    alpha: float = 0.05,
    power: float = 0.8,
    test: Test = "bs",
    n_samples: int = 1000,
    seed: int = DEFAULT_SEED,
    nrefs: int | str = 1,
    unit: Literal["segment", "document"] = "segment",
    resampled: np.ndarray | None = None,
) -> tuple[Power, ...]:
    """The minimum detectable difference of each system against the baseline on this test set, from one set of
    sacreBLEU's bootstrap resamples (:func:`~bleu_core.significance.resample.resample_sums`, the draws ``compare``
    makes with the same seed); document blocks: pass ``document_sums`` rows and ``unit="document"``.

    Args:
        baseline: the baseline's (segments x statistics) matrix.
        systems: the other systems' matrices.
        metric: the metric of the matrices (a ``BleuConfig`` means BLEU under it).
        alpha: the test's level; power: the probability of detecting a true difference of the MDE.
        test: ``bs`` (sacreBLEU's paired bootstrap, one-tailed critical value) or ``ar`` (two-tailed).
        n_samples: resamples that estimate the standard error; seed: their seed.
        nrefs: references per segment, for the signature.
        unit: what a row is (one :class:`Power` per system is returned, in order).
        resampled: their ``resample_sums`` with ``seed`` when drawn already (a pool's first rows are the same draws).

    Example:
        >>> import numpy as np
        >>> rng = np.random.default_rng(0)
        >>> base = np.column_stack([np.full(400, 10), np.full(400, 10), rng.integers(3, 8, (400, 4)),
        ...                         np.full((400, 4), 9)])
        >>> better = base.copy(); better[::4, 2:6] += 1
        >>> (p,) = power_analysis(base, [better], n_samples=500)
        >>> p.difference > 0, round(p.mde / p.se, 3), p.needed(p.mde) == p.n, p.signature.split("|")[1:3]
        (True, 2.486, True, ['bs:500', 'rs:12345'])
    """
    if not 0 < power < 1:
        raise InputError(f"must be between 0 and 1, got {power!r}", "power")
    check_trials(n_samples, "n_samples")
    if n_samples < 2:
        raise InputError("needs at least 2 resamples to estimate a spread", "n_samples")
    z = critical_z(alpha, test) + NormalDist().inv_cdf(power)
    scorer = as_metric(metric)
    width = scorer.width
    mats = _checked([baseline, *systems], width)
    sums = _sums(mats, width, n_samples, seed, resampled)
    scores = [scorer.score_many(sums[:, j * width : (j + 1) * width]) for j in range(len(mats))]
    real = [float(scorer.score_many(m.sum(axis=0)[None, :])[0]) for m in mats]
    extra: dict[str, object] = {"bs": n_samples, "rs": seed}
    if unit == "document":
        extra["block"] = "doc"
    sig = scorer.signature(nrefs, **extra)
    out = []
    for j in range(1, len(mats)):
        se = float(np.std(scores[j] - scores[0], ddof=1))
        out.append(Power(len(mats[0]), unit, real[j] - real[0], se, alpha, power, test, z * se, n_samples, seed, sig))
    return tuple(out)


def median_mde(powers: Sequence[Power]) -> float:
    """One number for the test set: the median MDE over the pairs (``nan`` for none), for a report's
    ``"test_set": {"mde": ...}``; each pair's own MDE stays the one to quote for that pair.

    Example:
        >>> mk = lambda m: Power(10, "segment", 0.0, m / 2.5, 0.05, 0.8, "bs", m, 100, 1, "")
        >>> median_mde([mk(1.0), mk(3.0), mk(2.0)]), math.isnan(median_mde([]))
        (2.0, True)
    """
    if not powers:
        return math.nan
    return float(np.median([p.mde for p in powers]))
