"""The spread of one corpus's BLEU under every setting: a pure function DataFrame -> alt.Chart."""

from __future__ import annotations

import altair as alt
import pandas as pd

from bleu_app.charts.style import INK, OKABE_ITO
from bleu_app.frames import every as f

LABEL_LIMIT = 320  # pixels: every row label whole
_SHAPES = ("diamond", "circle", "square", "triangle-up", "cross", "triangle-down")


def spread_chart(df: pd.DataFrame) -> alt.LayerChart:
    """Every row of ``frames.every.every_bleu_frame`` as a dot on one BLEU axis, sorted by score, coloured and
    shaped by kind, with a rule at sacreBLEU's default: how far "BLEU" moves on the same text."""
    kinds = [k for k in f.KINDS.values() if k in set(df[f.KIND])]
    default = float(df[f.SCORE].iloc[0])
    rows = alt.Y(
        f"{f.LABEL}:N",
        sort=alt.EncodingSortField(field=f.SCORE, order="descending"),
        title=None,
        axis=alt.Axis(labelLimit=LABEL_LIMIT),  # the NLTK rows differ only at the end of their labels
    )
    dots = (
        alt.Chart(df)
        .mark_point(filled=True, size=90, opacity=0.9)
        .encode(
            x=alt.X(f"{f.SCORE}:Q", title="corpus BLEU (0-100)", scale=alt.Scale(zero=False, nice=True)),
            y=rows,
            color=alt.Color(
                f"{f.KIND}:N",
                scale=alt.Scale(domain=kinds, range=OKABE_ITO[: len(kinds)]),
                legend=alt.Legend(title=None, orient="bottom", columns=3),
            ),
            shape=alt.Shape(
                f"{f.KIND}:N", scale=alt.Scale(domain=kinds, range=list(_SHAPES[: len(kinds)])), legend=None
            ),
            tooltip=[
                f.LABEL,
                alt.Tooltip(f"{f.SCORE}:Q", format=".2f"),
                alt.Tooltip(f"{f.DIFFERENCE}:Q", format="+.2f"),
                f.SIGNATURE,
                f.WHO,
            ],
        )
    )
    rule = (
        alt.Chart(pd.DataFrame({f.SCORE: [default], "label": [f"sacreBLEU default {default:.2f}"]}))
        .mark_rule(strokeDash=[4, 3], color="#777777")
        .encode(x=f"{f.SCORE}:Q")
    )
    note = rule.mark_text(align="left", dx=4, dy=-6, color=INK).encode(text="label:N", y=alt.value(0))
    chart: alt.LayerChart = (rule + dots + note).properties(
        title="The same corpus under every BLEU", height=alt.Step(16)
    )
    return chart
