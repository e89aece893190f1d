"""TER (Snover et al., 2006) exactly as sacreBLEU 2.6.0 computes it, fast, and the edits it counts.

A segment's statistics are sacreBLEU's ``[num_edits, ref_length]``: the fewest edits over its references (the
first reference on a tie) and the *average* length of its references. The average is a fraction with several
references, so it is held exactly as integers: :meth:`TerReferences.counts` gives ``[edits, sum of reference
lengths, references]`` per segment, and the metric's statistics matrix (:meth:`TerReferences.stats`, width 2)
is ``[scale * edits, scale * sum / references]`` with ``scale`` the least common multiple of the segments'
reference counts (3 with 3 references: ``[3 * edits, sum of lengths]``; 1 with one: sacreBLEU's numbers
themselves). Every entry is then an integer, so column sums over any resample, shuffle or slice are exact
in int64 (and in float32 below 2**24, which the paired tests' products rely on), and the score
``100 * sum(col 0) / sum(col 1)`` needs no scale: :meth:`Ter.score_many` takes the sums alone. sacreBLEU sums
the float averages instead; its corpus score differs from the exact one in the last bits only, and
:func:`corpus_ter` reports sacreBLEU's own float sum, bit for bit.

The count itself is ``ter_align`` (Python, the oracle) or the C kernel ``_ter_kernel`` (the same search on
int32 token ids, a few hundred times faster on long lines); :func:`choose_engine` picks one.
``ter_edits`` (:mod:`bleu_core.metrics.ter_edits`) returns the edit script behind a sentence's count: the
shifts, then match/sub/ins/del on the normalised tokens, and what normalisation did to the text.

sacreBLEU's paired tests score resampled statistics in float32 (``significance.py``: ``np.array(stats,
dtype='float32')``, then ``_compute_score_from_stats`` of each resample's sum). With one reference the integer
sums above are those float32 sums exactly; with several, sacreBLEU's sums depend on its summation order, so
:func:`sacrebleu_float32_sums` reproduces them from sacreBLEU's rows (:func:`sacrebleu_rows`) and the draws, and
``Ter().score_many(sums, float32=True)`` scores them as sacreBLEU does (tested bit for bit).
"""

from __future__ import annotations

import math
import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from types import ModuleType
from typing import TYPE_CHECKING, Any, Final, Literal

from bleu_core._version import __version__
from bleu_core.errors import InputError

from .ter_align import Alignment, align
from .ter_tokenizer import TercomOptions, tercom_tokenize

if TYPE_CHECKING:
    import numpy as np

__all__ = [
    "OPTIONS",
    "SACREBLEU_VERSION",
    "Ter",
    "TerReferences",
    "TerScore",
    "choose_engine",
    "corpus_ter",
    "kernel_alignment",
    "sacrebleu_float32_sums",
    "sacrebleu_rows",
    "sentence_ter",
]

_ter_kernel: ModuleType | None
try:
    from . import _ter_kernel
except ImportError:  # pragma: no cover - depends on the build
    _ter_kernel = None

SACREBLEU_VERSION: Final = "2.6.0"
OPTIONS: Final = ("normalized", "no_punct", "asian_support", "case_sensitive")
"""sacreBLEU's TER options, by its names (all default to False)."""

Engine = Literal["auto", "kernel", "explain"]
_ENGINES: Final = ("auto", "kernel", "explain")
# Under ``auto`` a corpus this small is counted in Python (no kernel call to set up; the oracle's path): the
# Python search costs about a millisecond per short segment, the kernel a microsecond.
SMALL_SEGMENTS: Final = 4
SMALL_CHARS: Final = 2_000

# sacreBLEU's Signature: global keys, then TER's; None values left out; version at the end
_SHORT: Final = {
    "nrefs": "#",
    "bs": "bs",
    "ar": "ar",
    "seed": "rs",
    "case": "c",
    "tok": "t",
    "norm": "nr",
    "punct": "pn",
    "asian": "as",
    "version": "v",
}


