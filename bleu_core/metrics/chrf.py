"""chrF and chrF++ (Popović 2015, 2017) exactly as sacreBLEU 2.6.0 computes them, on the metric seam.

A segment's statistics are, per character order 1..``char_order`` and then per word order 1..``word_order``,
``[hypothesis n-grams, reference n-grams, matches]`` against the reference with the best sentence f-score (the
first of equals; a hypothesis n-gram count is 0 where the reference has no n-gram of that order), as sacreBLEU's
``CHRF._compute_segment_statistics``; the corpus score is the f-score of their column sums. Character n-grams are
code points of the Python ``str`` with ``str.split()``'s whitespace removed (unless ``whitespace``); words are
``str.split()``'s, with a punctuation mark split off one end (``CHRF._remove_punctuation``).

Two engines count: the C kernel (``_chrf_kernel.c``) and this module's ``Counter`` path, which is also the tests'
second oracle beside sacreBLEU. The f-score is sacreBLEU's ``_compute_f_score`` operation for operation, in pure
Python (:meth:`Chrf.score`), vectorised (:meth:`Chrf.score_many`), and vectorised in the float32 arithmetic
sacreBLEU's paired bootstrap scores its resamples in (:meth:`Chrf.score_many_float32`).
"""

from __future__ import annotations

import itertools
import os
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from types import ModuleType
from typing import TYPE_CHECKING, Final, Literal, TypeVar

from bleu_core._version import __version__
from bleu_core.engine.choose import SMALL_CORPUS, choose, corpus_chars
from bleu_core.engine.stats import check_streams
from bleu_core.errors import InputError

from .signature import SACREBLEU_VERSION

if TYPE_CHECKING:
    import numpy as np

    from bleu_core.metrics._chrf_kernel import References as KernelReferences

__all__ = ["MAX_ORDER", "OPTIONS", "Chrf", "ChrfReferences", "ChrfScore", "corpus_chrf", "sentence_chrf"]

_chrf_kernel: ModuleType | None
try:
    from . import _chrf_kernel
except ImportError:  # pragma: no cover - depends on the build
    _chrf_kernel = None

OPTIONS: Final = ("char_order", "word_order", "beta", "lowercase", "whitespace", "eps_smoothing")
"""sacreBLEU's chrF options, by its names (``CHRF(...)``'s arguments)."""
MAX_ORDER: Final = 1000
"""The largest character or word order accepted (an order beyond a line's length counts nothing)."""
PARALLEL_SEGMENTS: Final = 1000
"""The kernel gives each core at least this many segments of a system (fewer: one thread; starting more costs
more than it saves)."""

