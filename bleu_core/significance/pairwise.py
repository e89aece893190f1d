"""Every pair of N systems with Holm's correction, and one comparison that gives both the tests against a
baseline and the pairwise matrix from a single resampling pass (:func:`compare_systems`), for any metric.

Each pair is tested as :func:`~.paired.paired_bootstrap` / :func:`~.paired.paired_ar` would with the first of the
two as baseline; a draw depends on the seed and the number of segments only, so every pair, and every system
against the baseline, reads the same draws.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from bleu_core.config import BleuConfig
from bleu_core.errors import InputError
from bleu_core.metrics import Metric, as_metric

from .estimates import (
    check_matrices,
    drawn_score,
    estimate_ci,
    float_rows,
    matrix_score,
    p_value,
    resampled_scores,
    signature_of_test,
)
from .float_rows import ar_p_values, sacrebleu_scores
from .paired import (
    BLEU,
    Comparison,
    PairedResult,
    baseline_interval,
    bootstrap_results,
    checked_trials,
    shuffle_results,
)
from .resample import DEFAULT_SEED, seeded_rng, shuffle_sums
from .trials import Method

__all__ = ["PairwiseResult", "SystemsComparison", "compare_systems", "holm", "pairwise_matrix"]


@dataclass(frozen=True, slots=True)
class PairwiseResult:
    """Every pair of N systems.

    Attributes:
        names: the systems.
        scores: their corpus scores.
        differences: ``differences[i][j] = scores[j] - scores[i]``.
        p_values: raw p-values (``nan`` on the diagonal), symmetric.
        adjusted: Holm-adjusted over the N(N-1)/2 pairs.
        method: ``bs`` or ``ar``.
        trials: resamples or shuffles.
        seed: the seed.
        signature: the metric's signature with method, trials and seed.
        higher_is_better: the metric's direction (False for an error rate): what a ranking reads.
    """

    names: tuple[str, ...]
    scores: tuple[float, ...]
    differences: tuple[tuple[float, ...], ...]
    p_values: tuple[tuple[float, ...], ...]
    adjusted: tuple[tuple[float, ...], ...]
    method: Method
    trials: int
    seed: int
    signature: str
    higher_is_better: bool = True


def holm(p_values: Sequence[float]) -> tuple[float, ...]:
    """Holm's step-down adjustment of m p-values (family-wise error), in the input order.

    The k-th smallest p becomes ``max over j <= k of min(1, (m - j + 1) * p_(j))``, unrounded (a rounded value
    read beside its raw p, ``9.9990001e-05`` for ``9.999000099990002e-05``, looks like another number).

    Example:
        >>> holm([0.01, 0.04, 0.03, 0.005])
        (0.03, 0.06, 0.06, 0.02)
    """
    p = np.asarray(p_values, dtype=np.float64)
    m = len(p)
    if m == 0:
        return ()
    if np.any(~np.isfinite(p)) or np.any((p < 0) | (p > 1)):
        raise InputError("p-values must be numbers between 0 and 1", "p_values")
    order = np.argsort(p, kind="stable")
    scaled = np.minimum(1.0, (m - np.arange(m)) * p[order])
    adjusted = np.empty(m)
    adjusted[order] = np.maximum.accumulate(scaled)
    return tuple(float(x) for x in adjusted)


def pairwise_matrix(
    matrices: Sequence[np.ndarray],
    names: Sequence[str],
    metric: Metric | BleuConfig = BLEU,
    *,
    method: Method = "bs",
    trials: int | None = None,
    seed: int = DEFAULT_SEED,
    nrefs: int | str = 1,
    tie_p: float | None = None,
    resampled: np.ndarray | None = None,
) -> PairwiseResult:
    """Paired tests for every pair of N systems, with Holm's correction over the N(N-1)/2 pairs.

    Each pair is tested exactly as :func:`~.paired.paired_bootstrap` / :func:`~.paired.paired_ar` would with the
    first system as baseline (same seed, so same resamples or shuffles for every pair).

    ``tie_p``: sacreBLEU's p-value (after multeval) is ``(#{stat > real} + 1) / (trials + 1)``, so two
    systems with the same corpus score get ``1 / (trials + 1)``, "significant" at a difference of exactly 0.
    ``None`` keeps sacreBLEU's number (the CLI does); a value (the app passes 1.0: no evidence of a
    difference) replaces it for such pairs before Holm's correction.

    ``resampled``: for ``bs``, the ``resample.resample_sums`` of these matrices with this seed (at least ``trials``
    rows), shared with the intervals instead of drawing again.

    Example:
        >>> a = np.array([[4, 4, 4, 3, 2, 1, 4, 3, 2, 1], [5, 6, 3, 1, 0, 0, 5, 4, 3, 2]] * 50)
        >>> b = a.copy(); b[:, 2] -= 1
        >>> r = pairwise_matrix([a, a, b], ["a", "a2", "b"], trials=200)
        >>> r.p_values[0][1] == 1 / 201, r.p_values[0][2] < 0.05, r.adjusted[0][2] >= r.p_values[0][2]
        (True, True, True)
    """
    metric = as_metric(metric)
    mats = check_matrices(matrices, metric)
    if len(names) != len(mats):
        raise InputError(f"{len(names)} names for {len(mats)} systems", "names")
    n_trials = checked_trials(method, trials)
    real = [matrix_score(m, metric) for m in mats]
    if method == "bs":
        draws = resampled_scores(seeded_rng(seed), n_trials, mats, metric, resampled, nrefs=nrefs)
    else:
        draws = shuffle_sums(seeded_rng(seed), n_trials, mats)
    p = _p_values(mats, real, metric, method, draws)
    return _pairwise_result(names, real, p, metric, (method, n_trials, seed), nrefs, tie_p)


def _p_values(
    mats: Sequence[np.ndarray], real: Sequence[float], metric: Metric, method: Method, draws: np.ndarray
) -> np.ndarray:
    """The raw p-value of every pair (symmetric, ``nan`` on the diagonal), each as ``paired_bootstrap`` /
    ``paired_ar`` computes it with the first of the two as baseline. ``draws``: for ``bs`` the scores of the
    resamples (trials x systems), for ``ar`` each trial's column sums over the swapped segments, system by system."""
    k = len(mats)
    p = np.full((k, k), math.nan)
    if method == "bs":
        for i in range(k):
            for j in range(i + 1, k):
                diffs = np.abs(draws[:, j] - draws[:, i])
                p[i, j] = p[j, i] = p_value(diffs - diffs.mean(), abs(real[i] - real[j]))
        return p
    width = metric.width
    totals = [m.sum(axis=0).astype(np.float64) for m in mats]
    drawn = [drawn_score(m, metric) for m in mats]  # a trial that leaves the sums as they were ties, as in sacreBLEU
    for i in range(k):
        for j in range(i + 1, k):
            pi, pj = draws[:, i * width : (i + 1) * width], draws[:, j * width : (j + 1) * width]
            stat = np.abs(metric.score_many(pi + totals[j] - pj) - metric.score_many(totals[i] - pi + pj))
            p[i, j] = p[j, i] = p_value(stat, abs(drawn[i] - drawn[j]))
    return p


