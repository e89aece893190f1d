"""sacreBLEU's paired tests of systems against a baseline: the paired bootstrap and paired approximate
randomization, and the bootstrap intervals, for any metric.

Everything is arithmetic on (segments x statistics) matrices (``metric.prepare(references).stats(lines)``): a
resample or a shuffle is a weighted column sum, so a thousand resamples are one matrix product and one vectorised
:meth:`~bleu_core.metrics.base.Metric.score_many`, never a rescoring. The draws come from ``resample`` (a kernel or
a numpy drawer, the same numbers); how many to draw from ``trials``; every pair with Holm's correction is
``pairwise``; the paper's block test is ``teaching.blocktest``.

The tests are sacreBLEU's (``--paired-bs``, ``--paired-ar``, ``significance.py``), draw for draw: the same
``numpy.random.default_rng(seed)`` calls in the same order, the same test statistics, the same ``(c + 1) / (n + 1)``
p-value and the same 95% interval, so with the same seed the p-values agree with sacreBLEU's up to float32 rounding
in sacreBLEU's resampled scores. A :class:`~bleu_core.config.BleuConfig` where a metric is taken means BLEU under it.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from bleu_core.config import BleuConfig
from bleu_core.errors import InputError
from bleu_core.metrics import Bleu, Metric, as_metric

from .estimates import (
    check_matrices,
    drawn_score,
    estimate_ci,
    matrix_score,
    p_value,
    resampled_scores,
    signature_of_test,
)
from .resample import DEFAULT_SEED, seeded_rng, shuffle_sums
from .trials import DEFAULT_TRIALS, Method, check_trials

__all__ = [
    "Comparison",
    "PairedResult",
    "bootstrap_ci",
    "bootstrap_cis",
    "compare",
    "difference_cis",
    "paired_ar",
    "paired_bootstrap",
]

BLEU = Bleu()  # sacreBLEU's default: corpus BLEU, 13a, exp smoothing


@dataclass(frozen=True, slots=True)
class PairedResult:
    """One system against the baseline.

    Attributes:
        score: the system's corpus score.
        baseline_score: the baseline's corpus score.
        p_value: probability of a difference at least this large by chance (sacreBLEU's estimate).
        mean: the mean score over the bootstrap resamples.
        half_width: half the width of the 95% interval (sacreBLEU's ``ci``: ``mean ± half_width``).
        low: the interval's lower end (the 2.5% resample).
        high: its upper end.
        method: ``bs`` or ``ar``.
        trials: resamples (bs) or shuffles (ar).
        seed: the generator's seed.
        signature: the metric's signature with method, trials and seed (``...|bs:1000|rs:12345|...``).
    """

    score: float
    baseline_score: float
    p_value: float
    mean: float
    half_width: float
    low: float
    high: float
    method: Method
    trials: int
    seed: int
    signature: str

    @property
    def difference(self) -> float:
        """score - baseline_score."""
        return self.score - self.baseline_score


def bootstrap_ci(
    matrix: np.ndarray,
    metric: Metric | BleuConfig = BLEU,
    *,
    n_samples: int = 1000,
    seed: int = DEFAULT_SEED,
    nrefs: int | str | None = None,
) -> tuple[float, float, float, float]:
    """Bootstrap 95% confidence interval of one system's score (sacreBLEU's, for the baseline).

    Returns:
        ``(mean, half_width, low, high)``: sacreBLEU reports ``mean ± half_width``; ``low`` and
        ``high`` are the 2.5% and 97.5% resamples.

    Example:
        >>> m = np.array([[4, 4, 4, 3, 2, 1, 4, 3, 2, 1], [5, 6, 3, 1, 0, 0, 5, 4, 3, 2]] * 50)
        >>> mean, half, low, high = bootstrap_ci(m, n_samples=200, seed=1)
        >>> low <= mean <= high and half == (high - low) / 2
        True
    """
    metric = as_metric(metric)
    (m,) = check_matrices([matrix], metric)
    check_trials(n_samples, "n_samples")
    return estimate_ci(resampled_scores(seeded_rng(seed), n_samples, [m], metric, nrefs=nrefs)[:, 0])


def bootstrap_cis(
    matrices: Sequence[np.ndarray],
    metric: Metric | BleuConfig = BLEU,
    *,
    n_samples: int = 1000,
    seed: int = DEFAULT_SEED,
    resampled: np.ndarray | None = None,
    nrefs: int | str | None = None,
) -> list[tuple[float, float, float, float]]:
    """:func:`bootstrap_ci` of several systems on the same segments, from one set of draws (the same
    seed draws the same resamples for every system, so each equals its own ``bootstrap_ci``).

    Example:
        >>> a = np.array([[4, 4, 4, 3, 2, 1, 4, 3, 2, 1], [5, 6, 3, 1, 0, 0, 5, 4, 3, 2]] * 50)
        >>> b = a.copy(); b[:, 2] -= 1
        >>> bootstrap_cis([a, b], n_samples=200) == [bootstrap_ci(a, n_samples=200), bootstrap_ci(b, n_samples=200)]
        True
    """
    scores = _scores(matrices, as_metric(metric), n_samples, seed, resampled, nrefs)
    return [estimate_ci(scores[:, j]) for j in range(scores.shape[1])]


def _scores(
    matrices: Sequence[np.ndarray],
    metric: Metric,
    n_samples: int,
    seed: int,
    resampled: np.ndarray | None,
    nrefs: int | str | None,
) -> np.ndarray:
    """Every system's score in each of the ``n_samples`` resamples (samples x systems), the inputs checked."""
    mats = check_matrices(matrices, metric)
    check_trials(n_samples, "n_samples")
    return resampled_scores(seeded_rng(seed), n_samples, mats, metric, resampled, nrefs=nrefs)


def difference_cis(
    matrices: Sequence[np.ndarray],
    baseline: int,
    metric: Metric | BleuConfig = BLEU,
    *,
    n_samples: int = 1000,
    seed: int = DEFAULT_SEED,
    resampled: np.ndarray | None = None,
    nrefs: int | str | None = None,
) -> list[tuple[float, float, float, float]]:
    """The paired bootstrap's 95% interval of each system's difference to the baseline (``matrices[baseline]``):
    per resample, the system's score minus the baseline's on the same resampled segments, read as
    :func:`bootstrap_cis` reads a score (sacreBLEU's ``estimate_ci``: the mean, half the width, the 2.5% and 97.5%
    resamples). The draws are :func:`bootstrap_cis`'s (the same seed, the same resamples), so a system's interval
    and its difference's come from one set of draws; the baseline's own difference is 0 in every resample. An
    interval that excludes 0 is the paired bootstrap's view that the difference is real at 95% (a two-sided
    percentile interval: the test's p-value, :func:`paired_bootstrap`, is its own statistic).

    Example:
        >>> a = np.array([[4, 4, 4, 3, 2, 1, 4, 3, 2, 1], [5, 6, 3, 1, 0, 0, 5, 4, 3, 2]] * 50)
        >>> b = a.copy(); b[:, 2] -= 1
        >>> (base, _, _, _), (mean, _, low, high) = difference_cis([a, b], 0, n_samples=200)
        >>> base, low <= mean <= high < 0
        (0.0, True)
    """
    if not 0 <= baseline < len(matrices):
        raise InputError(f"no system {baseline} among {len(matrices)}", "baseline")
    scores = _scores(matrices, as_metric(metric), n_samples, seed, resampled, nrefs)
    base = scores[:, baseline]
    return [estimate_ci(scores[:, j] - base) for j in range(scores.shape[1])]


def paired_bootstrap(
    baseline: np.ndarray,
    systems: Sequence[np.ndarray],
    metric: Metric | BleuConfig = BLEU,
    *,
    n_samples: int = 1000,
    seed: int = DEFAULT_SEED,
    nrefs: int | str = 1,
) -> list[PairedResult]:
    """Paired bootstrap resampling (Koehn 2004; sacreBLEU ``--paired-bs``), each system vs the baseline.

    The same resamples serve every system (as in sacreBLEU, which reseeds per system). The test
    statistic is ``|score_sys - score_base|`` per resample, centred on its mean, compared with the real
    difference.

    Args:
        baseline: the baseline's statistics matrix.
        systems: the other systems' matrices (same segments).
        metric: the metric the matrices were counted for (a ``BleuConfig``: BLEU under it).
        n_samples: resamples.
        seed: the generator's seed.
        nrefs: references per segment, for the signature.

    Returns:
        One :class:`PairedResult` per system, in order.

    Example:
        >>> base = np.array([[4, 4, 4, 3, 2, 1, 4, 3, 2, 1], [5, 6, 3, 1, 0, 0, 5, 4, 3, 2]] * 50)
        >>> same = paired_bootstrap(base, [base], n_samples=100)[0]
        >>> same.p_value == 1 / 101, same.signature.split("|")[1:3]  # sacreBLEU's: no resample differs more
        (True, ['bs:100', 'rs:12345'])
    """
    metric = as_metric(metric)
    mats = check_matrices([baseline, *systems], metric)
    check_trials(n_samples, "n_samples")
    scores = resampled_scores(seeded_rng(seed), n_samples, mats, metric, nrefs=nrefs)
    return bootstrap_results(scores, [matrix_score(m, metric) for m in mats], metric, n_samples, seed, nrefs)


def bootstrap_results(
    scores: np.ndarray, real: Sequence[float], metric: Metric, n_samples: int, seed: int, nrefs: int | str
) -> list[PairedResult]:
    """Each system (column 1 on) against the baseline (column 0) from the scores of the same resamples."""
    sig = signature_of_test(metric, nrefs, "bs", n_samples, seed)
    results = []
    for j in range(1, scores.shape[1]):
        diffs = np.abs(scores[:, j] - scores[:, 0])
        p = p_value(diffs - diffs.mean(), abs(real[0] - real[j]))
        mean, half, low, high = estimate_ci(scores[:, j])
        results.append(PairedResult(real[j], real[0], p, mean, half, low, high, "bs", n_samples, seed, sig))
    return results


def paired_ar(
    baseline: np.ndarray,
    systems: Sequence[np.ndarray],
    metric: Metric | BleuConfig = BLEU,
    *,
    n_trials: int = 10000,
    seed: int = DEFAULT_SEED,
    n_confidence: int = 1000,
    nrefs: int | str = 1,
) -> list[PairedResult]:
    """Paired approximate randomization (Riezler & Maxwell 2005; sacreBLEU ``--paired-ar``).

    Each trial swaps the two systems' outputs on a random half of the segments; the p-value is the
    share of trials whose ``|score_a - score_b|`` exceeds the real difference. The interval comes from
    ``n_confidence`` bootstrap resamples drawn next from the same generator (sacreBLEU's
    ``--paired-ar-confidence-n``).

    Example:
        >>> base = np.array([[4, 4, 4, 3, 2, 1, 4, 3, 2, 1], [5, 6, 3, 1, 0, 0, 5, 4, 3, 2]] * 50)
        >>> worse = base.copy(); worse[:, 2] -= 1
        >>> r = paired_ar(base, [worse], n_trials=500, seed=3)[0]
        >>> r.p_value < 0.01, r.score < r.baseline_score, r.signature.split("|")[1:3]
        (True, True, ['ar:500', 'rs:3'])
    """
    metric = as_metric(metric)
    mats = check_matrices([baseline, *systems], metric)
    check_trials(n_trials, "n_trials")
    # sacreBLEU reseeds for every system, so every system gets the same shuffles and then the same
    # bootstrap draws: draw them once. With D = base - sys, a trial's two pseudo-systems are
    # pos @ base + (~pos) @ sys = sys_total + pos @ D and (~pos) @ base + pos @ sys = base_total - pos @ D.
    rng = seeded_rng(seed)
    selected = shuffle_sums(rng, n_trials, [mats[0] - m for m in mats[1:]])
    return shuffle_results(rng, selected, mats, metric, n_trials, seed, n_confidence, nrefs)


def shuffle_results(
    rng: np.random.Generator,
    selected: np.ndarray,
    mats: Sequence[np.ndarray],
    metric: Metric,
    n_trials: int,
    seed: int,
    n_confidence: int,
    nrefs: int | str,
) -> list[PairedResult]:
    """Each system against the baseline from its shuffles: ``selected`` holds, per trial, the column sums over the
    swapped segments of (baseline - system) for every system side by side; the intervals are ``n_confidence``
    bootstrap resamples drawn next from ``rng`` (where the shuffles left it)."""
    width = metric.width
    real = [matrix_score(m, metric) for m in mats]
    drawn = [drawn_score(m, metric) for m in mats]  # a trial that leaves the sums as they were ties, as in sacreBLEU
    totals = [m.sum(axis=0).astype(np.float64) for m in mats]
    sig = signature_of_test(metric, nrefs, "ar", n_trials, seed)
    cis = resampled_scores(rng, n_confidence, mats[1:], metric, nrefs=nrefs) if n_confidence > 0 else None
    results = []
    for j in range(1, len(mats)):
        part = selected[:, (j - 1) * width : j * width]
        stat = np.abs(metric.score_many(totals[j] + part) - metric.score_many(totals[0] - part))
        p = p_value(stat, abs(drawn[0] - drawn[j]))
        mean, half, low, high = estimate_ci(cis[:, j - 1]) if cis is not None else (math.nan,) * 4
        results.append(PairedResult(real[j], real[0], p, mean, half, low, high, "ar", n_trials, seed, sig))
    return results


@dataclass(frozen=True, slots=True)
class Comparison:
    """sacreBLEU's compare mode (``PairedTest``) in one call: the baseline with its interval, then each
    system's test against it.

    Attributes:
        baseline_score: the baseline's corpus score.
        baseline_ci: ``(mean, half_width, low, high)`` over the bootstrap resamples (for ``ar``: over
            ``n_confidence`` resamples; ``None`` when that is 0).
        results: one :class:`PairedResult` per system.
        signature: the metric's signature with method, trials and seed.
    """

    baseline_score: float
    baseline_ci: tuple[float, float, float, float] | None
    results: tuple[PairedResult, ...]
    signature: str

    def _repr_html_(self) -> str:  # Jupyter: the comparison table as HTML (renderer: bleu_core.display.notebook)
        from bleu_core.rendering import to_html

        return to_html(self)


def compare(
    baseline: np.ndarray,
    systems: Sequence[np.ndarray],
    metric: Metric | BleuConfig = BLEU,
    *,
    method: Method = "bs",
    trials: int | None = None,
    seed: int = DEFAULT_SEED,
    n_confidence: int = 1000,
    nrefs: int | str = 1,
) -> Comparison:
    """Every system against the baseline, with the baseline's own interval (``bleu-explorer compare``).

    For ``bs`` the baseline's interval comes from the very resamples of the test (sacreBLEU draws
    them twice with the same seed); for ``ar`` from ``n_confidence`` resamples, as sacreBLEU's
    ``--paired-ar-confidence-n``. ``trials``: sacreBLEU's 1,000 resamples or 10,000 shuffles when not given.
    Every pair as well, from the same draws: ``pairwise.compare_systems``.

    Example:
        >>> base = np.array([[4, 4, 4, 3, 2, 1, 4, 3, 2, 1], [5, 6, 3, 1, 0, 0, 5, 4, 3, 2]] * 50)
        >>> worse = base.copy(); worse[:, 2] -= 1
        >>> c = compare(base, [worse], trials=200)
        >>> c.baseline_ci == bootstrap_ci(base, n_samples=200), c.results[0].p_value < 0.05
        (True, True)
    """
    metric = as_metric(metric)
    mats = check_matrices([baseline, *systems], metric)
    n_trials = checked_trials(method, trials)
    real = [matrix_score(m, metric) for m in mats]
    if method == "bs":
        scores = resampled_scores(seeded_rng(seed), n_trials, mats, metric, nrefs=nrefs)
        results = bootstrap_results(scores, real, metric, n_trials, seed, nrefs)
        ci: tuple[float, float, float, float] | None = estimate_ci(scores[:, 0])
    else:
        rng = seeded_rng(seed)
        selected = shuffle_sums(rng, n_trials, [mats[0] - m for m in mats[1:]])
        results = shuffle_results(rng, selected, mats, metric, n_trials, seed, n_confidence, nrefs)
        ci = baseline_interval(mats[0], metric, n_confidence, seed, nrefs)
    return Comparison(real[0], ci, tuple(results), signature_of_test(metric, nrefs, method, n_trials, seed))


def checked_trials(method: str, trials: int | None) -> int:
    """The draws of a test: ``trials``, or sacreBLEU's default for ``method`` (``trials.DEFAULT_TRIALS``).

    Raises:
        InputError: an unknown method, or trials that are not a positive whole number.
    """
    if method not in DEFAULT_TRIALS:
        raise InputError(f"unknown method {method!r} (known: bs, ar)", "method")
    n_trials = trials if trials is not None else DEFAULT_TRIALS[method]
    check_trials(n_trials, "trials")
    return n_trials


def baseline_interval(
    matrix: np.ndarray, metric: Metric, n_confidence: int, seed: int, nrefs: int | str | None = None
) -> tuple[float, float, float, float] | None:
    """The baseline's interval in AR mode: ``n_confidence`` resamples of its own (sacreBLEU's
    ``--paired-ar-confidence-n``), None when that is 0."""
    if n_confidence <= 0:
        return None
    return estimate_ci(resampled_scores(seeded_rng(seed), n_confidence, [matrix], metric, nrefs=nrefs)[:, 0])
