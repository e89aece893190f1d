"""The optional C kernel (``bleu_core/_kernel.c``, built by ``pip install``): loaded once, here.

Without it (no C compiler at install, or ``BLEU_CORE_KERNEL=0`` in the environment) ``engine.choose``
counts on the explainable path and ``resample`` draws with numpy: the same numbers, more slowly.
"""

from __future__ import annotations

import os
from types import ModuleType

__all__ = ["kernel", "kernel_available"]

_kernel: ModuleType | None
try:
    from . import _kernel
except ImportError:  # pragma: no cover - depends on the build
    _kernel = None


def kernel_available() -> bool:
    """Whether the C kernel is built and not switched off (``BLEU_CORE_KERNEL=0``)."""
    return _kernel is not None and os.environ.get("BLEU_CORE_KERNEL", "1") != "0"


def kernel() -> ModuleType | None:
    """The kernel module when :func:`kernel_available`, else ``None``."""
    return _kernel if kernel_available() else None
