"""Why a score is what it is: clipping tables, matched spans and which reference licensed each match,
and each segment's exact effect on corpus BLEU."""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Literal

import numpy as np

from bleu_core.config import BleuConfig
from bleu_core.engine.ngrams import Ngram, ngrams_of_order
from bleu_core.engine.stats import SegmentStats, closest_ref_len
from bleu_core.engine.tokenizers import preprocessor
from bleu_core.errors import InputError
from bleu_core.metrics.bleu import BleuScore, corpus_score, score_many

__all__ = [
    "ClipRow",
    "CorpusExplanation",
    "MissedNgram",
    "Occurrence",
    "OrderExplanation",
    "SegmentExplanation",
    "explain_corpus",
    "explain_segment",
    "leave_one_out",
]

Status = Literal["matched", "clipped", "unmatched"]


@dataclass(frozen=True, slots=True)
class ClipRow:
    """One line of the paper's clipping table.

    Attributes:
        ngram: the n-gram's tokens.
        count: Count, its occurrences in the candidate.
        ref_counts: its count in each reference.
        max_ref_count: Max_Ref_Count, the largest of those.
        clipped: Count_clip = min(Count, Max_Ref_Count).
    """

    ngram: Ngram
    count: int
    ref_counts: tuple[int, ...]
    max_ref_count: int
    clipped: int


@dataclass(frozen=True, slots=True)
class Occurrence:
    """One occurrence of an n-gram in the candidate and what became of it.

    ``matched`` occurrences are the first ``Count_clip`` ones in text order; later ones of the same
    n-gram are ``clipped`` (the reference copies are used up); ``unmatched`` ones are in no reference.

    Attributes:
        start: index of its first token in the candidate.
        n: its order.
        ngram: its tokens.
        status: matched, clipped or unmatched.
        refs: indices of the references that contain it.
        ref_positions: for each reference, the token indices where it starts there.
    """

    start: int
    n: int
    ngram: Ngram
    status: Status
    refs: tuple[int, ...]
    ref_positions: tuple[tuple[int, ...], ...]


@dataclass(frozen=True, slots=True)
class MissedNgram:
    """A reference n-gram the candidate never produced (the recall view)."""

    ngram: Ngram
    ref_counts: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class OrderExplanation:
    """Everything about one order n: the table, the occurrences, what was missed, p_n = matches/total."""

    n: int
    rows: tuple[ClipRow, ...]
    occurrences: tuple[Occurrence, ...]
    missed: tuple[MissedNgram, ...]
    matches: int
    total: int

    @property
    def precision(self) -> float:
        """Unsmoothed modified precision (0 when there are no n-grams)."""
        return self.matches / self.total if self.total else 0.0


@dataclass(frozen=True, slots=True)
class SegmentExplanation:
    """One candidate explained against its references.

    Attributes:
        hyp_tokens: the candidate's tokens (after lowercasing and tokenizing).
        ref_tokens: each reference's tokens.
        closest_ref_len: the best match length r.
        best_ref: index of the reference whose length is r (the first such).
        orders: one :class:`OrderExplanation` per n.
        stats: the segment's sufficient statistics.
        score: the BLEU of this segment alone, under the config.
        config: the settings used.
    """

    hyp_tokens: tuple[str, ...]
    ref_tokens: tuple[tuple[str, ...], ...]
    closest_ref_len: int
    best_ref: int
    orders: tuple[OrderExplanation, ...]
    stats: SegmentStats
    score: BleuScore
    config: BleuConfig

    @property
    def hyp_len(self) -> int:
        """c."""
        return len(self.hyp_tokens)

    @property
    def ref_lens(self) -> tuple[int, ...]:
        """Each reference's length."""
        return tuple(len(r) for r in self.ref_tokens)

    def token_max_order(self) -> tuple[int, ...]:
        """For each candidate token, the longest order of a *matched* n-gram covering it (0: none)."""
        out = [0] * self.hyp_len
        for order in self.orders:
            for occ in order.occurrences:
                if occ.status == "matched":
                    for i in range(occ.start, occ.start + occ.n):
                        out[i] = max(out[i], occ.n)
        return tuple(out)

    def log_terms(self) -> tuple[tuple[float, ...], float]:
        """The paper's log domain: (w_n log p_n for each n in the mean, log BP); they sum to log BLEU.

        Uses the (smoothed) precisions of ``score``; a zero precision gives ``-inf``.
        """
        s = self.score
        eff = s.eff_order or self.config.max_ngram_order
        weights = (self.config.weights or (1.0 / eff,) * eff)[:eff]
        if sum(weights) == 0:  # as score_from_stats: only zero-weight orders are left, weigh them alike
            weights = (1.0,) * eff
        norm = sum(weights)
        terms = tuple(
            (w / norm) * (math.log(p / 100) if p > 0 else -math.inf) for w, p in zip(weights, s.precisions[:eff])
        )
        return terms, (math.log(s.bp) if s.bp > 0 else -math.inf)

    def _repr_html_(
        self,
    ) -> str:  # Jupyter: highlights and clipping tables as HTML (renderer: bleu_core.display.notebook)
        from bleu_core.rendering import to_html

        return to_html(self)