def _holm_matrix(p: np.ndarray, real: Sequence[float], tie_p: float | None) -> np.ndarray:
    """Holm over the upper triangle of ``p``, as a symmetric matrix; with ``tie_p``, pairs of equal corpus score
    get that raw p-value first (in ``p`` itself, which is what the result reports)."""
    k = len(real)
    upper = [(i, j) for i in range(k) for j in range(i + 1, k)]
    if tie_p is not None:
        for i, j in upper:
            if real[i] == real[j]:
                p[i, j] = p[j, i] = tie_p
    adjusted = np.full((k, k), math.nan)
    for (i, j), a in zip(upper, holm([float(p[i, j]) for i, j in upper]), strict=True):
        adjusted[i, j] = adjusted[j, i] = a
    return adjusted


def _pairwise_result(
    names: Sequence[str],
    real: Sequence[float],
    p: np.ndarray,
    metric: Metric,
    test: tuple[Method, int, int],
    nrefs: int | str,
    tie_p: float | None,
) -> PairwiseResult:
    method, n_trials, seed = test
    k = len(real)
    adjusted = _holm_matrix(p, real, tie_p)
    diffs = [[real[j] - real[i] for j in range(k)] for i in range(k)]
    return PairwiseResult(
        tuple(names),
        tuple(real),
        tuple(tuple(r) for r in diffs),
        tuple(tuple(float(x) for x in r) for r in p),
        tuple(tuple(float(x) for x in r) for r in adjusted),
        method,
        n_trials,
        seed,
        signature_of_test(metric, nrefs, method, n_trials, seed),
        metric.higher_is_better,
    )


@dataclass(frozen=True, slots=True)
class SystemsComparison:
    """N systems compared from one resampling pass: each against the first (the baseline) and every pair.

    Attributes:
        against_baseline: what :func:`~.paired.compare` gives (the baseline's interval, each system's test).
        pairwise: what :func:`pairwise_matrix` gives (every pair, Holm-corrected).
    """

    against_baseline: Comparison
    pairwise: PairwiseResult


