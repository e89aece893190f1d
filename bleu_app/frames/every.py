"""``bleu_core.every_bleu`` results as a tidy DataFrame for the corpus page's "under every BLEU" section."""

from __future__ import annotations

from typing import Final

import pandas as pd

from bleu_core import EveryBleu

SCORE: Final = "BLEU"
DIFFERENCE: Final = "vs sacreBLEU default"
LABEL: Final = "BLEU computed as"
KIND: Final = "kind"
SIGNATURE: Final = "signature"
WHO: Final = "who computes it this way"
CHANGES: Final = "what differs from the default"
KEY: Final = "key"
COLUMNS: Final = (SCORE, DIFFERENCE, LABEL, KIND, SIGNATURE, WHO, CHANGES, KEY)

# the row groups of bleu_core.every, as the page names them (also the chart's legend, in this order)
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


def spread_sentence(result: EveryBleu) -> str:
    """The section's headline: the range of the rows around sacreBLEU's default, in one sentence."""
    lo, hi = result.lowest, result.highest
    return (
        f"The same {result.n_segments} segments score from **{lo.score:.2f}** ({lo.label}) to "
        f"**{hi.score:.2f}** ({hi.label}): a spread of **{result.spread:.2f} BLEU points** around sacreBLEU's "
        f"default of **{result.default.score:.2f}**."
    )
