"""chrF explained on one sentence: per order, the n-grams the hypothesis and the chosen reference have, their
matches, precision, recall and F-beta, and which reference was chosen and why.

The statistics are sacreBLEU's (``CHRF._extract_corpus_statistics`` of the one segment: the reference with the best
sentence F, the first of equals); the per-order precision, recall and F are shown as fractions of those counts
(0 where a side has no n-gram of the order; sacreBLEU computes with an epsilon there, which changes no score it
reports but would print as 1e-16).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from bleu_core.errors import InputError
from bleu_core.metrics.chrf import Chrf
from bleu_core.metrics.chrf_count import words

__all__ = ["ChrfExplanation", "ChrfOrder", "explain_chrf"]

Kind = Literal["char", "word"]


@dataclass(frozen=True, slots=True)
class ChrfOrder:
    """One order's counts against the chosen reference.

    Attributes:
        n: the order.
        kind: ``char`` (character n-grams) or ``word`` (chrF++'s word n-grams).
        hyp: the hypothesis's n-grams (0 when the reference has none of this order, as sacreBLEU counts).
        ref: the reference's n-grams.
        matches: n-grams in both, each clipped to the smaller count.
        matched: the matched n-grams and how many times each, most frequent first.
    """

    n: int
    kind: Kind
    hyp: int
    ref: int
    matches: int
    matched: tuple[tuple[str, int], ...]

    @property
    def precision(self) -> float:
        """Matches over the hypothesis's n-grams (0 without any)."""
        return self.matches / self.hyp if self.hyp else 0.0

    @property
    def recall(self) -> float:
        """Matches over the reference's n-grams (0 without any)."""
        return self.matches / self.ref if self.ref else 0.0

    def f(self, beta: float) -> float:
        """This order's F-beta (recall weighed beta times as much); 0 without a match."""
        p, r = self.precision, self.recall
        denom = beta**2 * p + r
        return (1 + beta**2) * p * r / denom if denom > 0 else 0.0


@dataclass(frozen=True, slots=True)
class ChrfExplanation:
    """Why a sentence scores what it does under chrF (:func:`explain_chrf`).

    Attributes:
        metric: the chrF setting.
        orders: character orders 1..char_order, then word orders 1..word_order (sacreBLEU's order).
        ref_index: the chosen reference (0-based): the best sentence F, the first of equals.
        ref_scores: each reference's sentence chrF (0-100), the choice's reason.
        score: the sentence chrF (0-100) against the chosen reference.
    """

    metric: Chrf
    orders: tuple[ChrfOrder, ...]
    ref_index: int
    ref_scores: tuple[float, ...]
    score: float

    @property
    def statistics(self) -> list[int]:
        """sacreBLEU's row for the segment: ``[hyp, ref, matches]`` per order."""
        return [v for o in self.orders for v in (o.hyp, o.ref, o.matches)]


def _grams(line: str, metric: Chrf) -> list[Counter[str]]:
    """Each order's n-grams of a line as sacreBLEU extracts them (word n-grams joined by spaces, to show)."""
    if metric.lowercase:
        line = line.lower()
    chars = line if metric.whitespace else "".join(line.split())
    out = [Counter(chars[i : i + n] for i in range(len(chars) - n + 1)) for n in range(1, metric.char_order + 1)]
    tokens = words(line) if metric.word_order else []
    for n in range(1, metric.word_order + 1):
        out.append(Counter(" ".join(tokens[i : i + n]) for i in range(len(tokens) - n + 1)))
    return out


def _orders(hyp: list[Counter[str]], ref: list[Counter[str]], metric: Chrf) -> tuple[ChrfOrder, ...]:
    out = []
    for k, (h, r) in enumerate(zip(hyp, ref, strict=True)):
        common = h & r
        kind: Kind = "char" if k < metric.char_order else "word"
        n = k + 1 if kind == "char" else k + 1 - metric.char_order
        matched = tuple(sorted(common.items(), key=lambda gc: (-gc[1], gc[0])))
        out.append(ChrfOrder(n, kind, h.total() if r else 0, r.total(), common.total(), matched))
    return tuple(out)


def explain_chrf(hypothesis: str, references: str | Sequence[str], *, metric: Chrf | None = None) -> ChrfExplanation:
    """The per-order counts behind a sentence's chrF, against the reference sacreBLEU picks.

    Args:
        hypothesis: the candidate.
        references: one reference or several.
        metric: the chrF setting (sacreBLEU's default chrF2 when not given; ``Chrf(word_order=2)``: chrF++).

    Raises:
        InputError: a hypothesis that is not a string, or no references.

    Example:
        >>> e = explain_chrf("the cat sat", ["a dog sat", "the cat sat down"])
        >>> e.ref_index, e.orders[0].kind, e.orders[0].hyp, e.orders[0].ref, e.orders[0].matches
        (1, 'char', 9, 13, 9)
        >>> round(e.score, 2), round(e.orders[0].recall, 4)
        (66.02, 0.6923)
    """
    metric = metric or Chrf()
    if not isinstance(hypothesis, str):
        raise InputError(f"must be a string, got {type(hypothesis).__name__}", "hypothesis")
    refs = [references] if isinstance(references, str) else list(references)
    if not refs or not all(isinstance(r, str) for r in refs):
        raise InputError("must be a reference string or a non-empty list of them", "references")
    hyp = _grams(hypothesis, metric)
    candidates = [_orders(hyp, _grams(r, metric), metric) for r in refs]
    scores = [metric.score([v for o in c for v in (o.hyp, o.ref, o.matches)]) for c in candidates]
    best = 0
    for k, s in enumerate(scores):  # the first of equals, as sacreBLEU's strict comparison keeps it
        if s > scores[best]:
            best = k
    return ChrfExplanation(metric, candidates[best], best, tuple(scores), scores[best])