def choose_engine(engine: str = "auto", n_segments: int = 0, n_chars: int = 0) -> Literal["kernel", "explain"]:
    """Which path counts TER: the C kernel when it is built (and ``BLEU_CORE_KERNEL`` is not ``0``), except
    for small input under ``auto``; ``explain`` is the Python search (:mod:`bleu_core.metrics.ter_align`).

    Raises:
        InputError: an unknown engine, or ``kernel`` when the TER kernel is not built.

    Example:
        >>> choose_engine("explain"), choose_engine("auto", 1, 40)
        ('explain', 'explain')
    """
    if engine not in _ENGINES:
        raise InputError(f"unknown engine {engine!r} (known: {', '.join(_ENGINES)})", "engine")
    built = _ter_kernel is not None and os.environ.get("BLEU_CORE_KERNEL", "1") != "0"
    if engine == "kernel":
        if not built:
            raise InputError("the TER kernel is not built (reinstall with a C compiler) or is switched off", "engine")
        return "kernel"
    if engine == "explain":
        return "explain"
    small = n_segments <= SMALL_SEGMENTS and n_chars < SMALL_CHARS
    return "kernel" if built and not small else "explain"


def _check_options(options: dict[str, object], where: str) -> TercomOptions:
    unknown = [k for k in options if k not in OPTIONS]
    if unknown:
        raise InputError(f"unknown TER option {unknown[0]!r} (known: {', '.join(OPTIONS)})", where)
    for name, value in options.items():
        if not isinstance(value, bool):
            raise InputError(f"TER option {name!r} must be True or False, got {value!r}", where)
    return TercomOptions(**options)  # type: ignore[arg-type]


def _nrefs_text(nrefs: int | str) -> str:
    return "var" if nrefs == -1 else str(nrefs)


def _yes(flag: bool) -> str:
    return "yes" if flag else "no"


