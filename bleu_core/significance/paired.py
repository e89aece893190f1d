"""Significance: sacreBLEU's paired bootstrap and paired approximate randomization, and Holm's correction.

Everything is arithmetic on (segments x statistics) matrices (``stats.corpus_matrix`` rows): a
resample or a shuffle is a weighted column sum, so a thousand resamples are one matrix product and
one vectorised :func:`~bleu_core.metrics.bleu.score_many`, never a rescoring. The draws come from ``resample``
(a kernel or a numpy drawer, the same numbers); how many to draw from ``trials``; the paper's block
test is ``blocktest``.

The paired tests are sacrebleu's (``--paired-bs``, ``--paired-ar``, ``significance.py``), draw for
draw: the same ``numpy.random.default_rng(seed)`` calls in the same order, the same test statistics,
the same ``(c + 1) / (n + 1)`` p-value and the same 95% interval, so with the same seed the p-values
agree with sacrebleu's up to float32 rounding in sacrebleu's resampled scores.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

import numpy as np

from bleu_core.config import BleuConfig
from bleu_core.errors import InputError
from bleu_core.metrics.bleu import make_signature, score_many

from .resample import DEFAULT_SEED, _resample_sums, _rng, _shuffle_sums
from .trials import check_trials

__all__ = [
    "Comparison",
    "PairedResult",
    "PairwiseResult",
    "bootstrap_ci",
    "bootstrap_cis",
    "compare",
    "holm",
    "paired_ar",
    "paired_bootstrap",
    "pairwise_matrix",
]

Method = Literal["bs", "ar"]


@dataclass(frozen=True, slots=True)
class PairedResult:
    """One system against the baseline.

    Attributes:
        score: the system's corpus BLEU.
        baseline_score: the baseline's corpus BLEU.
        p_value: probability of a difference at least this large by chance (sacrebleu's estimate).
        mean: mean BLEU over the bootstrap resamples.
        half_width: half the width of the 95% interval (sacrebleu's ``ci``: ``mean ± half_width``).
        low: the interval's lower end (the 2.5% resample).
        high: its upper end.
        method: ``bs`` or ``ar``.
        trials: resamples (bs) or shuffles (ar).
        seed: the generator's seed.
        signature: the BLEU signature with method, trials and seed (``...|bs:1000|rs:12345|...``).
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


@dataclass(frozen=True, slots=True)
class PairwiseResult:
    """Every pair of N systems.

    Attributes:
        names: the systems.
        scores: their corpus BLEU.
        differences: ``differences[i][j] = scores[j] - scores[i]``.
        p_values: raw p-values (``nan`` on the diagonal), symmetric.
        adjusted: Holm-adjusted over the N(N-1)/2 pairs.
        method: ``bs`` or ``ar``.
        trials: resamples or shuffles.
        seed: the seed.
        signature: the BLEU signature with method, trials and seed.
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


# --- helpers ---------------------------------------------------------------------------------------------


def _check(matrices: Sequence[np.ndarray], config: BleuConfig) -> list[np.ndarray]:
    out = [np.asarray(m) for m in matrices]
    if not out:
        raise InputError("no systems given", "systems")
    width = 2 + 2 * config.max_ngram_order
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


def _corpus_score(m: np.ndarray, config: BleuConfig) -> float:
    return float(score_many(m.sum(axis=0)[None, :], config)[0])


def _scores_of_sums(sums: np.ndarray, n_systems: int, config: BleuConfig) -> np.ndarray:
    width = sums.shape[1] // n_systems
    return np.stack([score_many(sums[:, j * width : (j + 1) * width], config) for j in range(n_systems)], axis=1)


def _resampled_scores(
    rng: np.random.Generator,
    n_samples: int,
    matrices: Sequence[np.ndarray],
    config: BleuConfig,
    resampled: np.ndarray | None = None,
) -> np.ndarray:
    """BLEU of ``n_samples`` bootstrap resamples of every system: (samples x systems); from ``resampled``
    (:func:`resample_sums` of the same matrices and seed) when given, else drawn from ``rng``."""
    if resampled is None:
        return _scores_of_sums(_resample_sums(rng, n_samples, matrices), len(matrices), config)
    width = 2 + 2 * config.max_ngram_order
    if resampled.ndim != 2 or resampled.shape[0] < n_samples or resampled.shape[1] != width * len(matrices):
        raise InputError(
            f"resampled sums of shape {resampled.shape} do not cover {n_samples} resamples of "
            f"{len(matrices)} systems x {width} statistics",
            "resampled",
        )
    return _scores_of_sums(resampled[:n_samples], len(matrices), config)


def _estimate_ci(scores: np.ndarray) -> tuple[float, float, float, float]:
    """sacrebleu's ``estimate_ci``: mean, half width, and the 2.5% / 97.5% order statistics."""
    ordered = np.sort(scores)
    lower = len(ordered) // 40
    upper = len(ordered) - lower - 1
    low, high = float(ordered[lower]), float(ordered[upper])
    return float(ordered.mean()), 0.5 * (high - low), low, high


def _p_value(stats: np.ndarray, real: float) -> float:
    # multeval / sacrebleu: strictly greater, plus one in numerator and denominator
    return (int(np.sum(stats > real)) + 1) / (len(stats) + 1)


def _signature(config: BleuConfig, nrefs: int | str, method: Method, trials: int, seed: int) -> str:
    return make_signature(config, nrefs, **{method: trials, "rs": seed})


# --- paired tests ----------------------------------------------------------------------------------------


def bootstrap_ci(
    matrix: np.ndarray, config: BleuConfig = BleuConfig(), *, n_samples: int = 1000, seed: int = DEFAULT_SEED
) -> tuple[float, float, float, float]:
    """Bootstrap 95% confidence interval of one system's BLEU (sacrebleu's, for the baseline).

    Returns:
        ``(mean, half_width, low, high)``: sacrebleu reports ``mean ± half_width``; ``low`` and
        ``high`` are the 2.5% and 97.5% resamples.

    Example:
        >>> import numpy as np
        >>> m = np.array([[4, 4, 4, 3, 2, 1, 4, 3, 2, 1], [5, 6, 3, 1, 0, 0, 5, 4, 3, 2]] * 50)
        >>> mean, half, low, high = bootstrap_ci(m, n_samples=200, seed=1)
        >>> low <= mean <= high and half == (high - low) / 2
        True
    """
    (m,) = _check([matrix], config)
    check_trials(n_samples, "n_samples")
    return _estimate_ci(_resampled_scores(_rng(seed), n_samples, [m], config)[:, 0])


def bootstrap_cis(
    matrices: Sequence[np.ndarray],
    config: BleuConfig = BleuConfig(),
    *,
    n_samples: int = 1000,
    seed: int = DEFAULT_SEED,
    resampled: np.ndarray | None = None,
) -> list[tuple[float, float, float, float]]:
    """:func:`bootstrap_ci` of several systems on the same segments, from one set of draws (the same
    seed draws the same resamples for every system, so each equals its own ``bootstrap_ci``).

    Example:
        >>> import numpy as np
        >>> a = np.array([[4, 4, 4, 3, 2, 1, 4, 3, 2, 1], [5, 6, 3, 1, 0, 0, 5, 4, 3, 2]] * 50)
        >>> b = a.copy(); b[:, 2] -= 1
        >>> bootstrap_cis([a, b], n_samples=200) == [bootstrap_ci(a, n_samples=200), bootstrap_ci(b, n_samples=200)]
        True
    """
    mats = _check(matrices, config)
    check_trials(n_samples, "n_samples")
    scores = _resampled_scores(_rng(seed), n_samples, mats, config, resampled)
    return [_estimate_ci(scores[:, j]) for j in range(len(mats))]


def paired_bootstrap(
    baseline: np.ndarray,
    systems: Sequence[np.ndarray],
    config: BleuConfig = BleuConfig(),
    *,
    n_samples: int = 1000,
    seed: int = DEFAULT_SEED,
    nrefs: int | str = 1,
) -> list[PairedResult]:
    """Paired bootstrap resampling (Koehn 2004; sacrebleu ``--paired-bs``), each system vs the baseline.

    The same resamples serve every system (as in sacrebleu, which reseeds per system). The test
    statistic is ``|BLEU_sys - BLEU_base|`` per resample, centred on its mean, compared with the real
    difference.

    Args:
        baseline: the baseline's statistics matrix.
        systems: the other systems' matrices (same segments).
        config: the BLEU settings the matrices were computed with.
        n_samples: resamples.
        seed: the generator's seed.
        nrefs: references per segment, for the signature.

    Returns:
        One :class:`PairedResult` per system, in order.

    Example:
        >>> import numpy as np
        >>> base = np.array([[4, 4, 4, 3, 2, 1, 4, 3, 2, 1], [5, 6, 3, 1, 0, 0, 5, 4, 3, 2]] * 50)
        >>> same = paired_bootstrap(base, [base], n_samples=100)[0]
        >>> same.p_value == 1 / 101, same.signature.split("|")[1:3]  # sacrebleu's: no resample differs more
        (True, ['bs:100', 'rs:12345'])
    """
    mats = _check([baseline, *systems], config)
    check_trials(n_samples, "n_samples")
    return _paired_bs(mats, config, n_samples, seed, nrefs)[1]


def _paired_bs(
    mats: list[np.ndarray], config: BleuConfig, n_samples: int, seed: int, nrefs: int | str
) -> tuple[np.ndarray, list[PairedResult]]:
    scores = _resampled_scores(_rng(seed), n_samples, mats, config)
    real = [_corpus_score(m, config) for m in mats]
    sig = _signature(config, nrefs, "bs", n_samples, seed)
    results = []
    for j in range(1, len(mats)):
        diffs = np.abs(scores[:, j] - scores[:, 0])
        p = _p_value(diffs - diffs.mean(), abs(real[0] - real[j]))
        mean, half, low, high = _estimate_ci(scores[:, j])
        results.append(PairedResult(real[j], real[0], p, mean, half, low, high, "bs", n_samples, seed, sig))
    return scores, results


def paired_ar(
    baseline: np.ndarray,
    systems: Sequence[np.ndarray],
    config: BleuConfig = BleuConfig(),
    *,
    n_trials: int = 10000,
    seed: int = DEFAULT_SEED,
    n_confidence: int = 1000,
    nrefs: int | str = 1,
) -> list[PairedResult]:
    """Paired approximate randomization (Riezler & Maxwell 2005; sacrebleu ``--paired-ar``).

    Each trial swaps the two systems' outputs on a random half of the segments; the p-value is the
    share of trials whose ``|BLEU_a - BLEU_b|`` exceeds the real difference. The interval comes from
    ``n_confidence`` bootstrap resamples drawn next from the same generator (sacrebleu's
    ``--paired-ar-confidence-n``).

    Example:
        >>> import numpy as np
        >>> base = np.array([[4, 4, 4, 3, 2, 1, 4, 3, 2, 1], [5, 6, 3, 1, 0, 0, 5, 4, 3, 2]] * 50)
        >>> worse = base.copy(); worse[:, 2] -= 1
        >>> r = paired_ar(base, [worse], n_trials=500, seed=3)[0]
        >>> r.p_value < 0.01, r.score < r.baseline_score, r.signature.split("|")[1:3]
        (True, True, ['ar:500', 'rs:3'])
    """
    mats = _check([baseline, *systems], config)
    check_trials(n_trials, "n_trials")
    width = mats[0].shape[1]
    real = [_corpus_score(m, config) for m in mats]
    totals = [m.sum(axis=0).astype(np.float64) for m in mats]
    sig = _signature(config, nrefs, "ar", n_trials, seed)
    # sacrebleu reseeds for every system, so every system gets the same shuffles and then the same
    # bootstrap draws: draw them once. With D = base - sys, a trial's two pseudo-systems are
    # pos @ base + (~pos) @ sys = sys_total + pos @ D and (~pos) @ base + pos @ sys = base_total - pos @ D.
    rng = _rng(seed)
    sums = _shuffle_sums(rng, n_trials, [mats[0] - m for m in mats[1:]])
    cis = _resampled_scores(rng, n_confidence, mats[1:], config) if n_confidence > 0 else None
    results = []
    for j in range(1, len(mats)):
        selected = sums[:, (j - 1) * width : j * width]
        stat = np.abs(score_many(totals[j] + selected, config) - score_many(totals[0] - selected, config))
        p = _p_value(stat, abs(real[0] - real[j]))
        mean, half, low, high = _estimate_ci(cis[:, j - 1]) if cis is not None else (math.nan,) * 4
        results.append(PairedResult(real[j], real[0], p, mean, half, low, high, "ar", n_trials, seed, sig))
    return results


@dataclass(frozen=True, slots=True)
class Comparison:
    """sacrebleu's compare mode (``PairedTest``) in one call: the baseline with its interval, then each
    system's test against it.

    Attributes:
        baseline_score: the baseline's corpus BLEU.
        baseline_ci: ``(mean, half_width, low, high)`` over the bootstrap resamples (for ``ar``: over
            ``n_confidence`` resamples; ``None`` when that is 0).
        results: one :class:`PairedResult` per system.
        signature: the BLEU signature with method, trials and seed.
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
    config: BleuConfig = BleuConfig(),
    *,
    method: Method = "bs",
    trials: int | None = None,
    seed: int = DEFAULT_SEED,
    n_confidence: int = 1000,
    nrefs: int | str = 1,
) -> Comparison:
    """Every system against the baseline, with the baseline's own interval (``bleu-explorer compare``).

    For ``bs`` the baseline's interval comes from the very resamples of the test (sacrebleu draws
    them twice with the same seed); for ``ar`` from ``n_confidence`` resamples, as sacrebleu's
    ``--paired-ar-confidence-n``.

    Example:
        >>> import numpy as np
        >>> base = np.array([[4, 4, 4, 3, 2, 1, 4, 3, 2, 1], [5, 6, 3, 1, 0, 0, 5, 4, 3, 2]] * 50)
        >>> worse = base.copy(); worse[:, 2] -= 1
        >>> c = compare(base, [worse], trials=200)
        >>> c.baseline_ci == bootstrap_ci(base, n_samples=200), c.results[0].p_value < 0.05
        (True, True)
    """
    mats = _check([baseline, *systems], config)
    if method not in ("bs", "ar"):
        raise InputError(f"unknown method {method!r} (known: bs, ar)", "method")
    n_trials = trials if trials is not None else (1000 if method == "bs" else 10000)
    check_trials(n_trials, "trials")
    if method == "bs":
        scores, results = _paired_bs(mats, config, n_trials, seed, nrefs)
        ci: tuple[float, float, float, float] | None = _estimate_ci(scores[:, 0])
    else:
        results = paired_ar(
            mats[0], mats[1:], config, n_trials=n_trials, seed=seed, n_confidence=n_confidence, nrefs=nrefs
        )
        ci = bootstrap_ci(mats[0], config, n_samples=n_confidence, seed=seed) if n_confidence > 0 else None
    return Comparison(
        _corpus_score(mats[0], config), ci, tuple(results), _signature(config, nrefs, method, n_trials, seed)
    )


# --- Holm and all pairs ----------------------------------------------------------------------------------


def holm(p_values: Sequence[float]) -> tuple[float, ...]:
    """Holm's step-down adjustment of m p-values (family-wise error), in the input order.

    The k-th smallest p becomes ``max over j <= k of min(1, (m - j + 1) * p_(j))``.

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
    return tuple(round(float(x), 15) for x in adjusted)


def pairwise_matrix(
    matrices: Sequence[np.ndarray],
    names: Sequence[str],
    config: BleuConfig = BleuConfig(),
    *,
    method: Method = "bs",
    trials: int | None = None,
    seed: int = DEFAULT_SEED,
    nrefs: int | str = 1,
    tie_p: float | None = None,
    resampled: np.ndarray | None = None,
) -> PairwiseResult:
    """Paired tests for every pair of N systems, with Holm's correction over the N(N-1)/2 pairs.

    Each pair is tested exactly as :func:`paired_bootstrap` / :func:`paired_ar` would with the first
    system as baseline (same seed, so same resamples or shuffles for every pair).

    ``tie_p``: sacreBLEU's p-value (after multeval) is ``(#{stat > real} + 1) / (trials + 1)``, so two
    systems with the same corpus BLEU get ``1 / (trials + 1)``, "significant" at a difference of exactly 0.
    ``None`` keeps sacreBLEU's number (the CLI does); a value (the app passes 1.0: no evidence of a
    difference) replaces it for such pairs before Holm's correction.

    ``resampled``: for ``bs``, the :func:`resample_sums` of these matrices with this seed (at least ``trials``
    rows), shared with the intervals instead of drawing again.

    Example:
        >>> import numpy as np
        >>> a = np.array([[4, 4, 4, 3, 2, 1, 4, 3, 2, 1], [5, 6, 3, 1, 0, 0, 5, 4, 3, 2]] * 50)
        >>> b = a.copy(); b[:, 2] -= 1
        >>> r = pairwise_matrix([a, a, b], ["a", "a2", "b"], trials=200)
        >>> r.p_values[0][1] == 1 / 201, r.p_values[0][2] < 0.05, r.adjusted[0][2] >= r.p_values[0][2]
        (True, True, True)
    """
    mats = _check(matrices, config)
    if len(names) != len(mats):
        raise InputError(f"{len(names)} names for {len(mats)} systems", "names")
    if method not in ("bs", "ar"):
        raise InputError(f"unknown method {method!r} (known: bs, ar)", "method")
    n_trials = trials if trials is not None else (1000 if method == "bs" else 10000)
    check_trials(n_trials, "trials")
    k = len(mats)
    real = [_corpus_score(m, config) for m in mats]
    p = _pairwise_p_values(mats, real, config, method, n_trials, seed, resampled)
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
        _signature(config, nrefs, method, n_trials, seed),
    )


