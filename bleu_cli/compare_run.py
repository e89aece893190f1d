"""What one ``bleu-explorer compare`` run computed (:class:`Run`, one :class:`MetricResult` per metric): what
``compare`` builds and ``compare_out`` prints, in a module of its own so that neither imports the other's."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

if TYPE_CHECKING:
    from bleu_core.metrics.base import Metric
    from bleu_core.significance import SystemsComparison
    from bleu_core.significance.families import Family, FamilyTest
    from bleu_core.significance.power import Power
    from bleu_core.significance.ranking import Ranking
    from bleu_core.significance.trials import Method

__all__ = ["MetricResult", "Run"]


@dataclass(frozen=True, slots=True)
class MetricResult:
    """One metric's comparison."""

    metric: Metric
    both: SystemsComparison
    family: FamilyTest
    ranking: Ranking
    rows: list[dict[str, Any]]
    nrefs: int
    differences: list[Any]  # BLEU's decompositions against each system's comparison (empty for other metrics)
    power: tuple[Power, ...] = ()  # BLEU's minimum detectable difference of each system against the first


@dataclass(frozen=True, slots=True)
class Run:
    """Everything ``compare`` prints, computed once."""

    method: Method
    trials: int
    seed: int
    alpha: float
    family: Family
    files: list[str]  # as given, in display order (the baseline first)
    names: list[str]  # base names, in display order
    results: list[MetricResult]
    segments: int
    warning: str | None
    slice: str | None
    level: Literal["segment", "document"] = "segment"  # document: --doc-level (d-BLEU, documents resampled)
    power_delta: float | None = None  # --power DELTA