@dataclass(frozen=True, slots=True, init=False)
class Ter:
    """TER with sacreBLEU's options, as a corpus metric (:class:`bleu_core.metrics.base.Metric`).

    Args:
        normalized: tercom's normalisation (punctuation split off, XML entities, possessives).
        no_punct: remove punctuation.
        asian_support: CJK rules for ``normalized`` and ``no_punct``.
        case_sensitive: keep case (sacreBLEU lowercases by default).

    Raises:
        InputError: an option sacreBLEU's TER does not have, or a value that is not a bool.

    Example:
        >>> ter = Ter()
        >>> refs = ter.prepare([["a b c d e f g h", "the cat sat"]])
        >>> rows = refs.stats(["d e f g h a b c", "the cat sat down"])
        >>> rows.tolist(), [round(float(x), 4) for x in ter.score_many(rows.sum(axis=0, keepdims=True))]
        ([[1, 8], [1, 3]], [18.1818])
        >>> Ter(tokenize="13a")  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        bleu_core.errors.InputError: TER: unknown TER option 'tokenize' (known: normalized, no_punct, ...)
    """

    options: TercomOptions

    def __init__(
        self,
        *,
        normalized: bool = False,
        no_punct: bool = False,
        asian_support: bool = False,
        case_sensitive: bool = False,
        **unknown: object,
    ) -> None:
        given = {
            "normalized": normalized,
            "no_punct": no_punct,
            "asian_support": asian_support,
            "case_sensitive": case_sensitive,
            **unknown,
        }
        object.__setattr__(self, "options", _check_options(given, "TER"))

    @property
    def name(self) -> str:
        return "TER"

    @property
    def sacrebleu_name(self) -> str:
        return "ter"

    @property
    def higher_is_better(self) -> bool:
        return False

    @property
    def width(self) -> int:
        return 2

    def prepare(self, references: Sequence[Sequence[str | None]], *, engine: Engine = "auto") -> TerReferences:
        """The references tokenized (twice, as sacreBLEU does) and encoded once, for many systems.

        ``references[k][i]`` is reference ``k`` of segment ``i``; ``None`` where a segment has fewer.
        """
        streams = _check_references(references)
        return TerReferences._make(self, streams, engine)

    def score_many(self, sums: np.ndarray, *, float32: bool = False) -> np.ndarray:
        """TER (0-100) of each row of summed statistics, sacreBLEU's ``_compute_score_from_stats`` vectorised:
        ``100 * (edits / ref_length)``, 100 for edits against empty references, 0 for nothing at all.

        ``float32``: the arithmetic of sacreBLEU's paired tests, whose resampled sums are float32 (numpy 2 keeps
        ``float32 / float32`` and ``100 * float32`` in float32); the result is float32 (sacreBLEU's two
        constant cases, 100.0 and 0.0, are the same numbers in either type).

        Example:
            >>> import numpy as np
            >>> Ter().score_many(np.array([[3, 12], [2, 0], [0, 0]])).tolist()
            [25.0, 100.0, 0.0]
        """
        import numpy as np

        dtype = np.dtype(np.float32 if float32 else np.float64)
        s: np.ndarray = np.asarray(sums).astype(dtype, copy=False)
        if s.ndim != 2 or s.shape[1] != 2:
            raise InputError(f"sums of shape {s.shape}, expected (rows x 2)", "sums")
        edits, ref = s[:, 0], s[:, 1]
        ratio: np.ndarray = np.greater(edits, 0).astype(dtype)  # 1.0 against empty references, else 0.0
        np.divide(edits, ref, out=ratio, where=np.greater(ref, 0))
        out: np.ndarray = np.multiply(np.array(100, dtype=dtype), ratio)
        return out

    def score_many_float32(self, sums: np.ndarray) -> np.ndarray:
        """:meth:`score_many` in sacreBLEU's float32 arithmetic (``float32=True``): what its paired bootstrap scores
        resamples with (:class:`~bleu_core.metrics.base.Float32Resampling`)."""
        return self.score_many(sums, float32=True)

    def float_rows(self, matrix: np.ndarray, nrefs: int | str) -> np.ndarray | None:
        """sacreBLEU's rows ``[num_edits, ref_length]`` of a statistics matrix whose every segment has ``nrefs``
        references (``[nrefs * edits, sum of lengths]``: the scale is ``nrefs``), None with one reference (the
        matrix is sacreBLEU's rows) or a varying number (the scale is not known here).

        Dividing the exact integers by ``nrefs`` is the correctly rounded quotient, as sacreBLEU's ``sum / n``.

        Example:
            >>> import numpy as np
            >>> Ter().float_rows(np.array([[3, 10], [0, 5]]), 3).tolist(), Ter().float_rows(np.ones((1, 2)), 1)
            ([[1.0, 3.3333333333333335], [0.0, 1.6666666666666667]], None)
        """
        import numpy as np

        if not isinstance(nrefs, int) or nrefs <= 1:
            return None
        return np.asarray(matrix, dtype=np.int64) / nrefs

    def signature(self, nrefs: int | str, **test: object) -> str:
        """Our signature: sacreBLEU's keys, ``test`` (``bs=1000, rs=12345``, in sacreBLEU's order), our version.

        Example:
            >>> Ter().signature(1)  # doctest: +ELLIPSIS
            'nrefs:1|case:lc|tok:tercom|norm:no|punct:yes|asian:no|version:bleu-explorer-...'
        """
        o = self.options
        parts = [
            f"nrefs:{_nrefs_text(nrefs)}",
            *(f"{k}:{v}" for k, v in test.items() if v is not None),
            f"case:{'mixed' if o.case_sensitive else 'lc'}",
            "tok:tercom",
            f"norm:{_yes(o.normalized)}",
            f"punct:{_yes(not o.no_punct)}",
            f"asian:{_yes(o.asian_support)}",
            f"version:bleu-explorer-{__version__}",
        ]
        return "|".join(parts)

    def sacrebleu_signature(
        self,
        nrefs: int | str,
        *,
        test: str | None = None,
        trials: int | None = None,
        seed: int | None = None,
        confidence_trials: int | None = None,
        short: bool = False,
    ) -> str | None:
        """The signature sacreBLEU 2.6.0 prints for this TER, long or ``short``.

        ``test``/``trials``/``seed``: a paired test as ``sacrebleu --paired-bs/--paired-ar`` signs it (``seed``
        None is sacreBLEU's unseeded ``none``); ``confidence_trials``: ``--paired-ar``'s bootstrap resamples for
        the intervals (``bs:``), or, with no test, ``--confidence``'s resamples (then with the seed).

        Example:
            >>> Ter().sacrebleu_signature(1)
            'nrefs:1|case:lc|tok:tercom|norm:no|punct:yes|asian:no|version:2.6.0'
            >>> Ter(normalized=True).sacrebleu_signature(3, test="bs", trials=1000, seed=12345, short=True)
            '#:3|bs:1000|rs:12345|c:lc|t:tercom|nr:yes|pn:yes|as:no|v:2.6.0'
        """
        if test not in (None, "bs", "ar"):
            raise InputError(f"unknown paired test {test!r} (known: bs, ar)", "test")
        o = self.options
        info: dict[str, object] = {
            "nrefs": _nrefs_text(nrefs),
            "bs": trials if test == "bs" else confidence_trials,
            "ar": trials if test == "ar" else None,
            "seed": str(seed).lower() if test is not None or confidence_trials is not None else None,
            "case": "mixed" if o.case_sensitive else "lc",
            "tok": "tercom",
            "norm": _yes(o.normalized),
            "punct": _yes(not o.no_punct),
            "asian": _yes(o.asian_support),
            "version": SACREBLEU_VERSION,
        }
        if test == "bs" and confidence_trials is not None:
            info["bs"] = confidence_trials  # sacreBLEU's PairedTest writes the interval's resamples over bs
        return "|".join(f"{_SHORT[k] if short else k}:{v}" for k, v in info.items() if v is not None)


