"""The paper's own numbers drawn (Part II of the Learn page, which printed its tables only: issue 34). Pure: no
st.*, no I/O."""

from __future__ import annotations

import altair as alt
import pandas as pd

from bleu_app.charts.style import INK, OKABE_ITO
from bleu_app.frames import part2 as f

__all__ = ["systems_chart", "systems_description"]


def systems_description(df: pd.DataFrame) -> str:
    """The systems chart in words, every number it draws.

    Example:
        >>> systems_description(f.systems_frame())[-53:]
        'S3 0.090 ± 0.020, H1 0.192 ± 0.030, H2 0.256 ± 0.039.'
    """
    bars = ", ".join(f"{s} {b:.4f}" for s, b in zip(df[f.SYSTEM], df[f.TABLE_1_BLEU], strict=True))
    blocks = ", ".join(
        f"{s} {m:.3f} ± {sd:.3f}" for s, m, sd in zip(df[f.SYSTEM], df[f.BLOCK_MEAN], df[f.BLOCK_SD], strict=True)
    )
    return (
        f"Bar chart of the paper's five systems, BLEU on 500 sentences against two references (Table 1): {bars}; "
        f"on each bar a dot and a line, the mean and ± one standard deviation of BLEU on 20 blocks of 25 sentences "
        f"(Table 2): {blocks}."
    )


def systems_chart(df: pd.DataFrame, *, height: int = 260) -> alt.LayerChart | alt.FacetChart:
    """One bar per system (Table 1's BLEU); over it Table 2's block mean as a dot and ± its StdDev as a line: the
    machines S1-S3 far below the humans H1-H2, and S2 and S3 close (their spreads overlap, yet the paired t is 3.4)."""
    order = df[f.SYSTEM].tolist()
    x = alt.X(f"{f.SYSTEM}:N", sort=order, title=None, axis=alt.Axis(labelAngle=0))
    tip = [
        alt.Tooltip(f"{f.SYSTEM}:N"),
        alt.Tooltip(f"{f.TABLE_1_BLEU}:Q", format=".4f"),
        alt.Tooltip(f"{f.BLOCK_MEAN}:Q", format=".3f"),
        alt.Tooltip(f"{f.BLOCK_SD}:Q", format=".3f"),
    ]
    base = alt.Chart(df)
    bars = base.mark_bar(color=OKABE_ITO[5], size=34).encode(
        x=x, y=alt.Y(f"{f.TABLE_1_BLEU}:Q", title="BLEU (0-1)"), tooltip=tip
    )
    spread = base.mark_rule(color=INK, strokeWidth=2).encode(x=x, y=f"{f.BLOCK_LOW}:Q", y2=f"{f.BLOCK_HIGH}:Q")
    mean = base.mark_point(color=INK, filled=True, size=50).encode(x=x, y=f"{f.BLOCK_MEAN}:Q", tooltip=tip)
    return alt.layer(bars, spread, mean).properties(
        height=height,
        title="The paper's five systems: BLEU (Table 1), block mean ± StdDev (Table 2)",
        description=systems_description(df),
    )
