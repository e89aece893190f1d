"""Which engine counts this: the one place that chooses between the C kernel and the explainable path.

Corpus BLEU is a function of a (segments x statistics) matrix (``stats``). Two engines compute that matrix,
and the tests hold them equal to each other and to sacrebleu:

* **the explainable path** (``stats.corpus_rows``): each line tokenized by ``tokenizers.preprocess`` and
  its n-grams counted with ``Counter``s against the references' Max_Ref_Count, as the paper describes and
  sacrebleu does. Pure Python, no numpy.
* **the C kernel** (``bleu_core/_kernel.c``, compiled by ``pip install``; loaded by ``accel``). 13a's
  four regular expressions become byte loops over each line's UTF-8, tokens are split at exactly
  ``str.split()``'s whitespace and mapped to int32 ids through one hash table; each segment's candidate
  n-grams go into a small hash table and every reference's n-grams are looked up in it, giving the
  clipped counts directly. Any line is accepted (NUL, newlines, lone surrogates). Other tokenizers run in
  Python; the kernel splits their output.

``choose`` is the rule, and the only place that asks whether the kernel is built: the kernel when it is
(and not switched off with ``BLEU_CORE_KERNEL=0``), except for small corpora under ``auto`` (fewer than
``SMALL_CORPUS`` segments *and* fewer than ``SMALL_CHARS`` characters), which are counted line by line (the
CLI then never imports numpy); a few long lines are not small. Counting (:func:`count`, :class:`ReferenceSet`),
tokenizing (:func:`tokenize_corpus`) and resampling (``resample.drawer``, ``trials``) all ask it. Both engines
accept every input, so there is no fallback to handle: the choice is made once, before counting. A
:class:`ReferenceSet` holds references counted once, to score any number of systems.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final, Literal, cast

from .accel import _kernel, kernel_available
from .config import BleuConfig
from .errors import InputError
from .stats import RefInfo, corpus_rows, credited_ngrams, prepare_references, ref_infos_from_tokens, segment_stats
from .tokenizers import Preprocessor, preprocessor

if TYPE_CHECKING:
    import numpy as np

    from ._kernel import Vocab as KernelVocab

__all__ = [
    "Encoded",
    "Engine",
    "MatchArrays",
    "NgramDiff",
    "ReferenceSet",
    "choose",
    "corpus_chars",
    "count",
    "tokenize_corpus",
]

Engine = Literal["auto", "kernel", "explain"]
ENGINES: Final = ("auto", "kernel", "explain")
SMALL_CORPUS: Final = 500  # under ``auto``, fewer segments (and fewer than SMALL_CHARS) are counted line by line
SMALL_CHARS: Final = 200_000  # ... unless their lines hold this many characters (a 50 MB single line goes to C)


def choose(
    engine: str = "auto", n_segments: int | None = None, n_chars: int | None = None
) -> Literal["kernel", "explain"]:
    """The engine that counts, tokenizes and resamples: ``engine`` resolved against what is built and the size.

    Args:
        engine: ``auto``, ``kernel`` or ``explain``.
        n_segments: the corpus's lines, for ``auto`` (``None``: size does not matter, e.g. a reused
            :class:`ReferenceSet` or resampling, where the kernel is used whenever it is built).
        n_chars: the characters in those lines (:func:`corpus_chars`); ``None``: unknown, the lines decide.

    Raises:
        InputError: an unknown engine, or ``kernel`` when it is not built.

    Example:
        >>> choose("explain"), choose("auto", 3), choose("auto", 3, n_chars=60)
        ('explain', 'explain', 'explain')
    """
    if engine == "auto":
        small = n_segments is not None and n_segments < SMALL_CORPUS and (n_chars or 0) < SMALL_CHARS
        return "kernel" if kernel_available() and not small else "explain"
    if engine == "kernel":
        if not kernel_available():
            raise InputError("the C kernel is not built (reinstall with a C compiler) or is switched off", "engine")
        return "kernel"
    if engine == "explain":
        return "explain"
    raise InputError(f"unknown engine {engine!r} (known: {', '.join(ENGINES)})", "engine")


def corpus_chars(*streams: Iterable[str | None]) -> int:
    """The characters in every line of ``streams`` (``None``: a missing line, 0), the size :func:`choose` reads.

    Example:
        >>> corpus_chars(["the cat", "a"], ["the cat", None])
        15
    """
    return sum(len(line) for stream in streams for line in stream if line is not None)


def count(
    hypotheses: Sequence[str],
    streams: Sequence[Sequence[str | None]],
    config: BleuConfig,
    engine: str = "auto",
) -> tuple[np.ndarray | list[tuple[int, ...]], int]:
    """One system's per-segment statistics and its references per segment (``-1``: it varies).

    The kernel gives an int64 array; the explainable path gives a list of rows (no numpy). Inputs are
    assumed checked (``stats.check_streams``). :func:`choose` decides by lines and characters, so one long
    line is counted in C.

    Example:
        >>> m, nrefs = count(["the cat sat"], [["the cat sat down"]], BleuConfig(max_ngram_order=2), "explain")
        >>> m, nrefs
        ([(3, 4, 3, 2, 3, 2)], 1)
    """
    if choose(engine, len(hypotheses), corpus_chars(hypotheses, *streams)) == "kernel":
        refs = ReferenceSet.from_config(streams, config, backend="kernel")
        return refs.stats(hypotheses, config.max_ngram_order), refs.nrefs
    infos, nrefs = prepare_references(streams, config)
    return corpus_rows(hypotheses, infos, config), nrefs


def tokenize_corpus(
    lines: Sequence[str], tokenize: str = "13a", *, lowercase: bool = False, engine: str = "auto"
) -> list[list[str]]:
    """The tokens of every line, as ``tokenizers.preprocess`` gives them line by line; in C (13a and the split)
    when :func:`choose` picks the kernel.

    Example:
        >>> tokenize_corpus(["It is a guide.", "Party!"], "paper", lowercase=True)
        [['it', 'is', 'a', 'guide'], ['party']]
    """
    prep = preprocessor(tokenize, lowercase=lowercase)
    if choose(engine, len(lines), corpus_chars(lines)) == "explain":
        return [list(prep(line)) for line in lines]
    assert _kernel is not None
    tokens: list[list[str]] = _kernel.tokenize(*_kernel_input(lines, prep))  # no None in, none out
    return tokens


def _kernel_input(lines: Sequence[str | None], prep: Preprocessor) -> tuple[Sequence[str | None], int]:
    """The lines as the kernel takes them, and its mode: it does 13a itself (``MODE_13A``, right strip
    included) and only splits (``MODE_SPLIT``) what the other tokenizers return."""
    assert _kernel is not None
    if prep.lowercase:
        lines = [None if line is None else line.lower() for line in lines]
    if prep.name == "13a":
        return lines, _kernel.MODE_13A
    if prep.name != "none":
        fn = prep.fn
        lines = [None if line is None else fn(line.rstrip()) for line in lines]
    return lines, _kernel.MODE_SPLIT


class _KernelRefs:
    """References as int32 ids in the kernel's vocabulary; statistics counted segment by segment in C."""

    __slots__ = ("_prep", "_streams", "_vocab")

    def __init__(self, streams: list[list[str | None]], prep: Preprocessor) -> None:
        assert _kernel is not None
        self._prep = prep
        self._vocab: KernelVocab = _kernel.Vocab()
        # None (a missing reference) gets length -1, which the counting skips
        self._streams = [self._encode(stream, grow=True) for stream in streams]

    def _encode(self, lines: Sequence[str | None], *, grow: bool) -> tuple[bytes, bytes]:
        """int32 token ids and per-line lengths (-1 for None)."""
        return self._vocab.encode(*_kernel_input(lines, self._prep), grow)

    def encode(self, hypotheses: Sequence[str]) -> tuple[bytes, bytes]:
        return self._encode(hypotheses, grow=False)

    def _ids(self, hypotheses: Hypotheses) -> tuple[bytes, bytes]:
        if isinstance(hypotheses, Encoded):
            return cast("tuple[bytes, bytes]", hypotheses.data)
        return self._encode(hypotheses, grow=False)

    def stats(self, hypotheses: Hypotheses, max_order: int) -> np.ndarray:
        import numpy as np

        assert _kernel is not None
        ids, lens = self._ids(hypotheses)
        out = _kernel.segment_stats(ids, lens, self._streams, max_order)
        return np.frombuffer(out, dtype=np.int64).reshape(len(hypotheses), 2 + 2 * max_order)

    def matches(self, hypotheses: Sequence[str], max_order: int) -> list[dict[tuple[str, ...], int]]:
        import numpy as np

        assert _kernel is not None
        prepared, mode = _kernel_input(hypotheses, self._prep)
        ids, lens, tokens = self._vocab.encode(prepared, mode, False, True)  # one pass: ids and strings
        _, records = _kernel.segment_stats(ids, lens, self._streams, max_order, True)
        out: list[dict[tuple[str, ...], int]] = [{} for _ in hypotheses]
        for seg, pos, n, clipped in np.frombuffer(records, dtype=np.int32).reshape(-1, 4).tolist():
            toks = tokens[seg]
            assert toks is not None
            out[seg][tuple(toks[pos : pos + n])] = clipped
        return out

    def match_arrays(self, hypotheses: Hypotheses, max_order: int) -> MatchArrays:
        import numpy as np

        assert _kernel is not None
        ids, lens = self._ids(hypotheses)
        _, records = _kernel.segment_stats(ids, lens, self._streams, max_order, True)
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

        assert _kernel is not None
        out = _kernel.ngram_diff(*self._ids(hyps_a), *self._ids(hyps_b), self._streams, max_order)
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


