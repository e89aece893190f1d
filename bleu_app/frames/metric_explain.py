"""chrF and TER explained on one sentence, as tables (issue 33): chrF's per-order counts against the chosen
reference, and TER's edit script, one operation a row (``bleu_core.teaching.chrf_explain``,
``bleu_core.metrics.ter_edits``)."""

from __future__ import annotations

import html
from collections import Counter
from typing import Final

import pandas as pd

from bleu_core.metrics.ter_edits import TerEdits
from bleu_core.teaching.chrf_explain import ChrfExplanation

__all__ = ["EDIT_WORDS", "char_matches", "chrf_order_frame", "marked_html", "ter_edit_frame"]

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


def char_matches(
    hyp: str, ref: str, n: int, *, whitespace: bool = False, lowercase: bool = False
) -> tuple[list[bool], list[bool], int]:
    """Which characters of ``hyp`` and of ``ref`` lie in a matched character n-gram of order ``n``, as chrF counts
    them: whitespace removed (unless ``whitespace``), each n-gram matched min(candidate count, reference count)
    times, its first occurrences on each side marked; and how many n-gram matches that is (chrF's ``matches`` for
    the order).

    Example:
        >>> h, r, k = char_matches("the cats", "a cat", 3)
        >>> "".join("^" if x else "." for x in h), "".join("^" if x else "." for x in r), k
        ('....^^^.', '..^^^', 1)
    """

    def grams(text: str) -> tuple[list[int], list[str]]:
        kept = [i for i, c in enumerate(text) if whitespace or not c.isspace()]
        chars = "".join(text[i] for i in kept)
        chars = chars.lower() if lowercase else chars
        return kept, [chars[j : j + n] for j in range(len(chars) - n + 1)]

    (h_at, h_grams), (r_at, r_grams) = grams(hyp), grams(ref)
    allowed = Counter(h_grams) & Counter(r_grams)  # min of the counts: the clipped matches
    out = []
    for at, found, text in ((h_at, h_grams, hyp), (r_at, r_grams, ref)):
        left, marked = Counter(allowed), [False] * len(text)
        for j, g in enumerate(found):
            if left[g] > 0:
                left[g] -= 1
                for i in at[j : j + n]:
                    marked[i] = True
        out.append(marked)
    return out[0], out[1], sum(allowed.values())


def marked_html(text: str, marked: list[bool]) -> str:
    """``text`` as HTML (escaped) with its marked characters in ``<mark>``.

    Example:
        >>> marked_html("a<b", [True, True, False])
        '<mark>a&lt;</mark>b'
    """
    out, run = [], ""
    for ch, on in zip(text, marked, strict=True):
        if on:
            run += ch
            continue
        if run:
            out.append(f"<mark>{html.escape(run)}</mark>")
            run = ""
        out.append(html.escape(ch))
    if run:
        out.append(f"<mark>{html.escape(run)}</mark>")
    return "".join(out)
