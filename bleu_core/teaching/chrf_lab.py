"""A chrF misimplementation for the lecture's prediction round (issue 33): torchmetrics before its pull request
#3481 (issue #3480) kept a sentence's reference n-grams only when the sentence matched something.

sacreBLEU picks each sentence's best reference starting from ``best_f_score = -1.0``, so the first reference is
always kept: a sentence that shares nothing with its references still adds its reference n-grams to the corpus's
recall denominators. The misimplementation started from 0.0 and recorded a reference only when its F-score was
above it; a sentence with no shared n-gram kept zero-filled statistics for its reference while its hypothesis
n-grams were still added. Its corpus recall ignores that sentence, the corpus score rises, and a system with a
garbage sentence can outrank a better one, or gain by replacing a partly correct sentence with garbage.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

import numpy as np

from bleu_core.metrics.chrf import Chrf

__all__ = ["ZERO_OVERLAP", "ChrfLab", "ChrfPair", "drop_unmatched_references", "score_both"]


def drop_unmatched_references(stats: np.ndarray) -> np.ndarray:
    """chrF statistics (rows of ``[hyp, ref, match]`` per order) with the reference counts of every row that matches
    nothing set to 0: what the misimplementation sums.

    Example:
        >>> drop_unmatched_references(np.array([[3, 4, 0, 2, 3, 0], [3, 4, 1, 2, 3, 0]])).tolist()
        [[3, 0, 0, 2, 0, 0], [3, 4, 1, 2, 3, 0]]
    """
    out = np.array(stats, dtype=np.int64, copy=True)
    unmatched = ~out[:, 2::3].any(axis=1)
    out[np.ix_(unmatched, np.arange(1, out.shape[1], 3))] = 0
    return out


@dataclass(frozen=True, slots=True)
class ChrfPair:
    """One system's corpus chrF, right (sacreBLEU's) and as the misimplementation computes it (0-100)."""

    name: str
    right: float
    dropped: float
    unmatched: int


def score_both(
    systems: Sequence[tuple[str, Sequence[str]]], references: Sequence[Sequence[str]], metric: Chrf | None = None
) -> tuple[ChrfPair, ...]:
    """Each system's corpus chrF, right and with unmatched sentences' references dropped.

    Example:
        >>> [(p.name, round(p.right, 2), round(p.dropped, 2)) for p in score_both(ZERO_OVERLAP.systems,
        ...     [list(ZERO_OVERLAP.references)])]
        [('A', 87.76, 87.76), ('B', 71.58, 98.54), ('B, third sentence partly right', 83.36, 83.36)]
    """
    m = metric or Chrf()
    prepared = m.prepare(references)
    out = []
    for name, hyps in systems:
        stats = prepared.stats(list(hyps))
        dropped = drop_unmatched_references(stats)
        unmatched = int((~stats[:, 2::3].any(axis=1)).sum())
        out.append(ChrfPair(name, m.score_matrix(stats, 1).score, m.score_matrix(dropped, 1).score, unmatched))
    return tuple(out)


@dataclass(frozen=True, slots=True)
class ChrfLab:
    """The round's corpus: references and systems (made up for the lecture)."""

    references: tuple[str, ...]
    systems: tuple[tuple[str, tuple[str, ...]], ...]


_REFS: Final = (
    "the council approved the budget",
    "heavy rain closed the roads",
    "the museum opens next spring",
)
ZERO_OVERLAP: Final = ChrfLab(
    _REFS,
    (
        (
            "A",
            (
                "the council approved a budget",
                "heavy rains closed the roads",
                "the museum opens next spring",
            ),
        ),
        ("B", (_REFS[0], _REFS[1], "zzz kvb")),
        ("B, third sentence partly right", (_REFS[0], _REFS[1], "a museum opens")),
    ),
)
"""System A is close everywhere (its third sentence is its reference); B is perfect on two sentences and garbage
("zzz kvb": not one character of its reference) on the third; the last row is B with a partly right third
sentence."""
