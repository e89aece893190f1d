"""Charts for the class dashboard: pure functions of the frames in ``bleu_app.frames.classroom``."""

from __future__ import annotations

import altair as alt
import pandas as pd

from bleu_app.charts.sentence import OKABE_ITO
from bleu_app.frames import classroom as f


def histogram(df: pd.DataFrame) -> alt.Chart:
    """The class's BLEU scores in 10-point bins."""
    chart: alt.Chart = (
        alt.Chart(df)
        .mark_bar(color=OKABE_ITO["blue"])
        .encode(
            x=alt.X("from:Q", bin="binned", title="Sentence BLEU", scale=alt.Scale(domain=[0, 100])),
            x2="to:Q",
            y=alt.Y("count:Q", title="translations", axis=alt.Axis(tickMinStep=1)),
            tooltip=["from:Q", "to:Q", "count:Q"],
        )
        .properties(height=220)
    )
    return chart


def ratings_scatter(df: pd.DataFrame) -> alt.Chart:
    """Each rated translation: BLEU across, the class's mean rating (1-5) up; the translation on hover."""
    rated = df[(df[f.N_RATINGS] > 0) & ~df[f.HIDDEN]]
    chart: alt.Chart = (
        alt.Chart(rated)
        .mark_circle(size=90, color=OKABE_ITO["vermillion"], opacity=0.8)
        .encode(
            x=alt.X(f"{f.BLEU}:Q", title="Sentence BLEU", scale=alt.Scale(domain=[0, 100])),
            y=alt.Y(f"{f.MEAN}:Q", title="Mean rating (1 very bad - 5 very good)", scale=alt.Scale(domain=[1, 5])),
            tooltip=[f"{f.TEXT}:N", alt.Tooltip(f"{f.BLEU}:Q", format=".2f"), f"{f.MEAN}:Q", f"{f.N_RATINGS}:Q"],
        )
        .properties(height=260)
    )
    return chart
