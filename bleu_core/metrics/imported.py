"""Imported segment scores as a metric: another tool's per-segment numbers (COMET, a human score), averaged.

Any metric whose corpus score is the mean of its segment scores fits the seam with two statistics per segment,
``[score, 1]``: a corpus, a bootstrap resample, an approximate-randomization shuffle and a slice are column sums,
and the score is ``sum(scores) / sum(ones)``, the mean of the rows they hold. The paired bootstrap over these rows
is COMET's ``compare`` test (resampled segments, the mean of each system on the same draws), here with sacreBLEU's
draws, so every test, ranking and slice of the app and the CLI runs on imported scores unchanged.

The resampling code sums statistics as integers (``significance.resample``: exact in int64, and in float32 or
float64 products), so a score is held in fixed point: ``round(score * 10**decimals)`` with ``decimals`` the most
any value of the file has (``0.8434`` needs 4), fewer only when the sums would otherwise pass 2**53 (then
:attr:`SegmentScores.rounded` says so). Nothing is computed that the file did not give: the scores are the file's
decimals, and :attr:`Imported.name` is its column's name.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from decimal import ROUND_HALF_EVEN, Decimal, localcontext
from typing import TYPE_CHECKING, Final, NoReturn

from bleu_core._version import __version__
from bleu_core.errors import InputError

if TYPE_CHECKING:
    import numpy as np

__all__ = ["EXACT_SUMS", "Imported", "SegmentScores", "fixed_point"]

EXACT_SUMS: Final = 2**53
"""Every column sum of a resample or shuffle (at most twice the segments times the largest score, in fixed point:
approximate randomization sums differences) stays below this, where float64 holds integers exactly."""
MAX_DECIMALS: Final = 12


@dataclass(frozen=True, slots=True)
class Imported:
    """The mean of imported segment scores, as a corpus metric (:class:`bleu_core.metrics.base.Metric`).

    Attributes:
        label: the metric's name, the file's column (``COMET``, ``da_z``).
        file: the file the scores came from (for the signature).
        digest: a short content hash of the scores (the signature's, and the cache key).
        decimals: the fixed point of the statistics: a row is ``[round(score * 10**decimals), 1]``.
        higher_is_better: the metric's direction (a higher mean ranks first unless False).

    Example:
        >>> m = Imported("COMET", "comet.tsv", "0123abcd", 2)
        >>> import numpy as np
        >>> m.score_many(np.array([[85 + 71, 2], [0, 0]])).tolist()
        [0.78, 0.0]
        >>> m.signature(1, bs=1000, rs=12345)  # doctest: +ELLIPSIS
        'metric:COMET|file:comet.tsv|sha:0123abcd|mean:segments|bs:1000|rs:12345|version:bleu-explorer-...'
        >>> m.prepare([["a"]])
        Traceback (most recent call last):
        ...
        bleu_core.errors.InputError: COMET: imported scores are read from their file (comet.tsv), never computed
    """

    label: str
    file: str
    digest: str
    decimals: int
    higher_is_better: bool = True

    @property
    def name(self) -> str:
        return self.label

    @property
    def sacrebleu_name(self) -> str:
        return ""

    @property
    def width(self) -> int:
        """Two: the score in fixed point, and the segment's count of one."""
        return 2

    def prepare(self, references: Sequence[Sequence[str]]) -> NoReturn:
        """Imported scores have no statistics to count from references: the rows are the file's
        (:meth:`SegmentScores.matrix`).

        Raises:
            InputError: always.
        """
        raise InputError(f"imported scores are read from their file ({self.file}), never computed", self.label)

    def score_many(self, sums: np.ndarray) -> np.ndarray:
        """The mean score of each row of summed statistics ``[sum of scores in fixed point, segments]`` (0 where
        there is no segment): one division of two exact integers, so the mean is correctly rounded."""
        import numpy as np

        s = np.asarray(sums, dtype=np.float64)
        if s.ndim != 2 or s.shape[1] != 2:
            raise InputError(f"sums of shape {s.shape}, expected (rows x 2)", "sums")
        count = s[:, 1] * float(10**self.decimals)
        out: np.ndarray = np.divide(s[:, 0], count, out=np.zeros(len(s)), where=count > 0)
        return out

    def signature(self, nrefs: int | str = 0, **test: object) -> str:
        """The scores' own signature: the column, the file, its content hash, the mean over segments, ``test``
        (``bs=1000, rs=12345``) and our version. ``nrefs`` is not part of it: the file's tool chose the
        references."""
        parts = [
            f"metric:{_field(self.label)}",
            f"file:{_field(self.file)}",
            f"sha:{self.digest}",
            "mean:segments",
            *(f"{k}:{v}" for k, v in test.items() if v is not None),
            f"version:bleu-explorer-{__version__}",
        ]
        return "|".join(parts)

    def sacrebleu_signature(
        self, nrefs: int | str = 0, *, test: str | None = None, trials: int | None = None, seed: int | None = None
    ) -> None:
        """None: sacreBLEU has no signature for another tool's scores."""
        return


def _field(text: str) -> str:
    """A signature field: no bar (the separator) and no line break."""
    return " ".join(text.split()).replace("|", "/") or "-"


@dataclass(frozen=True, slots=True)
class SegmentScores:
    """One imported metric's scores: per system, one fixed-point integer per segment.

    Attributes:
        metric: the metric (name, file, digest, fixed point).
        systems: the systems' names, in the corpus's order.
        values: per system, its segments' scores times ``10**metric.decimals`` (read-only int64 arrays).
        rounded: the file had more decimals than the sums can hold exactly, so the scores were rounded to
            ``metric.decimals`` (half to even).

    Example:
        >>> s = SegmentScores.from_decimals("COMET", "c.tsv", {"A": ["0.5", "0.25"], "B": ["1", "0"]})
        >>> s.metric.decimals, s.matrix("A").tolist(), s.means()
        (2, [[50, 1], [25, 1]], {'A': 0.375, 'B': 0.5})
        >>> s.cut((1,)).means(), s.renamed({"A": "Z"}).systems
        ({'A': 0.25, 'B': 0.0}, ('Z', 'B'))
    """

    metric: Imported
    systems: tuple[str, ...]
    values: tuple[np.ndarray, ...] = field(repr=False, compare=False)
    rounded: bool = False

    @classmethod
    def from_decimals(
        cls,
        label: str,
        file: str,
        scores: Mapping[str, Sequence[Decimal | str | int]],
        *,
        higher_is_better: bool = True,
    ) -> SegmentScores:
        """Scores given as decimals (or their text), by system, in fixed point (:func:`fixed_point`).

        Raises:
            InputError: a value that is not a finite number, systems of different lengths, scores too large to sum.
        """
        names = tuple(scores)
        rows = [[v if isinstance(v, Decimal) else Decimal(str(v)) for v in scores[n]] for n in names]
        if len({len(r) for r in rows}) > 1:
            raise InputError("every system needs one score per segment", file)
        decimals, ints, rounded = fixed_point(rows, where=file)
        values = tuple(_frozen(v) for v in ints)
        metric = Imported(label, file, _digest(label, names, values, decimals), decimals, higher_is_better)
        return cls(metric, names, values, rounded)

    @classmethod
    def from_fixed(
        cls,
        label: str,
        file: str,
        decimals: int,
        scores: Mapping[str, Sequence[int]],
        *,
        higher_is_better: bool = True,
        rounded: bool = False,
    ) -> SegmentScores:
        """Scores already in fixed point (``10**decimals`` times the score, by system), as :attr:`values` holds them
        (a stored copy read back).

        Raises:
            InputError: systems of different lengths.
        """
        names = tuple(scores)
        values = tuple(_frozen([int(v) for v in scores[n]]) for n in names)
        if len({len(v) for v in values}) > 1:
            raise InputError("every system needs one score per segment", file)
        metric = Imported(label, file, _digest(label, names, values, decimals), decimals, higher_is_better)
        return cls(metric, names, values, rounded)

    @property
    def n_segments(self) -> int:
        """Segments per system."""
        return len(self.values[0]) if self.values else 0

    def matrix(self, system: str) -> np.ndarray:
        """One system's statistics: (segments x 2) int64 rows ``[score in fixed point, 1]``.

        Raises:
            InputError: no such system.
        """
        import numpy as np

        if system not in self.systems:
            raise InputError(f"no scores for system {system!r} (have: {', '.join(self.systems)})", self.metric.label)
        v = self.values[self.systems.index(system)]
        out = np.empty((len(v), 2), dtype=np.int64)
        out[:, 0], out[:, 1] = v, 1
        out.flags.writeable = False
        return out

    def means(self) -> dict[str, float]:
        """Each system's corpus score (the mean of its segments), by name."""
        return {s: float(self.metric.score_many(self.matrix(s).sum(axis=0)[None, :])[0]) for s in self.systems}

    def cut(self, lines: Sequence[int]) -> SegmentScores:
        """The scores of the chosen segments only (0-based, as a slice chose them): a new digest, so that nothing
        cached for the whole test set is read for the slice."""
        import numpy as np

        keep = np.asarray(lines, dtype=np.int64)
        values = tuple(_frozen(v[keep]) for v in self.values)
        m = self.metric
        digest = _digest(m.label, self.systems, values, m.decimals)
        return SegmentScores(Imported(m.label, m.file, digest, m.decimals, m.higher_is_better), self.systems, values)

    def renamed(self, mapping: Mapping[str, str]) -> SegmentScores:
        """The same scores under the systems' new names (names not in ``mapping`` kept)."""
        systems = tuple(mapping.get(s, s) for s in self.systems)
        return SegmentScores(self.metric, systems, self.values, self.rounded)


def fixed_point(rows: Sequence[Sequence[Decimal]], *, where: str = "scores") -> tuple[int, list[list[int]], bool]:
    """Decimals as integers ``round(v * 10**d)``: ``d`` is the most decimals any value has (at most
    :data:`MAX_DECIMALS`), lowered while twice the segments times the largest value would reach
    :data:`EXACT_SUMS`. Returns ``(d, the integers, whether any value was rounded)``.

    Raises:
        InputError: a value that is not finite, or one so large that no fixed point sums it exactly.

    Example:
        >>> fixed_point([[Decimal("0.5"), Decimal("1.25")], [Decimal("-3"), Decimal("2E-1")]])
        (2, [[50, 125], [-300, 20]], False)
        >>> fixed_point([[Decimal("1e300")]])
        Traceback (most recent call last):
        ...
        bleu_core.errors.InputError: scores: a score of 1E+300 is too large to average exactly
    """
    flat = [v for row in rows for v in row]
    for v in flat:
        if not v.is_finite():
            raise InputError(f"{v} is not a finite number", where)
    n = max((len(r) for r in rows), default=0)
    largest = max((abs(v) for v in flat), default=Decimal(0))
    wanted = min(MAX_DECIMALS, max((_places(v) for v in flat), default=0))
    decimals = wanted
    with localcontext() as ctx:
        ctx.prec = 80
        while decimals > 0 and 2 * n * largest * Decimal(10) ** decimals >= EXACT_SUMS:
            decimals -= 1
        if 2 * n * largest >= EXACT_SUMS:
            raise InputError(f"a score of {largest} is too large to average exactly", where)
        scale = Decimal(10) ** decimals
        ints = [[int((v * scale).to_integral_value(rounding=ROUND_HALF_EVEN)) for v in row] for row in rows]
        rounded = decimals < wanted or any(_places(v) > decimals for v in flat)
    return decimals, ints, rounded


def _places(value: Decimal) -> int:
    """The decimals a finite decimal is written with (``0.8434``: 4; ``12``, ``1E+3``: 0)."""
    exponent = value.as_tuple().exponent
    return max(0, -exponent) if isinstance(exponent, int) else 0


def _frozen(values: Sequence[int] | np.ndarray) -> np.ndarray:
    import numpy as np

    out = np.array(values, dtype=np.int64)
    out.flags.writeable = False
    return out


def _digest(label: str, systems: Sequence[str], values: Sequence[np.ndarray], decimals: int) -> str:
    h = hashlib.sha256(repr((label, tuple(systems), decimals)).encode())
    for v in values:
        h.update(v.tobytes())
    return h.hexdigest()[:12]
