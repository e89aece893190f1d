"""Freed memory goes back to the system after a run that needed a lot of it (issue 13).

A corpus page's first draw at 50,000 lines allocates hundreds of MB for a moment (bootstrap draws, tokens,
frames) and frees them again, but glibc's malloc keeps most freed heap pages in the process: the server then
holds that peak for as long as it runs, though Python no longer uses it. ``give_back`` asks glibc to return
them (``malloc_trim``) when the process grew by more than ``GROWTH_MB`` since the last time, so an ordinary
rerun pays one read of /proc/self/statm and nothing else.
"""

from __future__ import annotations

import ctypes
import os
import threading
from collections.abc import Callable, Sequence
from typing import Final

from bleu_core.config import BleuConfig
from bleu_core.metrics import Metric, as_metric

GROWTH_MB: Final = 64

_lock = threading.Lock()
_after_last_trim = [0.0]


def _malloc_trim() -> Callable[[int], int] | None:
    try:
        trim: Callable[[int], int] = ctypes.CDLL("libc.so.6").malloc_trim
    except (OSError, AttributeError):  # not glibc (musl, macOS): nothing to call
        return None
    return trim


_TRIM = _malloc_trim()
_PAGE_MB = os.sysconf("SC_PAGE_SIZE") / 2**20 if hasattr(os, "sysconf") else 0.0


def rss_mb() -> float:
    """The process's resident memory in MB (0 where /proc is not there)."""
    try:
        with open("/proc/self/statm", encoding="ascii") as f:
            return int(f.read().split()[1]) * _PAGE_MB
    except OSError:
        return 0.0


def give_back() -> bool:
    """Return freed heap pages to the system if the process grew by more than ``GROWTH_MB`` since the last
    time; whether it did."""
    if _TRIM is None:
        return False
    with _lock:
        if rss_mb() - _after_last_trim[0] <= GROWTH_MB:
            return False
        _TRIM(0)
        _after_last_trim[0] = rss_mb()
        return True


# --- what one session may hold (issue 24.1) -------------------------------------------------------------------
SESSION_SHARE: Final = 8
"""A session's resampling may use this fraction of the machine's memory (the core allows half the machine to
one computation; a served class has many sessions)."""
_BYTES_PER_CELL: Final = 24  # a resample's float64 column sums and their scoring (bleu_core.significance)


def session_budget() -> int:
    """Bytes one session's resampling may hold: 1/``SESSION_SHARE`` of the machine (2.9 GiB of 23 GiB)."""
    from bleu_core.significance.trials import memory_budget

    return memory_budget() * 2 // SESSION_SHARE


Metrics = Metric | BleuConfig | Sequence[Metric]


def pool_bytes(n_systems: int, metric: Metrics, draws: int) -> int:
    """About what ``draws`` bootstrap resamples of ``n_systems`` systems hold (the metric's statistics per system:
    2 + 2N for BLEU; with several metrics, each holds a pool of its own)."""
    metrics = list(metric) if isinstance(metric, Sequence) else [metric]
    width = sum(as_metric(m).width for m in metrics)
    return draws * n_systems * width * _BYTES_PER_CELL


def trials_that_fit(n_systems: int, metric: Metrics, trials: int, offered: tuple[int, ...], floor: int) -> int | None:
    """``trials`` if its pool (at least ``floor`` draws: the intervals') fits in :func:`session_budget`, else the
    most of ``offered`` below it that fit; None when not even ``floor`` draws fit."""
    budget = session_budget()
    for t in [trials, *sorted((o for o in offered if o < trials), reverse=True)]:
        if pool_bytes(n_systems, metric, max(t, floor)) <= budget:
            return t
    return None


def gib(n: int) -> str:
    """Bytes as GiB (MiB under one GiB), for messages."""
    return f"{n / 2**30:,.1f} GiB" if n >= 2**30 else f"{n / 2**20:,.0f} MiB"
