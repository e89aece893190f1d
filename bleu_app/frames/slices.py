"""Slices and diagnostics for the corpus and compare pages: a corpus cut to the lines an expression chooses (every
statistic of the page is then computed on it; the slicing is the core's ``slice_corpus``, as the CLI's), and the
diagnostics' flags as tables."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Final

import pandas as pd

from bleu_core.data.corpus import Corpus
from bleu_core.data.diagnostics import FLAGS, Diagnostics, diagnose
from bleu_core.data.documents import Documents
from bleu_core.data.slices import SMALL_SLICE, Slice, SlicedCorpus, line_tokens, slice_corpus

__all__ = [
    "FLAG",
    "FLAGGED",
    "LINE",
    "REASON",
    "SMALL_SLICE",
    "SYSTEM",
    "choose",
    "corpus_diagnostics",
    "counts_frame",
    "cut",
    "document_choices",
    "documents_line",
    "flags_frame",
    "tokens",
]

SYSTEM: Final = "system"
FLAG: Final = "flag"
LINE: Final = "line"
REASON: Final = "reason"
FLAGGED: Final = "lines flagged"


def tokens(tokenize: str) -> Callable[[str], list[str]]:
    """A line -> its tokens under a named tokenizer (lengths in a slice, n-grams in the diagnostics)."""
    return line_tokens(tokenize)


def corpus_diagnostics(corpus: Corpus, tokenize: str) -> Diagnostics:
    """Every system's flags (with the corpus's source, when it has one)."""
    source = list(corpus.source.lines) if corpus.source is not None else None
    return diagnose({s.name: s.lines for s in corpus.systems}, corpus.ref_streams, source, tokens(tokenize))


def choose(corpus: Corpus, where: str, tokenize: str, flags: Callable[[], Diagnostics]) -> Slice:
    """The lines of ``corpus`` that ``where`` chooses (``flags`` is called only when the expression needs them).

    Raises:
        InputError: a bad expression.
    """
    return slice_corpus(corpus, where, tokenize, diagnostics=flags).chosen


def cut(corpus: Corpus, chosen: Slice) -> Corpus:
    """The corpus with only the chosen lines (names, human scores and warnings kept; named after the slice)."""
    return SlicedCorpus(corpus, chosen).corpus


def _quoted(value: str) -> str:
    return '"' + value.replace('"', '\\"') + '"'


def _present(values: Sequence[str | None]) -> list[str]:
    return sorted({v for v in values if v is not None})


def document_choices(documents: Documents | None) -> list[str]:
    """The slice expressions a test set's documents offer: each original language and domain present, then each
    document (in order); none without documents.

    Example:
        >>> d = Documents(("a", "a", 'b"c'), ("en", "en", "de"), ("news", "news", None))
        >>> document_choices(d)
        ['origlang == "de"', 'origlang == "en"', 'domain == "news"', 'doc == "a"', 'doc == "b\\\\"c"']
    """
    if documents is None:
        return []
    out = [f"origlang == {_quoted(v)}" for v in _present(documents.origlangs)]
    out += [f"domain == {_quoted(v)}" for v in _present(documents.domains)]
    return out + [f"doc == {_quoted(d)}" for d in documents.names]


def documents_line(documents: Documents) -> str:
    """One line: how many documents, and the original languages and domains present.

    Example:
        >>> documents_line(Documents(("a", "b"), ("en", "de"), (None, None)))
        '2 documents; original languages: de, en; no domains'
    """
    n = len(documents.names)
    langs, domains = _present(documents.origlangs), _present(documents.domains)
    line = f"{n} document{'' if n == 1 else 's'}; "
    line += f"original languages: {', '.join(langs)}; " if langs else "no original languages; "
    return line + (f"domains: {', '.join(domains)}" if domains else "no domains")


def counts_frame(diagnostics: Diagnostics) -> pd.DataFrame:
    """One row per system: how many lines each flag has, and the lines with any flag."""
    rows = [{SYSTEM: name, **d.counts(), FLAGGED: len(d.flagged())} for name, d in diagnostics.systems.items()]
    return pd.DataFrame(rows, columns=[SYSTEM, *FLAGS, FLAGGED])


def flags_frame(diagnostics: Diagnostics, system: str, kinds: Sequence[str] = FLAGS) -> pd.DataFrame:
    """One row per (line, flag) of one system: its 1-based line, the flag and the reason, by line."""
    d = diagnostics.systems[system]
    rows = [{LINE: line, FLAG: kind, REASON: reason} for kind in kinds for line, reason in d.flags[kind]]
    return pd.DataFrame(rows, columns=[LINE, FLAG, REASON]).sort_values([LINE, FLAG], kind="stable", ignore_index=True)
