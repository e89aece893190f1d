"""Drawing sacreBLEU's resamples and shuffles: a kernel drawer and a numpy drawer behind one choice.

A bootstrap resample or an approximate-randomization shuffle of a (segments x statistics) matrix is a
weighted column sum, so the tests in ``significance`` only need, per draw, the column sums of every system.
Two drawers give them, the same numbers draw for draw (tests/core/test_significance.py):

* :class:`NumpyDrawer`: sacreBLEU's own calls, ``rng.choice(n, size=(trials, n))`` and
  ``rng.integers(2, size=(trials, n), dtype=bool)``, counted with numpy;
* :class:`KernelDrawer`: the C kernel draws the same indices from the generator's bit stream and counts them
  as it draws (no index array), and reads the shuffles' booleans as the generator's raw bits.

:func:`drawer` picks one through ``engine.choose``, the one place that chooses the kernel or not.
"""

from __future__ import annotations

from collections.abc import Sequence
from types import ModuleType
from typing import Final, Protocol

import numpy as np

from bleu_core.engine.accel import kernel
from bleu_core.engine.choose import choose
from bleu_core.errors import InputError

from .trials import RESAMPLE_CHUNK_CELLS, check_resampling_fits, check_trials

__all__ = [
    "DEFAULT_SEED",
    "KERNEL_DRAWS_NUMPY",
    "RAW_BITS_NUMPY",
    "Drawer",
    "KernelDrawer",
    "NumpyDrawer",
    "bootstrap_sums",
    "drawer",
    "ordered_float32_sums",
    "resample_sums",
    "resample_sums_each",
    "seeded_rng",
    "shuffle_sums",
]

DEFAULT_SEED: Final = 12345  # sacrebleu's SACREBLEU_SEED default

# The kernel draws sacrebleu's bootstrap indices itself (bootstrap_draw_counts) exactly as Generator.choice
# does: choice(n, size) calls integers(0, n, size, dtype=int64), whose fill (random_bounded_uint64_fill in
# numpy/random/src/distributions/distributions.c) takes, for 1 < n < 2**32, Lemire's bounded draw on the bit
# generator's next_uint32 (buffered_bounded_lemire_uint32). numpy may change a Generator's stream between
# releases (NEP 19), so this is checked draw for draw (tests/core/test_significance.py) on these numpy
# releases, (major, minor) inclusive; on any other the numpy draw is used (same numbers, slower) and
# test_numpy_release_is_one_the_kernel_draws_were_checked_on fails until the check is re-run.
KERNEL_DRAWS_NUMPY: Final = ((2, 4), (2, 4))

# The kernel's shuffles read Generator.integers(2, size, dtype=bool) as the generator's raw output, which rests
# on two numpy internals: PCG64 serves a 32-bit request from the low half of a 64-bit output and keeps the high
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
    """Whether the installed numpy is one on which the kernel's raw-bit reading of the shuffles was checked."""
    return _numpy_in(RAW_BITS_NUMPY)


class Drawer(Protocol):
    """What the paired tests draw with: bootstrap counts per segment, and the shuffles' column sums."""

    name: str

    def scratch(self, rows: int, n: int, dtype: type[np.floating]) -> np.ndarray | None:
        """A buffer for :meth:`bootstrap_weights` to count into, block by block (``None``: it allocates)."""

    def bootstrap_weights(
        self, rng: np.random.Generator, block: int, n: int, dtype: type[np.floating], scratch: np.ndarray | None
    ) -> np.ndarray:
        """How often each of ``n`` segments is drawn in each of ``block`` resamples: (block x n) ``dtype``."""

    def shuffle_sums(self, rng: np.random.Generator, n_trials: int, stacked: np.ndarray) -> np.ndarray:
        """Per AR trial, the column sums of the segments it selects: (trials x columns) float64."""


