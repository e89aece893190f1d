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
EFFECT = "effect on B - A"
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


def gap_caption(gap: float, shown: int, name_a: str, name_b: str) -> str:
    """What the gap table's "effect on B - A" means, worded by the sign of the gap ``BLEU_B - BLEU_A``. The
    names are put in as given (escape them for where the text goes).

    Example:
        >>> print(gap_caption(-5.334, 25, "AISP", "DLUT"))  # doctest: +NORMALIZE_WHITESPACE
        DLUT (B) is 5.33 BLEU points behind AISP (A). The 25 sentences that widen A's lead most, each with its
        effect on B − A: B − A with the sentence minus B − A without it, in BLEU points (the corpus page's effect on
        BLEU is with minus without too). Negative: the sentence widens A's lead (without it B would be closer).
    """
    common = (
        "effect on B − A: B − A with the sentence minus B − A without it, in BLEU points (the corpus page's "
        "effect on BLEU is with minus without too)."
    )
    if gap < 0:
        return (
            f"{name_b} (B) is {-gap:.2f} BLEU points behind {name_a} (A). The {shown} sentences that widen A's lead "
            f"most, each with its {common} Negative: the sentence widens A's lead (without it B would be closer)."
        )
    if gap > 0:
        return (
            f"{name_b} (B) is {gap:.2f} BLEU points ahead of {name_a} (A). The {shown} sentences that add most to "
            f"B's lead, each with its {common} Positive: the sentence adds to B's lead (without it the lead shrinks)."
        )
    return (
        f"{name_b} (B) and {name_a} (A) score the same. The {shown} sentences that favour B most, each with its "
        f"{common} Positive: the sentence favours B."
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
) -> pd.DataFrame:
    """Every sentence's exact leave-one-out effect on B - A, with both sentence BLEUs and the texts, the
    sentences that carry the gap first (largest effect in the gap's direction); only the first ``top`` when
    given (the texts are looked up for those rows only); with the source line when there is one."""
    effect = leave_one_out_difference(matrix_a, matrix_b, config)
    sc = replace(config, use_effective_order=True)
    a = score_many(matrix_a, sc) if len(matrix_a) else np.zeros(0)
    b = score_many(matrix_b, sc) if len(matrix_b) else np.zeros(0)
    df = pd.DataFrame({SEGMENT: np.arange(1, len(effect) + 1), EFFECT: effect, BLEU_A: a, BLEU_B: b})
    ta, tb = matrix_a.sum(axis=0), matrix_b.sum(axis=0)
    gap = float(score_many(tb[None, :], config)[0] - score_many(ta[None, :], config)[0]) if len(matrix_a) else 0.0
    df = df.sort_values(EFFECT, ascending=gap < 0, kind="stable").reset_index(drop=True)
    if top is not None:
        df = df.head(top).copy()
    rows = (df[SEGMENT] - 1).tolist()
    df["A"] = pd.Series([hyps_a[i] for i in rows], dtype=object)
    df["B"] = pd.Series([hyps_b[i] for i in rows], dtype=object)
    df[REF] = pd.Series([refs[0][i] for i in rows], dtype=object) if refs else ""
    if source is not None:
        df[SOURCE] = pd.Series([source[i] for i in rows], dtype=object)
    return df