EPS: Final = 1e-16  # sacreBLEU's chrF++.py-style epsilon
_PUNCTS: Final = frozenset("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~")  # CHRF._PUNCTS
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
_T = TypeVar("_T")
Row = tuple[int, ...]
Gram = str | tuple[str, ...]  # a character n-gram, or a word n-gram's words
NgramCounts = list[Counter[Gram]]


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
    def _orders(self) -> int:
        return self.char_order + self.word_order

    @property
    def _factor(self) -> float:
        # beta ** 2 and 1 + beta ** 2 as Python multiplies them into a float (an int beta's square is exact)
        return float(self.beta**2)

    @property
    def _onep(self) -> float:
        return float(1 + self.beta**2)

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
        streams = _check_references(references)
        return ChrfReferences(self, streams, _choose(engine))

    # --- scores -------------------------------------------------------------------------------------

    def score(self, stats: Sequence[float]) -> float:
        """The f-score (0-100) of one row of (summed) statistics: sacreBLEU's ``CHRF._compute_f_score``, in
        pure Python, operation for operation.

        Example:
            >>> round(Chrf().score([3, 3, 2, 2, 2, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]), 6)
            38.888889
        """
        factor, onep = self._factor, self._onep
        score, avg_prec, avg_rec, effective = 0.0, 0.0, 0.0, 0
        for i in range(self._orders):
            n_hyp, n_ref, n_match = stats[3 * i : 3 * i + 3]
            prec = n_match / n_hyp if n_hyp > 0 else EPS
            rec = n_match / n_ref if n_ref > 0 else EPS
            denom = factor * prec + rec
            score += (onep * prec * rec / denom) if denom > 0 else EPS
            if n_hyp > 0 and n_ref > 0:
                avg_prec += prec
                avg_rec += rec
                effective += 1
        if self.eps_smoothing:
            return 100 * score / self._orders
        if effective:
            avg_prec /= effective
            avg_rec /= effective
        if avg_prec + avg_rec:
            score = onep * avg_prec * avg_rec
            score /= factor * avg_prec + avg_rec
            return 100 * score
        return 0.0

    def score_many(self, sums: np.ndarray) -> np.ndarray:
        """:meth:`score` of every row of a (rows x :attr:`width`) matrix of summed statistics, vectorised; equal
        to sacreBLEU's ``_compute_score_from_stats`` on integer statistics, bit for bit (its corpus score, and
        the scores of ``--paired-ar``'s shuffles, which it sums as int64).

        Example:
            >>> import numpy as np
            >>> m = Chrf(char_order=1)
            >>> m.score_many(np.array([[4, 5, 2], [0, 3, 0], [0, 0, 0]])).tolist()
            [41.66666666666667, 0.0, 0.0]
        """
        import numpy as np

        m = self._rows_of(sums, np.float64)
        n = len(m)
        factor, onep = self._factor, self._onep
        score = np.zeros(n)
        avg_prec, avg_rec = np.zeros(n), np.zeros(n)
        effective = np.zeros(n, dtype=np.int64)
        with np.errstate(divide="ignore", invalid="ignore"):
            for i in range(self._orders):
                n_hyp, n_ref, n_match = m[:, 3 * i], m[:, 3 * i + 1], m[:, 3 * i + 2]
                has_hyp, has_ref = n_hyp > 0, n_ref > 0
                prec = np.where(has_hyp, n_match / np.where(has_hyp, n_hyp, 1.0), EPS)
                rec = np.where(has_ref, n_match / np.where(has_ref, n_ref, 1.0), EPS)
                denom = factor * prec + rec
                positive = denom > 0
                score = score + np.where(positive, onep * prec * rec / np.where(positive, denom, 1.0), EPS)
                both = has_hyp & has_ref
                avg_prec = np.where(both, avg_prec + prec, avg_prec)
                avg_rec = np.where(both, avg_rec + rec, avg_rec)
                effective += both
            if self.eps_smoothing:
                return 100 * score / self._orders
            some = effective > 0
            avg_prec = np.where(some, avg_prec / np.maximum(effective, 1), 0.0)
            avg_rec = np.where(some, avg_rec / np.maximum(effective, 1), 0.0)
            nonzero = (avg_prec + avg_rec) != 0
            f = onep * avg_prec * avg_rec / np.where(nonzero, factor * avg_prec + avg_rec, 1.0)
            return np.where(nonzero, 100 * f, 0.0)

    def score_many_float32(self, sums: np.ndarray) -> np.ndarray:
        """The scores sacreBLEU's paired bootstrap gives resamples with these column sums, bit for bit.

        ``sacrebleu --paired-bs`` (and the intervals of ``--paired-ar`` and ``--confidence``) holds statistics
        as float32 and scores each resample's float32 sums with ``_compute_score_from_stats``; with numpy 2's
        promotion rules (NEP 50) the arithmetic then stays float32 wherever a float32 statistic enters, and stays
        a Python float where only the epsilon and the constants do. This is that arithmetic, vectorised. The
        result is the array sacreBLEU makes of the scores: float32, or float64 when a score is a Python float
        (``0.0`` for a resample without a match).

        Args:
            sums: (rows x :attr:`width`) column sums of resamples. They are taken to float32 here; integers below
                2**24 are exact there, as sacreBLEU's float32 sums of the same resample are.

        Example:
            >>> import numpy as np
            >>> s = Chrf(char_order=1).score_many_float32(np.array([[4, 5, 2], [3, 3, 1]]))
            >>> s.dtype.name, s.tolist() == [np.float32(41.666664), np.float32(33.333336)]
            ('float32', True)
        """
        import numpy as np

        f32 = np.float32
        m = self._rows_of(sums, f32)
        n = len(m)
        beta2 = self.beta**2
        # the constants as numpy casts them when they meet a float32 (Python numbers are "weak" under NEP 50)
        factor32, onep32, eps32 = f32(1) * beta2, f32(1) * (1 + beta2), f32(1) * EPS
        factor, onep = self._factor, self._onep
        score = np.zeros(n)  # the values, exactly; is32: whether the value is a float32 (else a Python float)
        is32 = np.zeros(n, dtype=bool)
        avg_prec, avg_rec = np.zeros(n, dtype=f32), np.zeros(n, dtype=f32)
        effective = np.zeros(n, dtype=np.int64)
        with np.errstate(divide="ignore", invalid="ignore", over="ignore", under="ignore"):
            for i in range(self._orders):
                n_hyp, n_ref, n_match = m[:, 3 * i], m[:, 3 * i + 1], m[:, 3 * i + 2]
                has_hyp, has_ref = n_hyp > 0, n_ref > 0
                prec = n_match / np.where(has_hyp, n_hyp, f32(1))  # float32 where has_hyp (else EPS, a float)
                rec = n_match / np.where(has_ref, n_ref, f32(1))
                # the term of each case of (prec, rec) types: (f32, f32), (f32, EPS), (EPS, f32), (EPS, EPS)
                d_both = factor32 * prec + rec
                d_hyp = factor32 * prec + eps32
                d_ref = f32(factor * EPS) + rec
                d_none = factor * EPS + EPS
                t_both = onep32 * prec * rec / np.where(d_both > 0, d_both, f32(1))
                t_hyp = onep32 * prec * eps32 / d_hyp
                t_ref = f32(onep * EPS) * rec / np.where(d_ref > 0, d_ref, f32(1))
                t_none = onep * EPS * EPS / d_none
                cases = [has_hyp & has_ref, has_hyp, has_ref]
                # float32 values, exact in float64 (a Python float default would be cast to float32 by select)
                as64 = [t.astype(np.float64) for t in (t_both, t_hyp, t_ref)]
                term = np.select(cases, as64, np.float64(t_none))
                # a denominator of 0 adds the Python float EPS; so do the terms without a float32 in them
                term32 = np.select(cases, [d_both > 0, True, d_ref > 0], False)
                term = np.where(term32 | ~(has_hyp | has_ref), term, EPS)
                either = is32 | term32
                summed32 = (score.astype(f32) + term.astype(f32)).astype(np.float64)
                score = np.where(either, summed32, score + term)
                is32 = either
                both = has_hyp & has_ref
                avg_prec = np.where(both, avg_prec + prec, avg_prec)
                avg_rec = np.where(both, avg_rec + rec, avg_rec)
                effective += both
            if self.eps_smoothing:
                as32 = (f32(100) * score.astype(f32) / f32(self._orders)).astype(np.float64)
                values, is_float = np.where(is32, as32, 100 * score / self._orders), ~is32
            else:
                some = effective > 0
                avg_prec = np.where(some, avg_prec / np.maximum(effective, 1).astype(f32), f32(0))
                avg_rec = np.where(some, avg_rec / np.maximum(effective, 1).astype(f32), f32(0))
                nonzero = some & ((avg_prec + avg_rec) != 0)
                f = onep32 * avg_prec * avg_rec / np.where(nonzero, factor32 * avg_prec + avg_rec, f32(1))
                values, is_float = np.where(nonzero, (f32(100) * f).astype(np.float64), 0.0), ~nonzero
        return values if is_float.any() else values.astype(f32)

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

    def score_matrix(self, matrix: np.ndarray | Sequence[Sequence[int]], nrefs: int | str) -> ChrfScore:
        """The corpus :class:`ChrfScore` of per-segment statistics (an array or a list of rows), keeping them.

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

    # --- the Counter path (the kernel's oracle) -----------------------------------------------------

    def _ngrams(self, line: str) -> NgramCounts:
        """sacreBLEU's n-gram Counters of a (lowercased) line: characters, then words."""
        chars = line if self.whitespace else "".join(line.split())
        counts: NgramCounts = []
        for n in range(1, self.char_order + 1):
            counts.append(Counter(chars[i : i + n] for i in range(len(chars) - n + 1)))
        words = _words(line) if self.word_order else []
        for n in range(1, self.word_order + 1):
            counts.append(Counter(tuple(words[i : i + n]) for i in range(len(words) - n + 1)))
        return counts

    def _segment_row(self, hyp: NgramCounts, refs: Sequence[NgramCounts]) -> Row:
        best: Row = (0,) * self.width
        best_f = -1.0
        for ref in refs:
            row: list[int] = []
            for h, r in zip(hyp, ref, strict=True):
                matches = sum(min(c, r[g]) for g, c in h.items() if g in r)
                row += [sum(h.values()) if r else 0, sum(r.values()), matches]
            f = self.score(row)
            if f > best_f:  # the first of equals stays
                best, best_f = tuple(row), f
        return best