def _check_references(references: object) -> list[list[str | None]]:
    if isinstance(references, str) or not isinstance(references, Sequence) or len(references) == 0:
        raise InputError("must be a non-empty list of reference streams, one list per reference", "references")
    if all(isinstance(r, str) for r in references):
        raise InputError(
            "got a flat list of strings; references are streams: pass [refs] for one reference per segment "
            "(references[k][i] is reference k of segment i)",
            "references",
        )
    streams: list[list[str | None]] = []
    for k, stream in enumerate(references):
        if isinstance(stream, str) or not isinstance(stream, Sequence):
            raise InputError(
                f"reference stream {k + 1} is {type(stream).__name__}, not a list of strings", "references"
            )
        lst = list(stream)
        for i, r in enumerate(lst):
            if r is not None and not isinstance(r, str):
                raise InputError(
                    f"reference {k + 1}, segment {i + 1} is {type(r).__name__}, not a string", "references"
                )
        if len(lst) != len(streams[0] if streams else lst):
            raise InputError(
                f"reference stream {k + 1} has {len(lst)} segments but stream 1 has {len(streams[0])}", "references"
            )
        streams.append(lst)
    for i in range(len(streams[0])):
        if all(s[i] is None for s in streams):
            raise InputError(f"segment {i + 1} has no reference (all are None)", "references")
    return streams


def _check_hypotheses(hypotheses: object, n: int) -> list[str]:
    if isinstance(hypotheses, str) or not isinstance(hypotheses, Sequence):
        raise InputError(f"must be a list of strings (one per segment), got {type(hypotheses).__name__}", "hypotheses")
    hyps = list(hypotheses)
    for i, h in enumerate(hyps):
        if not isinstance(h, str):
            raise InputError(f"segment {i + 1} is {type(h).__name__}, not a string", "hypotheses")
    if len(hyps) != n:
        raise InputError(f"{len(hyps)} hypotheses but the references have {n} segments", "hypotheses")
    return hyps


def _encode(lines: Sequence[str | None], vocab: dict[str, int], grow: bool) -> tuple[bytes, bytes]:
    """int32 ids and lengths (-1 for None) of whitespace-split lines. Without ``grow`` a token the vocabulary
    lacks is -1: such a token matches no reference word, and the search compares hypothesis words only with
    reference words (and rows only through those comparisons), so one id for all of them is exact."""
    from array import array

    ids = array("i")
    lens = array("i")
    for line in lines:
        if line is None:
            lens.append(-1)
            continue
        toks = line.split()
        lens.append(len(toks))
        if grow:
            ids.extend([vocab.setdefault(t, len(vocab)) for t in toks])
        else:
            ids.extend([vocab.get(t, -1) for t in toks])
    return ids.tobytes(), lens.tobytes()


