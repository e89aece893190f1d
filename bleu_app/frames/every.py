"""``bleu_core.every_bleu`` results as a tidy DataFrame for the corpus page's "under every BLEU" section."""

from __future__ import annotations

from typing import Final

import pandas as pd

from bleu_core.teaching.every import EveryBleu, EveryBleuRow

SCORE: Final = "BLEU"
DIFFERENCE: Final = "vs sacreBLEU default"
LABEL: Final = "BLEU computed as"
KIND: Final = "kind"
SIGNATURE: Final = "signature"
WHO: Final = "who computes it this way"
CHANGES: Final = "what differs from the default"
KEY: Final = "key"
COLUMNS: Final = (SCORE, DIFFERENCE, LABEL, KIND, SIGNATURE, WHO, CHANGES, KEY)

# the row groups of bleu_core.teaching.every, as the page names them (also the chart's legend, in this order)
KINDS: Final[dict[str, str]] = {
    "default": "sacreBLEU default",
    "tokenizer": "sacreBLEU tokenizer",
    "case": "sacreBLEU lowercase",
    "smoothing": "sacreBLEU smoothing",
    "misimplementation": "misimplementation",
    "nltk": "NLTK corpus_bleu",
}


def every_bleu_frame(result: EveryBleu) -> pd.DataFrame:
    """One row per BLEU, in ``result``'s order (sacreBLEU's default first); columns ``COLUMNS``."""
    rows = [
        {
            SCORE: r.score,
            DIFFERENCE: r.difference,
            LABEL: r.label,
            KIND: KINDS[r.group],
            SIGNATURE: r.signature,
            WHO: r.who,
            CHANGES: f"{r.changes} ({r.detail})" if r.detail else r.changes,
            KEY: r.key,
        }
        for r in result.rows
    ]
    return pd.DataFrame(rows, columns=list(COLUMNS))


def word_level(result: EveryBleu) -> tuple[list[EveryBleuRow], list[EveryBleuRow]]:
    """The rows split into word-level settings and character tokenization (``tok:char``: characters, not words,
    are the units, so its n-grams and its scores are another metric's)."""
    char = [r for r in result.rows if "|tok:char|" in r.signature]
    return [r for r in result.rows if r not in char], char


def spread_sentence(result: EveryBleu) -> str:
    """The section's headline: the range of the word-level rows around sacreBLEU's default, in one sentence;
    character tokenization in a second one (its spread would be a different unit's, review item 17)."""
    words, char = word_level(result)
    lo, hi = min(words, key=lambda r: r.score), max(words, key=lambda r: r.score)
    text = (
        f"The same {result.n_segments} segments score from **{lo.score:.2f}** ({lo.label}) to "
        f"**{hi.score:.2f}** ({hi.label}) over word-level settings: a spread of **{hi.score - lo.score:.2f} BLEU "
        f"points** around sacreBLEU's default of **{result.default.score:.2f}**."
    )
    if char:
        c_lo, c_hi = min(r.score for r in char), max(r.score for r in char)
        text += (
            f" Character tokenization (tok char) counts characters, not words: another unit, left out of that "
            f"spread; it gives {c_lo:.2f} to {c_hi:.2f}."
        )
    return text
