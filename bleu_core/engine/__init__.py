"""The engine: tokenizers, n-grams and per-segment statistics, counted in the C kernel or on the explainable path.

``choose`` is the one place that picks between them (:mod:`.choose`); :class:`ReferenceSet` holds references
counted once for any number of systems (:mod:`.references`); :func:`count` and :func:`tokenize_corpus` count and
tokenize one corpus (:mod:`.counting`); :class:`MatchArrays` and :class:`NgramDiff` are the credited n-grams as
arrays (:mod:`.arrays`). The kernel itself is loaded once, by :mod:`.accel`.
"""

from __future__ import annotations

from .arrays import MatchArrays, NgramDiff
from .choose import Engine, choose, corpus_chars
from .counting import count, tokenize_corpus
from .references import Backend, Encoded, ReferenceSet

__all__ = [
    "Backend",
    "Encoded",
    "Engine",
    "MatchArrays",
    "NgramDiff",
    "ReferenceSet",
    "choose",
    "corpus_chars",
    "count",
    "tokenize_corpus",
]
