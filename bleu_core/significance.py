"""Significance: paired bootstrap, paired approximate randomization, the paper's block test, Holm.

Everything is arithmetic on (segments x statistics) matrices (``stats.corpus_matrix`` rows): a
resample or a shuffle is a weighted column sum, so a thousand resamples are one matrix product and
one vectorised :func:`~bleu_core.bleu.score_many`, never a rescoring.

The paired tests are sacrebleu's (``--paired-bs``, ``--paired-ar``, ``significance.py``), draw for
draw: the same ``numpy.random.default_rng(seed)`` calls in the same order, the same test statistics,
the same ``(c + 1) / (n + 1)`` p-value and the same 95% interval, so with the same seed the p-values
agree with sacrebleu's up to float32 rounding in sacrebleu's resampled scores.
"""

from __future__ import annotations

import math
import os
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final, Literal

import numpy as np

from .accel import kernel
from .bleu import make_signature, score_many
from .config import BleuConfig
from .errors import InputError

__all__ = [
    "PAPER_BLOCK_SIZE",
    "PAPER_T_THRESHOLD",
    "TRIALS_OFFERED",
    "BlockPair",
    "BlockTestResult",
    "Comparison",
    "PairedResult",
    "PairwiseResult",
    "RankedBlockTest",
    "block_test",
    "bootstrap_ci",
    "bootstrap_cis",
    "check_resampling_fits",
    "check_trials",
    "compare",
    "default_trials",
    "holm",
    "holm_floor",
    "holm_warning",
    "kendall",
    "memory_budget",
    "paired_ar",
    "paired_bootstrap",
    "pairwise_matrix",
    "paper_block_count",
    "pearson",
    "ranked_block_test",
    "resample_sums",
    "trials_needed",
]

Method = Literal["bs", "ar"]
DEFAULT_SEED: Final = 12345  # sacrebleu's SACREBLEU_SEED default


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
class BlockPair:
    """The paired t-test of two adjacent systems over blocks.

    Attributes:
        first: index of the first system.
        second: index of the second.
        mean_difference: mean of (second - first) block BLEU.
        t: the paired t statistic.
        df: degrees of freedom (blocks - 1).
        p_value: two-sided p-value.
    """

    first: int
    second: int
    mean_difference: float
    t: float
    df: int
    p_value: float


@dataclass(frozen=True, slots=True)
class BlockTestResult:
    """The paper's Table 2: BLEU on contiguous blocks, mean and standard deviation, paired t.

    Attributes:
        block_sizes: segments per block.
        scores: per system, its BLEU on each block.
        means: per system, the mean block BLEU.
        stds: per system, the sample standard deviation of block BLEU.
        pairs: the t-test of each adjacent pair, in the given order.
    """

    block_sizes: tuple[int, ...]
    scores: tuple[tuple[float, ...], ...]
    means: tuple[float, ...]
    stds: tuple[float, ...]
    pairs: tuple[BlockPair, ...]


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


def _stack(matrices: Sequence[np.ndarray]) -> np.ndarray:
    return np.ascontiguousarray(np.hstack([m.astype(np.int64, copy=False) for m in matrices]))


def _exact_dtype(stacked: np.ndarray) -> type[np.floating]:
    # float32 products are exact while every partial sum stays below 2**24: a resample's column sum is
    # at most (segments) x (largest entry); float64 (exact below 2**53) otherwise.
    bound = len(stacked) * int(np.abs(stacked).max(initial=0))
    return np.float32 if bound < 2**24 else np.float64


RESAMPLE_CHUNK_CELLS: Final = 1 << 22  # draws x segments held at once (32 MB of int64 draws)

# The kernel draws sacrebleu's bootstrap indices itself (bootstrap_draw_counts) exactly as Generator.choice
# does: choice(n, size) calls integers(0, n, size, dtype=int64), whose fill (random_bounded_uint64_fill in
# numpy/random/src/distributions/distributions.c) takes, for 1 < n < 2**32, Lemire's bounded draw on the bit
# generator's next_uint32 (buffered_bounded_lemire_uint32). numpy may change a Generator's stream between
# releases (NEP 19), so this is checked draw for draw (tests/core/test_significance.py) on these numpy
# releases, (major, minor) inclusive; on any other the numpy draw is used (same numbers, slower) and
# test_numpy_release_is_one_the_kernel_draws_were_checked_on fails until the check is re-run.
KERNEL_DRAWS_NUMPY: Final = ((2, 4), (2, 4))


