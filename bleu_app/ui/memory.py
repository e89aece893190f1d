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
from collections.abc import Callable
from typing import Final

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