def _positions(tokens: Sequence[str], n: int) -> dict[Ngram, list[int]]:
    out: dict[Ngram, list[int]] = {}
    for i, g in enumerate(ngrams_of_order(tokens, n)):
        out.setdefault(g, []).append(i)
    return out


def explain_segment(hypothesis: str, references: Sequence[str], config: BleuConfig | None = None) -> SegmentExplanation:
    """Explain one candidate: per order, the clipping table, every occurrence's fate, what was missed.

    Args:
        hypothesis: the candidate.
        references: its references (at least one).
        config: the settings; default sacrebleu's sentence defaults.

    Raises:
        InputError: no references, or a non-string.

    Example:
        >>> from bleu_core.teaching.paper import EXAMPLE_1
        >>> e = explain_segment(EXAMPLE_1.candidates[0], EXAMPLE_1.references, BleuConfig.paper())
        >>> [(o.matches, o.total) for o in e.orders]
        [(17, 18), (10, 17), (7, 16), (4, 15)]
        >>> row = next(r for r in e.orders[0].rows if r.ngram == ("the",))
        >>> row.count, row.ref_counts, row.max_ref_count, row.clipped
        (3, (1, 4, 4), 4, 3)
    """
    config = config or BleuConfig.sentence()
    if not isinstance(hypothesis, str):
        raise InputError(f"must be a string, got {type(hypothesis).__name__}", "hypothesis")
    if isinstance(references, str) or not isinstance(references, Sequence):
        raise InputError("must be a list of reference strings", "references")
    refs = [r for r in references if r is not None]
    if not refs:
        raise InputError("at least one reference is needed", "references")
    for k, r in enumerate(refs):
        if not isinstance(r, str):
            raise InputError(f"reference {k + 1} is {type(r).__name__}, not a string", "references")
    prep = preprocessor(config.tokenize, lowercase=config.lowercase)
    hyp = prep(hypothesis)
    ref_toks = tuple(prep(r) for r in refs)
    ref_lens = tuple(len(r) for r in ref_toks)
    r_len = closest_ref_len(len(hyp), ref_lens)
    orders = [_explain_order(n, hyp, ref_toks) for n in range(1, config.max_ngram_order + 1)]
    score = corpus_score([hypothesis], [[r] for r in refs], config)
    stats = score.segments[0]
    best = next(k for k, length in enumerate(ref_lens) if length == r_len)
    return SegmentExplanation(hyp, ref_toks, r_len, best, tuple(orders), stats, score, config)