def _bootstrap_weights(
    rng: np.random.Generator, block: int, n: int, dtype: type[np.floating], scratch: np.ndarray | None
) -> np.ndarray:
    """How often each of ``n`` segments is drawn in each of ``block`` resamples of sacrebleu's
    ``rng.choice(n, size=(block, n))``: (block x n) ``dtype``. With ``scratch`` (C-contiguous, at least
    ``block`` rows of ``n`` ``dtype``) the kernel draws and counts into it in one pass, with no index array;
    else numpy draws and the kernel (or numpy) counts."""
    k = kernel()
    if k is not None and scratch is not None:
        out = scratch[:block]
        bitgen = rng.bit_generator
        with bitgen.lock:  # numpy holds it around its own draws
            if type(bitgen) is not np.random.PCG64:
                k.bootstrap_draw_counts(bitgen.capsule, out, block, n, dtype is np.float32)
                return out
            # PCG64 (default_rng's, so sacrebleu's): the kernel takes its 32-bit words two to a 64-bit
            # output, starting with the half the state keeps, and hands back what the state keeps after
            before = bitgen.state
            kept = (int(before["has_uint32"]), int(before["uinteger"]))
            after = k.bootstrap_draw_counts(bitgen.capsule, out, block, n, dtype is np.float32, kept)
            if after != kept:
                state = bitgen.state  # with the 128-bit state the kernel moved on
                state["has_uint32"], state["uinteger"] = after
                bitgen.state = state
        return out
    idxs = rng.choice(n, size=(block, n), replace=True)
    if k is not None:
        raw = k.bootstrap_counts(np.ascontiguousarray(idxs, dtype=np.int64), block, n, dtype is np.float32)
        return np.frombuffer(raw, dtype=dtype).reshape(block, n)
    offsets = (np.arange(block, dtype=np.int64) * n)[:, None]
    counts = np.bincount((idxs + offsets).ravel(), minlength=block * n)
    return counts.reshape(block, n).astype(dtype)


