"""``--where``, ``--source`` and the language warning of ``score``, ``compare``, ``report`` and ``diagnose``.

A command reads its files and then calls :func:`narrow`: the language warning goes to stderr, and with ``--where``
every file (references, systems, source) keeps exactly the lines the expression chooses, so that every number the
command prints is computed on those lines only. The slicing itself is the core's ``slice_corpus``, the one the
pages call (and ``SMALL_SLICE`` is its). Importing this module imports no numpy.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from bleu_core.data.slices import SMALL_SLICE
from bleu_core.errors import InputError

from .files import read_source

if TYPE_CHECKING:
    from bleu_core.config import BleuConfig
    from bleu_core.data.corpus import Corpus, TextFile
    from bleu_core.data.documents import Documents
    from bleu_core.data.slices import Slice

__all__ = ["SMALL_SLICE", "Narrowed", "as_corpus", "narrow", "warn"]


def warn(message: str) -> None:
    """One warning line on stderr."""
    print(f"bleu-explorer: warning: {message}", file=sys.stderr)


@dataclass(frozen=True)
class Narrowed:
    """The files a command scores, the slice that chose their lines (None without ``--where``) and their
    documents (a WMT file's, cut to the slice; None for text files)."""

    references: list[TextFile]
    systems: list[TextFile]
    source: TextFile | None
    slice: Slice | None
    documents: Documents | None = None

    def label(self) -> str | None:
        return self.slice.label() if self.slice is not None else None


def as_corpus(references: Sequence[TextFile], systems: Sequence[TextFile], source: TextFile | None) -> Corpus:
    """The files as a corpus whose systems are named by their files' base names (what ``hyp[NAME]`` and the output
    call them), each keeping its path."""
    from bleu_core.data.corpus import Corpus, System

    named = tuple(System(os.path.basename(f.name), f.lines, f.name) for f in systems)
    return Corpus("", tuple(references), named, source)


def narrow(
    args: argparse.Namespace,
    config: BleuConfig,
    references: Sequence[TextFile],
    systems: Sequence[TextFile],
    source: TextFile | None = None,
    documents: Documents | None = None,
) -> Narrowed:
    """Warn about the tokenizer for CJK/Thai references, then keep the lines ``args.where`` chooses.

    Raises:
        InputError: a bad expression (before anything is computed), or an expression that chooses no line.
    """
    from bleu_core.data.languages import tokenizer_warning

    if source is None:
        source = read_source(getattr(args, "source", None), len(references[0].lines))
    elif len(source.lines) != len(references[0].lines):
        raise InputError(f"has {len(source.lines)} lines, the references have {len(references[0].lines)}", source.name)
    message = tokenizer_warning((line for f in references for line in f.lines), config.tokenize)
    if message:
        warn(message)
    where = getattr(args, "where", None)
    if where is None:
        return Narrowed(list(references), list(systems), source, None, documents)
    from bleu_core.data.corpus import TextFile
    from bleu_core.data.slices import slice_corpus

    sliced = slice_corpus(as_corpus(references, systems, source), where, config.tokenize, documents=documents)
    chosen = sliced.chosen
    if not chosen.lines:
        raise InputError(f"chooses none of the {chosen.total} lines: nothing to score", "--where")
    if sliced.small:
        warn(
            f"the slice has {len(chosen.lines)} of {chosen.total} lines: too few for reliable intervals and "
            f"paired tests (fewer than {SMALL_SLICE})"
        )
    cut = sliced.corpus
    kept = documents.take(chosen.lines) if documents is not None else None
    return Narrowed(list(cut.references), [TextFile(s.file, s.lines) for s in cut.systems], cut.source, chosen, kept)
