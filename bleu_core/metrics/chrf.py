"""chrF and chrF++ (Popović 2015, 2017) exactly as sacreBLEU 2.6.0 computes them, on the metric seam.

:class:`Chrf` is the metric (sacreBLEU's option names and defaults), :func:`corpus_chrf` and :func:`sentence_chrf`
the drop-ins for sacreBLEU's functions. Its per-segment statistics are ``[hyp, ref, match]`` per character order,
then per word order, against each segment's best reference (:mod:`bleu_core.metrics.chrf_count`, the C kernel or
``Counter``s); every score is the f-score of their column sums (:mod:`bleu_core.metrics.chrf_fscore`), in sacreBLEU's
float64 arithmetic or, for its paired bootstrap, its float32 one.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Final, Literal

from bleu_core._version import __version__
from bleu_core.engine.choose import SMALL_CORPUS, corpus_chars
from bleu_core.engine.stats import check_streams
from bleu_core.errors import InputError

from .chrf_count import ChrfReferences, as_matrix, check_references, choose_engine
from .chrf_fscore import FScore
from .signature import SACREBLEU_VERSION

if TYPE_CHECKING:
    import numpy as np

__all__ = ["MAX_ORDER", "OPTIONS", "Chrf", "ChrfReferences", "ChrfScore", "corpus_chrf", "sentence_chrf"]

OPTIONS: Final = ("char_order", "word_order", "beta", "lowercase", "whitespace", "eps_smoothing")
"""sacreBLEU's chrF options, by its names (``CHRF(...)``'s arguments)."""
MAX_ORDER: Final = 1000
"""The largest character or word order accepted (an order beyond a line's length counts nothing)."""
_SHORT: Final = {
    "nrefs": "#",
    "bs": "bs",
    "ar": "ar",
    "seed": "rs",
    "case": "c",
    "eff": "e",
    "nc": "nc",
    "nw": "nw",
    "space": "s",
    "version": "v",
}

Engine = Literal["auto", "kernel", "explain"]


def _whole(value: object, where: str, low: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= MAX_ORDER:
        raise InputError(f"must be a whole number from {low} to {MAX_ORDER}, got {value!r}", where)
    return value


def _flag(value: object, where: str) -> bool:
    if not isinstance(value, bool):
        raise InputError(f"must be True or False, got {value!r}", where)
    return value


@dataclass(frozen=True, slots=True, kw_only=True)
class Chrf:
    """chrF (``word_order=0``) or chrF++ (``word_order=2``) with sacreBLEU's options, names and defaults.

    Implements :class:`bleu_core.metrics.base.Metric`: :meth:`prepare` the references once, take each system's
    per-segment :meth:`ChrfReferences.stats`, and score column sums with :meth:`score_many` (a corpus, a
    resample, a slice).

    Attributes:
        char_order: character n-gram orders 1..char_order (1 to 1000).
        word_order: word n-gram orders 1..word_order (0 to 1000; 2 is chrF++).
        beta: recall weighs beta times as much as precision (a number >= 0).
        lowercase: compare lowercased text (``str.lower``).
        whitespace: keep whitespace in character n-grams (sacreBLEU removes it by default).
        eps_smoothing: average the per-order f-scores with an epsilon for empty orders (chrF++.py, NLTK and
            Moses); the default averages precision and recall over the orders both sides have (sacreBLEU's
            effective order).

    Raises:
        InputError: an option out of range, naming it.

    Example:
        >>> m = Chrf(word_order=2)
        >>> m.name, m.width, m.sacrebleu_signature(1)
        ('chrF2++', 24, 'nrefs:1|case:mixed|eff:yes|nc:6|nw:2|space:no|version:2.6.0')
        >>> refs = m.prepare([["The cat sat on the mat."]])
        >>> round(float(m.score_many(refs.stats(["The cat sat on a mat."]).sum(axis=0))[0]), 4)
        68.4366
        >>> Chrf(char_order=0)
        Traceback (most recent call last):
        ...
        bleu_core.errors.InputError: char_order: must be a whole number from 1 to 1000, got 0
    """

    char_order: int = 6
    word_order: int = 0
    beta: float = 2
    lowercase: bool = False
    whitespace: bool = False
    eps_smoothing: bool = False

    @classmethod
    def from_options(cls, **options: object) -> Chrf:
        """chrF from sacreBLEU's option names (the metric registry's factory).

        Raises:
            InputError: an unknown option, or a bad value, naming it.

        Example:
            >>> Chrf.from_options(word_order=2).name
            'chrF2++'
            >>> Chrf.from_options(order=2)
            Traceback (most recent call last):
            ...
            bleu_core.errors.InputError: chrF: unknown chrF option 'order' (known: char_order, word_order, beta, \
lowercase, whitespace, eps_smoothing)
        """
        unknown = [k for k in options if k not in OPTIONS]
        if unknown:
            raise InputError(f"unknown chrF option {unknown[0]!r} (known: {', '.join(OPTIONS)})", "chrF")
        return cls(**options)  # type: ignore[arg-type]

    def __post_init__(self) -> None:
        _whole(self.char_order, "char_order", 1)
        _whole(self.word_order, "word_order", 0)
        beta = self.beta
        if (
            isinstance(beta, bool)
            or not isinstance(beta, int | float)
            or not 0 <= beta < 1e100  # beta ** 2 stays a finite float (and NaN fails the comparison)
        ):
            raise InputError(f"must be a number >= 0 (sacreBLEU's default is 2), got {beta!r}", "beta")
        _flag(self.lowercase, "lowercase")
        _flag(self.whitespace, "whitespace")
        _flag(self.eps_smoothing, "eps_smoothing")

    # --- the seam's attributes ---------------------------------------------------------------------

    @property
    def name(self) -> str:
        """sacreBLEU's name: ``chrF`` + beta, a ``+`` per word order (``chrF2``, ``chrF2++``)."""
        return f"chrF{self.beta}" + "+" * self.word_order

    @property
    def sacrebleu_name(self) -> str:
        """``chrf``: ``sacrebleu -m chrf``."""
        return "chrf"

    @property
    def higher_is_better(self) -> bool:
        """True."""
        return True

    @property
    def width(self) -> int:
        """Statistics per segment: 3 per character order, then 3 per word order."""
        return 3 * (self.char_order + self.word_order)

    @property
    def fscore(self) -> FScore:
        """The f-score of this setting's orders and beta (:class:`~bleu_core.metrics.chrf_fscore.FScore`)."""
        return FScore(self.char_order + self.word_order, self.beta, self.eps_smoothing)

    # --- counting -----------------------------------------------------------------------------------

    def prepare(self, references: Sequence[Sequence[str | None]], *, engine: Engine = "auto") -> ChrfReferences:
        """The references made ready once (lowercased, n-grams counted or code points read) for many systems.

        Args:
            references: reference streams (``references[k][i]``: reference k of segment i; ``None`` where a
                segment has fewer references).
            engine: ``kernel`` (C), ``explain`` (``Counter``s) or ``auto`` (the kernel when it is built and not
                switched off with ``BLEU_CORE_KERNEL=0``). Both give the same statistics.

        Raises:
            InputError: references that are not streams of strings, or a segment without any.

        Example:
            >>> refs = Chrf().prepare([["a b c", "x"], [None, "y"]])
            >>> refs.nrefs, refs.n_segments
            (-1, 2)
        """
        streams = check_references(references)
        return ChrfReferences(self, streams, choose_engine(engine))

    # --- scores -------------------------------------------------------------------------------------

    def score(self, stats: Sequence[float]) -> float:
        """The f-score (0-100) of one row of (summed) statistics: sacreBLEU's ``CHRF._compute_f_score``, in
        pure Python, operation for operation.

        Example:
            >>> round(Chrf().score([3, 3, 2, 2, 2, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]), 6)
            38.888889
        """
        return self.fscore.one(stats)

    def score_many(self, sums: np.ndarray, *, float32: bool = False) -> np.ndarray:
        """:meth:`score` of every row of a (rows x :attr:`width`) matrix of summed statistics, vectorised; equal
        to sacreBLEU's ``_compute_score_from_stats`` on integer statistics, bit for bit (its corpus score, and
        the scores of ``--paired-ar``'s shuffles, which it sums as int64).

        ``float32``: the scores ``sacrebleu --paired-bs`` gives resamples with these sums (it holds statistics as
        float32, and so do the intervals of ``--paired-ar`` and ``--confidence``), bit for bit and as the array it
        makes of them: float32, or float64 when a score stays a Python float (a resample without a match). The
        sums are taken to float32 here; integers below 2**24 are exact there, as sacreBLEU's own float32 sums of
        the same resample are (above, its sums round in the order it adds the rows).

        Example:
            >>> import numpy as np
            >>> m = Chrf(char_order=1)
            >>> m.score_many(np.array([[4, 5, 2], [0, 3, 0], [0, 0, 0]])).tolist()
            [41.66666666666667, 0.0, 0.0]
            >>> s = m.score_many(np.array([[4, 5, 2], [3, 3, 1]]), float32=True)
            >>> s.dtype.name, s.tolist() == [np.float32(41.666664), np.float32(33.333336)]
            ('float32', True)
        """
        import numpy as np

        if float32:
            return self.fscore.many_float32(self._rows_of(sums, np.float32))
        return self.fscore.many(self._rows_of(sums, np.float64))

    def score_many_float32(self, sums: np.ndarray) -> np.ndarray:
        """:meth:`score_many` in sacreBLEU's float32 arithmetic (``float32=True``): what its paired bootstrap scores
        resamples with (:class:`~bleu_core.metrics.base.Float32Resampling`)."""
        return self.score_many(sums, float32=True)

    def _rows_of(self, sums: np.ndarray, dtype: type[np.floating]) -> np.ndarray:
        import numpy as np

        m = np.asarray(sums, dtype=dtype)
        if m.ndim == 1:
            m = m[None, :]
        if m.ndim != 2 or m.shape[1] != self.width:
            raise InputError(f"must have {self.width} columns ({self.name}), got shape {m.shape}", "sums")
        return m

    # --- signatures ---------------------------------------------------------------------------------

    def signature(self, nrefs: int | str, **test: object) -> str:
        """Ours: sacreBLEU's keys with beta (sacreBLEU states it only in the name) and our version; ``test``:
        ``bs=1000, rs=12345`` and the like, after ``nrefs``.

        Example:
            >>> Chrf(word_order=2).signature(3, bs=1000, rs=12345)  # doctest: +ELLIPSIS
            'nrefs:3|bs:1000|rs:12345|case:mixed|eff:yes|nc:6|nw:2|space:no|beta:2|version:bleu-explorer-...'
        """
        parts = [
            f"nrefs:{'var' if nrefs == -1 else nrefs}",
            *(f"{k}:{v}" for k, v in test.items() if v is not None),
            *(f"{k}:{v}" for k, v in self._keys()),
            f"beta:{self.beta}",
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
    ) -> str:
        """The signature sacreBLEU 2.6.0 prints for this setting: ``CHRF.get_signature()``, and with ``test``
        (``bs``/``ar``), ``trials`` and ``seed`` what ``PairedTest`` (``--paired-bs``/``--paired-ar``) signs
        (``seed`` None: sacreBLEU's unseeded ``none``). ``confidence_trials``: bootstrap resamples of an
        interval (``--confidence``, or ``PairedTest``'s ``n_ar_confidence``), signed as ``bs:``. ``short``:
        ``--short``'s abbreviations. Every chrF setting has one (sacreBLEU's signature leaves beta to the name).

        Example:
            >>> Chrf().sacrebleu_signature(2, test="ar", trials=10000, seed=12345)
            'nrefs:2|ar:10000|seed:12345|case:mixed|eff:yes|nc:6|nw:0|space:no|version:2.6.0'
            >>> Chrf(lowercase=True).sacrebleu_signature(1, test="bs", trials=1000, seed=12345, short=True)
            '#:1|bs:1000|rs:12345|c:lc|e:yes|nc:6|nw:0|s:no|v:2.6.0'
        """
        if test not in (None, "bs", "ar"):
            raise InputError(f"unknown paired test {test!r} (known: bs, ar)", "test")
        tested = test is not None or confidence_trials is not None
        info: list[tuple[str, object]] = [
            ("nrefs", "var" if nrefs == -1 else nrefs),
            ("bs", trials if test == "bs" else confidence_trials),
            ("ar", trials if test == "ar" else None),
            ("seed", str(seed).lower() if tested else None),
            *self._keys(),
            ("version", SACREBLEU_VERSION),
        ]
        return "|".join(f"{_SHORT[k] if short else k}:{v}" for k, v in info if v is not None)

    def _keys(self) -> list[tuple[str, object]]:
        """CHRFSignature's own keys, in its order."""
        return [
            ("case", "lc" if self.lowercase else "mixed"),
            ("eff", "no" if self.eps_smoothing else "yes"),
            ("nc", self.char_order),
            ("nw", self.word_order),
            ("space", "yes" if self.whitespace else "no"),
        ]

    # --- results ------------------------------------------------------------------------------------

    def score_matrix(self, matrix: np.ndarray | Sequence[Sequence[int]] | bytearray, nrefs: int | str) -> ChrfScore:
        """The corpus :class:`ChrfScore` of per-segment statistics (an array, a list of rows, or the kernel's int64
        rows as bytes), keeping them.

        Example:
            >>> Chrf(char_order=1).score_matrix([[2, 3, 1], [2, 2, 1]], 1).statistics
            [4, 5, 2]
        """
        width = self.width
        data: object
        if isinstance(matrix, bytearray):  # the kernel's int64 rows, summed without numpy
            column = memoryview(matrix).cast("q")
            sums = [sum(column[j::width]) for j in range(width)]
            data = matrix
        elif hasattr(matrix, "shape"):
            arr: np.ndarray = matrix  # type: ignore[assignment]
            if arr.ndim != 2 or arr.shape[1] != width:
                raise InputError(f"matrix has shape {arr.shape}, expected {width} columns", "matrix")
            sums = [int(x) for x in arr.sum(axis=0).tolist()] if len(arr) else [0] * width
            data = arr
        else:
            rows = [tuple(int(x) for x in r) for r in matrix]
            if any(len(r) != width for r in rows):
                raise InputError(f"rows must have {width} values", "matrix")
            sums = [sum(col) for col in zip(*rows, strict=True)] if rows else [0] * width
            data = rows
        return ChrfScore(
            score=self.score(sums),
            name=self.name,
            char_order=self.char_order,
            word_order=self.word_order,
            beta=self.beta,
            statistics=sums,
            signature=self.signature(nrefs),
            sacrebleu_signature=self.sacrebleu_signature(nrefs),
            _segment_data=data,
        )


@dataclass(frozen=True, slots=True, eq=False)
class ChrfScore:
    """A chrF score with what it was computed from.

    Attributes:
        score: chrF on sacreBLEU's 0-100 scale.
        name: sacreBLEU's name (``chrF2``, ``chrF2++``).
        char_order: character orders.
        word_order: word orders.
        beta: recall's weight.
        statistics: the summed statistics, ``[hyp, ref, match]`` per character order then per word order
            (sacreBLEU's order).
        signature: ours (with beta and our version).
        sacrebleu_signature: what ``sacrebleu -m chrf`` prints beside the same number.
        segment_matrix: the per-segment statistics the score was summed from.
    """

    score: float
    name: str
    char_order: int
    word_order: int
    beta: float
    statistics: list[int]
    signature: str = ""
    sacrebleu_signature: str = ""
    _segment_data: object = field(default=None, repr=False)

    @property
    def segment_matrix(self) -> np.ndarray | None:
        """The (segments x 3 * orders) int64 statistics the score was summed from (an array on first access
        when the ``Counter`` path counted them)."""
        data = self._segment_data
        if data is None or hasattr(data, "shape"):
            return data  # type: ignore[return-value]
        arr = as_matrix(data, len(self.statistics))  # type: ignore[arg-type]
        object.__setattr__(self, "_segment_data", arr)
        return arr

    def format(self, width: int = 2) -> str:
        """sacreBLEU's line without a signature, e.g. ``chrF2 = 52.34``."""
        return f"{self.name} = {self.score:.{width}f}"

    def to_dict(self) -> dict[str, object]:
        """The score as a JSON object."""
        return {
            "name": self.name,
            "score": self.score,
            "statistics": list(self.statistics),
            "signature": self.signature,
            "sacrebleu_signature": self.sacrebleu_signature,
        }

    def __str__(self) -> str:
        return self.format()


def _metric(
    char_order: int,
    word_order: int,
    beta: float,
    lowercase: bool,
    whitespace: bool,
    eps_smoothing: bool,
    remove_whitespace: bool | None,
) -> Chrf:
    if remove_whitespace is not None:
        _flag(remove_whitespace, "remove_whitespace")
        if whitespace and remove_whitespace:
            raise InputError("contradicts whitespace=True; give one of the two", "remove_whitespace")
        whitespace = not remove_whitespace
    return Chrf(
        char_order=char_order,
        word_order=word_order,
        beta=beta,
        lowercase=lowercase,
        whitespace=whitespace,
        eps_smoothing=eps_smoothing,
    )


def corpus_chrf(
    hypotheses: Sequence[str],
    references: Sequence[Sequence[str | None]],
    *,
    char_order: int = 6,
    word_order: int = 0,
    beta: float = 2,
    lowercase: bool = False,
    whitespace: bool = False,
    eps_smoothing: bool = False,
    remove_whitespace: bool | None = None,
    engine: Engine = "auto",
) -> ChrfScore:
    """Corpus chrF (chrF++ with ``word_order=2``): sacreBLEU's ``CHRF(...).corpus_score``, the same number.

    Args:
        hypotheses: one candidate string per segment.
        references: reference streams: ``references[k][i]`` is reference k of segment i; ``None`` where a segment
            has fewer references.
        char_order: character n-gram orders.
        word_order: word n-gram orders (2: chrF++).
        beta: recall's weight.
        lowercase: case-insensitive.
        whitespace: keep whitespace in character n-grams.
        eps_smoothing: chrF++.py's epsilon smoothing instead of the effective order.
        remove_whitespace: ``sacrebleu.corpus_chrf``'s name for ``not whitespace`` (give one of the two).
        engine: ``kernel``, ``explain`` or ``auto`` (small corpora are counted in Python, without numpy).

    Returns:
        The :class:`ChrfScore`, with the per-segment statistics it was summed from.

    Raises:
        InputError: a bad option, a flat list of references, streams of different lengths.

    Example:
        >>> s = corpus_chrf(["The cat sat on a mat."], [["The cat sat on the mat."]])
        >>> round(s.score, 4), s.name, s.statistics[:3]
        (65.8003, 'chrF2', [16, 18, 15])
        >>> s.sacrebleu_signature
        'nrefs:1|case:mixed|eff:yes|nc:6|nw:0|space:no|version:2.6.0'
    """
    metric = _metric(char_order, word_order, beta, lowercase, whitespace, eps_smoothing, remove_whitespace)
    hyps, streams = check_streams(hypotheses, references)
    n = len(hyps)
    # the characters decide only below SMALL_CORPUS lines (engine.choose), so larger corpora are not walked for them
    chosen = choose_engine(engine, n, corpus_chars(hyps, *streams) if n < SMALL_CORPUS else None)
    prepared = ChrfReferences(metric, streams, chosen)
    return metric.score_matrix(prepared.rows(hyps, checked=True), prepared.nrefs)


def sentence_chrf(
    hypothesis: str,
    references: Sequence[str],
    *,
    char_order: int = 6,
    word_order: int = 0,
    beta: float = 2,
    lowercase: bool = False,
    whitespace: bool = False,
    eps_smoothing: bool = False,
    remove_whitespace: bool | None = None,
) -> ChrfScore:
    """Sentence chrF: sacreBLEU's ``CHRF(...).sentence_score``, one candidate against its references.

    For many pairs at once, :func:`bleu_core.metrics.sentences.sentence_scores` gives the same numbers.

    Example:
        >>> round(sentence_chrf("The cat sat on a mat.", ["The cat sat on the mat.", "A cat."]).score, 4)
        65.8003
    """
    if not isinstance(hypothesis, str):
        raise InputError(f"must be a string, got {type(hypothesis).__name__}", "hypothesis")
    if isinstance(references, str) or not isinstance(references, Sequence):
        raise InputError("must be a list of reference strings for this sentence", "references")
    return corpus_chrf(
        [hypothesis],
        [[r] for r in references],
        char_order=char_order,
        word_order=word_order,
        beta=beta,
        lowercase=lowercase,
        whitespace=whitespace,
        eps_smoothing=eps_smoothing,
        remove_whitespace=remove_whitespace,
    )