def _resample_sums(
    rng: np.random.Generator, n_samples: int, matrices: Sequence[np.ndarray], *, kernel_draws: bool | None = None
) -> np.ndarray:
    """Column sums of ``n_samples`` bootstrap resamples of every system: (samples x systems*width).

    The draws are sacrebleu's, ``rng.choice(n, size=(n_samples, n))``; a resample's column sums are
    the counts of each segment in it times its row, so the sums are one matrix product. The draws are
    made a block of rows at a time (``RESAMPLE_CHUNK_CELLS``): numpy fills a ``choice`` row by row from one
    stream, so the blocks are the same numbers as one call (tested) while memory stays at one block
    instead of samples x segments (400 MB of draws for 1,000 resamples of 50,000 segments). With the
    kernel the draws are counted as they are drawn (``KERNEL_DRAWS_NUMPY``); ``kernel_draws``: ``None``
    does so when the kernel is built, numpy is in that range and n < 2**32; tests force it.
    """
    n = len(matrices[0])
    stacked = _stack(matrices)
    dtype = _exact_dtype(stacked)
    check_resampling_fits("bs", n_samples, n, "n_samples", columns=stacked.shape[1])
    if kernel_draws is None:
        kernel_draws = kernel() is not None and n < 2**32 and _numpy_in(KERNEL_DRAWS_NUMPY)
    rows = max(1, min(n_samples, RESAMPLE_CHUNK_CELLS // max(n, 1)))
    values = stacked.astype(dtype)
    scratch = np.empty((rows, n), dtype=dtype) if kernel_draws else None  # the kernel's counts, block by block
    sums = np.empty((n_samples, stacked.shape[1]), dtype=np.float64)
    for start in range(0, n_samples, rows):
        block = min(rows, n_samples - start)
        sums[start : start + block] = _bootstrap_weights(rng, block, n, dtype, scratch) @ values
    return sums


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


def resample_sums(matrices: Sequence[np.ndarray], n_samples: int = 1000, seed: int = DEFAULT_SEED) -> np.ndarray:
    """The column sums of sacreBLEU's bootstrap resamples of every system, (n_samples x systems*width), to
    share between :func:`bootstrap_cis` and :func:`pairwise_matrix` (``resampled=``).

    They depend on the matrices and the seed only, not on smoothing or weights, and the first k rows are
    those of k resamples (numpy draws row by row): one call serves the 1,000 draws of the intervals and the
    2,000 of a significance matrix with the same seed, and a smoothing change needs no new draws.

    Example:
        >>> import numpy as np
        >>> a = np.array([[4, 4, 4, 3, 2, 1, 4, 3, 2, 1], [5, 6, 3, 1, 0, 0, 5, 4, 3, 2]] * 50)
        >>> sums = resample_sums([a], 300)
        >>> bootstrap_cis([a], n_samples=200, resampled=sums) == bootstrap_cis([a], n_samples=200)
        True
    """
    mats = [np.asarray(m) for m in matrices]
    if not mats or not len(mats[0]):
        raise InputError("no segments to resample", "matrix")
    check_trials(n_samples, "n_samples")
    return _resample_sums(_rng(seed), n_samples, mats)


# _shuffle_sums reads Generator.integers(2, size, dtype=bool) as the generator's raw output, which rests on
# two numpy internals: PCG64 serves a 32-bit request from the low half of a 64-bit output and keeps the high
# half in its state for the next one (``has_uint32`` / ``uinteger``: pcg64_next32 in numpy/random/src/pcg64/
# pcg64.h), and random_bounded_bool_fill takes each 32-bit word's bits lowest first. Writing ``has_uint32``
# back leaves the generator exactly where numpy's own call would (sacrebleu draws again after the shuffles).
# Checked draw for draw (tests/core/test_significance.py) on these numpy releases, (major, minor) inclusive;
# on any other the numpy draw is used (same numbers, slower) and test_numpy_release_is_one_the_raw_bits_were_
# checked_on fails until the check is re-run and the range widened.
RAW_BITS_NUMPY: Final = ((2, 4), (2, 4))


def _numpy_in(releases: tuple[tuple[int, int], tuple[int, int]]) -> bool:
    """Whether the installed numpy's (major, minor) is in ``releases`` (first, last), inclusive."""
    major, minor = (int(x) for x in np.__version__.split(".")[:2])
    return releases[0] <= (major, minor) <= releases[1]


def _raw_bits_checked() -> bool:
    """Whether the installed numpy is one on which :func:`_shuffle_sums`'s raw-bit reading was checked."""
    return _numpy_in(RAW_BITS_NUMPY)


def _shuffle_sums(
    rng: np.random.Generator, n_trials: int, matrices: Sequence[np.ndarray], *, raw_bits: bool | None = None
) -> np.ndarray:
    """For every AR trial, the column sums of the segments it selects, per system: (trials x systems*w).

    The selection is sacrebleu's ``rng.integers(2, size=(n_trials, n), dtype=bool)``, and the generator
    is left where that call leaves it. numpy draws those booleans one bit at a time from the
    generator's 32-bit words, lowest bit first (``random_bounded_bool_fill``), so the kernel takes the
    raw 64-bit output as a bit string instead of a boolean matrix (tested draw for draw). ``raw_bits``:
    ``None`` reads raw bits when the kernel is built and numpy is in ``RAW_BITS_NUMPY``; tests force it.
    """
    n = len(matrices[0])
    stacked = _stack(matrices)
    check_resampling_fits("ar", n_trials, n, "n_trials", columns=stacked.shape[1])
    k = kernel()
    if raw_bits is None:
        raw_bits = k is not None and _raw_bits_checked()
    if not raw_bits or k is None:
        pos = rng.integers(2, size=(n_trials, n), dtype=bool)
        dtype = _exact_dtype(stacked)
        return (pos.astype(dtype) @ stacked.astype(dtype)).astype(np.float64)
    words = -(-n_trials * n // 32)
    raw = rng.bit_generator.random_raw(-(-words // 2))
    if words % 2:  # the last 64-bit draw's upper half stays buffered for the next 32-bit request
        state = dict(rng.bit_generator.state)
        state["has_uint32"], state["uinteger"] = 1, int(raw[-1] >> np.uint64(32))
        rng.bit_generator.state = state
    out = k.masked_sums(raw.view(np.uint8), n_trials, n, stacked, stacked.shape[1])
    return np.frombuffer(out, dtype=np.int64).reshape(n_trials, stacked.shape[1]).astype(np.float64)


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


def check_trials(trials: int, name: str) -> None:
    """A number of resamples or trials must be a positive whole number (``name`` is the option, for the message)."""
    if isinstance(trials, bool) or not isinstance(trials, int) or trials < 1:
        raise InputError(f"must be a positive whole number, got {trials!r}", name)


def _rng(seed: int) -> np.random.Generator:
    """sacrebleu's generator, ``numpy.random.default_rng(seed)``, for a seed numpy takes (an int >= 0)."""
    if isinstance(seed, bool) or not isinstance(seed, int | np.integer) or seed < 0:
        raise InputError(f"must be a whole number >= 0, got {seed!r}", "seed")
    return np.random.default_rng(seed)


def memory_budget() -> int:
    """Bytes that resampling may use: half of this machine's memory (4 GiB where that is unknown)."""
    try:
        return int(os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")) // 2
    except (ValueError, OSError, AttributeError):
        return 4 * 2**30


def _resampling_bytes(method: Method, draws: int, n: int, columns: int) -> int:
    # bs: a block of draws (int64 index + float count per cell; twice that on the numpy path) plus, per
    # resample, the float64 column sums and their scoring; ar: one bit per (trial, segment) with the kernel
    # (a bool and a float without), plus the per-trial sums
    fast = kernel() is not None
    if method == "bs":
        block = min(draws, max(1, RESAMPLE_CHUNK_CELLS // max(n, 1)))
        return block * n * (16 if fast else 32) + draws * columns * 24
    cells = -(-draws * n // 8) if fast else draws * n * 9
    return cells + draws * columns * 16


def check_resampling_fits(method: Method, draws: int, n_segments: int, where: str, *, columns: int = 10) -> None:
    """Refuse, before drawing anything, resampling that would not fit in :func:`memory_budget`.

    ``columns``: the statistics of every system (systems x (2 + 2N)). The bootstrap's draws are made a block
    at a time (:func:`_resample_sums`), so its memory is the per-resample sums; approximate randomization
    takes sacreBLEU's shuffles from one call (one bit per trial and segment). What does not fit is refused
    with how many draws would.

    Raises:
        InputError: naming ``where`` (the option), the memory needed and the most draws that fit.

    Example:
        >>> check_resampling_fits("bs", 10**11, 100, "--paired-bs")  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        bleu_core.errors.InputError: --paired-bs: 100,000,000,000 resamples of 100 segments need about ...
    """
    need, budget = _resampling_bytes(method, draws, n_segments, columns), memory_budget()
    if need <= budget:
        return
    low, high = 0, draws  # the most draws that fit: bytes grow with draws
    while low < high:
        mid = (low + high + 1) // 2
        low, high = (mid, high) if _resampling_bytes(method, mid, n_segments, columns) <= budget else (low, mid - 1)
    noun = "resamples" if method == "bs" else "trials"
    hint = f"at most {low:,} {noun} fit" if low >= 1 else "not even one fits"
    raise InputError(
        f"{draws:,} {noun} of {n_segments:,} segments need about {_gib(need)} of memory, more than the "
        f"{_gib(budget)} resampling may use (half this machine's); {hint}, or compare fewer systems",
        where,
    )


def _gib(n: int) -> str:
    return f"{n / 2**30:,.1f} GiB" if n >= 2**30 else f"{n / 2**20:,.0f} MiB"


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

    def _repr_html_(self) -> str:  # Jupyter: the comparison table as HTML (renderer: bleu_core.notebook)
        from .display import to_html

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


def holm_floor(n_systems: int, trials: int) -> float:
    """The smallest Holm-corrected p-value a comparison of every pair can produce: min(1, pairs / (trials + 1)).

    A paired test's p-value is at least 1 / (trials + 1); Holm multiplies the smallest by the number of pairs.
    With 12 systems (66 pairs) and 1000 trials it is 0.066, so nothing can be significant at 0.05.

    Example:
        >>> round(holm_floor(12, 1000), 3), holm_floor(2000, 1000)
        (0.066, 1.0)
    """
    pairs = n_systems * (n_systems - 1) // 2
    return min(1.0, pairs / (trials + 1))


def trials_needed(n_systems: int, alpha: float = 0.05) -> int:
    """The fewest trials with which a Holm-corrected p-value over every pair can fall below ``alpha``.

    Example:
        >>> trials_needed(16), holm_floor(16, trials_needed(16)) < 0.05 <= holm_floor(16, trials_needed(16) - 1)
        (2400, True)
    """
    pairs = n_systems * (n_systems - 1) // 2
    return max(1, math.floor(pairs / alpha))


TRIALS_OFFERED: Final = (100, 500, 1000, 2000, 5000, 10000)
"""The trial counts the compare page offers."""


def default_trials(n_systems: int, alpha: float = 0.05) -> int:
    """The one trial policy of the app and the CLI: sacreBLEU's 1,000 bootstrap trials (``--paired-bs-n``), or the
    fewest of :data:`TRIALS_OFFERED` above it with which a Holm-corrected p-value over ``n_systems`` systems can
    fall below ``alpha`` (at most the largest offered: :func:`holm_warning` says when even that is too few).

    Example:
        >>> default_trials(4), default_trials(10), default_trials(12), default_trials(16), default_trials(30)
        (1000, 1000, 2000, 5000, 10000)
    """
    for trials in TRIALS_OFFERED:
        if trials >= 1000 and holm_floor(n_systems, trials) < alpha:
            return trials
    return TRIALS_OFFERED[-1]


def holm_warning(n_systems: int, trials: int, alpha: float = 0.05) -> str | None:
    """What to tell a user when ``trials`` make significance impossible over every pair, else None.

    Example:
        >>> print(holm_warning(16, 1000))  # doctest: +NORMALIZE_WHITESPACE
        With 16 systems (120 pairs) and 1000 trials the smallest possible Holm-corrected p-value is 0.120,
        so no pair can reach 0.05: use at least 2400 trials.
        >>> holm_warning(16, 5000) is None
        True
    """
    floor = holm_floor(n_systems, trials)
    if floor < alpha:
        return None
    pairs = n_systems * (n_systems - 1) // 2
    return (
        f"With {n_systems} systems ({pairs} pairs) and {trials} trials the smallest possible Holm-corrected "
        f"p-value is {floor:.3f}, so no pair can reach {alpha:g}: "
        f"use at least {trials_needed(n_systems, alpha)} trials."
    )


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
    p = np.full((k, k), math.nan)
    width = mats[0].shape[1]
    if method == "bs":
        scores = _resampled_scores(_rng(seed), n_trials, mats, config, resampled)
        for i in range(k):
            for j in range(i + 1, k):
                diffs = np.abs(scores[:, j] - scores[:, i])
                p[i, j] = p[j, i] = _p_value(diffs - diffs.mean(), abs(real[i] - real[j]))
    else:
        sums = _shuffle_sums(_rng(seed), n_trials, mats)
        totals = [m.sum(axis=0).astype(np.float64) for m in mats]
        for i in range(k):
            for j in range(i + 1, k):
                pi, pj = sums[:, i * width : (i + 1) * width], sums[:, j * width : (j + 1) * width]
                stat = np.abs(score_many(pi + totals[j] - pj, config) - score_many(totals[i] - pi + pj, config))
                p[i, j] = p[j, i] = _p_value(stat, abs(real[i] - real[j]))
    upper = [(i, j) for i in range(k) for j in range(i + 1, k)]
    if tie_p is not None:
        for i, j in upper:
            if real[i] == real[j]:
                p[i, j] = p[j, i] = tie_p
    adjusted = np.full((k, k), math.nan)
    for (i, j), a in zip(upper, holm([float(p[i, j]) for i, j in upper]), strict=True):
        adjusted[i, j] = adjusted[j, i] = a
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


# --- the paper's block test ------------------------------------------------------------------------------


def _betacf(a: float, b: float, x: float) -> float:
    # continued fraction of the regularized incomplete beta function (modified Lentz)
    tiny = 1e-300
    qab, qap, qam = a + b, a + 1.0, a - 1.0
    c, d = 1.0, 1.0 - qab * x / qap
    d = 1.0 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 300):
        m2 = 2 * m
        aa = m * (b - m) * x / ((qam + m2) * (a + m2))
        d = 1.0 + aa * d
        d = 1.0 / (d if abs(d) > tiny else tiny)
        c = 1.0 + aa / c if abs(1.0 + aa / c) > tiny else tiny
        h *= d * c
        aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))
        d = 1.0 + aa * d
        d = 1.0 / (d if abs(d) > tiny else tiny)
        c = 1.0 + aa / c if abs(1.0 + aa / c) > tiny else tiny
        delta = d * c
        h *= delta
        if abs(delta - 1.0) < 1e-15:
            break
    return h


def _betainc(a: float, b: float, x: float) -> float:
    if x <= 0.0:
        return 0.0
    if x >= 1.0:
        return 1.0
    front = math.exp(math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x))
    if x < (a + 1.0) / (a + b + 2.0):
        return front * _betacf(a, b, x) / a
    return 1.0 - front * _betacf(b, a, 1.0 - x) / b


def student_t_two_sided(t: float, df: int) -> float:
    """Two-sided p-value of Student's t with ``df`` degrees of freedom.

    Example:
        >>> round(student_t_two_sided(2.093, 19), 4)  # the 5% critical value for 19 df
        0.05
    """
    if math.isnan(t):
        return 1.0
    if math.isinf(t):
        return 0.0
    return _betainc(df / 2.0, 0.5, df / (df + t * t))


def block_test(
    matrices: Sequence[np.ndarray], config: BleuConfig = BleuConfig(), *, n_blocks: int = 20
) -> BlockTestResult:
    """The paper's block test (section 3, "The BLEU Evaluation", Table 2): BLEU on contiguous blocks.

    The corpus is cut into ``n_blocks`` contiguous blocks (sizes differing by at most one); each
    system is scored on each block; per system the mean and sample standard deviation of the block
    scores; for each adjacent pair in the given order, a paired t-test on the block scores.

    Example:
        >>> import numpy as np
        >>> good = np.array([[4, 4, 4, 3, 2, 1, 4, 3, 2, 1]] * 4)
        >>> r = block_test([good, good], BleuConfig(), n_blocks=2)
        >>> r.block_sizes, [round(m, 9) for m in r.means], r.stds, r.pairs[0].t, r.pairs[0].p_value
        ((2, 2), [100.0, 100.0], (0.0, 0.0), 0.0, 1.0)
    """
    mats = _check(matrices, config)
    n = len(mats[0])
    if isinstance(n_blocks, bool) or not isinstance(n_blocks, int) or not 2 <= n_blocks <= n:
        raise InputError(f"must be between 2 and the number of segments ({n}), got {n_blocks!r}", "n_blocks")
    sizes = [len(b) for b in np.array_split(np.arange(n), n_blocks)]
    starts = np.concatenate(([0], np.cumsum(sizes)[:-1]))
    scores = np.array([score_many(np.add.reduceat(m, starts, axis=0), config) for m in mats])
    means = scores.mean(axis=1)
    stds = scores.std(axis=1, ddof=1)
    pairs = []
    for i in range(len(mats) - 1):
        d = scores[i + 1] - scores[i]
        mean_d, sd = float(d.mean()), float(d.std(ddof=1))
        if sd == 0.0:
            t = 0.0 if mean_d == 0.0 else math.copysign(math.inf, mean_d)
        else:
            t = mean_d / (sd / math.sqrt(n_blocks))
        pairs.append(BlockPair(i, i + 1, mean_d, t, n_blocks - 1, student_t_two_sided(t, n_blocks - 1)))
    return BlockTestResult(
        tuple(sizes),
        tuple(tuple(float(x) for x in row) for row in scores),
        tuple(float(x) for x in means),
        tuple(float(x) for x in stds),
        tuple(pairs),
    )


PAPER_BLOCK_SIZE: Final = 25  # section 3: "20 blocks of 25 sentences each"
PAPER_T_THRESHOLD: Final = 1.7  # section 3: "a paired t-statistic of 1.7 or above is 95% significant"


def paper_block_count(n_segments: int, block_size: int = PAPER_BLOCK_SIZE) -> int:
    """How many consecutive blocks the paper's test cuts ``n_segments`` into.

    ``n_segments // block_size`` when that makes at least two blocks (each then has ``block_size`` segments,
    or one more where the remainder is spread); a smaller corpus gets blocks of about 5 segments (at least
    2 blocks, at most 20), and the caller says so.

    Example:
        >>> paper_block_count(500), paper_block_count(1002), paper_block_count(30), paper_block_count(3)
        (20, 40, 6, 2)
    """
    if isinstance(n_segments, bool) or not isinstance(n_segments, int) or n_segments < 2:
        raise InputError(f"the block test needs at least 2 segments, got {n_segments!r}", "segments")
    if n_segments >= 2 * block_size:
        return n_segments // block_size
    return max(2, min(20, n_segments // 5))


@dataclass(frozen=True, slots=True)
class RankedBlockTest:
    """The paper's Table 2 on N systems: in rank order, lowest corpus BLEU first; each system's paired t is
    against its left neighbour (the system ranked just below it).

    Attributes:
        order: system indices (into the given matrices), lowest corpus BLEU first.
        corpus_scores: the corpus BLEU of each, in that order.
        result: :func:`block_test` on the systems in that order (``result.pairs[i]`` compares rank i + 1
            with rank i).
        block_size: the block size aimed at (the paper's 25).
        threshold: the paper's t threshold (1.7).
    """

    order: tuple[int, ...]
    corpus_scores: tuple[float, ...]
    result: BlockTestResult
    block_size: int = PAPER_BLOCK_SIZE
    threshold: float = PAPER_T_THRESHOLD

    @property
    def paper_sized(self) -> bool:
        """Whether every block has at least ``block_size`` segments."""
        return min(self.result.block_sizes) >= self.block_size


def ranked_block_test(
    matrices: Sequence[np.ndarray], config: BleuConfig = BleuConfig(), *, block_size: int = PAPER_BLOCK_SIZE
) -> RankedBlockTest:
    """The block test as the paper ran it (section 3, Table 2): blocks of ``block_size`` consecutive segments
    where the corpus allows (:func:`paper_block_count`), the systems in rank order of corpus BLEU, and the
    paired t of each against the one ranked just below it.

    Example:
        >>> import numpy as np
        >>> good = np.array([[4, 4, 4, 3, 2, 1, 4, 3, 2, 1]] * 60)
        >>> bad = good.copy(); bad[::2, 2] -= 2
        >>> r = ranked_block_test([good, bad])
        >>> r.order, r.result.block_sizes, r.paper_sized, r.result.pairs[0].df
        ((1, 0), (30, 30), True, 1)
    """
    mats = _check(matrices, config)
    scores = [_corpus_score(m, config) for m in mats]
    order = tuple(sorted(range(len(mats)), key=lambda i: (scores[i], i)))
    n_blocks = paper_block_count(len(mats[0]), block_size)
    result = block_test([mats[i] for i in order], config, n_blocks=n_blocks)
    return RankedBlockTest(order, tuple(scores[i] for i in order), result, block_size)


# --- agreement with human judgments ----------------------------------------------------------------------


def pearson(x: Sequence[float], y: Sequence[float]) -> float:
    """Pearson's r (nan for fewer than 3 points or no variance).

    Example:
        >>> pearson([1, 2, 3], [2, 4, 7]) > 0.99
        True
    """
    xa, ya = np.asarray(x, float), np.asarray(y, float)
    if len(xa) < 3 or xa.std() == 0 or ya.std() == 0:
        return math.nan
    return float(np.corrcoef(xa, ya)[0, 1])


def kendall(x: Sequence[float], y: Sequence[float]) -> float:
    """Kendall's tau-b (ties handled), nan for fewer than 3 points.

    Example:
        >>> kendall([1, 2, 3, 4], [1, 3, 2, 4])
        0.6666666666666666
    """
    n = len(x)
    if n < 3:
        return math.nan
    conc = disc = tx = ty = 0
    for i in range(n):
        for j in range(i + 1, n):
            dx = np.sign(x[i] - x[j])
            dy = np.sign(y[i] - y[j])
            if dx == 0 and dy == 0:
                continue
            if dx == 0:
                tx += 1
            elif dy == 0:
                ty += 1
            elif dx == dy:
                conc += 1
            else:
                disc += 1
    denom = math.sqrt((conc + disc + tx) * (conc + disc + ty))
    return (conc - disc) / denom if denom else math.nan
