"""Where two segment scores part, drawn (issue 33): each sentence of one system as a point, sentence BLEU (x)
against another metric's sentence score (y), the sentences they part on most marked; a click opens a sentence."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

import altair as alt
import pandas as pd

from bleu_app.charts import style
from bleu_app.frames import corpus as f

__all__ = ["SEGMENT_PICK", "segment_scatter"]

SEGMENT_PICK: Final = "segment_pick"  # point selection on the scatter (field: segment)


def segment_scatter(
    sentences: pd.DataFrame, x: str, y: str, *, marked: Sequence[int] = (), percent: bool = True
) -> alt.Chart:
    """Each sentence's ``x`` score against its ``y`` score; ``marked`` segments drawn as orange diamonds (the
    sentences the two part on most). ``percent``: both scores on 0-100 (a fixed square), else ``y``'s own range.

    Example:
        >>> s = pd.DataFrame({"segment": [1, 2], "sentence BLEU": [10.0, 50.0], "sentence chrF2": [40.0, 45.0]})
        >>> segment_scatter(s, "sentence BLEU", "sentence chrF2", marked=[1]).to_dict()["mark"]["type"]
        'point'
    """
    pick = alt.selection_point(name=SEGMENT_PICK, fields=[f.SEGMENT], on="click", clear="dblclick")
    df = sentences[[f.SEGMENT, x, y]].assign(marked=sentences[f.SEGMENT].isin(list(marked)))
    y_scale = alt.Scale(domain=[0, 100]) if percent else alt.Scale(zero=False)
    title = f"{y} against {x}, one point per sentence"
    chart: alt.Chart = (
        alt.Chart(df)
        .mark_point(filled=True)
        .encode(
            x=alt.X(f"{x}:Q", title=x, scale=alt.Scale(domain=[0, 100])),
            y=alt.Y(f"{y}:Q", title=y, scale=y_scale),
            color=alt.condition("datum.marked", alt.value(style.OKABE_ITO[3]), alt.value(style.OKABE_ITO[0])),
            shape=alt.condition("datum.marked", alt.value("diamond"), alt.value("circle")),
            size=alt.condition(pick, alt.value(160), alt.value(40)),
            opacity=alt.condition("datum.marked", alt.value(0.95), alt.value(0.35)),
            tooltip=[f.SEGMENT, alt.Tooltip(x, format=".1f"), alt.Tooltip(y, format=".2f")],
        )
        .add_params(pick)
        .properties(
            title=title,  # the diamonds are named in the page's caption: a subtitle is not in Streamlit's theme
            height=style.titled_height(340, [title, "x"]),
        )
    )
    return chart
