"""Significance: sacreBLEU's paired bootstrap and approximate randomization, Holm's correction over every pair,
rankings in significance clusters, the trial policy and the small-test-set rule.

Everything takes a :class:`~bleu_core.metrics.base.Metric` (or a ``BleuConfig``: BLEU under it) and reads it
through the seam only. Modules: :mod:`.paired` (the tests against a baseline), :mod:`.pairwise` (every pair with
Holm's correction, and both from one resampling pass: :func:`compare_systems`), :mod:`.estimates` (what a test
computes from draws), :mod:`.resample` (the draws: a kernel and a numpy drawer), :mod:`.trials` (how many draws,
and the memory they may use), :mod:`.ranking` (clusters), :mod:`.testsize` (when a test set is small),
:mod:`.agreement` (a metric's agreement with human scores over systems), :mod:`.permutation` (whether one metric
agrees with them better than another, swapping segment scores). The names below are the tests themselves.
"""

from __future__ import annotations

from .paired import (
    Comparison,
    PairedResult,
    bootstrap_ci,
    bootstrap_cis,
    compare,
    difference_cis,
    paired_ar,
    paired_bootstrap,
)
from .pairwise import PairwiseResult, SystemsComparison, compare_systems, holm, pairwise_matrix

__all__ = [
    "Comparison",
    "PairedResult",
    "PairwiseResult",
    "SystemsComparison",
    "bootstrap_ci",
    "bootstrap_cis",
    "compare",
    "compare_systems",
    "difference_cis",
    "holm",
    "paired_ar",
    "paired_bootstrap",
    "pairwise_matrix",
]