@dataclass(frozen=True, slots=True, eq=False)
class TerReferences:
    """References prepared once for TER (:class:`bleu_core.metrics.base.PreparedReferences`).

    Attributes:
        metric: the :class:`Ter` they were prepared for.
        tokens: ``tokens[k][i]``: reference ``k`` of segment ``i`` as sacreBLEU's TER reads it (preprocessed
            twice: sacreBLEU's ``_cache_references`` and ``_extract_reference_info`` both do), or None.
        nrefs: references per segment, ``-1`` when it varies (sacreBLEU's ``nrefs:var``).
        scale: the least common multiple of the segments' reference counts (see the module's docstring).
        engine: the engine asked for.
    """

    metric: Ter
    tokens: tuple[tuple[str | None, ...], ...]
    nrefs: int
    scale: int
    engine: Engine
    _vocab: dict[str, int] = field(repr=False)
    _encoded: tuple[tuple[bytes, bytes], ...] = field(repr=False)

    @classmethod
    def _make(cls, metric: Ter, streams: list[list[str | None]], engine: Engine) -> TerReferences:
        opts = metric.options
        tokens = tuple(
            tuple(None if r is None else tercom_tokenize(tercom_tokenize(r, opts), opts) for r in s) for s in streams
        )
        counts = {sum(s[i] is not None for s in tokens) for i in range(len(tokens[0]))} or {len(tokens)}
        scale = math.lcm(*counts)
        if scale * sum(len(r.split()) for s in tokens for r in s if r) >= 2**53:
            raise InputError(f"too many references for exact TER statistics (scale {scale})", "references")
        vocab: dict[str, int] = {}
        encoded = tuple(_encode(s, vocab, True) for s in tokens)
        nrefs = counts.pop() if len(counts) == 1 else -1
        return cls(metric, tokens, nrefs, scale, engine, vocab, encoded)

    @property
    def n_segments(self) -> int:
        """Segments."""
        return len(self.tokens[0])

    def counts(self, hypotheses: Sequence[str], *, engine: Engine | None = None) -> np.ndarray:
        """The exact per-segment counts, int64 (segments x 3): fewest edits over the segment's references,
        the sum of their lengths, and how many there are.

        Example:
            >>> refs = Ter().prepare([["a b c"], ["a b x y"]])
            >>> refs.counts(["a b c"]).tolist(), refs.nrefs, refs.scale
            ([[0, 7, 2]], 2, 2)
        """
        import numpy as np

        hyps = _check_hypotheses(hypotheses, self.n_segments)
        opts = self.metric.options
        toks = [tercom_tokenize(h, opts) for h in hyps]
        n_chars = sum(len(h) for h in toks) + sum(len(r) for s in self.tokens for r in s if r)
        chosen = choose_engine(engine or self.engine, len(hyps), n_chars)
        if chosen == "kernel":
            assert _ter_kernel is not None
            ids, lens = _encode(toks, self._vocab, False)
            raw = _ter_kernel.ter_stats(ids, lens, list(self._encoded))
            return np.frombuffer(raw, dtype=np.int64).reshape(len(hyps), 3).copy()
        out = np.zeros((len(hyps), 3), dtype=np.int64)
        for i, hyp in enumerate(toks):
            words = hyp.split()
            best = -1
            for stream in self.tokens:
                ref = stream[i]
                if ref is None:
                    continue
                edits = align(words, ref.split()).num_edits
                out[i, 1] += len(ref.split())
                out[i, 2] += 1
                if best < 0 or edits < best:
                    best = edits
            out[i, 0] = best
        return out

    def corpus_score(self, hypotheses: Sequence[str], *, engine: Engine | None = None) -> TerScore:
        """Corpus TER of one system against these references (:func:`corpus_ter` without preparing them again).

        Example:
            >>> refs = Ter().prepare([["the cat sat on the mat"]])
            >>> [refs.corpus_score([h]).score for h in ("the cat sat on mat", "a dog sat on the mat")]
            [16.666666666666664, 33.33333333333333]
        """
        counts = self.counts(hypotheses, engine=engine)
        score, edits, ref_length = _sacrebleu_score(counts)
        m = self.metric
        signature = str(m.sacrebleu_signature(self.nrefs))
        return TerScore(score, edits, ref_length, m.signature(self.nrefs), signature, self.nrefs, self.scale, counts)

    def stats(self, hypotheses: Sequence[str]) -> np.ndarray:
        """The statistics matrix, int64 (segments x 2): ``[scale * edits, scale * sum / references]`` (with
        one reference, sacreBLEU's ``[num_edits, ref_length]`` itself).

        Example:
            >>> refs = Ter().prepare([["a b c"], ["a b x y"]])
            >>> refs.stats(["a b c"]).tolist()
            [[0, 7]]
        """
        return _scaled(self.counts(hypotheses), self.scale)


