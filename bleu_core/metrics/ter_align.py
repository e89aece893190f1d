"""TER's edit count as sacreBLEU 2.6.0 finds it (``sacrebleu/metrics/lib_ter.py``), in Python: the C kernel's oracle.

sacreBLEU's TER is tercom's greedy search: repeat "find the block shift that lowers the edit distance the most,
apply it" until none does, then add the word-level edit distance of the shifted hypothesis. Every choice below
is sacreBLEU's, because each one changes counts on real text:

* **The beam edit distance** (``BeamEditDistance``): row ``i`` of the Levenshtein matrix (hypothesis word ``i``)
  is computed only for columns within ``beam`` of the pseudo-diagonal ``floor(i * |ref| / |hyp|)`` (``beam`` is
  ``_BEAM_WIDTH`` = 25, widened to ``ceil(ratio / 2 + 25)`` when the reference is over 50 times longer); the
  last row is computed to the end. Cells outside the band are infinite, so on very unequal or very reordered
  pairs the "distance" is larger than Levenshtein's, and TER counts that. Costs are 1 for insertion, deletion
  and substitution; ties go to match/substitution, then deletion, then insertion (sacreBLEU's order, chosen so
  that the flipped trace aligns as tercom's). sacreBLEU caches rows by hypothesis prefix; a row depends only on
  the prefix (every hypothesis tried has the same length), so here a candidate reuses the rows of the prefix it
  shares with the current hypothesis: the same numbers, with no cache to bound.
* **The shift candidates** (``_find_shifted_pairs``, ``_shift``): every hypothesis block of 1 to
  ``MAX_SHIFT_SIZE`` (10) words equal to a reference block starting at most ``MAX_SHIFT_DIST`` (50) positions
  away, in the order hypothesis start, reference start, length; skipped when the hypothesis block is all
  matched, the reference block is all matched, or the reference start is aligned inside the block. Each
  target (before the reference block's start and after each of its words, as aligned; repeats skipped) is
  tried, and the best is the largest (gain, length, -hypothesis start, -target), the first on a tie.
* **The bound** (``_MAX_SHIFT_CANDIDATES``): after 1,000 candidates in all (over every round of one
  hypothesis-reference pair) the search stops, and the round that reached 1,000 is not applied even if it
  found a gain. That bound is sacreBLEU's, and it is what keeps a 2,000-word line finite; nothing else is cut.

``num_edits = shifts + edit distance``; an empty reference counts every hypothesis word (``|hyp|``, no search).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final, TypeVar

__all__ = [
    "BEAM_WIDTH",
    "MAX_SHIFT_CANDIDATES",
    "MAX_SHIFT_DIST",
    "MAX_SHIFT_SIZE",
    "Alignment",
    "align",
    "perform_shift",
]

BEAM_WIDTH: Final = 25
MAX_SHIFT_SIZE: Final = 10
MAX_SHIFT_DIST: Final = 50
MAX_SHIFT_CANDIDATES: Final = 1000
_INF: Final = 10**16  # sacreBLEU's _INT_INFINITY: a cell outside the beam

# Ops of the hypothesis -> reference trace, sacreBLEU's letters: ' ' match, 's' substitute,
# 'd' delete a hypothesis word, 'i' insert a reference word, 'x' outside the beam.
_NOP, _SUB, _DEL, _INS, _UNDEF = " ", "s", "d", "i", "x"

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class Alignment:
    """What the search found for one hypothesis-reference pair.

    Attributes:
        num_edits: shifts plus the beam edit distance of the shifted hypothesis (sacreBLEU's count).
        shifts: the shifts applied, in order, each ``(start, length, target)`` as sacreBLEU's
            ``_perform_shift`` takes them (positions in the hypothesis as it was before that shift).
        trace: the edit operations turning the shifted hypothesis into the reference, one letter each
            (``' '`` match, ``s`` substitute, ``d`` delete a hypothesis word, ``i`` insert a reference word).
        candidates: the shift candidates evaluated (sacreBLEU stops at 1,000).
    """

    num_edits: int
    shifts: tuple[tuple[int, int, int], ...]
    trace: str
    candidates: int


def perform_shift(words: Sequence[T], start: int, length: int, target: int) -> list[T]:
    """``words`` with the block ``[start, start + length)`` moved before position ``target`` (sacreBLEU's
    ``_perform_shift``, whose third case, a target inside the block or just after it, moves the block right by
    ``target - start``).

    Example:
        >>> perform_shift("d e f g h a b c".split(), 5, 3, 0)
        ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h']
    """
    w = list(words)
    if target < start:
        return w[:target] + w[start : start + length] + w[target:start] + w[start + length :]
    if target > start + length:
        return w[:start] + w[start + length : target] + w[start : start + length] + w[target:]
    return w[:start] + w[start + length : length + target] + w[start : start + length] + w[length + target :]


class _Beam:
    """sacreBLEU's ``BeamEditDistance`` for one reference and one hypothesis length, without its cache."""

    def __init__(self, ref: Sequence[object], n_hyp: int) -> None:
        self.ref = ref
        nr = len(ref)
        ratio = nr / n_hyp if n_hyp else 1
        beam = math.ceil(ratio / 2 + BEAM_WIDTH) if ratio / 2 > BEAM_WIDTH else BEAM_WIDTH
        # the band [lo, hi) of every row: a function of the row only
        self.bands = [(0, nr + 1)]
        for i in range(1, n_hyp + 1):
            diag = math.floor(i * ratio)
            lo, hi = max(0, diag - beam), min(nr + 1, diag + beam)
            self.bands.append((lo, nr + 1 if i == n_hyp else hi))
        self.first = [(j, _INS) for j in range(nr + 1)]

    def rows(self, hyp: Sequence[object], prefix: list[list[tuple[int, str]]]) -> list[list[tuple[int, str]]]:
        """Every row of the matrix for ``hyp`` (a row: ``(cost, op)`` from column ``lo``), reusing ``prefix``
        (rows 0..k of a hypothesis that shares ``hyp``'s first k words)."""
        ref = self.ref
        rows = prefix[:] if prefix else [self.first]
        for i in range(len(rows), len(hyp) + 1):
            lo, hi = self.bands[i]
            plo = self.bands[i - 1][0]
            prev = rows[i - 1]
            pn = len(prev)
            word = hyp[i - 1]
            row: list[tuple[int, str]] = []
            for j in range(lo, hi):
                if j == 0:
                    up = prev[0][0] if plo == 0 and pn else _INF
                    row.append((up + 1, _DEL))
                    continue
                k = j - plo  # prev[k] is column j
                diag_cost = prev[k - 1][0] if 0 <= k - 1 < pn else _INF
                up_cost = prev[k][0] if 0 <= k < pn else _INF
                left_cost = row[-1][0] if row else _INF
                best, op = _INF, _UNDEF
                c = diag_cost + (0 if word == ref[j - 1] else 1)
                if best > c:
                    best, op = c, (_NOP if word == ref[j - 1] else _SUB)
                if best > up_cost + 1:
                    best, op = up_cost + 1, _DEL
                if best > left_cost + 1:
                    best, op = left_cost + 1, _INS
                row.append((best, op))
            rows.append(row)
        return rows

    def distance(self, rows: list[list[tuple[int, str]]]) -> int:
        return rows[-1][-1][0]

    def trace(self, rows: list[list[tuple[int, str]]]) -> str:
        i, j = len(rows) - 1, len(self.ref)
        out: list[str] = []
        while i > 0 or j > 0:
            lo = self.bands[i][0]
            row = rows[i]
            op = row[j - lo][1] if 0 <= j - lo < len(row) else _UNDEF
            out.append(op)
            if op in (_SUB, _NOP):
                i, j = i - 1, j - 1
            elif op == _INS:
                j -= 1
            elif op == _DEL:
                i -= 1
            else:  # sacreBLEU raises here too; the band construction makes it unreachable
                raise RuntimeError(f"TER: the beam left no path through row {i}, column {j}")
        return "".join(reversed(out))


def _common_prefix(a: Sequence[object], b: Sequence[object], start: int) -> int:
    k = start
    n = len(a)
    while k < n and a[k] == b[k]:
        k += 1
    return k


def _alignment(trace: str) -> tuple[list[int], list[int], list[int]]:
    """sacreBLEU's ``trace_to_alignment`` of the flipped trace: each reference position's aligned hypothesis
    position (-1 before the first), and the prefix sums of the reference's and the hypothesis's errors."""
    pos_h = pos_r = -1
    align: list[int] = []
    ref_err = [0]
    hyp_err = [0]
    for op in trace:
        if op in (_NOP, _SUB):
            pos_h += 1
            pos_r += 1
            align.append(pos_h)
            err = int(op == _SUB)
            hyp_err.append(hyp_err[-1] + err)
            ref_err.append(ref_err[-1] + err)
        elif op == _DEL:  # a hypothesis word with no reference word: flipped, an insertion
            pos_h += 1
            hyp_err.append(hyp_err[-1] + 1)
        else:  # a reference word with no hypothesis word: flipped, a deletion
            pos_r += 1
            align.append(pos_h)
            ref_err.append(ref_err[-1] + 1)
    return align, ref_err, hyp_err


def _best_shift(
    hyp: list[T], ref: Sequence[T], beam: _Beam, rows: list[list[tuple[int, str]]], checked: int
) -> tuple[int, tuple[int, int, int] | None, list[T], list[list[tuple[int, str]]] | None, int]:
    """sacreBLEU's ``_shift``: (gain, shift, shifted words, their rows, candidates checked so far)."""
    pre = beam.distance(rows)
    align, ref_err, hyp_err = _alignment(beam.trace(rows))
    nh, nr = len(hyp), len(ref)
    best: tuple[int, int, int, int] | None = None
    best_shift: tuple[int, int, int] | None = None
    best_words: list[T] = hyp
    best_rows: list[list[tuple[int, str]]] | None = None
    for sh in range(nh):
        for sr in range(max(0, sh - MAX_SHIFT_DIST), min(nr, sh + MAX_SHIFT_DIST + 1)):
            length = 0
            while length < MAX_SHIFT_SIZE and hyp[sh + length] == ref[sr + length]:
                length += 1
                if (
                    hyp_err[sh + length] - hyp_err[sh]
                    and ref_err[sr + length] - ref_err[sr]
                    and not sh <= align[sr] < sh + length
                ):
                    prev_idx = -1
                    for offset in range(-1, length):
                        idx = 0 if sr + offset == -1 else align[sr + offset] + 1
                        if idx == prev_idx:
                            continue
                        prev_idx = idx
                        shifted = perform_shift(hyp, sh, length, idx)
                        keep = _common_prefix(hyp, shifted, min(sh, idx))
                        cand_rows = beam.rows(shifted, rows[: keep + 1])
                        key = (pre - beam.distance(cand_rows), length, -sh, -idx)
                        checked += 1
                        if best is None or key > best:
                            best, best_shift, best_words, best_rows = key, (sh, length, idx), shifted, cand_rows
                    if checked >= MAX_SHIFT_CANDIDATES:
                        return (best[0] if best else 0), best_shift, best_words, best_rows, checked
                if sh + length == nh or sr + length == nr:
                    break
    return (best[0] if best else 0), best_shift, best_words, best_rows, checked


def align(hypothesis: Sequence[T], reference: Sequence[T]) -> Alignment:
    """TER's edits of one tokenized hypothesis against one tokenized reference, as sacreBLEU counts them
    (``translation_edit_rate``), with the shifts and the final trace.

    Example:
        >>> a = align("d e f g h a b c".split(), "a b c d e f g h".split())
        >>> a.num_edits, a.shifts, a.trace
        (1, ((5, 3, 0),), '        ')
    """
    hyp = list(hypothesis)
    ref = list(reference)
    if not ref:
        return Alignment(len(hyp), (), _DEL * len(hyp), 0)
    beam = _Beam(ref, len(hyp))
    rows = beam.rows(hyp, [])
    shifts: list[tuple[int, int, int]] = []
    checked = 0
    while True:
        gain, shift, words, new_rows, checked = _best_shift(hyp, ref, beam, rows, checked)
        if checked >= MAX_SHIFT_CANDIDATES or gain <= 0 or shift is None or new_rows is None:
            break
        shifts.append(shift)
        hyp, rows = words, new_rows
    trace = beam.trace(rows)
    return Alignment(len(shifts) + beam.distance(rows), tuple(shifts), trace, checked)