def _words(line: str) -> list[str]:
    """CHRF._remove_punctuation: ``str.split()``'s words, a punctuation mark split off the end, else the start."""
    words: list[str] = []
    for w in line.split():
        if len(w) == 1:
            words.append(w)
        elif w[-1] in _PUNCTS:  # "(hi)" gives "(hi" and ")" (sacreBLEU issue #124)
            words += [w[:-1], w[-1]]
        elif w[0] in _PUNCTS:
            words += [w[0], w[1:]]
        else:
            words.append(w)
    return words


def _kernel_available() -> bool:
    return _chrf_kernel is not None and os.environ.get("BLEU_CORE_KERNEL", "1") != "0"


def _choose(engine: str, n_segments: int | None = None, n_chars: int | None = None) -> Literal["kernel", "explain"]:
    """``engine.choose``'s rule (names, sizes, ``BLEU_CORE_KERNEL=0``), with this metric's kernel."""
    chosen = choose(engine, n_segments, n_chars)
    if chosen == "kernel" and not _kernel_available():
        if engine == "kernel":
            raise InputError("the chrF kernel is not built (reinstall with a C compiler) or is switched off", "engine")
        return "explain"
    return chosen


def _check_references(references: Sequence[Sequence[str | None]]) -> list[list[str | None]]:
    """Reference streams checked as ``stats.check_streams`` checks them, without hypotheses: every stream as
    long as the first."""
    if isinstance(references, str) or not isinstance(references, Sequence) or not references:
        raise InputError("must be a non-empty list of reference streams, one list per reference", "references")
    first = references[0]
    n = len(first) if isinstance(first, Sequence) and not isinstance(first, str) else 0
    for k, stream in enumerate(references):
        if isinstance(stream, Sequence) and not isinstance(stream, str) and len(stream) != n:
            raise InputError(f"reference stream {k + 1} has {len(stream)} segments but stream 1 has {n}", "references")
    _, streams = check_streams([""] * n, references)
    return streams


