"""BLEU against human scores, per system: the systems that have one, and every agreement statistic with its
bootstrap interval over systems (``bleu_core.significance.agreement``), as the compare page and the report show
them (column names are constants)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

import pandas as pd

from bleu_app.frames.corpus import BLEU, CI_HIGH, CI_LOW, HUMAN, SYSTEM
from bleu_core.significance.agreement import Agreement, agreement

AGREEMENT_LABELS: Final = {
    "pearson": "Pearson r",
    "spearman": "Spearman ρ",
    "kendall_tau_b": "Kendall τ-b",
    "kendall_tau_c": "Kendall τ-c",
    "pairwise_accuracy": "pairwise accuracy",
}
STATISTIC, VALUE = "statistic", "value"
AGREEMENT_TRIALS: Final = 1000


def human_frame(systems: pd.DataFrame, *, seed: int = 12345) -> tuple[pd.DataFrame, Agreement]:
    """The systems that have a human score, and how BLEU agrees with it over them (every statistic of
    ``bleu_core.significance.agreement`` with its bootstrap interval over systems)."""
    if HUMAN not in systems:
        df = pd.DataFrame(columns=[SYSTEM, BLEU, HUMAN])
    else:
        df = systems.dropna(subset=[HUMAN])[[SYSTEM, BLEU, HUMAN]].reset_index(drop=True)
    return df, agreement(df[BLEU].tolist(), df[HUMAN].tolist(), trials=AGREEMENT_TRIALS, seed=seed)


def agreement_frame(a: Agreement) -> pd.DataFrame:
    """One row per statistic: its value and 95% bootstrap interval (empty when there are too few systems).

    Example:
        >>> from bleu_core.significance.agreement import agreement
        >>> agreement_frame(agreement([20.0, 25.0, 27.0, 30.0], [0.1, 0.3, 0.2, 0.5], trials=50))[STATISTIC].tolist()
        ['Pearson r', 'Spearman ρ', 'Kendall τ-b', 'Kendall τ-c', 'pairwise accuracy']
    """
    cols = [STATISTIC, VALUE, CI_LOW, CI_HIGH]
    if a.n < 3:
        return pd.DataFrame(columns=cols)
    return pd.DataFrame(
        [[AGREEMENT_LABELS[k], a.values[k], *a.intervals[k]] for k in AGREEMENT_LABELS],
        columns=cols,
    )


def unmatched_human(human: Sequence[tuple[str, float]], names: Sequence[str]) -> list[str]:
    """Names in the human scores that match no loaded system (their scores are not used).

    Example:
        >>> unmatched_human([("A", 0.1), ("ref-B", 0.3), ("C", 0.0)], ["A", "B", "C"])
        ['ref-B']
    """
    known = set(names)
    return [k for k, _ in human if k not in known]
