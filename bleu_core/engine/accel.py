"""The optional C kernel (``bleu_core/engine/_kernel.c``, built by ``pip install``): loaded once, here.

Without it (no C compiler at install, or ``BLEU_CORE_KERNEL=0`` in the environment) :func:`~bleu_core.engine.
choose.choose`, the one place that asks :func:`kernel_available`, picks the explainable path for counting and
tokenizing and the numpy drawer for resampling: the same numbers, more slowly. Code that runs on the kernel's side
of that choice uses :data:`kernel` directly, and gives it lines as :func:`kernel_input` prepares them.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from types import ModuleType
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .tokenizers import Preprocessor

__all__ = ["kernel", "kernel_available", "kernel_input"]

kernel: ModuleType | None
try:
    from . import _kernel as kernel
except ImportError:  # pragma: no cover - depends on the build
    kernel = None


def kernel_available() -> bool:
    """Whether the C kernel is built and not switched off (``BLEU_CORE_KERNEL=0``)."""
    return kernel is not None and os.environ.get("BLEU_CORE_KERNEL", "1") != "0"


def kernel_input(lines: Sequence[str | None], prep: Preprocessor) -> tuple[Sequence[str | None], int]:
    """The lines as the kernel takes them, and its mode: it does 13a itself (``MODE_13A``, right strip
    included) and only splits (``MODE_SPLIT``) what the other tokenizers return."""
    assert kernel is not None
    if prep.lowercase:
        lines = [None if line is None else line.lower() for line in lines]
    if prep.name == "13a":
        return lines, kernel.MODE_13A
    if prep.name != "none":
        fn = prep.fn
        lines = [None if line is None else fn(line.rstrip()) for line in lines]
    return lines, kernel.MODE_SPLIT