class ChrfReferences:
    """References made ready once by :meth:`Chrf.prepare` (a :class:`~bleu_core.metrics.base.PreparedReferences`):
    the statistics of any number of systems against them.

    Attributes:
        metric: the :class:`Chrf` setting.
        nrefs: references per segment (-1 when it varies, sacreBLEU's ``var``).
        n_segments: segments.
        backend: ``kernel`` or ``explain``.

    Example:
        >>> refs = Chrf(char_order=2).prepare([["ab", "b c d"]])
        >>> refs.stats(["ab", "bcx"]).tolist()
        [[2, 2, 2, 1, 1, 1], [3, 3, 2, 2, 2, 1]]
    """

    __slots__ = ("_impl", "backend", "metric", "n_segments", "nrefs")

    def __init__(self, metric: Chrf, streams: list[list[str | None]], backend: Literal["kernel", "explain"]) -> None:
        self.metric = metric
        self.backend = backend
        self.n_segments = len(streams[0])
        if all(None not in s for s in streams):
            self.nrefs = len(streams)
        else:  # sacreBLEU counts the references a segment has; when that varies, nrefs:var
            present = Counter(sum(r is not None for r in row) for row in zip(*streams, strict=True))
            self.nrefs = next(iter(present)) if len(present) == 1 else -1
        if metric.lowercase:
            streams = [[None if r is None else r.lower() for r in s] for s in streams]
        self._impl: _KernelImpl | _CounterImpl = (
            _KernelImpl(metric, streams) if backend == "kernel" else _CounterImpl(metric, streams)
        )

    def _check(self, hypotheses: Sequence[str]) -> list[str]:
        n = len(hypotheses) if isinstance(hypotheses, Sequence) else 0  # check_streams names anything else
        hyps, _ = check_streams(hypotheses, [[""] * n])
        if len(hyps) != self.n_segments:
            raise InputError(f"{len(hyps)} segments but the references have {self.n_segments}", "hypotheses")
        return [h.lower() for h in hyps] if self.metric.lowercase else hyps

    def _counted(self, hypotheses: Sequence[str], *, parallel: bool = True) -> bytearray | list[Row]:
        """:meth:`stats` as the engine gives them, without numpy: the kernel's int64 rows as bytes, or the
        ``Counter`` path's rows."""
        return self._impl.rows(self._check(hypotheses), parallel=parallel)

    def stats(self, hypotheses: Sequence[str], *, parallel: bool = True) -> np.ndarray:
        """A system's (segments x ``width``) int64 statistics, each segment's against its best reference.

        Args:
            hypotheses: one line per segment.
            parallel: the kernel splits a large corpus between the cores (the same rows).

        Raises:
            InputError: not a list of strings, or not one per segment.
        """
        return _matrix(self._counted(hypotheses, parallel=parallel), self.metric.width)

    def stats_many(self, systems: Sequence[Sequence[str]]) -> list[np.ndarray]:
        """:meth:`stats` of several systems, one thread per system up to the number of cores (the kernel counts
        without holding the interpreter lock).

        Example:
            >>> refs = Chrf(char_order=1).prepare([["ab"]])
            >>> [m.tolist() for m in refs.stats_many([["a"], ["ba"]])]
            [[[1, 2, 1]], [[2, 2, 2]]]
        """
        if self.backend != "kernel" or len(systems) < 2:
            return [self.stats(h) for h in systems]
        return _in_threads([lambda h=h: self.stats(h, parallel=False) for h in systems])  # type: ignore[misc]