def _scaled(counts: np.ndarray, scale: int) -> np.ndarray:
    import numpy as np

    out = np.empty((len(counts), 2), dtype=np.int64)
    out[:, 0] = counts[:, 0] * scale
    out[:, 1] = counts[:, 1] * (scale // np.maximum(counts[:, 2], 1))
    return out


def sacrebleu_rows(counts: np.ndarray) -> np.ndarray:
    """sacreBLEU's per-segment statistics, float64 (segments x 2), bit for bit: ``[num_edits, sum / references]``
    (Python's ``int / int`` and numpy's are both the correctly rounded quotient).

    Example:
        >>> import numpy as np
        >>> sacrebleu_rows(np.array([[2, 10, 3]])).tolist()
        [[2.0, 3.3333333333333335]]
    """
    import numpy as np

    c = np.asarray(counts, dtype=np.int64)
    return np.stack([c[:, 0].astype(np.float64), c[:, 1] / c[:, 2]], axis=1)


def sacrebleu_float32_sums(rows: np.ndarray, idxs: np.ndarray, *, block: int = 256) -> np.ndarray:
    """The float32 column sums sacreBLEU's paired bootstrap scores: ``np.array(stats, dtype='float32')``, then
    for each resample ``_s.sum(0)`` of its drawn rows in the drawn order (numpy adds a (n x 2) array's rows in
    order, one float32 at a time: tested). ``rows``: :func:`sacrebleu_rows`; ``idxs``: the draws, (resamples x
    n), e.g. ``rng.choice(n, size=(1000, n))``. Computed ``block`` resamples at a time.

    Example:
        >>> import numpy as np
        >>> rows = sacrebleu_rows(np.array([[1, 10, 3], [0, 4, 3]]))
        >>> sacrebleu_float32_sums(rows, np.array([[0, 0], [1, 0]])).tolist()
        [[2.0, 6.666666507720947], [1.0, 4.666666507720947]]
    """
    import numpy as np

    single = np.asarray(rows, dtype=np.float64).astype(np.float32)
    draws = np.asarray(idxs)
    out = np.empty((len(draws), 2), dtype=np.float32)
    for start in range(0, len(draws), block):
        out[start : start + block] = single[draws[start : start + block]].sum(axis=1)
    return out


@dataclass(frozen=True, slots=True, eq=False)
class TerScore:
    """A TER score with what it was computed from (sacreBLEU's ``TERScore`` fields).

    Attributes:
        score: TER on sacreBLEU's 0-100 scale (lower is better).
        num_edits: the edits over the corpus (each segment's fewest over its references).
        ref_length: the sum of the segments' average reference lengths, as sacreBLEU sums it (floats).
        signature: ours.
        sacrebleu_signature: the one ``sacrebleu -m ter`` prints for this setting.
        nrefs: references per segment (-1: it varies).
        scale: of the statistics matrix (see the module's docstring).
    """

    score: float
    num_edits: int
    ref_length: float
    signature: str
    sacrebleu_signature: str
    nrefs: int = 1
    scale: int = 1
    _counts: Any = field(default=None, repr=False)

    @property
    def counts(self) -> np.ndarray:
        """The exact per-segment counts (:meth:`TerReferences.counts`)."""
        return self._counts  # type: ignore[no-any-return]

    @property
    def segment_matrix(self) -> np.ndarray:
        """The statistics matrix (:meth:`TerReferences.stats`) the score sums."""
        return _scaled(self._counts, self.scale)

    def format(self, width: int = 2) -> str:
        """sacreBLEU's line, e.g. ``TER = 13.60``."""
        return f"TER = {self.score:.{width}f}"

    def __str__(self) -> str:
        return self.format()


def _sacrebleu_score(counts: np.ndarray) -> tuple[float, int, float]:
    """sacreBLEU's corpus score from the counts: the averages summed as Python floats in segment order
    (``sum_of_lists``), then ``_compute_score_from_stats``."""
    edits = 0
    ref_length: float = 0
    rows = counts.tolist()
    for e, total, n in rows:
        edits += e
        ref_length += total / n
    if len(rows) == 1:
        ref_length = rows[0][1] / rows[0][2]
    if ref_length > 0:
        score = edits / ref_length
    elif edits > 0:
        score = 1.0
    else:
        score = 0.0
    return 100 * score, edits, float(ref_length)


def corpus_ter(
    hypotheses: Sequence[str],
    references: Sequence[Sequence[str | None]],
    *,
    normalized: bool = False,
    no_punct: bool = False,
    asian_support: bool = False,
    case_sensitive: bool = False,
    engine: Engine = "auto",
    **unknown: object,
) -> TerScore:
    """Corpus TER, a drop-in for ``sacrebleu.corpus_ter`` (same options, defaults and numbers).

    Args:
        hypotheses: one candidate per segment.
        references: reference streams: ``references[k][i]`` is reference k of segment i (None: missing).
        normalized: see :class:`Ter`.
        no_punct: see :class:`Ter`.
        asian_support: see :class:`Ter`.
        case_sensitive: see :class:`Ter`.
        engine: ``kernel``, ``explain`` (the Python search) or ``auto`` (:func:`choose_engine`).

    Raises:
        InputError: an unknown option, streams of different lengths, a segment with no reference.

    Example:
        >>> s = corpus_ter(["d e f g h a b c"], [["a b c d e f g h"]])
        >>> s.score, s.num_edits, s.ref_length
        (12.5, 1, 8.0)
        >>> s.sacrebleu_signature
        'nrefs:1|case:lc|tok:tercom|norm:no|punct:yes|asian:no|version:2.6.0'
    """
    metric = Ter(
        normalized=normalized, no_punct=no_punct, asian_support=asian_support, case_sensitive=case_sensitive, **unknown
    )
    return metric.prepare(references, engine=engine).corpus_score(hypotheses)


def sentence_ter(
    hypothesis: str,
    references: Sequence[str],
    *,
    normalized: bool = False,
    no_punct: bool = False,
    asian_support: bool = False,
    case_sensitive: bool = False,
    engine: Engine = "auto",
    **unknown: object,
) -> TerScore:
    """Sentence TER, a drop-in for ``sacrebleu.sentence_ter``: one candidate, its references.

    Example:
        >>> s = sentence_ter("the cat sat on mat", ["the cat sat on the mat", "a cat sat on the mat"])
        >>> s.score, s.num_edits, s.ref_length
        (16.666666666666664, 1, 6.0)
    """
    if not isinstance(hypothesis, str):
        raise InputError(f"must be a string, got {type(hypothesis).__name__}", "hypothesis")
    if isinstance(references, str) or not isinstance(references, Sequence):
        raise InputError("must be a list of reference strings for this sentence", "references")
    return corpus_ter(
        [hypothesis],
        [[r] for r in references],
        normalized=normalized,
        no_punct=no_punct,
        asian_support=asian_support,
        case_sensitive=case_sensitive,
        engine=engine,
        **unknown,
    )


def kernel_alignment(hyp: list[str], ref: list[str]) -> Alignment:
    """The kernel's alignment of one tokenized sentence pair (the edit script's kernel path)."""
    if _ter_kernel is None:
        raise InputError("the TER kernel is not built (pip install -e . with a C compiler)", "engine")
    vocab: dict[str, int] = {}
    ref_ids, _ = _encode([" ".join(ref)], vocab, True)
    hyp_ids, _ = _encode([" ".join(hyp)], vocab, False)
    edits, shifts, trace, checked = _ter_kernel.ter_align(hyp_ids, ref_ids)
    return Alignment(edits, tuple(shifts), trace, checked)
