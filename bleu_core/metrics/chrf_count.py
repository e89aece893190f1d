"""chrF's per-segment statistics: references prepared once, counted by the C kernel or with ``Counter``s.

A segment's row is, per character order 1..``char_order`` and then per word order 1..``word_order``,
``[hypothesis n-grams, reference n-grams, matches]`` against the reference with the best sentence f-score (the first
of equals; a hypothesis count is 0 where the reference has no n-gram of that order), as sacreBLEU's
``CHRF._compute_segment_statistics``. Character n-grams are code points of the Python ``str`` with ``str.split()``'s
whitespace removed (unless ``whitespace``); words are ``str.split()``'s with a punctuation mark split off one end
(``CHRF._remove_punctuation``).

Two engines give the same rows: the C kernel (``_chrf_kernel.c``; it counts without the interpreter lock, so a large
system is split between the cores) and this module's ``Counter`` path, sacreBLEU's algorithm written out, which is
also the tests' second oracle beside sacreBLEU. :func:`choose_engine` picks one as ``engine.choose`` does for BLEU.
"""

from __future__ import annotations

import itertools
import os
from collections import Counter
from collections.abc import Callable, Sequence
from types import ModuleType
from typing import TYPE_CHECKING, Final, Literal, Protocol, TypeVar

from bleu_core.engine.choose import choose
from bleu_core.engine.stats import check_streams
from bleu_core.errors import InputError

if TYPE_CHECKING:
    import numpy as np

    # the module, not a name from it: import-linter sees no compiled module and takes a name imported from one
    # for an import of bleu_core itself (which would break the layers)
    from . import _chrf_kernel as kernel_stub
    from .chrf_fscore import FScore

__all__ = [
    "PARALLEL_SEGMENTS",
    "ChrfReferences",
    "ChrfSetting",
    "check_references",
    "choose_engine",
    "kernel_on",
    "words",
]

_chrf_kernel: ModuleType | None
try:
    from . import _chrf_kernel
except ImportError:  # pragma: no cover - depends on the build
    _chrf_kernel = None

PARALLEL_SEGMENTS: Final = 1000
"""The kernel gives each core at least this many segments of a system (fewer: one thread; starting more costs
more than it saves)."""

_PUNCTS: Final = frozenset("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~")  # CHRF._PUNCTS
_T = TypeVar("_T")
Row = tuple[int, ...]
Gram = str | tuple[str, ...]  # a character n-gram, or a word n-gram's words
NgramCounts = list[Counter[Gram]]


class ChrfSetting(Protocol):
    """What counting reads of a :class:`~bleu_core.metrics.chrf.Chrf` (a protocol, so that this module does not
    import the metric that imports it).

    Example:
        >>> from bleu_core.metrics.chrf import Chrf
        >>> setting: ChrfSetting = Chrf(word_order=2)
        >>> setting.width, setting.fscore.orders
        (24, 8)
    """

    @property
    def char_order(self) -> int: ...
    @property
    def word_order(self) -> int: ...
    @property
    def lowercase(self) -> bool: ...
    @property
    def whitespace(self) -> bool: ...
    @property
    def eps_smoothing(self) -> bool: ...
    @property
    def width(self) -> int: ...
    @property
    def fscore(self) -> FScore: ...


def words(line: str) -> list[str]:
    """CHRF._remove_punctuation: ``str.split()``'s words, a punctuation mark split off the end, else the start.

    Example:
        >>> words("(hi) there, 'you'")
        ['(hi', ')', 'there', ',', "'you", "'"]
    """
    out: list[str] = []
    for w in line.split():
        if len(w) == 1:
            out.append(w)
        elif w[-1] in _PUNCTS:  # "(hi)" gives "(hi" and ")" (sacreBLEU issue #124)
            out += [w[:-1], w[-1]]
        elif w[0] in _PUNCTS:
            out += [w[0], w[1:]]
        else:
            out.append(w)
    return out


def kernel_on() -> bool:
    """Whether the chrF kernel is built and not switched off (``BLEU_CORE_KERNEL=0``, as BLEU's)."""
    return _chrf_kernel is not None and os.environ.get("BLEU_CORE_KERNEL", "1") != "0"


def choose_engine(
    engine: str, n_segments: int | None = None, n_chars: int | None = None
) -> Literal["kernel", "explain"]:
    """``engine.choose``'s rule (names, sizes, ``BLEU_CORE_KERNEL=0``), with this metric's kernel.

    Example:
        >>> choose_engine("explain"), choose_engine("auto", 3, 60)
        ('explain', 'explain')
    """
    chosen = choose(engine, n_segments, n_chars)
    if chosen == "kernel" and not kernel_on():
        if engine == "kernel":
            raise InputError("the chrF kernel is not built (reinstall with a C compiler) or is switched off", "engine")
        return "explain"
    return chosen