class NumpyDrawer:
    """sacreBLEU's own numpy calls, counted with numpy."""

    name = "numpy"

    def scratch(self, rows: int, n: int, dtype: type[np.floating]) -> np.ndarray | None:
        return None

    def bootstrap_weights(
        self, rng: np.random.Generator, block: int, n: int, dtype: type[np.floating], scratch: np.ndarray | None
    ) -> np.ndarray:
        idxs = rng.choice(n, size=(block, n), replace=True)
        offsets = (np.arange(block, dtype=np.int64) * n)[:, None]
        counts = np.bincount((idxs + offsets).ravel(), minlength=block * n)
        return counts.reshape(block, n).astype(dtype)

    def shuffle_sums(self, rng: np.random.Generator, n_trials: int, stacked: np.ndarray) -> np.ndarray:
        pos = rng.integers(2, size=(n_trials, len(stacked)), dtype=bool)
        dtype = _exact_dtype(stacked)
        return (pos.astype(dtype) @ stacked.astype(dtype)).astype(np.float64)


class KernelDrawer:
    """The C kernel draws and counts. ``draws``: it draws the bootstrap indices itself (else numpy draws them
    and the kernel counts); ``raw_bits``: it reads the shuffles as raw bits (else numpy's shuffles)."""

    name = "kernel"

    def __init__(self, kernel: ModuleType, *, draws: bool | None = None, raw_bits: bool | None = None) -> None:
        self._k = kernel
        self.draws = _numpy_in(KERNEL_DRAWS_NUMPY) if draws is None else draws
        self.raw_bits = _raw_bits_checked() if raw_bits is None else raw_bits

    def scratch(self, rows: int, n: int, dtype: type[np.floating]) -> np.ndarray | None:
        return np.empty((rows, n), dtype=dtype) if self.draws and n < 2**32 else None

    def bootstrap_weights(
        self, rng: np.random.Generator, block: int, n: int, dtype: type[np.floating], scratch: np.ndarray | None
    ) -> np.ndarray:
        """With ``scratch`` (C-contiguous, at least ``block`` rows of ``n`` ``dtype``) the kernel draws and counts
        into it in one pass, with no index array; else numpy draws and the kernel counts."""
        k = self._k
        if scratch is None:
            idxs = rng.choice(n, size=(block, n), replace=True)
            raw = k.bootstrap_counts(np.ascontiguousarray(idxs, dtype=np.int64), block, n, dtype is np.float32)
            return np.frombuffer(raw, dtype=dtype).reshape(block, n)
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

    def shuffle_sums(self, rng: np.random.Generator, n_trials: int, stacked: np.ndarray) -> np.ndarray:
        """numpy draws the booleans one bit at a time from the generator's 32-bit words, lowest bit first
        (``random_bounded_bool_fill``), so the kernel takes the raw 64-bit output as a bit string instead of a
        boolean matrix (tested draw for draw)."""
        if not self.raw_bits:
            return NumpyDrawer().shuffle_sums(rng, n_trials, stacked)
        n = len(stacked)
        words = -(-n_trials * n // 32)
        raw = rng.bit_generator.random_raw(-(-words // 2))
        if words % 2:  # the last 64-bit draw's upper half stays buffered for the next 32-bit request
            state = dict(rng.bit_generator.state)
            state["has_uint32"], state["uinteger"] = 1, int(raw[-1] >> np.uint64(32))
            rng.bit_generator.state = state
        out = self._k.masked_sums(raw.view(np.uint8), n_trials, n, stacked, stacked.shape[1])
        return np.frombuffer(out, dtype=np.int64).reshape(n_trials, stacked.shape[1]).astype(np.float64)


def drawer(*, draws: bool | None = None, raw_bits: bool | None = None) -> Drawer:
    """The drawer ``engine.choose`` picks: the kernel's when it is built and not switched off, else numpy's.

    ``draws`` and ``raw_bits`` (``None``: when the installed numpy is one the kernel's draws were checked on)
    are the kernel drawer's two shortcuts; tests force them.

    Example:
        >>> import os
        >>> drawer().name == ("kernel" if os.environ.get("BLEU_CORE_KERNEL", "1") != "0" else "numpy")
        True
    """
    if choose() == "kernel":
        assert kernel is not None
        return KernelDrawer(kernel, draws=draws, raw_bits=raw_bits)
    return NumpyDrawer()


def _stack(matrices: Sequence[np.ndarray]) -> np.ndarray:
    return np.ascontiguousarray(np.hstack([m.astype(np.int64, copy=False) for m in matrices]))


def _exact_dtype(stacked: np.ndarray) -> type[np.floating]:
    # float32 products are exact while every partial sum stays below 2**24: a resample's column sum is
    # at most (segments) x (largest entry); float64 (exact below 2**53) otherwise.
    bound = len(stacked) * int(np.abs(stacked).max(initial=0))
    return np.float32 if bound < 2**24 else np.float64


def seeded_rng(seed: int) -> np.random.Generator:
    """sacreBLEU's generator, ``numpy.random.default_rng(seed)``, for a seed numpy takes (an int >= 0).

    Example:
        >>> seeded_rng(-1)
        Traceback (most recent call last):
        ...
        bleu_core.errors.InputError: seed: must be a whole number >= 0, got -1
    """
    if isinstance(seed, bool) or not isinstance(seed, int | np.integer) or seed < 0:
        raise InputError(f"must be a whole number >= 0, got {seed!r}", "seed")
    return np.random.default_rng(seed)


def _bootstrap_weights(
    rng: np.random.Generator, block: int, n: int, dtype: type[np.floating], scratch: np.ndarray | None
) -> np.ndarray:
    """How often each of ``n`` segments is drawn in each of ``block`` resamples of sacrebleu's
    ``rng.choice(n, size=(block, n))``, by :func:`drawer`'s drawer (the kernel draws into ``scratch`` when given)."""
    return drawer().bootstrap_weights(rng, block, n, dtype, scratch)


def bootstrap_sums(
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
    draw = drawer(draws=kernel_draws)
    rows = max(1, min(n_samples, RESAMPLE_CHUNK_CELLS // max(n, 1)))
    values = stacked.astype(dtype)
    scratch = draw.scratch(rows, n, dtype)  # the kernel's counts, block by block
    sums = np.empty((n_samples, stacked.shape[1]), dtype=np.float64)
    for start in range(0, n_samples, rows):
        block = min(rows, n_samples - start)
        sums[start : start + block] = draw.bootstrap_weights(rng, block, n, dtype, scratch) @ values
    return sums


def ordered_float32_sums(rng: np.random.Generator, n_samples: int, rows: Sequence[np.ndarray]) -> np.ndarray:
    """sacreBLEU's float32 column sums of ``n_samples`` bootstrap resamples of every system's float ``rows``:
    ``np.array(stats, dtype='float32')``, then each resample's ``_s.sum(0)`` over its drawn rows in the drawn order
    (numpy adds the rows of an (n x w) array one at a time along axis 0). For rows that are not integers (TER's
    averaged reference lengths) the order matters, so the indices are drawn (``rng.choice``, block by block: the
    same numbers as one call) instead of counted. Returns (samples x systems*w) float32.

    Example:
        >>> rows = [np.array([[1.0, 10 / 3], [0.0, 4 / 3]])]
        >>> ordered_float32_sums(seeded_rng(1), 2, rows).dtype
        dtype('float32')
    """
    n = len(rows[0])
    singles = [np.asarray(r, dtype=np.float64).astype(np.float32) for r in rows]
    width = sum(s.shape[1] for s in singles)
    check_resampling_fits("bs", n_samples, n, "n_samples", columns=width)
    block = max(1, min(n_samples, RESAMPLE_CHUNK_CELLS // max(n, 1)))
    out = np.empty((n_samples, width), dtype=np.float32)
    for start in range(0, n_samples, block):
        size = min(block, n_samples - start)
        idxs = rng.choice(n, size=(size, n), replace=True)
        col = 0
        for single in singles:
            w = single.shape[1]
            out[start : start + size, col : col + w] = single[idxs].sum(axis=1)
            col += w
    return out


def shuffle_sums(
    rng: np.random.Generator, n_trials: int, matrices: Sequence[np.ndarray], *, raw_bits: bool | None = None
) -> np.ndarray:
    """For every AR trial, the column sums of the segments it selects, per system: (trials x systems*w).

    The selection is sacrebleu's ``rng.integers(2, size=(n_trials, n), dtype=bool)``, and the generator
    is left where that call leaves it. ``raw_bits``: ``None`` reads raw bits when the kernel is built and
    numpy is in ``RAW_BITS_NUMPY``; tests force it.
    """
    stacked = _stack(matrices)
    check_resampling_fits("ar", n_trials, len(stacked), "n_trials", columns=stacked.shape[1])
    return drawer(raw_bits=raw_bits).shuffle_sums(rng, n_trials, stacked)


def resample_sums(matrices: Sequence[np.ndarray], n_samples: int = 1000, seed: int = DEFAULT_SEED) -> np.ndarray:
    """The column sums of sacreBLEU's bootstrap resamples of every system, (n_samples x systems*width), to
    share between ``significance.bootstrap_cis`` and ``significance.pairwise_matrix`` (``resampled=``).

    They depend on the matrices and the seed only, not on smoothing or weights, and the first k rows are
    those of k resamples (numpy draws row by row): one call serves the 1,000 draws of the intervals and the
    2,000 of a significance matrix with the same seed, and a smoothing change needs no new draws.

    Example:
        >>> import numpy as np
        >>> from bleu_core.significance import bootstrap_cis
        >>> a = np.array([[4, 4, 4, 3, 2, 1, 4, 3, 2, 1], [5, 6, 3, 1, 0, 0, 5, 4, 3, 2]] * 50)
        >>> sums = resample_sums([a], 300)
        >>> bootstrap_cis([a], n_samples=200, resampled=sums) == bootstrap_cis([a], n_samples=200)
        True
    """
    mats = [np.asarray(m) for m in matrices]
    if not mats or not len(mats[0]):
        raise InputError("no segments to resample", "matrix")
    check_trials(n_samples, "n_samples")
    return bootstrap_sums(seeded_rng(seed), n_samples, mats)


def resample_sums_each(
    groups: Sequence[Sequence[np.ndarray]], n_samples: int = 1000, seed: int = DEFAULT_SEED
) -> list[np.ndarray]:
    """:func:`resample_sums` of each group of matrices (one metric's systems each, on the same segments) from one
    set of draws: the same numbers as a call per group, the draws (most of a pool's cost: about 0.9 s of CPU for
    1,000 resamples of 50,000 segments) paid once. Each group's sums are exact in the dtype its own call would use.

    Example:
        >>> import numpy as np
        >>> a = np.array([[4, 4, 4, 3, 2, 1, 4, 3, 2, 1], [5, 6, 3, 1, 0, 0, 5, 4, 3, 2]] * 50)
        >>> ter = np.array([[3, 12], [0, 7]] * 50)
        >>> each = resample_sums_each([[a], [ter, ter]], 300)
        >>> [np.array_equal(x, y) for x, y in zip(each, [resample_sums([a], 300), resample_sums([ter, ter], 300)])]
        [True, True]
    """
    stacks = [_stack([np.asarray(m) for m in g]) for g in groups]
    if not stacks or not len(stacks[0]) or any(len(s) != len(stacks[0]) for s in stacks):
        raise InputError("no segments to resample, or groups of different lengths", "matrix")
    check_trials(n_samples, "n_samples")
    n = len(stacks[0])
    check_resampling_fits("bs", n_samples, n, "n_samples", columns=sum(s.shape[1] for s in stacks))
    dtypes = [_exact_dtype(s) for s in stacks]
    # counts are whole numbers up to n: exact in float32 too while n < 2**24, so one draw serves both dtypes
    wide = np.float64 if np.float64 in dtypes or n >= 2**24 else np.float32
    draw = drawer()
    rng = seeded_rng(seed)
    rows = max(1, min(n_samples, RESAMPLE_CHUNK_CELLS // max(n, 1)))
    values = [s.astype(d) for s, d in zip(stacks, dtypes, strict=True)]
    scratch = draw.scratch(rows, n, wide)
    out = [np.empty((n_samples, s.shape[1]), dtype=np.float64) for s in stacks]
    for start in range(0, n_samples, rows):
        block = min(rows, n_samples - start)
        weights = draw.bootstrap_weights(rng, block, n, wide, scratch)
        for sums, v in zip(out, values, strict=True):
            sums[start : start + block] = (weights if v.dtype == wide else weights.astype(v.dtype)) @ v
    return out
