"""References tokenized and counted once (:class:`ReferenceSet`), to score any number of systems against: in the
C kernel (token ids, a hash table per segment) or on the explainable path (token strings, ``Counter``s), as
:func:`~.choose.choose` picks. Both give the same matrix."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal, cast

from bleu_core.config import BleuConfig
from bleu_core.errors import InputError

from .accel import kernel, kernel_input
from .arrays import MatchArrays, NgramDiff
from .choose import choose
from .stats import RefInfo, credited_ngrams, ref_infos_from_tokens, segment_stats
from .tokenizers import Preprocessor, preprocessor

if TYPE_CHECKING:
    import numpy as np

    from . import _kernel

__all__ = ["Backend", "Encoded", "Hypotheses", "ReferenceSet"]


class _KernelRefs:
    """References as int32 ids in the kernel's vocabulary; statistics counted segment by segment in C."""

    __slots__ = ("_prep", "_streams", "_vocab")

    def __init__(self, streams: list[list[str | None]], prep: Preprocessor) -> None:
        assert kernel is not None
        self._prep = prep
        self._vocab: _kernel.Vocab = kernel.Vocab()
        # None (a missing reference) gets length -1, which the counting skips
        self._streams = [self._encode(stream, grow=True) for stream in streams]

    def _encode(self, lines: Sequence[str | None], *, grow: bool) -> tuple[bytes, bytes]:
        """int32 token ids and per-line lengths (-1 for None)."""
        return self._vocab.encode(*kernel_input(lines, self._prep), grow)

    def encode(self, hypotheses: Sequence[str]) -> tuple[bytes, bytes]:
        return self._encode(hypotheses, grow=False)

    def _ids(self, hypotheses: Hypotheses) -> tuple[bytes, bytes]:
        if isinstance(hypotheses, Encoded):
            return cast("tuple[bytes, bytes]", hypotheses.data)
        return self._encode(hypotheses, grow=False)

    def stats(self, hypotheses: Hypotheses, max_order: int) -> np.ndarray:
        import numpy as np

        assert kernel is not None
        ids, lens = self._ids(hypotheses)
        out = kernel.segment_stats(ids, lens, self._streams, max_order)
        return np.frombuffer(out, dtype=np.int64).reshape(len(hypotheses), 2 + 2 * max_order)

    def matches(self, hypotheses: Sequence[str], max_order: int) -> list[dict[tuple[str, ...], int]]:
        import numpy as np

        assert kernel is not None
        prepared, mode = kernel_input(hypotheses, self._prep)
        ids, lens, tokens = self._vocab.encode(prepared, mode, False, True)  # one pass: ids and strings
        _, records = kernel.segment_stats(ids, lens, self._streams, max_order, True)
        out: list[dict[tuple[str, ...], int]] = [{} for _ in hypotheses]
        for seg, pos, n, clipped in np.frombuffer(records, dtype=np.int32).reshape(-1, 4).tolist():
            toks = tokens[seg]
            assert toks is not None
            out[seg][tuple(toks[pos : pos + n])] = clipped
        return out

    def match_arrays(self, hypotheses: Hypotheses, max_order: int) -> MatchArrays:
        import numpy as np

        assert kernel is not None
        ids, lens = self._ids(hypotheses)
        _, records = kernel.segment_stats(ids, lens, self._streams, max_order, True)
        rec = np.frombuffer(records, dtype=np.int32).reshape(-1, 4)
        flat = np.frombuffer(ids, dtype=np.int32)
        starts = np.zeros(len(hypotheses), dtype=np.int64)
        np.cumsum(np.frombuffer(lens, dtype=np.int32)[:-1], out=starts[1:])
        base = starts[rec[:, 0]] + rec[:, 1]
        span = np.arange(max_order, dtype=np.int64)
        inside = span[None, :] < rec[:, 2:3]
        at = np.where(inside, base[:, None] + span[None, :], 0)
        grams = np.where(inside, flat[at] if len(flat) else -1, -1).astype(np.int32)
        return MatchArrays(rec[:, 0].copy(), grams, rec[:, 3].copy(), self._vocab.token)

    def ngram_diff(self, hyps_a: Hypotheses, hyps_b: Hypotheses, max_order: int) -> NgramDiff:
        import numpy as np

        assert kernel is not None
        out = kernel.ngram_diff(*self._ids(hyps_a), *self._ids(hyps_b), self._streams, max_order)
        grams, only_a, only_b, offsets, segments = out
        return NgramDiff(
            np.frombuffer(grams, dtype=np.int32).reshape(-1, max_order),
            np.frombuffer(only_a, dtype=np.int64),
            np.frombuffer(only_b, dtype=np.int64),
            np.frombuffer(offsets, dtype=np.int64),
            np.frombuffer(segments, dtype=np.int32),
            self._vocab.token,
        )


