"""One system's statistics and a corpus's tokens, counted by the engine :func:`~.choose.choose` picks."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from bleu_core.config import BleuConfig

from .accel import kernel, kernel_input
from .choose import choose, corpus_chars
from .references import ReferenceSet
from .stats import corpus_rows, prepare_references
from .tokenizers import preprocessor

if TYPE_CHECKING:
    import numpy as np

__all__ = ["count", "tokenize_corpus"]


def count(
    hypotheses: Sequence[str],
    streams: Sequence[Sequence[str | None]],
    config: BleuConfig,
    engine: str = "auto",
) -> tuple[np.ndarray | list[tuple[int, ...]], int]:
    """One system's per-segment statistics and its references per segment (``-1``: it varies).

    The kernel gives an int64 array; the explainable path gives a list of rows (no numpy). Inputs are
    assumed checked (``stats.check_streams``). :func:`choose` decides by lines and characters, so one long
    line is counted in C.

    Example:
        >>> m, nrefs = count(["the cat sat"], [["the cat sat down"]], BleuConfig(max_ngram_order=2), "explain")
        >>> m, nrefs
        ([(3, 4, 3, 2, 3, 2)], 1)
    """
    if choose(engine, len(hypotheses), corpus_chars(hypotheses, *streams)) == "kernel":
        refs = ReferenceSet.from_config(streams, config, backend="kernel")
        return refs.stats(hypotheses, config.max_ngram_order), refs.nrefs
    infos, nrefs = prepare_references(streams, config)
    return corpus_rows(hypotheses, infos, config), nrefs


def tokenize_corpus(
    lines: Sequence[str], tokenize: str = "13a", *, lowercase: bool = False, engine: str = "auto"
) -> list[list[str]]:
    """The tokens of every line, as ``tokenizers.preprocess`` gives them line by line; in C (13a and the split)
    when :func:`choose` picks the kernel.

    Example:
        >>> tokenize_corpus(["It is a guide.", "Party!"], "paper", lowercase=True)
        [['it', 'is', 'a', 'guide'], ['party']]
    """
    prep = preprocessor(tokenize, lowercase=lowercase)
    if choose(engine, len(lines), corpus_chars(lines)) == "explain":
        return [list(prep(line)) for line in lines]
    assert kernel is not None
    tokens: list[list[str]] = kernel.tokenize(*kernel_input(lines, prep))  # no None in, none out
    return tokens