def _explain_order(n: int, hyp: Sequence[str], ref_toks: Sequence[Sequence[str]]) -> OrderExplanation:
    """Order ``n`` of one candidate: the clipping table (n-grams in the order one reads them), the fate of every
    occurrence (the first Count_clip of an n-gram match, later ones are clipped), and the reference n-grams missed."""
    hyp_grams = ngrams_of_order(hyp, n)
    hyp_counts = Counter(hyp_grams)
    ref_pos = [_positions(rt, n) for rt in ref_toks]
    rows = []
    for g in dict.fromkeys(hyp_grams):  # first-occurrence order, as one reads the candidate
        rc = tuple(len(p.get(g, ())) for p in ref_pos)
        mx = max(rc)
        rows.append(ClipRow(g, hyp_counts[g], rc, mx, min(hyp_counts[g], mx)))
    occs = _occurrences(n, hyp_grams, {row.ngram: row.clipped for row in rows}, ref_pos)
    seen = set(hyp_counts)
    missed: dict[Ngram, tuple[int, ...]] = {}
    for rt in ref_toks:
        for g in ngrams_of_order(rt, n):
            if g not in seen and g not in missed:
                missed[g] = tuple(len(p.get(g, ())) for p in ref_pos)
    return OrderExplanation(
        n,
        tuple(rows),
        tuple(occs),
        tuple(MissedNgram(g, c) for g, c in missed.items()),
        sum(row.clipped for row in rows),
        len(hyp_grams),
    )


def _occurrences(
    n: int, hyp_grams: Sequence[Ngram], clip: Mapping[Ngram, int], ref_pos: Sequence[Mapping[Ngram, list[int]]]
) -> list[Occurrence]:
    """Every occurrence of the candidate's n-grams in text order, with the references that license it."""
    used: Counter[Ngram] = Counter()
    occs = []
    for i, g in enumerate(hyp_grams):
        positions = tuple(tuple(p.get(g, ())) for p in ref_pos)
        licensed = tuple(k for k, pos in enumerate(positions) if pos)
        if not licensed:
            status: Status = "unmatched"
        elif used[g] < clip[g]:
            status = "matched"
            used[g] += 1
        else:
            status = "clipped"
        occs.append(Occurrence(i, n, g, status, licensed, positions))
    return occs


@dataclass(frozen=True, slots=True)
class CorpusExplanation:
    """A corpus score with its per-segment parts.

    Attributes:
        score: corpus BLEU (with ``segment_matrix``).
        sentence_scores: each segment's own BLEU (same settings, effective order on).
        loo_delta: for each segment, corpus BLEU without it minus corpus BLEU with it: positive means
            the segment pulls the corpus score down.
        sentence_config: the settings of ``sentence_scores``.
    """

    score: BleuScore
    sentence_scores: tuple[float, ...]
    loo_delta: tuple[float, ...]
    sentence_config: BleuConfig

    @property
    def segments(self) -> tuple[SegmentStats, ...]:
        """Per-segment statistics."""
        return self.score.segments

    @property
    def mean_sentence_bleu(self) -> float:
        """The average of sentence BLEU: *not* corpus BLEU (see the variants)."""
        return float(np.mean(self.sentence_scores)) if self.sentence_scores else 0.0


def leave_one_out(matrix: np.ndarray, config: BleuConfig) -> np.ndarray:
    """For each row, BLEU of the corpus without that row minus BLEU of the whole corpus.

    Exact: the statistics are additive, so removing a segment is a subtraction.
    """
    if len(matrix) == 0:
        return np.zeros(0)
    total = matrix.sum(axis=0)
    full = float(score_many(total[None, :], config)[0])
    delta: np.ndarray = score_many(total[None, :] - matrix, config) - full
    return delta


def explain_corpus(
    hypotheses: Sequence[str], references: Sequence[Sequence[str | None]], config: BleuConfig | None = None
) -> CorpusExplanation:
    """Corpus BLEU with each segment's sentence BLEU and exact leave-one-out effect.

    Example:
        >>> e = explain_corpus(["a b c d", "x y"], [["a b c d", "x z"]], BleuConfig())
        >>> round(e.score.score, 4), [round(d, 4) for d in e.loo_delta]
        (88.914, [-88.914, 11.086])
    """
    config = config or BleuConfig()
    score = corpus_score(hypotheses, references, config)
    matrix = score.segment_matrix
    assert matrix is not None
    sent_config = replace(config, use_effective_order=True)
    sent = score_many(matrix, sent_config) if len(matrix) else np.zeros(0)
    loo = leave_one_out(matrix, config)
    return CorpusExplanation(score, tuple(sent.tolist()), tuple(loo.tolist()), sent_config)