def _matrix(rows: bytearray | list[Row], width: int) -> np.ndarray:
    import numpy as np

    if isinstance(rows, bytearray):
        return np.frombuffer(rows, dtype=np.int64).reshape(-1, width)
    return np.array(rows, dtype=np.int64).reshape(len(rows), width)


def _in_threads(calls: Sequence[Callable[[], _T]]) -> list[_T]:
    """Each call's result, in order, one thread per call up to the number of cores."""
    import concurrent.futures

    workers = min(len(calls), os.cpu_count() or 1)
    if workers <= 1:
        return [c() for c in calls]
    with concurrent.futures.ThreadPoolExecutor(workers, thread_name_prefix="chrf-kernel") as pool:
        return list(pool.map(lambda c: c(), calls))


class _KernelImpl:
    __slots__ = ("_metric", "_refs")

    def __init__(self, metric: Chrf, streams: list[list[str | None]]) -> None:
        assert _chrf_kernel is not None
        self._metric = metric
        self._refs: KernelReferences = _chrf_kernel.References(streams, metric.whitespace, metric.word_order > 0)

    def rows(self, hyps: list[str], *, parallel: bool) -> bytearray:
        m = self._metric
        refs, options = self._refs, (m.char_order, m.word_order, m._factor, m._onep, m.eps_smoothing)
        n = len(hyps)
        parts = min(os.cpu_count() or 1, n // PARALLEL_SEGMENTS) if parallel else 1
        if parts <= 1:
            return refs.stats(hyps, *options)
        cuts = [n * i // parts for i in range(parts + 1)]
        chunks = _in_threads(
            [lambda a=a, b=b: refs.stats(hyps, *options, a, b) for a, b in itertools.pairwise(cuts)]  # type: ignore[misc]
        )
        return bytearray().join(chunks)


class _CounterImpl:
    __slots__ = ("_metric", "_refs")

    def __init__(self, metric: Chrf, streams: list[list[str | None]]) -> None:
        self._metric = metric
        self._refs = [[metric._ngrams(r) for r in row if r is not None] for row in zip(*streams, strict=True)]

    def rows(self, hyps: list[str], *, parallel: bool) -> list[Row]:
        m = self._metric
        return [m._segment_row(m._ngrams(h), refs) for h, refs in zip(hyps, self._refs, strict=True)]


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
        arr = _matrix(data, len(self.statistics))  # type: ignore[arg-type]
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
    chosen = _choose(engine, n, corpus_chars(hyps, *streams) if n < SMALL_CORPUS else None)
    prepared = ChrfReferences(metric, streams, chosen)
    if metric.lowercase:
        hyps = [h.lower() for h in hyps]
    return metric.score_matrix(prepared._impl.rows(hyps, parallel=True), prepared.nrefs)  # type: ignore[arg-type]


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
