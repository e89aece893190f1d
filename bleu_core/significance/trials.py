"""How many draws: the one trial policy of the app and the CLI, and the memory resampling may use.

Holm's correction over every pair of N systems multiplies the smallest p-value by N(N-1)/2, and a paired
test's p-value is at least 1 / (trials + 1): :func:`holm_floor`, :func:`trials_needed` and
:func:`default_trials` turn that into a number of trials, :func:`trials_for` into the draws of a comparison (what
``bleu-explorer compare`` and ``report`` use), :func:`holm_warning` into a sentence. Before anything is drawn,
:func:`check_resampling_fits` refuses what would not fit in :func:`memory_budget`; its columns are the systems'
statistics side by side (systems x the metric's width).
"""

from __future__ import annotations

import math
import os
from typing import Final, Literal

from bleu_core.engine.choose import choose
from bleu_core.errors import InputError

__all__ = [
    "DEFAULT_TRIALS",
    "RESAMPLE_CHUNK_CELLS",
    "TRIALS_OFFERED",
    "Method",
    "check_resampling_fits",
    "check_trials",
    "default_trials",
    "holm_floor",
    "holm_warning",
    "memory_budget",
    "policy_trials",
    "trials_for",
    "trials_needed",
]

Method = Literal["bs", "ar"]

RESAMPLE_CHUNK_CELLS: Final = 1 << 22  # bootstrap draws x segments held at once (32 MB of int64 draws)

TRIALS_OFFERED: Final = (100, 500, 1000, 2000, 5000, 10000)
"""The trial counts the compare page offers."""

DEFAULT_TRIALS: Final[dict[str, int]] = {"bs": 1000, "ar": 10000}
"""sacreBLEU's draws when none are asked for: 1,000 bootstrap resamples (``--paired-bs-n``), 10,000 shuffles
(``--paired-ar-n``)."""


def check_trials(trials: int, name: str) -> None:
    """A number of resamples or trials must be a positive whole number (``name`` is the option, for the message)."""
    if isinstance(trials, bool) or not isinstance(trials, int) or trials < 1:
        raise InputError(f"must be a positive whole number, got {trials!r}", name)


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


def trials_for(method: Method, n_systems: int, requested: int | None = None, *, alpha: float = 0.05) -> int:
    """The draws of a comparison of ``n_systems`` systems (the CLI's ``compare`` and ``report``): ``requested``
    when given (sacreBLEU's own count, kept as asked); otherwise for the bootstrap :func:`default_trials` (the
    policy the app's compare page follows too), for approximate randomization sacreBLEU's 10,000.

    Example:
        >>> trials_for("bs", 4), trials_for("bs", 16), trials_for("bs", 16, 300), trials_for("ar", 16)
        (1000, 5000, 300, 10000)
    """
    if requested is not None:
        return requested
    return default_trials(n_systems, alpha) if method == "bs" else DEFAULT_TRIALS["ar"]


def policy_trials(method: Method, comparisons: int, requested: int | None = None, *, alpha: float = 0.05) -> int:
    """The CLI's draws for a family of ``comparisons`` Holm-corrected tests, with no cap: ``requested`` when given;
    otherwise the fewest of :data:`TRIALS_OFFERED` from sacreBLEU's default (1,000 resamples, 10,000 shuffles)
    with which the smallest Holm-corrected p-value, ``comparisons / (trials + 1)``, falls below ``alpha``, and past
    the largest offered, the number needed rounded up to a thousand (50 checkpoints, 1,225 pairs: 25,000). What
    does not fit in memory is refused before drawing (:func:`check_resampling_fits`).

    Example:
        >>> policy_trials("bs", 120), policy_trials("bs", 1225), policy_trials("bs", 49), policy_trials("ar", 1225)
        (5000, 25000, 1000, 25000)
    """
    if requested is not None:
        return requested
    floor = DEFAULT_TRIALS[method]
    for trials in TRIALS_OFFERED:
        if trials >= floor and comparisons / (trials + 1) < alpha:
            return trials
    need = math.floor(comparisons / alpha)  # comparisons / (need + 1) < alpha
    return max(floor, -(-need // 1000) * 1000)


def holm_warning(n_systems: int, trials: int, alpha: float = 0.05, *, comparisons: int | None = None) -> str | None:
    """What to tell a user when ``trials`` make significance impossible over every pair (or over ``comparisons``
    tests corrected together), else None.

    Example:
        >>> print(holm_warning(16, 1000))  # doctest: +NORMALIZE_WHITESPACE
        With 16 systems (120 pairs) and 1000 trials the smallest possible Holm-corrected p-value is 0.120,
        so no pair can reach 0.05: use at least 2400 trials.
        >>> holm_warning(16, 5000) is None, holm_warning(16, 200, comparisons=15)[:38]
        (True, 'With 16 systems (15 comparisons) and 2')
    """
    every = n_systems * (n_systems - 1) // 2
    pairs = every if comparisons is None else comparisons
    floor = min(1.0, pairs / (trials + 1))
    if floor < alpha:
        return None
    one = "pair" if pairs == every else "comparison"
    return (
        f"With {n_systems} systems ({pairs} {one}s) and {trials} trials the smallest possible Holm-corrected "
        f"p-value is {floor:.3f}, so no {one} can reach {alpha:g}: "
        f"use at least {max(1, math.floor(pairs / alpha))} trials."
    )


def memory_budget() -> int:
    """Bytes that resampling may use: half of this machine's memory (4 GiB where that is unknown)."""
    try:
        return int(os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")) // 2
    except (ValueError, OSError, AttributeError):
        return 4 * 2**30


def _resampling_bytes(method: Method, draws: int, n: int, columns: int) -> int:
    # bs: a block of draws (int64 index + float count per cell; twice that on the numpy path) plus, per
    # resample, the float64 column sums and their scoring; ar: one bit per (trial, segment) with the kernel
    # (a bool and a float without), plus the per-trial sums. The drawer is the one engine.choose picks.
    fast = choose() == "kernel"
    if method == "bs":
        block = min(draws, max(1, RESAMPLE_CHUNK_CELLS // max(n, 1)))
        return block * n * (16 if fast else 32) + draws * columns * 24
    cells = -(-draws * n // 8) if fast else draws * n * 9
    return cells + draws * columns * 16


def check_resampling_fits(method: Method, draws: int, n_segments: int, where: str, *, columns: int) -> None:
    """Refuse, before drawing anything, resampling that would not fit in :func:`memory_budget`.

    ``columns``: the statistics of every system side by side (systems x the metric's width, ``Metric.width``:
    ten for one system under BLEU's 4-grams). The bootstrap's draws are made a block
    at a time (``resample``), so its memory is the per-resample sums; approximate randomization takes
    sacreBLEU's shuffles from one call (one bit per trial and segment). What does not fit is refused with how
    many draws would.

    Raises:
        InputError: naming ``where`` (the option), the memory needed and the most draws that fit.

    Example:
        >>> check_resampling_fits("bs", 10**11, 100, "--paired-bs", columns=10)  # doctest: +ELLIPSIS
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