def compare_systems(
    matrices: Sequence[np.ndarray],
    names: Sequence[str],
    metric: Metric | BleuConfig = BLEU,
    *,
    method: Method = "bs",
    trials: int | None = None,
    seed: int = DEFAULT_SEED,
    n_confidence: int = 1000,
    nrefs: int | str = 1,
    tie_p: float | None = None,
) -> SystemsComparison:
    """:func:`~.paired.compare` of the first system against the others and :func:`pairwise_matrix` of all, from one
    set of draws: the same numbers as the two calls, which draw the same resamples (or shuffles) twice.

    A bootstrap resample's scores serve both; an AR trial's column sums over the swapped segments of each system
    give every pair's, and the baseline's minus a system's are that system's shuffles against the baseline (the
    statistics are integers, so the difference is exact). The intervals of AR mode come next from the same
    generator, and the baseline's from its own resamples, as in :func:`~.paired.compare`.

    Example:
        >>> from bleu_core.significance import compare
        >>> a = np.array([[4, 4, 4, 3, 2, 1, 4, 3, 2, 1], [5, 6, 3, 1, 0, 0, 5, 4, 3, 2]] * 50)
        >>> b = a.copy(); b[:, 2] -= 1
        >>> both = compare_systems([a, b, a], ["a", "b", "a2"], method="ar", trials=300)
        >>> both.against_baseline == compare(a, [b, a], method="ar", trials=300)
        True
        >>> repr(both.pairwise) == repr(pairwise_matrix([a, b, a], ["a", "b", "a2"], method="ar", trials=300))  # nan
        True
    """
    metric = as_metric(metric)
    mats = check_matrices(matrices, metric)
    if len(names) != len(mats):
        raise InputError(f"{len(names)} names for {len(mats)} systems", "names")
    n_trials = checked_trials(method, trials)
    rows = float_rows(metric, mats, nrefs)  # sacreBLEU's float rows (TER, several references), else None
    real = sacrebleu_scores(metric, rows) if rows is not None else [matrix_score(m, metric) for m in mats]
    rng = seeded_rng(seed)
    if method == "bs":
        draws = resampled_scores(rng, n_trials, mats, metric, nrefs=nrefs)
        p = _p_values(mats, real, metric, method, draws)
        results = bootstrap_results(draws, real, metric, n_trials, seed, nrefs)
        ci: tuple[float, float, float, float] | None = estimate_ci(draws[:, 0])
    elif rows is not None:  # sacreBLEU's float sums decide its ties
        p = ar_p_values(rng, n_trials, rows, real, metric)
        results = _ar_results(rng, p, real, mats, metric, (n_trials, seed, n_confidence), nrefs)
        ci = baseline_interval(mats[0], metric, n_confidence, seed, nrefs)
    else:
        draws = shuffle_sums(rng, n_trials, mats)
        p = _p_values(mats, real, metric, method, draws)
        w = metric.width
        against = [draws[:, :w] - draws[:, j * w : (j + 1) * w] for j in range(1, len(mats))]
        selected = np.hstack(against) if against else np.zeros((n_trials, 0))
        results = shuffle_results(rng, selected, mats, metric, n_trials, seed, n_confidence, nrefs)
        ci = baseline_interval(mats[0], metric, n_confidence, seed, nrefs)
    sig = signature_of_test(metric, nrefs, method, n_trials, seed)
    pairwise = _pairwise_result(names, real, p, metric, (method, n_trials, seed), nrefs, tie_p)
    return SystemsComparison(Comparison(real[0], ci, tuple(results), sig), pairwise)


def _ar_results(
    rng: np.random.Generator,
    p: np.ndarray,
    real: Sequence[float],
    mats: Sequence[np.ndarray],
    metric: Metric,
    test: tuple[int, int, int],
    nrefs: int | str,
) -> list[PairedResult]:
    """Each system against the baseline from the AR p-values of row 0, with the intervals of ``n_confidence``
    bootstrap resamples drawn next from ``rng`` (as :func:`~.paired.shuffle_results`)."""
    n_trials, seed, n_confidence = test
    sig = signature_of_test(metric, nrefs, "ar", n_trials, seed)
    cis = resampled_scores(rng, n_confidence, mats[1:], metric, nrefs=nrefs) if n_confidence > 0 else None
    out = []
    for j in range(1, len(mats)):
        mean, half, low, high = estimate_ci(cis[:, j - 1]) if cis is not None else (math.nan,) * 4
        out.append(PairedResult(real[j], real[0], float(p[0, j]), mean, half, low, high, "ar", n_trials, seed, sig))
    return out
