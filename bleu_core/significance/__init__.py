"""Significance: sacreBLEU's paired bootstrap and approximate randomization, Holm's correction over every pair,
rankings in significance clusters, the trial policy and the small-test-set rule.

Modules: :mod:`.paired` (the tests against a baseline, and every pair with Holm's correction), :mod:`.resample`
(the draws: a kernel and a numpy drawer), :mod:`.trials` (how many draws, and the memory they may use),
:mod:`.ranking` (clusters), :mod:`.testsize` (when a test set is small), :mod:`.agreement` (a metric's agreement
with human scores over systems). The names below are the tests themselves.
"""

from __future__ import annotations

from .paired import (
    Comparison,
    PairedResult,
    PairwiseResult,
    bootstrap_ci,
    bootstrap_cis,
    compare,
    holm,
    paired_ar,
    paired_bootstrap,
    pairwise_matrix,
)

__all__ = [
    "Comparison",
    "PairedResult",
    "PairwiseResult",
    "bootstrap_ci",
    "bootstrap_cis",
    "compare",
    "holm",
    "paired_ar",
    "paired_bootstrap",
    "pairwise_matrix",
]
