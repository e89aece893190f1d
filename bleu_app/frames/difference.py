"""Why do A and B differ: ``bleu_core.teaching.decomposition`` results -> tidy DataFrames for the waterfall, the
every-system view and the sentences that carry the gap (column names are constants)."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Literal

import numpy as np
import pandas as pd

from bleu_app.frames.signs import signed
from bleu_core.config import BleuConfig
from bleu_core.metrics.bleu import score_many
from bleu_core.teaching.decomposition import Decomposition, decompose_matrices, leave_one_out_difference
from bleu_core.teaching.shares import GapShares, gap_shares

Unit = Literal["points", "log"]

STEP = "step"
ORDER = "order"
START = "start"
END = "end"
VALUE = "value"
KIND = "kind"
LABEL = "label"
SYSTEM = "system"
TERM = "term"
POINTS = "BLEU points"
LOG = "log units"
NET = "B - A"
SEGMENT = "segment"
SHARE = "share of B - A"  # integrated gradients: the shares of all sentences add up to B - A
EFFECT = "effect on B - A"  # leave-one-out: B - A with the sentence minus without it (does not add up)
SENTENCES = "sentences"
CUMULATIVE = "cumulative share"
BLEU_A = "BLEU A"
BLEU_B = "BLEU B"
REF = "reference"
SOURCE = "source"

KINDS = ("total", "gain", "loss")
UNIT_TITLES: dict[str, str] = {"points": "BLEU points", "log": "log units (log BLEU)"}


def term_names(order: int) -> list[str]:
    """``BP, p1 .. pN``: the terms of the decomposition, in their order."""
    return ["BP", *(f"p{n}" for n in range(1, order + 1))]


def _terms(d: Decomposition, unit: Unit) -> list[float]:
    if unit == "points":
        return [d.points_bp, *d.points_precision_terms]
    return [d.log_bp, *d.log_precision_terms]


def waterfall(d: Decomposition, name_a: str, name_b: str, unit: Unit = "points") -> pd.DataFrame:
    """The waterfall's bars: A's score, one step per term (BP, p1..pN), B's score.

    In BLEU points the steps start at BLEU_A and end at BLEU_B (the LMDI points add up exactly); in log
    units they start at 0 and end at log(BLEU_B / BLEU_A), the last bar. Each row has ``start`` and
    ``end`` (the bar spans them), ``value`` (end - start for a step), ``kind`` (total, gain, loss) and a
    text ``label``. Empty when the decomposition is not finite (a score of 0).
    """
    cols = [STEP, ORDER, START, END, VALUE, KIND, LABEL]
    if not d.finite:
        return pd.DataFrame(columns=cols)
    names = term_names(len(d.log_precision_terms))
    digits = 2 if unit == "points" else 4

    def row(step: str, start: float, end: float, value: float, kind: str, label: str) -> dict[str, object]:
        return {STEP: step, START: start, END: end, VALUE: value, KIND: kind, LABEL: label}

    rows = []
    pos = d.baseline_score if unit == "points" else 0.0
    if unit == "points":
        a = d.baseline_score
        rows.append(row(f"A: {name_a}", math.nan, a, a, "total", f"{a:.2f}"))
    for name, value in zip(names, _terms(d, unit), strict=True):
        rows.append(row(name, pos, pos + value, value, "gain" if value >= 0 else "loss", signed(value, digits)))
        pos += value
    if unit == "points":
        rows.append(row(f"B: {name_b}", math.nan, d.score, d.score, "total", f"{d.score:.2f}"))
    else:
        rows.append(row("log(B/A)", 0.0, d.log_ratio, d.log_ratio, "total", signed(d.log_ratio, digits)))
    df = pd.DataFrame(rows, columns=[c for c in cols if c != ORDER])
    df.insert(1, ORDER, range(len(df)))
    return df


def gap_caption(gap: float, shown: int, name_a: str, name_b: str, *, shares: bool = True) -> str:
    """What the gap table shows, worded by the sign of the gap ``BLEU_B - BLEU_A``. The names are put in as given
    (escape them for where the text goes). ``shares=False``: the shares are not defined for this pair (the
    table is sorted by the leave-one-out effect instead).

    Example:
        >>> print(gap_caption(-5.334, 25, "AISP", "DLUT"))  # doctest: +NORMALIZE_WHITESPACE
        DLUT (B) is 5.33 BLEU points behind AISP (A). The 25 sentences with the largest shares of A's lead. A
        sentence's share is its part of B − A in BLEU points: the shares of all sentences add up to B − A exactly
        (integrated gradients of log BLEU along the straight line from A's corpus statistics to B's), and a sentence
        both systems translate alike has none. Negative: the sentence works for A. "Without it" is B − A with the
        sentence minus B − A without it (leave-one-out), which does not add up to the gap.
    """
    loo = (
        '"Without it" is B − A with the sentence minus B − A without it (leave-one-out), which does not add up '
        "to the gap."
    )
    if gap < 0:
        head = f"{name_b} (B) is {-gap:.2f} BLEU points behind {name_a} (A)."
        whose, sign = "A's lead", "Negative: the sentence works for A."
    elif gap > 0:
        head = f"{name_b} (B) is {gap:.2f} BLEU points ahead of {name_a} (A)."
        whose, sign = "B's lead", "Positive: the sentence works for B."
    else:
        head = f"{name_b} (B) and {name_a} (A) score the same."
        whose, sign = "the gap in B's favour", "Positive: the sentence works for B."
    if not shares:
        return f"{head} No share is defined for this pair; the {shown} sentences with the largest effects. {loo}"
    return (
        f"{head} The {shown} sentences with the largest shares of {whose}. A sentence's share is its part of "
        "B − A in BLEU points: the shares of all sentences add up to B − A exactly (integrated gradients of log BLEU "
        "along the straight line from A's corpus statistics to B's), and a sentence both systems translate alike "
        f"has none. {sign} {loo}"
    )


def versus_baseline(
    matrices: Mapping[str, np.ndarray], config: BleuConfig, baseline: str, unit: Unit = "points"
) -> tuple[pd.DataFrame, dict[str, str]]:
    """Every system against the baseline, long format: system, term, value (in ``unit``), net B - A.

    Returns:
        The frame (systems sorted by their difference, best first) and, for systems whose decomposition
        is not finite, the reason (``Decomposition.note``), left out of the frame.
    """
    base = matrices[baseline]
    rows = []
    skipped: dict[str, str] = {}
    for name, m in matrices.items():
        if name == baseline:
            continue
        d = decompose_matrices(base, m, config)
        if not d.finite:
            skipped[name] = d.note
            continue
        net = d.bleu if unit == "points" else d.log_ratio
        for term, value in zip(term_names(config.max_ngram_order), _terms(d, unit), strict=True):
            rows.append({SYSTEM: name, TERM: term, VALUE: value, NET: net})
    df = pd.DataFrame(rows, columns=[SYSTEM, TERM, VALUE, NET])
    if len(df):
        df = df.sort_values([NET, SYSTEM], ascending=[False, True], kind="stable").reset_index(drop=True)
    return df, skipped


def decomposition_table(
    matrices: Mapping[str, np.ndarray], config: BleuConfig, baseline: str
) -> tuple[pd.DataFrame, list[Decomposition]]:
    """One row per system against the baseline: B - A, log ratio, log BP and each log-precision term, and
    the same terms in BLEU points (for the report and the CSV export)."""
    names = term_names(config.max_ngram_order)
    rows, decs = [], []
    for name, m in matrices.items():
        if name == baseline:
            continue
        d = decompose_matrices(matrices[baseline], m, config)
        decs.append(d)
        row: dict[str, object] = {SYSTEM: name, NET: d.bleu, "log(B/A)": d.log_ratio}
        for t, v in zip(names, _terms(d, "log"), strict=True):
            row[f"log {t}"] = v
        for t, v in zip(names, _terms(d, "points"), strict=True):
            row[f"{t} (points)"] = v
        row["note"] = d.note
        rows.append(row)
    return pd.DataFrame(rows), decs


def gap_sentences(
    matrix_a: np.ndarray,
    matrix_b: np.ndarray,
    config: BleuConfig,
    hyps_a: Sequence[str],
    hyps_b: Sequence[str],
    refs: Sequence[Sequence[str]],
    top: int | None = None,
    source: Sequence[str] | None = None,
    shares: GapShares | None = None,
) -> pd.DataFrame:
    """Every sentence's share of B - A (``bleu_core.teaching.shares``) and its leave-one-out effect, with both
    sentence BLEUs and the texts, the largest shares in the gap's direction first (by the effect when no share is
    defined); only the first ``top`` when given (the texts are looked up for those rows only); with the source
    line when there is one. ``shares``: the pair's shares when already computed."""
    shares = shares if shares is not None else gap_shares(matrix_a, matrix_b, config)
    effect = leave_one_out_difference(matrix_a, matrix_b, config)
    sc = replace(config, use_effective_order=True)
    a = score_many(matrix_a, sc) if len(matrix_a) else np.zeros(0)
    b = score_many(matrix_b, sc) if len(matrix_b) else np.zeros(0)
    share = shares.points if shares.points is not None else np.full(len(effect), np.nan)
    df = pd.DataFrame({SEGMENT: np.arange(1, len(effect) + 1), SHARE: share, EFFECT: effect, BLEU_A: a, BLEU_B: b})
    key = SHARE if shares.points is not None else EFFECT
    df = df.sort_values(key, ascending=shares.gap < 0, kind="stable").reset_index(drop=True)
    if top is not None:
        df = df.head(top).copy()
    rows = (df[SEGMENT] - 1).tolist()
    df["A"] = pd.Series([hyps_a[i] for i in rows], dtype=object)
    df["B"] = pd.Series([hyps_b[i] for i in rows], dtype=object)
    df[REF] = pd.Series([refs[0][i] for i in rows], dtype=object) if refs else ""
    if source is not None:
        df[SOURCE] = pd.Series([source[i] for i in rows], dtype=object)
    return df