class _ExplainRefs:
    """References tokenized once as strings; their Max_Ref_Counts built per max order on first use."""

    __slots__ = ("_infos", "_prep", "_tokens")

    def __init__(self, streams: list[list[str | None]], prep: Preprocessor) -> None:
        self._prep = prep
        self._tokens = [[None if r is None else prep(r) for r in stream] for stream in streams]
        self._infos: dict[int, list[RefInfo]] = {}

    def _refs(self, max_order: int) -> list[RefInfo]:
        if max_order not in self._infos:
            self._infos[max_order] = ref_infos_from_tokens(self._tokens, max_order)[0]
        return self._infos[max_order]

    def encode(self, hypotheses: Sequence[str]) -> list[tuple[str, ...]]:
        prep = self._prep
        return [prep(h) for h in hypotheses]

    def _hyp_tokens(self, hypotheses: Hypotheses) -> list[tuple[str, ...]]:
        if isinstance(hypotheses, Encoded):
            return cast("list[tuple[str, ...]]", hypotheses.data)
        return self.encode(hypotheses)

    def stats(self, hypotheses: Hypotheses, max_order: int) -> np.ndarray:
        import numpy as np

        rows = [
            segment_stats(t, ref, max_order).row()
            for t, ref in zip(self._hyp_tokens(hypotheses), self._refs(max_order), strict=True)
        ]
        return np.array(rows, dtype=np.int64).reshape(len(rows), 2 + 2 * max_order)

    def matches(self, hypotheses: Hypotheses, max_order: int) -> list[dict[tuple[str, ...], int]]:
        refs = self._refs(max_order)
        return [credited_ngrams(t, ref, max_order) for t, ref in zip(self._hyp_tokens(hypotheses), refs, strict=True)]

    def _vocab(self) -> dict[str, int]:
        # ids in the references' order of first appearance: the same for every system (a matched token is
        # always a reference token), as the kernel's vocabulary
        vocab: dict[str, int] = {}
        for stream in self._tokens:
            for toks in stream:
                for t in toks or ():
                    vocab.setdefault(t, len(vocab))
        return vocab

    def match_arrays(self, hypotheses: Hypotheses, max_order: int) -> MatchArrays:
        return MatchArrays.from_dicts(self.matches(hypotheses, max_order), max_order, self._vocab())

    def ngram_diff(self, hyps_a: Hypotheses, hyps_b: Hypotheses, max_order: int) -> NgramDiff:
        vocab = self._vocab()
        names = list(vocab)

        def ids(d: Mapping[tuple[str, ...], int]) -> dict[tuple[int, ...], int]:
            return {tuple(vocab[t] for t in g): c for g, c in d.items()}

        a, b = self.matches(hyps_a, max_order), self.matches(hyps_b, max_order)
        return NgramDiff.from_segments(
            ((ids(x), ids(y)) for x, y in zip(a, b, strict=True)), max_order, names.__getitem__
        )


@dataclass(frozen=True, slots=True, eq=False)
class Encoded:
    """A system's hypotheses tokenized once for one :class:`ReferenceSet` (:meth:`ReferenceSet.encode`):
    :meth:`~ReferenceSet.stats`, :meth:`~ReferenceSet.match_arrays` and :meth:`~ReferenceSet.ngram_diff` of that
    set take it in place of the lines, so a system is not tokenized again for another max order or another
    comparison. The kernel keeps int32 ids in the set's vocabulary (4 bytes a token), the explainable path
    token tuples.

    Attributes:
        owner: the reference set it was tokenized for (its ids are that set's; any other set refuses it).
        data: the kernel's (ids, lengths) bytes, or the explainable path's tokens per line.
    """

    owner: ReferenceSet
    data: tuple[bytes, bytes] | list[tuple[str, ...]]
    n_segments: int

    def __len__(self) -> int:
        return self.n_segments


