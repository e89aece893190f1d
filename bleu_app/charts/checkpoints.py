"""The learning curve: when the systems are checkpoints of one run, each checkpoint's score with its interval, in
natural order (``ckpt-2`` before ``ckpt-10``). A pure function of the systems table (no st.*, no I/O)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import altair as alt
import pandas as pd

from bleu_app.charts import style
from bleu_app.frames import corpus as f

__all__ = ["learning_curve"]


def learning_curve(
    systems: pd.DataFrame,
    order: Sequence[str],
    *,
    labels: Mapping[str, str] | None = None,
    score: str = f.BLEU,
    digits: int = 2,
) -> alt.LayerChart | alt.FacetChart:
    """The score (column ``score``) of each system of ``order`` (checkpoints in natural order,
    ``bleu_core.display.names.checkpoint_order``) with its 95% interval as a band, joined by a line in that order;
    the axis shows the short names (``labels``), the tooltip the full ones.

    Example:
        >>> df = pd.DataFrame({f.SYSTEM: ["c-10", "c-2"], f.BLEU: [30.0, 20.0], f.CI_LOW: [29.0, 19.0],
        ...                    f.CI_HIGH: [31.0, 21.0]})
        >>> layers = learning_curve(df, ["c-2", "c-10"]).to_dict()["layer"]
        >>> [layer["mark"]["type"] for layer in layers]
        ['area', 'line', 'point']
    """
    df = style.shown(style.ranked(systems[systems[f.SYSTEM].isin(order)], f.SYSTEM, list(order)), f.SYSTEM, labels)
    df = df.sort_values(style.RANK, kind="stable")
    x = alt.X(
        f"{style.SHOWN}:N",
        sort=style.by_rank(),
        title="checkpoint (natural order)",
        axis=alt.Axis(labelAngle=-45, labelOverlap=False),
    )
    base = alt.Chart(df).encode(x=x)
    band = base.mark_area(opacity=0.25).encode(
        y=alt.Y(f"{f.CI_LOW}:Q", title=f"{score} (95% bootstrap CI)", scale=alt.Scale(zero=False)),
        y2=f"{f.CI_HIGH}:Q",
    )
    line = base.mark_line().encode(y=alt.Y(f"{score}:Q"), order=alt.Order(f"{style.RANK}:Q"))
    points = base.mark_point(filled=True, size=60).encode(
        y=alt.Y(f"{score}:Q"),
        tooltip=[
            f.SYSTEM,
            alt.Tooltip(f"{score}:Q", format=f".{digits}f"),
            alt.Tooltip(f"{f.CI_LOW}:Q", format=f".{digits}f"),
            alt.Tooltip(f"{f.CI_HIGH}:Q", format=f".{digits}f"),
        ],
    )
    title = f"{score} by checkpoint, with its 95% interval"
    return alt.layer(band, line, points).properties(title=title, height=300)
