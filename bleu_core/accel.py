"""The optional C kernel (``bleu_core/_kernel.c``, built by ``pip install``): loaded once, here.

Without it (no C compiler at install, or ``BLEU_CORE_KERNEL=0`` in the environment) ``engine.choose``, the one
place that asks :func:`kernel_available`, picks the explainable path for counting and tokenizing and the numpy
drawer for resampling: the same numbers, more slowly. Code that runs on the kernel's side of that choice uses
``_kernel`` directly.
"""

from __future__ import annotations

import os
from types import ModuleType

__all__ = ["kernel_available"]

_kernel: ModuleType | None
try:
    from . import _kernel
except ImportError:  # pragma: no cover - depends on the build
    _kernel = None


def kernel_available() -> bool:
    """Whether the C kernel is built and not switched off (``BLEU_CORE_KERNEL=0``)."""
    return _kernel is not None and os.environ.get("BLEU_CORE_KERNEL", "1") != "0"
