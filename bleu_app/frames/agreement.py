"""Why metrics disagree, on a corpus (issue 33): the systems ranked by each chosen metric side by side with the
places where a metric moves a system, Kendall's tau between the metrics' system rankings, and beside a difference
the share of human judges expected to agree with it (Kocmi et al. 2024, for BLEU and chrF only).

Pure functions of the systems' corpus scores: the pages compute them once (``cached``) and show these frames.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from typing import Final

import numpy as np
import pandas as pd

from bleu_app.frames import corpus as f
from bleu_core.metrics import Metric
from bleu_core.significance.agreement import kendall_tau_b
from bleu_core.significance.thresholds import CITATION, fitted_as, human_accuracy

__all__ = [
    "ACCURACY_CAVEAT",
    "GAP",
    "MOVE",
    "TAU",
    "accuracy_column",
    "corpus_scores",
    "disagreements",
    "rank_column",
    "rank_table",
    "tau_table",
    "with_human_accuracy",
]

TAU: Final = "Kendall's tau-b"
GAP: Final = "rank gap"
MOVE: Final = "moves"
ACCURACY_CAVEAT: Final = (
    f"Judges agreeing: the share of human judges expected to agree with a difference that size, from {CITATION}. "
    "Fitted for BLEU and chrF2 only (not chrF++, TER or imported scores), on that campaign's systems: a guide to "
    "what a difference tends to mean, not a test of these systems."
)


def rank_column(name: str) -> str:
    """The rank table's column of a metric's ranks.

    Example:
        >>> rank_column("TER")
        'rank by TER'
    """
    return f"rank by {name}"


def accuracy_column(name: str) -> str:
    """The systems table's column of the human-accuracy share beside a metric's difference to the baseline.

    Example:
        >>> accuracy_column("BLEU")
        'BLEU judges agreeing %'
    """
    return f"{name} judges agreeing %"


def corpus_scores(metrics: Sequence[Metric], matrices: Sequence[Mapping[str, np.ndarray]]) -> pd.DataFrame:
    """Each system's corpus score under each metric (a column per metric's name): its summed statistics scored.

    Example:
        >>> from bleu_core.metrics import get_metric
        >>> ter = get_metric("ter")
        >>> corpus_scores([ter], [{"a": np.array([[1, 4], [0, 4]]), "b": np.array([[4, 4], [4, 4]])}])
          system    TER
        0      a   12.5
        1      b  100.0
    """
    names = list(matrices[0]) if matrices else []
    out = pd.DataFrame({f.SYSTEM: names})
    for metric, mats in zip(metrics, matrices, strict=True):
        sums = np.stack([np.asarray(mats[n]).sum(axis=0) for n in names])
        out[metric.name] = np.asarray(metric.score_many(sums), dtype=float)
    return out


def _ranks(scores: pd.Series, higher_is_better: bool) -> pd.Series:
    """1 = best; equal scores share the better rank."""
    return scores.rank(ascending=not higher_is_better, method="min").astype(int)


def rank_table(scores: pd.DataFrame, metrics: Sequence[Metric]) -> pd.DataFrame:
    """The systems in the first metric's order with each metric's score and rank, and ``moves``: how each other
    metric moves the system against the first (``chrF2 ▲2``: two places up), empty where all agree.

    Example:
        >>> from bleu_core.metrics import Bleu, get_metric
        >>> s = pd.DataFrame({"system": ["a", "b", "c"], "BLEU": [30.0, 20.0, 10.0], "TER": [40.0, 60.0, 50.0]})
        >>> t = rank_table(s, [Bleu(), get_metric("ter")])
        >>> t["rank by TER"].tolist(), t["moves"].tolist()
        ([1, 3, 2], ['', 'TER ▼1', 'TER ▲1'])
    """
    out = scores[[f.SYSTEM]].copy()
    for m in metrics:
        out[m.name] = scores[m.name]
        out[rank_column(m.name)] = _ranks(scores[m.name], m.higher_is_better)
    first = rank_column(metrics[0].name)
    moves = []
    for _, row in out.iterrows():
        parts = []
        for m in metrics[1:]:
            change = int(row[first]) - int(row[rank_column(m.name)])
            if change:
                parts.append(f"{m.name} {'▲' if change > 0 else '▼'}{abs(change)}")
        moves.append(", ".join(parts))
    out[MOVE] = moves
    return out.sort_values([first, f.SYSTEM], kind="stable").reset_index(drop=True)


def tau_table(scores: pd.DataFrame, metrics: Sequence[Metric]) -> pd.DataFrame:
    """Kendall's tau-b between every two metrics' system rankings (each metric's scores turned so that higher is
    better: an error rate's ranking agrees when its scores fall as the other's rise); NaN below three systems.

    Example:
        >>> from bleu_core.metrics import Bleu, get_metric
        >>> s = pd.DataFrame({"system": list("abc"), "BLEU": [30.0, 20.0, 10.0], "TER": [40.0, 50.0, 60.0]})
        >>> tau_table(s, [Bleu(), get_metric("ter")])
          metric A metric B  Kendall's tau-b  systems
        0     BLEU      TER              1.0        3
    """
    rows = []
    for a, b in itertools.combinations(metrics, 2):
        x = scores[a.name].to_numpy(float) * (1 if a.higher_is_better else -1)
        y = scores[b.name].to_numpy(float) * (1 if b.higher_is_better else -1)
        rows.append({"metric A": a.name, "metric B": b.name, TAU: kendall_tau_b(x, y), "systems": len(scores)})
    return pd.DataFrame(rows, columns=["metric A", "metric B", TAU, "systems"])


def with_human_accuracy(table: pd.DataFrame, metrics: Sequence[Metric]) -> pd.DataFrame:
    """The systems table with, after each fitted metric's difference to the baseline (and its interval), the share
    of judges expected to agree with it (percent; empty for the baseline itself).

    Example:
        >>> from bleu_core.metrics import Bleu
        >>> t = pd.DataFrame({"system": ["a", "b"], "BLEU vs baseline": [0.0, 1.0]})
        >>> with_human_accuracy(t, [Bleu()])["BLEU judges agreeing %"].round(1).tolist()
        [<NA>, 64.0]
    """
    out = table.copy()
    for m in metrics:
        delta = f"{m.name} {f.VS_BASELINE}"
        fitted = fitted_as(m.sacrebleu_name, m.name)
        if fitted is None or delta not in out:
            continue
        shares = [None if d == 0 or pd.isna(d) else human_accuracy(float(d), fitted) for d in out[delta]]
        high = f"{m.name} {f.VS_HIGH}"  # after the difference's interval when the table has it
        after = high if high in out else delta
        out.insert(out.columns.get_loc(after) + 1, accuracy_column(m.name), pd.array(shares, dtype="Float64"))
    return out


def disagreements(
    sentences: pd.DataFrame, a: str, b: str, *, top: int = 10, b_lower_is_better: bool = False
) -> pd.DataFrame:
    """The sentences two segment scores part on most: each score turned into its percentile among this system's
    sentences (so that scales differ freely: BLEU, chrF, an imported score), the gap ``b``'s minus ``a``'s in
    percentile points (positive: ``b`` likes the sentence more; an error rate's scores turned first), largest
    first; then the texts.

    Example:
        >>> s = pd.DataFrame({"segment": [1, 2, 3, 4], "x": [10.0, 20.0, 30.0, 40.0], "y": [15.0, 90.0, 35.0, 45.0]})
        >>> disagreements(s, "x", "y", top=2)[["segment", "rank gap"]].values.tolist()
        [[2.0, 50.0], [3.0, -25.0]]
    """
    liked = -sentences[b] if b_lower_is_better else sentences[b]
    # ranks (halves at ties) subtracted before scaling: equal gaps stay equal, so the order is the segments'
    gap = (liked.rank() - sentences[a].rank()) * (100 / max(len(sentences), 1))
    texts = [c for c in (f.SOURCE, f.REF, f.HYP) if c in sentences]
    out = sentences[[f.SEGMENT, a, b, *texts]].assign(**{GAP: gap})
    out = out.assign(_size=gap.abs()).sort_values(["_size", f.SEGMENT], ascending=[False, True], kind="stable")
    return out.drop(columns="_size").head(top)[[f.SEGMENT, a, b, GAP, *texts]].reset_index(drop=True)
