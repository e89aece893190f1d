"""Clipping as a process (issue 34, the review's "a reference word used up"): the candidate's n-grams counted one
at a time, left to right, each using up a copy in the references, until a word's copies are all used and the next
one of it is clipped.

Section 2.1 of the paper says it so: "a reference word should be considered exhausted after a matching candidate
word is identified", and footnote 2 defines the number: "Count_clip = min(Count, Max_Ref_Count)". Reading left to
right is only a way to show it (the paper's matches "are position-independent", section 2): the j-th copy of an
n-gram is credited when some reference holds at least j copies of it, that is when j <= Max_Ref_Count, so after the
last n-gram every count equals the paper's table, in any order of reading.

Each counted n-gram uses the next unused copy in every reference that still has one (a reference's copies are its
own; Max_Ref_Count is the most copies any single reference has), and is clipped when every reference's copies are
used up.

Example (the paper's Example 2, lowercased):
    >>> from bleu_core.config import BleuConfig
    >>> from bleu_core.teaching.explain import explain_segment
    >>> e = explain_segment("the the the the the the the", ["The cat is on the mat.", "There is a cat on the mat."],
    ...                     BleuConfig.paper())
    >>> steps = clip_steps(e, 1)
    >>> [s.status for s in steps[1:]]
    ['matched', 'matched', 'clipped', 'clipped', 'clipped', 'clipped', 'clipped']
    >>> steps[1].used, steps[2].used            # the first "the" of both references, then Reference 1's second
    (((0,), (5,)), ((0, 4), (5,)))
    >>> steps[-1].matches, steps[-1].counted    # the paper's 2/7
    (2, 7)
"""

from __future__ import annotations

from dataclasses import dataclass

from bleu_core.engine.ngrams import Ngram
from bleu_core.teaching.explain import ClipRow, SegmentExplanation, Status

__all__ = ["ClipStep", "clip_steps"]


@dataclass(frozen=True, slots=True)
class ClipStep:
    """The clipping table after the first ``counted`` candidate n-grams of one order, read left to right.

    Attributes:
        counted: how many of the candidate's n-grams are counted (0 to all of them).
        statuses: each counted n-gram's status, in text order (matched or clipped once counted; unmatched when in no
            reference).
        status: the status of the n-gram counted last (None before the first).
        start: where the n-gram counted last starts in the candidate (None before the first).
        used: per reference, the starts of its copies used up so far (sorted).
        took: per reference, the start of the copy the last n-gram used (None: it used none there).
        rows: the clipping table of the n-grams counted so far (Count and Count_clip so far; each reference's count
            and Max_Ref_Count are the whole reference's), in order of first appearance.
        matches: the sum of Count_clip so far (the numerator of p_n so far).
    """

    counted: int
    statuses: tuple[Status, ...]
    status: Status | None
    start: int | None
    used: tuple[tuple[int, ...], ...]
    took: tuple[int | None, ...]
    rows: tuple[ClipRow, ...]
    matches: int


def clip_steps(expl: SegmentExplanation, n: int = 1) -> list[ClipStep]:
    """Every step of order ``n``'s clipping, from none counted to all (``len(result) == total + 1``); the last
    step's rows and matches are the explanation's own (``expl.orders[n - 1]``). An order the explanation does not
    have gives the one empty step."""
    empty = tuple(() for _ in expl.ref_tokens)
    steps = [ClipStep(0, (), None, None, empty, tuple(None for _ in expl.ref_tokens), (), 0)]
    if not 1 <= n <= len(expl.orders):
        return steps
    order = expl.orders[n - 1]
    table = {row.ngram: row for row in order.rows}
    seen: dict[Ngram, int] = {}  # copies of each n-gram counted so far
    used: list[list[int]] = [[] for _ in expl.ref_tokens]
    statuses: list[Status] = []
    matches = 0
    for occ in order.occurrences:  # in text order
        j = seen.get(occ.ngram, 0)  # this is copy j + 1 of its n-gram
        seen[occ.ngram] = j + 1
        took = tuple(positions[j] if j < len(positions) else None for positions in occ.ref_positions)
        for k, p in enumerate(took):
            if p is not None:
                used[k].append(p)
        status: Status = "unmatched" if not occ.refs else ("matched" if any(p is not None for p in took) else "clipped")
        matches += status == "matched"
        statuses.append(status)
        rows = tuple(
            ClipRow(g, c, table[g].ref_counts, table[g].max_ref_count, min(c, table[g].max_ref_count))
            for g, c in seen.items()
        )
        steps.append(
            ClipStep(
                len(statuses),
                tuple(statuses),
                status,
                occ.start,
                tuple(tuple(sorted(u)) for u in used),
                took,
                rows,
                matches,
            )
        )
    return steps
