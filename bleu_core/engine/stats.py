"""Additive per-segment sufficient statistics: (hyp_len, ref_len, matches[n], totals[n]).

Corpus BLEU is a function of the column sums of a (segments x statistics) matrix, so leave-one-out,
bootstrap and block resampling are arithmetic on that matrix, never a rescoring. The row layout is
sacrebleu's: ``[hyp_len, ref_len, correct_1..correct_N, total_1..total_N]``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np

from bleu_core.config import BleuConfig
from bleu_core.errors import InputError

from .ngrams import Ngram, clipped_matches, max_ref_counts, ngram_counts
from .tokenizers import preprocessor

__all__ = [
    "RefInfo",
    "SegmentStats",
    "check_streams",
    "closest_ref_len",
    "corpus_matrix",
    "corpus_rows",
    "credited_ngrams",
    "prepare_references",
    "ref_infos_from_tokens",
    "segment_stats",
]


@dataclass(frozen=True, slots=True)
class SegmentStats:
    """The statistics of one segment.

    Attributes:
        hyp_len: candidate length in tokens (c).
        ref_len: best-match reference length (r): the closest, ties to the shorter.
        matches: clipped n-gram matches for n = 1..N.
        totals: candidate n-grams for n = 1..N.
    """

    hyp_len: int
    ref_len: int
    matches: tuple[int, ...]
    totals: tuple[int, ...]

    def row(self) -> tuple[int, ...]:
        """The sacrebleu-layout row."""
        return (self.hyp_len, self.ref_len, *self.matches, *self.totals)

    @classmethod
    def from_row(cls, row: Sequence[int]) -> SegmentStats:
        """Inverse of :meth:`row`."""
        n = (len(row) - 2) // 2
        vals = [int(x) for x in row]
        return cls(vals[0], vals[1], tuple(vals[2 : 2 + n]), tuple(vals[2 + n :]))


@dataclass(frozen=True, slots=True)
class RefInfo:
    """One segment's references, reduced to what BLEU needs: Max_Ref_Count per n-gram and lengths."""

    max_counts: dict[Ngram, int]
    lengths: tuple[int, ...]


def closest_ref_len(hyp_len: int, ref_lens: Sequence[int]) -> int:
    """The paper's best match length: the reference length closest to c; ties go to the shorter.

    Example:
        >>> closest_ref_len(12, [12, 15, 17]), closest_ref_len(14, [12, 16]), closest_ref_len(3, [])
        (12, 12, 0)
    """
    best_diff, best = -1, 0
    for length in ref_lens:
        diff = abs(hyp_len - length)
        if best_diff == -1 or diff < best_diff or (diff == best_diff and length < best):
            best_diff, best = diff, length
    return best


def check_streams(hypotheses: object, references: object) -> tuple[list[str], list[list[str | None]]]:
    """Validate sacrebleu-style inputs; return them as lists.

    ``references[k][i]`` is reference k of segment i (streams); ``None`` marks a missing reference
    (variable numbers of references, as in sacrebleu). Lengths must agree: sacrebleu silently truncates
    to the shortest (its issue #220); we refuse.

    Raises:
        InputError: naming the argument, the stream and the counts.
    """
    if isinstance(hypotheses, str) or not isinstance(hypotheses, Sequence):
        raise InputError(f"must be a list of strings (one per segment), got {type(hypotheses).__name__}", "hypotheses")
    hyps = list(hypotheses)
    if not all(type(h) is str for h in hyps):  # one C-level pass; the slow loop only names the culprit
        for i, h in enumerate(hyps):
            if not isinstance(h, str):
                raise InputError(f"segment {i + 1} is {type(h).__name__}, not a string", "hypotheses")
    if isinstance(references, str) or not isinstance(references, Sequence) or len(references) == 0:
        raise InputError("must be a non-empty list of reference streams, one list per reference", "references")
    if all(isinstance(r, str) for r in references):
        raise InputError(
            "got a flat list of strings; references are streams: pass [refs] for one reference per "
            "segment (references[k][i] is reference k of segment i)",
            "references",
        )
    streams: list[list[str | None]] = []
    has_none = False
    for k, stream in enumerate(references):
        if isinstance(stream, str) or not isinstance(stream, Sequence):
            raise InputError(
                f"reference stream {k + 1} is {type(stream).__name__}, not a list of strings", "references"
            )
        if len(stream) != len(hyps):
            raise InputError(
                f"reference stream {k + 1} has {len(stream)} segments but there are {len(hyps)} hypotheses",
                "references",
            )
        lst = list(stream)
        if not all(type(r) is str for r in lst):
            for i, r in enumerate(lst):
                if r is None:
                    has_none = True
                elif not isinstance(r, str):
                    raise InputError(
                        f"reference {k + 1}, segment {i + 1} is {type(r).__name__}, not a string", "references"
                    )
        streams.append(lst)
    if has_none:
        for i in range(len(hyps)):
            if all(s[i] is None for s in streams):
                raise InputError(f"segment {i + 1} has no reference (all are None)", "references")
    return hyps, streams