Backend = Literal["auto", "kernel", "explain"]


class ReferenceSet:
    """References tokenized and counted once, to score any number of systems against.

    Valid for every setting that leaves the tokens alone (smoothing, effective order, weights, max
    order). The kernel keeps token ids and counts each segment's n-grams in a small hash table in C;
    without it, the explainable path keeps token strings and counts with ``Counter``s. Both give the
    same matrix.

    Args:
        references: reference streams (``references[k][i]``; ``None`` for a missing reference).
        tokenize: tokenizer name.
        lowercase: case-fold before tokenizing.
        backend: ``kernel``, ``explain`` or ``auto`` (the kernel when it is available: ``choose``).

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

    __slots__ = ("_impl", "backend", "lowercase", "n_segments", "nrefs", "tokenize")

    def __init__(
        self,
        references: Sequence[Sequence[str | None]],
        *,
        tokenize: str = "13a",
        lowercase: bool = False,
        backend: Backend = "auto",
    ) -> None:
        prep = preprocessor(tokenize, lowercase=lowercase)  # the tokenizer resolved once, for every line
        self.tokenize = prep.name
        self.lowercase = lowercase
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
        """A reference set for the tokenization of ``config``."""
        return cls(references, tokenize=config.tokenize, lowercase=config.lowercase, backend=backend)

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

    def stats(self, hypotheses: Hypotheses, max_order: int = 4) -> np.ndarray:
        """The (segments x (2 + 2N)) int64 statistics matrix of a system (``stats.corpus_matrix``'s); the
        hypotheses as lines or :meth:`encode`'s."""
        self._check(hypotheses)
        return self._impl.stats(hypotheses, max_order)

    def encode_many(self, systems: Sequence[Sequence[str]]) -> list[Encoded]:
        """:meth:`encode` of several systems, one thread per system up to the number of cores (the kernel
        tokenizes without holding the interpreter lock).

        Example:
            >>> refs = ReferenceSet([["the cat sat on the mat"]])
            >>> [len(e) for e in refs.encode_many([["the cat"], ["a mat"]])]
            [1, 1]
        """
        return self._each(self.encode, systems)

    def stats_many(self, systems: Sequence[Hypotheses], max_order: int = 4) -> list[np.ndarray]:
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

    def matches(self, hypotheses: Sequence[str], max_order: int = 4) -> list[dict[tuple[str, ...], int]]:
        """Per segment, every candidate n-gram BLEU credited, with its clipped count (min(Count,
        Max_Ref_Count), > 0): the n-grams behind the matches columns of :meth:`stats`.

        Example:
            >>> ReferenceSet([["the cat sat on the mat"]]).matches(["the the cat"], 2)
            [{('the',): 2, ('cat',): 1, ('the', 'cat'): 1}]
        """
        self._check(hypotheses)
        return self._impl.matches(hypotheses, max_order)

    def match_arrays(self, hypotheses: Hypotheses, max_order: int = 4) -> MatchArrays:
        """:meth:`matches` as arrays (:class:`MatchArrays`): for corpora where a dictionary per segment is too
        slow and too large (the compare page's n-gram differences).

        Example:
            >>> m = ReferenceSet([["the cat sat on the mat"]]).match_arrays(["the the cat"], 2)
            >>> sorted((tuple(m.token(int(t)) for t in g if t >= 0), int(c)) for g, c in zip(m.grams, m.clipped))
            [(('cat',), 1), (('the',), 2), (('the', 'cat'), 1)]
        """
        self._check(hypotheses)
        return self._impl.match_arrays(hypotheses, max_order)

    def ngram_diff(self, hyps_a: Hypotheses, hyps_b: Hypotheses, max_order: int = 4) -> NgramDiff:
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
        return self._impl.ngram_diff(hyps_a, hyps_b, max_order)
