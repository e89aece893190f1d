"""The paper's block test (section 3, Table 2) as the corpus and compare pages show it: every block's BLEU per
system, the table of means, standard deviations and paired t, and how the corpus was cut (column names are
constants; the block test itself is ``bleu_core.teaching.blocktest``)."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Final

import pandas as pd

from bleu_app.frames.corpus import BLEU, BLOCK, MEAN, STD, SYSTEM
from bleu_app.frames.names import FULL_NAME
from bleu_core.teaching.blocktest import RankedBlockTest

# short headers, so the verdict columns fit at 1280 px; BLOCK_HELP explains each (the header's tooltip)
BLOCK_T = "t vs next"
BLOCK_DF = "df"
BLOCK_P = "p"
BLOCK_CRIT = "t crit"
BLOCK_SIG = "sig."
BLOCK_HELP: Final = {
    BLOCK_T: "Paired t of this system's block BLEU against the system ranked just below it",
    BLOCK_DF: "Degrees of freedom of that t: blocks minus 1",
    BLOCK_P: "One-sided p of that t, P(T ≥ t): the decision's own (sig. is yes exactly when p ≤ 0.05)",
    BLOCK_CRIT: "The one-sided 95% point of t for that df (the paper's 1.7 is for 20 blocks, df = 19)",
    BLOCK_SIG: "t ≥ t crit: this system is significantly above the next one (95%, one-sided)",
}
P_FLOOR = 1e-4  # a p below it is shown as "< 0.0001", never "0.0000"
BLOCK_TEST_COLUMNS = (SYSTEM, BLEU, MEAN, STD, BLOCK_T, BLOCK_DF, BLOCK_P, BLOCK_CRIT, BLOCK_SIG)
# How the block-test table's numbers are shown (a missing one, the lowest system's t/df/p, as a dash)
BLOCK_TEST_FORMATS: Final = {
    BLEU: "{:.2f}",
    MEAN: "{:.2f}",
    STD: "{:.2f}",
    BLOCK_T: "{:.2f}",
    BLOCK_DF: "{:.0f}",
    BLOCK_P: "{:.4f}",
    BLOCK_CRIT: "{:.3f}",
}


def blocks(test: RankedBlockTest, names: Sequence[str]) -> pd.DataFrame:
    """Every block's BLEU per system, systems best first (the ranking's order above it on the page).
    Long format: system, block, BLEU."""
    ranked = list(zip(test.order, test.result.scores, strict=True))[::-1]
    rows = [
        {SYSTEM: names[i], BLOCK: b, BLEU: score} for i, scores in ranked for b, score in enumerate(scores, start=1)
    ]
    return pd.DataFrame(rows, columns=[SYSTEM, BLOCK, BLEU])


def block_test_table(
    test: RankedBlockTest, names: Sequence[str], labels: Mapping[str, str] | None = None
) -> pd.DataFrame:
    """The paper's Table 2 for these systems, best first (the ranking's order): corpus BLEU, the mean and
    standard deviation of block BLEU, and the paired t (with df and one-sided p) against the system ranked just
    below; the lowest system has none. Each t is held against the one-sided 95% point of t for its df (2.015 at
    df = 5), as the paper's "1.7 or above is 95% significant" does for its 20 blocks (df = 19). With ``labels``
    (short names) the system column shows them and a last column keeps the full names."""
    r = test.result
    rows = []
    for rank in reversed(range(len(test.order))):
        pair = r.pairs[rank - 1] if rank else None
        name = names[test.order[rank]]
        rows.append(
            {
                SYSTEM: labels.get(name, name) if labels else name,
                BLEU: test.corpus_scores[rank],
                MEAN: r.means[rank],
                STD: r.stds[rank],
                BLOCK_T: pair.t if pair else math.nan,
                BLOCK_DF: pair.df if pair else math.nan,
                BLOCK_P: pair.p_one_sided if pair else math.nan,
                BLOCK_CRIT: pair.critical if pair else math.nan,
                BLOCK_SIG: ("yes" if pair.significant else "no") if pair else "",
                FULL_NAME: name,
            }
        )
    shortened = bool(labels) and any(row[SYSTEM] != row[FULL_NAME] for row in rows)
    return pd.DataFrame(rows, columns=[*BLOCK_TEST_COLUMNS, *([FULL_NAME] if shortened else [])])


def block_test_shown(table: pd.DataFrame) -> pd.DataFrame:
    """:func:`block_test_table` as the page shows it: numbers as text in ``BLOCK_TEST_FORMATS``, a missing one (the
    lowest system's t, df and p) as "—". Text, because the browser's grid draws a missing number as "None"
    whatever a pandas Styler says.

    Example:
        >>> t = pd.DataFrame({SYSTEM: ["a", "b"], BLOCK_DF: [math.nan, 19.0], BLOCK_SIG: ["", "yes"]})
        >>> block_test_shown(t)[BLOCK_DF].tolist()
        ['—', '19']
    """
    out = table.copy()
    for column, fmt in BLOCK_TEST_FORMATS.items():
        if column in out:
            out[column] = [_shown_number(v, fmt, column) for v in out[column].tolist()]
    return out


def _shown_number(v: float | None, fmt: str, column: str) -> str:
    """One block-test number as text: "—" when missing, "< 0.0001" for a p below that (never "0.0000").

    Example:
        >>> [_shown_number(v, "{:.4f}", BLOCK_P) for v in (None, 3e-9, 0.01234)]
        ['—', '< 0.0001', '0.0123']
        >>> _shown_number(-0.37, "{:.2f}", BLOCK_T)
        '−0.37'
    """
    if v is None or math.isnan(v):
        return "—"
    if column == BLOCK_P and v < P_FLOOR:
        return "< 0.0001"
    return fmt.format(v).replace("-", "−")  # the axes' minus sign


def block_test_description(test: RankedBlockTest, n_segments: int) -> str:
    """One sentence: how the corpus was cut, and whether that is the paper's block size."""
    sizes = test.result.block_sizes
    lo, hi = min(sizes), max(sizes)
    size = f"{lo}" if lo == hi else f"{lo}-{hi}"
    text = f"{len(sizes)} blocks of {size} consecutive segments"
    if test.paper_sized:
        if lo != hi:
            text += f" (the {n_segments} segments do not divide by {test.block_size}: the remainder is spread)"
        return text + f"; df = {len(sizes) - 1}."
    return (
        f"{text}: the corpus has {n_segments} segments, fewer than the {2 * test.block_size} that two blocks of "
        f"the paper's {test.block_size} need, so the blocks are smaller and their BLEU noisier; df = {len(sizes) - 1}."
    )