def _pairwise_p_values(
    mats: list[np.ndarray],
    real: list[float],
    config: BleuConfig,
    method: Method,
    n_trials: int,
    seed: int,
    resampled: np.ndarray | None,
) -> np.ndarray:
    """The raw p-value of every pair (symmetric, ``nan`` on the diagonal), each as :func:`paired_bootstrap` /
    :func:`paired_ar` computes it with the first of the two as baseline, from one set of draws."""
    k = len(mats)
    p = np.full((k, k), math.nan)
    width = mats[0].shape[1]
    if method == "bs":
        scores = _resampled_scores(_rng(seed), n_trials, mats, config, resampled)
        for i in range(k):
            for j in range(i + 1, k):
                diffs = np.abs(scores[:, j] - scores[:, i])
                p[i, j] = p[j, i] = _p_value(diffs - diffs.mean(), abs(real[i] - real[j]))
        return p
    sums = _shuffle_sums(_rng(seed), n_trials, mats)
    totals = [m.sum(axis=0).astype(np.float64) for m in mats]
    for i in range(k):
        for j in range(i + 1, k):
            pi, pj = sums[:, i * width : (i + 1) * width], sums[:, j * width : (j + 1) * width]
            stat = np.abs(score_many(pi + totals[j] - pj, config) - score_many(totals[i] - pi + pj, config))
            p[i, j] = p[j, i] = _p_value(stat, abs(real[i] - real[j]))
    return p


def _holm_matrix(p: np.ndarray, real: list[float], tie_p: float | None) -> np.ndarray:
    """Holm over the upper triangle of ``p``, as a symmetric matrix; with ``tie_p``, pairs of equal corpus BLEU
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
