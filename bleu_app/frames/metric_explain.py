"""chrF and TER explained on one sentence, as tables (issue 33): chrF's per-order counts against the chosen
reference, and TER's edit script, one operation a row (``bleu_core.teaching.chrf_explain``,
``bleu_core.metrics.ter_edits``)."""

from __future__ import annotations

from typing import Final

import pandas as pd

from bleu_core.metrics.ter_edits import TerEdits
from bleu_core.teaching.chrf_explain import ChrfExplanation

__all__ = ["EDIT_WORDS", "chrf_order_frame", "ter_edit_frame"]

EDIT_WORDS: Final = {
    "match": "match (no edit)",
    "sub": "substitution",
    "ins": "insertion",
    "del": "deletion",
    "shift": "shift (a block moved)",
}


def chrf_order_frame(e: ChrfExplanation) -> pd.DataFrame:
    """One row per order (characters, then words): the hypothesis's, the reference's and the matched n-grams,
    precision, recall and F-beta (percent), and a few matched n-grams.

    Example:
        >>> from bleu_core.teaching.chrf_explain import explain_chrf
        >>> chrf_order_frame(explain_chrf("ab", ["abc"]))[["candidate", "reference", "matched"]].values.tolist()[0]
        [2, 3, 2]
    """
    beta = e.metric.beta
    rows = [
        {
            "n-grams": "characters" if o.kind == "char" else "words",
            "n": o.n,
            "candidate": o.hyp,
            "reference": o.ref,
            "matched": o.matches,
            "precision %": 100 * o.precision,
            "recall %": 100 * o.recall,
            f"F{beta:g} %": 100 * o.f(beta),
            "some matched n-grams": " · ".join(repr(g)[1:-1] for g, _ in o.matched[:8]),
        }
        for o in e.orders
    ]
    return pd.DataFrame(rows)


def ter_edit_frame(e: TerEdits) -> pd.DataFrame:
    """TER's edit script, one operation a row: what it does, the candidate's and the reference's words, and
    whether it counts (every operation but a match).

    Example:
        >>> from bleu_core.metrics.ter_edits import ter_edits
        >>> ter_edit_frame(ter_edits("b a", "a b"))["operation"].tolist()
        ['shift (a block moved)', 'match (no edit)', 'match (no edit)']
    """
    rows = []
    for op in e.ops:
        where = f"{op.hyp_pos} → {op.to_pos}" if op.kind == "shift" else ""
        rows.append(
            {
                "operation": EDIT_WORDS[op.kind],
                "candidate words": " ".join(op.hyp_words),
                "reference word": " ".join(op.ref_words),
                "moved (word positions)": where,
                "counts": op.is_edit,
            }
        )
    return pd.DataFrame(
        rows, columns=["operation", "candidate words", "reference word", "moved (word positions)", "counts"]
    )