def gap_curve(shares: GapShares, max_points: int = 400) -> pd.DataFrame:
    """The cumulative share of B - A over the sentences taken largest share first (in the gap's direction): it
    rises past the gap while the sentences that work for the leader are added and comes back to B - A exactly
    at the last sentence. At most ``max_points`` rows (the first and the last always), so a 50,000-sentence
    corpus sends a few hundred points; empty when no share is defined."""
    if shares.points is None:
        return pd.DataFrame({SENTENCES: [], CUMULATIVE: []})
    ordered = np.sort(shares.points)
    if shares.gap >= 0:
        ordered = ordered[::-1]
    total = np.concatenate([[0.0], np.cumsum(ordered)])
    idx = np.unique(np.round(np.linspace(0, len(ordered), min(max_points, len(total)))).astype(int))
    return pd.DataFrame({SENTENCES: idx, CUMULATIVE: total[idx]})


def by_share(pairs: pd.DataFrame, matrix_a: np.ndarray, matrix_b: np.ndarray, config: BleuConfig) -> pd.DataFrame:
    """The A-vs-B sentences (``corpus.pair_sentences``, a 1-based ``segment`` column) with each one's share of the
    corpus gap B - A in BLEU points (``bleu_core.teaching.shares``: they add up to the gap), sorted by it, the
    sentences that carry B's lead first (researcher-walk C6); as given, sorted by B - A of sentence BLEU, when the
    shares are not finite (a zero precision under no smoothing).

    Example:
        >>> a = np.array([[4, 4, 4, 3, 2, 1, 4, 3, 2, 1], [5, 6, 3, 1, 0, 0, 5, 4, 3, 2]])
        >>> b = np.array([[4, 4, 4, 3, 2, 1, 4, 3, 2, 1], [6, 6, 5, 3, 1, 0, 6, 5, 4, 3]])
        >>> out = by_share(pd.DataFrame({SEGMENT: [1, 2], "B - A": [0.0, 9.9]}), a, b, BleuConfig())
        >>> out[SEGMENT].tolist(), round(float(out[SHARE].sum()), 4) == round(gap_shares(a, b).gap, 4)
        ([2, 1], True)
    """
    shares = gap_shares(matrix_a, matrix_b, config)
    if shares.points is None:
        return pairs
    out = pairs.assign(**{SHARE: shares.points[pairs[SEGMENT].to_numpy() - 1]})
    return out.sort_values(SHARE, ascending=False, kind="stable").reset_index(drop=True)