def prepare_references(streams: Sequence[Sequence[str | None]], config: BleuConfig) -> tuple[list[RefInfo], int]:
    """Tokenize and count each segment's references once.

    Returns:
        The per-segment :class:`RefInfo` and the number of references per segment for the signature
        (``-1`` when it varies, shown as ``var`` like sacrebleu).
    """
    prep = preprocessor(config.tokenize, lowercase=config.lowercase)
    tokens = [[None if r is None else prep(r) for r in s] for s in streams]
    return ref_infos_from_tokens(tokens, config.max_ngram_order)


def ref_infos_from_tokens(
    streams: Sequence[Sequence[Sequence[str] | None]], max_order: int
) -> tuple[list[RefInfo], int]:
    """:func:`prepare_references` from references already tokenized (``None``: a missing reference).

    Example:
        >>> infos, nrefs = ref_infos_from_tokens([[["a", "b"]], [["a", "a"]]], 1)
        >>> infos[0].max_counts, infos[0].lengths, nrefs
        ({('a',): 2, ('b',): 1}, (2, 2), 2)
    """
    infos = []
    nrefs = set()
    for refs in zip(*streams, strict=True):
        toks = [r for r in refs if r is not None]
        nrefs.add(len(toks))
        infos.append(RefInfo(dict(max_ref_counts(toks, max_order)), tuple(len(t) for t in toks)))
    return infos, (nrefs.pop() if len(nrefs) == 1 else -1)


def segment_stats(hyp_tokens: Sequence[str], ref: RefInfo, max_order: int) -> SegmentStats:
    """Statistics of one tokenized candidate against its prepared references.

    Example:
        >>> from bleu_core.engine.ngrams import max_ref_counts
        >>> ref = RefInfo(dict(max_ref_counts([["the", "cat"]], 2)), (2,))
        >>> segment_stats(["the", "the"], ref, 2)
        SegmentStats(hyp_len=2, ref_len=2, matches=(1, 0), totals=(2, 1))
    """
    correct, total = clipped_matches(ngram_counts(hyp_tokens, max_order), ref.max_counts, max_order)  # type: ignore[arg-type]
    return SegmentStats(len(hyp_tokens), closest_ref_len(len(hyp_tokens), ref.lengths), tuple(correct), tuple(total))


def credited_ngrams(hyp_tokens: Sequence[str], ref: RefInfo, max_order: int) -> dict[Ngram, int]:
    """The candidate n-grams BLEU credits in one segment, with their clipped counts (> 0).

    Example:
        >>> from bleu_core.engine.ngrams import max_ref_counts
        >>> ref = RefInfo(dict(max_ref_counts([["the", "cat"]], 2)), (2,))
        >>> credited_ngrams(["the", "the", "cat"], ref, 2)
        {('the',): 1, ('cat',): 1, ('the', 'cat'): 1}
    """
    counts = ngram_counts(hyp_tokens, max_order)
    return {g: min(c, ref.max_counts[g]) for g, c in counts.items() if ref.max_counts.get(g)}


def corpus_rows(hypotheses: Sequence[str], refs: Sequence[RefInfo], config: BleuConfig) -> list[tuple[int, ...]]:
    """The per-segment statistics rows of a corpus, line by line, in pure Python (no numpy)."""
    order = config.max_ngram_order
    prep = preprocessor(config.tokenize, lowercase=config.lowercase)
    return [segment_stats(prep(hyp), ref, order).row() for hyp, ref in zip(hypotheses, refs, strict=True)]


def corpus_matrix(hypotheses: Sequence[str], refs: Sequence[RefInfo], config: BleuConfig) -> np.ndarray:
    """The (segments x (2 + 2N)) int64 statistics matrix of a tokenized corpus."""
    import numpy as np

    rows = corpus_rows(hypotheses, refs, config)
    return np.array(rows, dtype=np.int64).reshape(len(rows), 2 + 2 * config.max_ngram_order)
