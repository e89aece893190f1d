"""The metric seam: what every corpus metric gives the code that resamples, tests, ranks and slices.

A corpus metric here is, like every metric sacreBLEU has, a function of *summed* per-segment statistics: BLEU's
``[sys_len, ref_len, correct_1..N, total_1..N]``, chrF's ``[hyp, ref, match]`` per character and word order,
TER's ``[edits, reference length]``. So a corpus score, a bootstrap resample, an approximate-randomization
shuffle and a slice are all arithmetic over a (segments x ``width``) matrix followed by :meth:`Metric.score_many`
on its column sums: the significance, trials, ranking and slicing code needs nothing else of a metric, and a new
metric is one module with one registry line.

Explain, decomposition, the labelled variants and the Learn page stay BLEU on purpose: they teach BLEU's
quantities, which other metrics do not have.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Protocol, runtime_checkable

if TYPE_CHECKING:
    import numpy as np

__all__ = ["Float32Resampling", "FloatRows", "Metric", "PreparedReferences", "ScalarScore"]


@runtime_checkable
class PreparedReferences(Protocol):
    """One set of references made ready once (tokenized, n-grams counted) for the statistics of many systems."""

    @property
    def nrefs(self) -> int:
        """References per segment (``-1``: a variable number, sacreBLEU's ``nrefs:var``)."""
        ...

    @property
    def n_segments(self) -> int:
        """Segments."""
        ...

    def stats(self, hypotheses: Sequence[str]) -> np.ndarray:
        """Per-segment statistics of one system: a (segments x ``width``) matrix, exact (integers held as
        int64, or float64 where the metric's statistic is not an integer)."""
        ...


@runtime_checkable
class Metric(Protocol):
    """A corpus metric: statistics per segment, a score from their sums, and the signatures of both tools.

    Attributes:
        name: what tables, charts and exports call it (``BLEU``, ``chrF2``, ``chrF2++``, ``TER``).
        sacrebleu_name: sacreBLEU's ``-m`` name (``bleu``, ``chrf``, ``ter``), or ``""`` when it has none.
        higher_is_better: False for an error rate (TER): ranks, arrows and "better" turn.
        width: statistics per segment.
    """

    @property
    def name(self) -> str: ...

    @property
    def sacrebleu_name(self) -> str: ...

    @property
    def higher_is_better(self) -> bool: ...

    @property
    def width(self) -> int: ...

    def prepare(self, references: Sequence[Sequence[str]]) -> PreparedReferences:
        """The references made ready for :meth:`PreparedReferences.stats` (``references[k][i]``: reference
        ``k`` of segment ``i``, sacreBLEU's streams)."""
        ...

    def score_many(self, sums: np.ndarray) -> np.ndarray:
        """The score (0-100, sacreBLEU's scale) of every row of a (rows x ``width``) matrix of summed statistics,
        vectorised: one call scores a thousand resamples."""
        ...

    def signature(self, nrefs: int | str, **test: object) -> str:
        """Our signature of the setting (``test``: ``bs=1000, rs=12345`` and the like, in sacreBLEU's order)."""
        ...

    def sacrebleu_signature(
        self, nrefs: int | str, *, test: str | None = None, trials: int | None = None, seed: int | None = None
    ) -> str | None:
        """The signature ``sacrebleu`` itself prints for this setting (and paired test), or None when sacreBLEU
        cannot express the setting."""
        ...


@runtime_checkable
class Float32Resampling(Protocol):
    """A metric whose bootstrap resamples sacreBLEU scores in float32 arithmetic (``significance.py`` holds the
    statistics as ``float32`` and numpy 2 keeps the score's arithmetic there): the paired tests score resampled
    sums with :meth:`score_many_float32`, so that their p-values and intervals are sacreBLEU's bit for bit.
    A metric without it (BLEU) has its resamples scored by :meth:`Metric.score_many`."""

    def score_many_float32(self, sums: np.ndarray) -> np.ndarray:
        """The scores of resampled sums as sacreBLEU's paired bootstrap computes them."""
        ...


@runtime_checkable
class FloatRows(Protocol):
    """A metric whose statistics matrix is an exact integer form of sacreBLEU's float rows (TER's averaged
    reference lengths): sacreBLEU's float32 sums of those rows depend on the order of the draws, so the paired
    bootstrap sums :meth:`float_rows` in that order instead of counting draws."""

    def float_rows(self, matrix: np.ndarray, nrefs: int | str) -> np.ndarray | None:
        """sacreBLEU's per-segment rows (float64) of ``matrix``, or None where they are ``matrix`` itself or cannot
        be recovered (``nrefs`` varies)."""
        ...


@runtime_checkable
class ScalarScore(Protocol):
    """A metric whose corpus score sacreBLEU computes in scalar arithmetic that :meth:`Metric.score_many` does not
    repeat to the last bit (BLEU: numpy's vectorised ``log`` and ``exp`` are not the C library's, which ``math``
    calls). The score a user reads (``significance.estimates.matrix_score``) comes from :meth:`scalar_score`;
    the tests keep comparing draws with a real difference in the draws' own arithmetic, so that their ties stay
    ties."""

    def scalar_score(self, sums: np.ndarray) -> float:
        """The score of one row of summed statistics, as sacreBLEU's corpus score computes it."""
        ...
