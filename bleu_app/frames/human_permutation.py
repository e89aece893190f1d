"""Which metric agrees with segment-level human scores better, pair by pair: the compare page's permutation-test
table (``bleu_core.significance.permutation``), column names constants.

The gold is one score per system, the mean of its human segment scores; each metric's system score is the mean of
its segment scores (for BLEU and chrF the mean sentence score, not the corpus score, since the test swaps
segments)."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Final

import numpy as np
import pandas as pd

from bleu_core.significance.permutation import CORRELATIONS, permutation_test

__all__ = ["BETTER", "CORRELATION", "CORR_BETTER", "CORR_OTHER", "DELTA", "OTHER", "P", "human_default", "pairs_frame"]

CORRELATION, BETTER, OTHER = "correlation", "metric", "than"
CORR_BETTER, CORR_OTHER, DELTA, P = "r (metric)", "r (than)", "difference", "p"
CORRELATION_LABELS: Final = {"pearson": "Pearson r", "kendall": "Kendall τ-b"}
_HUMAN_WORDS: Final = re.compile(r"(?i)\b(mqm|sqm|da|da_z|esa|human)\b")


def human_default(labels: Sequence[str]) -> str | None:
    """The imported scores that look human by their name (MQM, DA, ESA, human), else None: the user decides.

    Example:
        >>> human_default(["COMET", "MQM"]), human_default(["COMET"])
        ('MQM', None)
    """
    return next((k for k in labels if _HUMAN_WORDS.search(k)), None)


def pairs_frame(gold: np.ndarray, metrics: Mapping[str, np.ndarray], *, trials: int, seed: int) -> pd.DataFrame:
    """Every pair of ``metrics`` (name -> systems x segments scores) under each correlation, the one that agrees
    with ``gold`` (one score per system) better first, with the p-value that it is better by chance.

    Example:
        >>> rng = np.random.default_rng(0)
        >>> h = rng.normal(size=(5, 30)) + np.arange(5)[:, None]
        >>> f = pairs_frame(h.mean(axis=1), {"noise": rng.normal(size=(5, 30)), "close": h}, trials=100, seed=1)
        >>> f[BETTER].tolist(), bool((f[P] < 0.05).all())
        (['close', 'close'], True)
    """
    names = list(metrics)
    rows = []
    for corr in CORRELATIONS:
        for i, x in enumerate(names):
            for y in names[i + 1 :]:
                t = permutation_test(gold, metrics[x], metrics[y], correlation=corr, trials=trials, seed=seed)
                a, b = x, y
                if t.delta < 0:  # test the better one as B, as mt-metrics-eval orders by correlation first
                    a, b = y, x
                    t = permutation_test(gold, metrics[a], metrics[b], correlation=corr, trials=trials, seed=seed)
                rows.append([CORRELATION_LABELS[corr], b, a, t.corr_b, t.corr_a, t.delta, t.p_value])
    return pd.DataFrame(rows, columns=[CORRELATION, BETTER, OTHER, CORR_BETTER, CORR_OTHER, DELTA, P])
