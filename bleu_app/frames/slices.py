"""Slices and diagnostics for the corpus and compare pages: a corpus cut to the lines an expression chooses (every
statistic of the page is then computed on it), and the diagnostics' flags as tables."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Final

import pandas as pd

from bleu_core.data.corpus import Corpus, System, TextFile
from bleu_core.data.diagnostics import FLAGS, Diagnostics, diagnose
from bleu_core.data.slices import Slice, SliceContext, select
from bleu_core.engine.tokenizers import get_tokenizer

SYSTEM: Final = "system"
FLAG: Final = "flag"
LINE: Final = "line"
REASON: Final = "reason"
FLAGGED: Final = "lines flagged"
SMALL_SLICE: Final = 100
"""A slice of fewer lines is said to be too small for its intervals and paired tests (as the CLI says)."""


def tokens(tokenize: str) -> Callable[[str], list[str]]:
    """A line -> its tokens under a named tokenizer (lengths in a slice, n-grams in the diagnostics)."""
    tok = get_tokenizer(tokenize)
    return lambda line: tok(line.rstrip()).split()


def corpus_diagnostics(corpus: Corpus, tokenize: str) -> Diagnostics:
    """Every system's flags (with the corpus's source, when it has one)."""
    source = list(corpus.source.lines) if corpus.source is not None else None
    return diagnose({s.name: s.lines for s in corpus.systems}, corpus.ref_streams, source, tokens(tokenize))


def choose(corpus: Corpus, where: str, tokenize: str, flags: Callable[[], Diagnostics]) -> Slice:
    """The lines of ``corpus`` that ``where`` chooses (``flags`` is called only when the expression needs them).

    Raises:
        InputError: a bad expression.
    """
    context = SliceContext(
        corpus.ref_streams,
        {s.name: s.lines for s in corpus.systems},
        corpus.source.lines if corpus.source is not None else None,
        tokenize=tokens(tokenize),
        flags=lambda name, kind: flags().lines(name, kind),
    )
    return select(where, context)


def cut(corpus: Corpus, chosen: Slice) -> Corpus:
    """The corpus with only the chosen lines (names, human scores and warnings kept; named after the slice)."""

    def keep(lines: Sequence[str]) -> tuple[str, ...]:
        return tuple(lines[i] for i in chosen.lines)

    return Corpus(
        f"{corpus.name} · {chosen.label()}",
        tuple(TextFile(r.name, keep(r.lines)) for r in corpus.references),
        tuple(System(s.name, keep(s.lines), s.file) for s in corpus.systems),
        TextFile(corpus.source.name, keep(corpus.source.lines)) if corpus.source is not None else None,
        corpus.human,
        corpus.human_label,
        corpus.warnings,
    )


def counts_frame(diagnostics: Diagnostics) -> pd.DataFrame:
    """One row per system: how many lines each flag has, and the lines with any flag."""
    rows = [{SYSTEM: name, **d.counts(), FLAGGED: len(d.flagged())} for name, d in diagnostics.systems.items()]
    return pd.DataFrame(rows, columns=[SYSTEM, *FLAGS, FLAGGED])


def flags_frame(diagnostics: Diagnostics, system: str, kinds: Sequence[str] = FLAGS) -> pd.DataFrame:
    """One row per (line, flag) of one system: its 1-based line, the flag and the reason, by line."""
    d = diagnostics.systems[system]
    rows = [{LINE: line, FLAG: kind, REASON: reason} for kind in kinds for line, reason in d.flags[kind]]
    return pd.DataFrame(rows, columns=[LINE, FLAG, REASON]).sort_values([LINE, FLAG], kind="stable", ignore_index=True)
