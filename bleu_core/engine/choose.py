"""Which engine counts this: the one place that chooses between the C kernel and the explainable path.

Corpus BLEU is a function of a (segments x statistics) matrix (``stats``). Two engines compute that matrix,
and the tests hold them equal to each other and to sacrebleu:

* **the explainable path** (``stats.corpus_rows``): each line tokenized by ``tokenizers.preprocess`` and
  its n-grams counted with ``Counter``s against the references' Max_Ref_Count, as the paper describes and
  sacrebleu does. Pure Python, no numpy.
* **the C kernel** (``bleu_core/engine/_kernel.c``, compiled by ``pip install``; loaded by ``accel``). 13a's
  four regular expressions become byte loops over each line's UTF-8, tokens are split at exactly
  ``str.split()``'s whitespace and mapped to int32 ids through one hash table; each segment's candidate
  n-grams go into a small hash table and every reference's n-grams are looked up in it, giving the
  clipped counts directly. Any line is accepted (NUL, newlines, lone surrogates). Other tokenizers run in
  Python; the kernel splits their output.

:func:`choose` is the rule, and the only place that asks whether the kernel is built: the kernel when it is
(and not switched off with ``BLEU_CORE_KERNEL=0``), except for small corpora under ``auto`` (fewer than
``SMALL_CORPUS`` segments *and* fewer than ``SMALL_CHARS`` characters), which are counted line by line (the
CLI then never imports numpy); a few long lines are not small. Counting (``counting.count``,
``references.ReferenceSet``), tokenizing (``counting.tokenize_corpus``) and resampling
(``significance.resample.drawer``, ``significance.trials``) all ask it. Both engines accept every input, so there
is no fallback to handle: the choice is made once, before counting.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final, Literal

from bleu_core.errors import InputError

from .accel import kernel_available

__all__ = ["ENGINES", "SMALL_CHARS", "SMALL_CORPUS", "Engine", "choose", "corpus_chars"]

Engine = Literal["auto", "kernel", "explain"]
ENGINES: Final = ("auto", "kernel", "explain")
SMALL_CORPUS: Final = 500  # under ``auto``, fewer segments (and fewer than SMALL_CHARS) are counted line by line
SMALL_CHARS: Final = 200_000  # ... unless their lines hold this many characters (a 50 MB single line goes to C)


def choose(
    engine: str = "auto", n_segments: int | None = None, n_chars: int | None = None
) -> Literal["kernel", "explain"]:
    """The engine that counts, tokenizes and resamples: ``engine`` resolved against what is built and the size.

    Args:
        engine: ``auto``, ``kernel`` or ``explain``.
        n_segments: the corpus's lines, for ``auto`` (``None``: size does not matter, e.g. a reused
            :class:`ReferenceSet` or resampling, where the kernel is used whenever it is built).
        n_chars: the characters in those lines (:func:`corpus_chars`); ``None``: unknown, the lines decide.

    Raises:
        InputError: an unknown engine, or ``kernel`` when it is not built.

    Example:
        >>> choose("explain"), choose("auto", 3), choose("auto", 3, n_chars=60)
        ('explain', 'explain', 'explain')
    """
    if engine == "auto":
        small = n_segments is not None and n_segments < SMALL_CORPUS and (n_chars or 0) < SMALL_CHARS
        return "kernel" if kernel_available() and not small else "explain"
    if engine == "kernel":
        if not kernel_available():
            raise InputError("the C kernel is not built (reinstall with a C compiler) or is switched off", "engine")
        return "kernel"
    if engine == "explain":
        return "explain"
    raise InputError(f"unknown engine {engine!r} (known: {', '.join(ENGINES)})", "engine")


def corpus_chars(*streams: Iterable[str | None]) -> int:
    """The characters in every line of ``streams`` (``None``: a missing line, 0), the size :func:`choose` reads.

    Example:
        >>> corpus_chars(["the cat", "a"], ["the cat", None])
        15
    """
    return sum(len(line) for stream in streams for line in stream if line is not None)