Hypotheses = Sequence[str] | Encoded


Backend = Literal["auto", "kernel", "explain"]


class ReferenceSet:
    """References tokenized and counted once, to score any number of systems against.

    Valid for every setting that leaves the tokens alone (smoothing, effective order, weights, max
    order). The kernel keeps token ids and counts each segment's n-grams in a small hash table in C;
    without it, the explainable path keeps token strings and counts with ``Counter``s. Both give the
    same matrix. It is BLEU's prepared references (``Bleu.prepare``: a
    :class:`~bleu_core.metrics.base.PreparedReferences`).

    Args:
        references: reference streams (``references[k][i]``; ``None`` for a missing reference).
        tokenize: tokenizer name.
        lowercase: case-fold before tokenizing.
        backend: ``kernel``, ``explain`` or ``auto`` (the kernel when it is available: ``choose``).
        max_order: the order the methods count to when none is given.

    Example:
        >>> refs = ReferenceSet([["the cat is on the mat"], ["there is a cat on the mat"]])
        >>> refs.stats(["the the the the the the the", "the cat sat on the mat"], 2).tolist()
        Traceback (most recent call last):
        ...
        bleu_core.errors.InputError: hypotheses: 2 segments but the references have 1
        >>> refs.stats(["the the the the the the the"], 2).tolist()
        [[7, 7, 2, 0, 7, 6]]
        >>> refs.nrefs, refs.n_segments
        (2, 1)
    """

    __slots__ = ("_impl", "backend", "lowercase", "max_order", "n_segments", "nrefs", "tokenize")

    def __init__(
        self,
        references: Sequence[Sequence[str | None]],
        *,
        tokenize: str = "13a",
        lowercase: bool = False,
        backend: Backend = "auto",
        max_order: int = 4,
    ) -> None:
        prep = preprocessor(tokenize, lowercase=lowercase)  # the tokenizer resolved once, for every line
        self.tokenize = prep.name
        self.lowercase = lowercase
        self.max_order = max_order
        streams = [list(s) for s in references]
        self.n_segments = len(streams[0]) if streams else 0
        if self.n_segments and not any(None in s for s in streams):
            self.nrefs = len(streams)
        else:  # the references per segment, when all segments have the same number (else -1, as stats does)
            present = Counter(sum(r is not None for r in row) for row in zip(*streams, strict=True))
            self.nrefs = next(iter(present)) if len(present) == 1 else -1
        chosen = choose(backend)
        self._impl: _KernelRefs | _ExplainRefs = (
            _KernelRefs(streams, prep) if chosen == "kernel" else _ExplainRefs(streams, prep)
        )
        self.backend: Backend = chosen

    @classmethod
    def from_config(
        cls, references: Sequence[Sequence[str | None]], config: BleuConfig, backend: Backend = "auto"
    ) -> ReferenceSet:
        """A reference set for the tokenization (and, by default, the order) of ``config``."""
        return cls(
            references,
            tokenize=config.tokenize,
            lowercase=config.lowercase,
            backend=backend,
            max_order=config.max_ngram_order,
        )

    def _check(self, hypotheses: Hypotheses) -> None:
        if isinstance(hypotheses, Encoded) and hypotheses.owner is not self:
            raise InputError("tokenized for another reference set (ReferenceSet.encode)", "hypotheses")
        if len(hypotheses) != self.n_segments:
            raise InputError(f"{len(hypotheses)} segments but the references have {self.n_segments}", "hypotheses")

    def encode(self, hypotheses: Sequence[str]) -> Encoded:
        """A system's lines tokenized once, for :meth:`stats`, :meth:`match_arrays` and :meth:`ngram_diff` of this
        set (the same results as from the lines).

        Example:
            >>> refs = ReferenceSet([["the cat sat on the mat"]])
            >>> e = refs.encode(["the the cat"])
            >>> refs.stats(e, 2).tolist() == refs.stats(["the the cat"], 2).tolist(), len(e)
            (True, 1)
        """
        self._check(hypotheses)
        return Encoded(self, self._impl.encode(hypotheses), len(hypotheses))

    def stats(self, hypotheses: Hypotheses, max_order: int | None = None) -> np.ndarray:
        """The (segments x (2 + 2N)) int64 statistics matrix of a system (``stats.corpus_matrix``'s); the
        hypotheses as lines or :meth:`encode`'s; N is ``max_order``, the set's own when not given."""
        self._check(hypotheses)
        return self._impl.stats(hypotheses, self.max_order if max_order is None else max_order)

    def encode_many(self, systems: Sequence[Sequence[str]]) -> list[Encoded]:
        """:meth:`encode` of several systems, one thread per system up to the number of cores (the kernel
        tokenizes without holding the interpreter lock).

        Example:
            >>> refs = ReferenceSet([["the cat sat on the mat"]])
            >>> [len(e) for e in refs.encode_many([["the cat"], ["a mat"]])]
            [1, 1]
        """
        return self._each(self.encode, systems)

    def stats_many(self, systems: Sequence[Hypotheses], max_order: int | None = None) -> list[np.ndarray]:
        """:meth:`stats` of several systems (lines or :meth:`encode`'s), one thread per system up to the number
        of cores: the kernel tokenizes and counts without holding the interpreter lock, so they run in parallel.

        Example:
            >>> refs = ReferenceSet([["the cat sat on the mat", "a dog"]])
            >>> [m.tolist() for m in refs.stats_many([["the cat", "a dog"], ["the mat", "dog"]], 1)]
            [[[2, 6, 2, 2], [2, 2, 2, 2]], [[2, 6, 2, 2], [1, 2, 1, 1]]]
        """
        return self._each(lambda h: self.stats(h, max_order), systems)

    def _each(self, fn: Callable[[Any], Any], items: Sequence[Any]) -> list[Any]:
        import concurrent.futures
        import os

        workers = min(len(items), os.cpu_count() or 1)
        if workers <= 1 or self.backend != "kernel":  # the explainable path holds the lock
            return [fn(x) for x in items]
        with concurrent.futures.ThreadPoolExecutor(workers, thread_name_prefix="bleu-kernel") as pool:
            return list(pool.map(fn, items))

    def matches(self, hypotheses: Sequence[str], max_order: int | None = None) -> list[dict[tuple[str, ...], int]]:
        """Per segment, every candidate n-gram BLEU credited, with its clipped count (min(Count,
        Max_Ref_Count), > 0): the n-grams behind the matches columns of :meth:`stats`.

        Example:
            >>> ReferenceSet([["the cat sat on the mat"]]).matches(["the the cat"], 2)
            [{('the',): 2, ('cat',): 1, ('the', 'cat'): 1}]
        """
        self._check(hypotheses)
        return self._impl.matches(hypotheses, self.max_order if max_order is None else max_order)

    def match_arrays(self, hypotheses: Hypotheses, max_order: int | None = None) -> MatchArrays:
        """:meth:`matches` as arrays (:class:`MatchArrays`): for corpora where a dictionary per segment is too
        slow and too large (the compare page's n-gram differences).

        Example:
            >>> m = ReferenceSet([["the cat sat on the mat"]]).match_arrays(["the the cat"], 2)
            >>> sorted((tuple(m.token(int(t)) for t in g if t >= 0), int(c)) for g, c in zip(m.grams, m.clipped))
            [(('cat',), 1), (('the',), 2), (('the', 'cat'), 1)]
        """
        self._check(hypotheses)
        return self._impl.match_arrays(hypotheses, self.max_order if max_order is None else max_order)

    def ngram_diff(self, hyps_a: Hypotheses, hyps_b: Hypotheses, max_order: int | None = None) -> NgramDiff:
        """The n-grams credited differently to systems A and B (:class:`NgramDiff`), counted in one pass over
        their segments: per n-gram, A's matches beyond B's and B's beyond A's, and the segments where they
        differ. The same as :meth:`matches` of each system compared segment by segment, without a dictionary
        or array row per credited n-gram. Each system as lines or :meth:`encode`'s.

        Example:
            >>> d = ReferenceSet([["the cat sat on the mat"]]).ngram_diff(["the the cat"], ["the cat"], 2)
            >>> [(d.name(i), int(d.only_a[i]), int(d.only_b[i])) for i in range(len(d.only_a))]
            [('the', 1, 0)]
        """
        self._check(hyps_a)
        self._check(hyps_b)
        return self._impl.ngram_diff(hyps_a, hyps_b, self.max_order if max_order is None else max_order)
