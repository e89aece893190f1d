"""The n-grams BLEU credited, as arrays: :class:`MatchArrays` (one system) and :class:`NgramDiff` (two systems
against the same references), counted without a Python object per n-gram."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np

__all__ = ["MatchArrays", "NgramDiff"]


@dataclass(frozen=True, slots=True)
class MatchArrays:
    """Every n-gram BLEU credited one system with, one row per (segment, n-gram): what
    :meth:`ReferenceSet.matches` says, as arrays (no Python object per n-gram).

    Attributes:
        segments: int32 (m,): the segment (0-based) of each row.
        grams: int32 (m, max order): the n-gram's token ids, -1 past its end. Ids come from the references
            (a matched token is a reference token), so two systems scored against the same references share
            them.
        clipped: int32 (m,): its clipped count, min(Count, Max_Ref_Count) > 0.
        token: the token of an id.
    """

    segments: np.ndarray
    grams: np.ndarray
    clipped: np.ndarray
    token: Callable[[int], str]

    @classmethod
    def from_dicts(
        cls, per_segment: Sequence[Mapping[tuple[str, ...], int]], max_order: int, vocab: dict[str, int] | None = None
    ) -> MatchArrays:
        """From :meth:`ReferenceSet.matches`'s dictionaries (``vocab`` maps tokens to ids; it is extended with
        tokens it lacks).

        Example:
            >>> m = MatchArrays.from_dicts([{("the",): 2, ("the", "cat"): 1}], 2)
            >>> m.grams.tolist(), m.clipped.tolist(), m.token(1)
            ([[0, -1], [0, 1]], [2, 1], 'cat')
        """
        import numpy as np

        ids = {} if vocab is None else vocab
        rows = [(i, g, c) for i, d in enumerate(per_segment) for g, c in d.items()]
        grams = np.full((len(rows), max_order), -1, dtype=np.int32)
        for r, (_, g, _) in enumerate(rows):
            grams[r, : len(g)] = [ids.setdefault(t, len(ids)) for t in g]
        names = list(ids)
        return cls(
            np.array([i for i, _, _ in rows], dtype=np.int32),
            grams,
            np.array([c for _, _, c in rows], dtype=np.int32),
            names.__getitem__,
        )


@dataclass(frozen=True, slots=True)
class NgramDiff:
    """The n-grams BLEU credited systems A and B with differently, against the same references: what the
    compare page ranks, counted without a row per credited n-gram.

    In each segment an n-gram's clipped count (min(Count, Max_Ref_Count)) in A minus its clipped count in B is
    ``d``; ``only_a`` sums ``max(d, 0)`` over the segments and ``only_b`` ``max(-d, 0)``. Only n-grams with
    ``d != 0`` in some segment are listed, numbered by the first segment where that happens, then by (order,
    token ids): the kernel and the explainable path give the same arrays.

    Attributes:
        grams: int32 (g, max order): each n-gram's token ids (from the references), -1 past its end.
        only_a: int64 (g,): matches A earned beyond B's, summed over segments.
        only_b: int64 (g,): the other way round.
        offsets: int64 (g + 1,): n-gram i's segments are ``segments[offsets[i]:offsets[i + 1]]``.
        segments: int32: the segments (0-based, ascending per n-gram) where A's and B's counts differ.
        token: the token of an id.
    """

    grams: np.ndarray
    only_a: np.ndarray
    only_b: np.ndarray
    offsets: np.ndarray
    segments: np.ndarray
    token: Callable[[int], str]

    def name(self, i: int) -> str:
        """N-gram ``i`` as text (its tokens joined by spaces)."""
        return " ".join(self.token(int(t)) for t in self.grams[i] if t >= 0)

    def segments_of(self, i: int) -> np.ndarray:
        """The segments (0-based, ascending) where A's and B's clipped counts of n-gram ``i`` differ."""
        return self.segments[self.offsets[i] : self.offsets[i + 1]]

    @classmethod
    def from_segments(
        cls,
        per_segment: Iterable[tuple[Mapping[tuple[int, ...], int], Mapping[tuple[int, ...], int]]],
        max_order: int,
        token: Callable[[int], str],
    ) -> NgramDiff:
        """From each segment's clipped counts of A and of B, keyed by token ids (the definition, one
        dictionary per segment and system).

        Example:
            >>> d = NgramDiff.from_segments([({(0,): 2, (0, 1): 1}, {(0,): 1}), ({}, {(1,): 1})], 2, "ab".__getitem__)
            >>> d.grams.tolist(), d.only_a.tolist(), d.only_b.tolist(), d.segments_of(2).tolist(), d.name(1)
            ([[0, -1], [0, 1], [1, -1]], [1, 1, 0], [0, 0, 1], [1], 'a b')
        """
        import numpy as np

        ids: dict[tuple[int, ...], int] = {}
        only_a: list[int] = []
        only_b: list[int] = []
        pairs: list[tuple[int, int]] = []
        for s, (da, db) in enumerate(per_segment):
            differing = sorted((len(g), g) for g in da.keys() | db.keys() if da.get(g, 0) != db.get(g, 0))
            for _, g in differing:
                i = ids.setdefault(g, len(ids))
                if i == len(only_a):
                    only_a.append(0)
                    only_b.append(0)
                d = da.get(g, 0) - db.get(g, 0)
                only_a[i] += max(d, 0)
                only_b[i] += max(-d, 0)
                pairs.append((i, s))
        grams = np.full((len(ids), max_order), -1, dtype=np.int32)
        for g, i in ids.items():
            grams[i, : len(g)] = g
        pairs.sort()  # by n-gram, then segment
        counts = np.bincount(np.array([i for i, _ in pairs], dtype=np.int64), minlength=len(ids))
        offsets = np.zeros(len(ids) + 1, dtype=np.int64)
        np.cumsum(counts, out=offsets[1:])
        return cls(
            grams,
            np.array(only_a, dtype=np.int64),
            np.array(only_b, dtype=np.int64),
            offsets,
            np.array([s for _, s in pairs], dtype=np.int32),
            token,
        )

    @classmethod
    def from_match_arrays(cls, a: MatchArrays, b: MatchArrays) -> NgramDiff:
        """From two systems' :class:`MatchArrays` over the same references (and token ids)."""
        n_seg = max([int(m.segments.max()) + 1 for m in (a, b) if len(m.segments)], default=0)
        width = max(a.grams.shape[1], b.grams.shape[1])

        def per_segment(m: MatchArrays) -> list[dict[tuple[int, ...], int]]:
            out: list[dict[tuple[int, ...], int]] = [{} for _ in range(n_seg)]
            for s, g, c in zip(m.segments.tolist(), m.grams.tolist(), m.clipped.tolist(), strict=True):
                out[s][tuple(t for t in g if t >= 0)] = c
            return out

        return cls.from_segments(zip(per_segment(a), per_segment(b), strict=True), width, a.token)