def check_references(references: Sequence[Sequence[str | None]]) -> list[list[str | None]]:
    """Reference streams checked as ``check_streams`` checks them, without hypotheses: each as long as the first.

    Raises:
        InputError: not streams of strings (None for a missing reference), of different lengths, or a segment
            without any reference.
    """
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
        metric: the :class:`~bleu_core.metrics.chrf.Chrf` setting.
        nrefs: references per segment (-1 when it varies, sacreBLEU's ``var``).
        n_segments: segments.
        backend: ``kernel`` or ``explain``.

    Example:
        >>> from bleu_core.metrics.chrf import Chrf
        >>> refs = Chrf(char_order=2).prepare([["ab", "b c d"]])
        >>> refs.stats(["ab", "bcx"]).tolist()
        [[2, 2, 2, 1, 1, 1], [3, 3, 2, 2, 2, 1]]
    """

    __slots__ = ("_impl", "backend", "metric", "n_segments", "nrefs")

    def __init__(
        self, metric: ChrfSetting, streams: list[list[str | None]], backend: Literal["kernel", "explain"]
    ) -> None:
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
        return hyps

    def rows(self, hypotheses: Sequence[str], *, parallel: bool = True, checked: bool = False) -> bytearray | list[Row]:
        """:meth:`stats` as the engine gives them, without numpy: the kernel's int64 rows as bytes, or the
        ``Counter`` path's rows. ``checked``: the hypotheses are a list of str of the right length already."""
        hyps = list(hypotheses) if checked else self._check(hypotheses)
        if self.metric.lowercase:
            hyps = [h.lower() for h in hyps]
        return self._impl.rows(hyps, parallel=parallel)

    def stats(self, hypotheses: Sequence[str], *, parallel: bool = True) -> np.ndarray:
        """A system's (segments x ``width``) int64 statistics, each segment's against its best reference.

        Args:
            hypotheses: one line per segment.
            parallel: the kernel splits a large corpus between the cores (the same rows).

        Raises:
            InputError: not a list of strings, or not one per segment.
        """
        return as_matrix(self.rows(hypotheses, parallel=parallel), self.metric.width)

    def stats_many(self, systems: Sequence[Sequence[str]]) -> list[np.ndarray]:
        """:meth:`stats` of several systems, one thread per system up to the number of cores (the kernel counts
        without holding the interpreter lock).

        Example:
            >>> from bleu_core.metrics.chrf import Chrf
            >>> refs = Chrf(char_order=1).prepare([["ab"]])
            >>> [m.tolist() for m in refs.stats_many([["a"], ["ba"]])]
            [[[1, 2, 1]], [[2, 2, 2]]]
        """
        if self.backend != "kernel" or len(systems) < 2:
            return [self.stats(h) for h in systems]
        return _in_threads([lambda h=h: self.stats(h, parallel=False) for h in systems])  # type: ignore[misc]


def as_matrix(rows: bytearray | list[Row], width: int) -> np.ndarray:
    """Rows as :meth:`ChrfReferences.rows` gives them, as a (segments x ``width``) int64 array."""
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

    def __init__(self, metric: ChrfSetting, streams: list[list[str | None]]) -> None:
        assert _chrf_kernel is not None
        self._metric = metric
        self._refs: kernel_stub.References = _chrf_kernel.References(streams, metric.whitespace, metric.word_order > 0)

    def rows(self, hyps: list[str], *, parallel: bool) -> bytearray:
        m = self._metric
        f = m.fscore
        refs, options = self._refs, (m.char_order, m.word_order, f.factor, f.onep, m.eps_smoothing)
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
    """sacreBLEU's algorithm with ``Counter``s: the references' n-grams counted once, a hypothesis's per system."""

    __slots__ = ("_metric", "_refs")

    def __init__(self, metric: ChrfSetting, streams: list[list[str | None]]) -> None:
        self._metric = metric
        self._refs = [[self._ngrams(r) for r in row if r is not None] for row in zip(*streams, strict=True)]

    def rows(self, hyps: list[str], *, parallel: bool) -> list[Row]:
        return [self._segment_row(self._ngrams(h), refs) for h, refs in zip(hyps, self._refs, strict=True)]

    def _ngrams(self, line: str) -> NgramCounts:
        """sacreBLEU's n-gram Counters of a (lowercased) line: characters, then words."""
        m = self._metric
        chars = line if m.whitespace else "".join(line.split())
        counts: NgramCounts = []
        for n in range(1, m.char_order + 1):
            counts.append(Counter(chars[i : i + n] for i in range(len(chars) - n + 1)))
        tokens = words(line) if m.word_order else []
        for n in range(1, m.word_order + 1):
            counts.append(Counter(tuple(tokens[i : i + n]) for i in range(len(tokens) - n + 1)))
        return counts

    def _segment_row(self, hyp: NgramCounts, refs: Sequence[NgramCounts]) -> Row:
        """The statistics against each reference; the best by f-score (the first of equals) is the row."""
        best: Row = (0,) * self._metric.width
        best_f = -1.0
        for ref in refs:
            row: list[int] = []
            for h, r in zip(hyp, ref, strict=True):
                matches = sum(min(c, r[g]) for g, c in h.items() if g in r)
                row += [sum(h.values()) if r else 0, sum(r.values()), matches]
            f = self._metric.fscore.one(row)
            if f > best_f:
                best, best_f = tuple(row), f
        return best
