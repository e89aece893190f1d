"""Charts for one segment (learn and sentence pages): pure functions of the frames in
``bleu_app.frames.sentence``. No Streamlit, no I/O, no configure_*(): the page's theme styles them.

Colours are Okabe & Ito's colour-blind-safe palette, which reads on light and dark backgrounds alike.
"""

from __future__ import annotations

import math
from typing import Final

import altair as alt
import pandas as pd

from bleu_app.charts.style import INK
from bleu_app.frames import sentence as f

__all__ = [
    "OKABE_ITO",
    "bp_curve_chart",
    "bp_description",
    "decay_chart",
    "decay_description",
    "log_terms_chart",
    "log_terms_description",
    "precision_bars",
    "precision_description",
]

OKABE_ITO: Final = {
    "orange": "#E69F00",
    "sky": "#56B4E9",
    "green": "#009E73",
    "yellow": "#F0E442",
    "blue": "#0072B2",
    "vermillion": "#D55E00",
    "purple": "#CC79A7",
    "grey": "#999999",
}
_KIND_COLOURS: Final = {"precision": OKABE_ITO["sky"], "brevity": OKABE_ITO["orange"], "total": OKABE_ITO["purple"]}

# Each chart carries a text description (Vega-Lite's ``description``, which Vega writes as the SVG's aria-label):
# what it shows and every number it draws, for a screen reader and for anyone who cannot see the marks (issue 34).


def precision_description(df: pd.DataFrame) -> str:
    """The precision bars in words.

    Example:
        >>> precision_description(pd.DataFrame({f.AXIS: ["p1 = 17/18", "p2 = 10/17"]}))
        'Bar chart of the modified n-gram precision for each order: p1 = 17/18, p2 = 10/17.'
    """
    return f"Bar chart of the modified n-gram precision for each order: {', '.join(df[f.AXIS])}."


def decay_description(df: pd.DataFrame) -> str:
    """The decay chart in words: each p_n, and the zero ones, which a log axis cannot draw.

    Example:
        >>> decay_description(pd.DataFrame({f.AXIS: ["p1 = 8/14", "p2 = 0/13"], f.P_SCORE: [0.5714, 0.0]}))[-56:]
        'p1 = 8/14 (0.5714); p2 = 0/13 is 0, marked on the floor.'
    """
    shown = [f"{a} ({p:.4f})" for a, p in zip(df[f.AXIS], df[f.P_SCORE], strict=True) if p > 0]
    zeros = [a for a, p in zip(df[f.AXIS], df[f.P_SCORE], strict=True) if p <= 0]
    text = "Line chart of the precision p_n against n on a log scale: " + (", ".join(shown) or "nothing to draw")
    if zeros:
        text += f"; {', '.join(zeros)} {'is' if len(zeros) == 1 else 'are'} 0, marked on the floor"
    return text + "."


def log_terms_description(df: pd.DataFrame) -> str:
    """The log-domain bars in words, a term of minus infinity (an order with no match) named as such.

    Example:
        >>> log_terms_description(pd.DataFrame({f.LABEL: ["log BP", "log BLEU"], f.VALUE: [0.0, float("nan")]}))
        'Bar chart of the terms of log BLEU, which add up to the last: log BP = 0.0000, log BLEU = minus infinity.'
    """
    terms = [
        f"{label} = {'minus infinity' if pd.isna(value) else f'{value:.4f}'}"
        for label, value in zip(df[f.LABEL], df[f.VALUE], strict=True)
    ]
    return f"Bar chart of the terms of log BLEU, which add up to the last: {', '.join(terms)}."


def bp_description(points: pd.DataFrame) -> str:
    """The brevity-penalty curve in words, with its marked points.

    Example:
        >>> bp_description(pd.DataFrame({f.POINT: ["this candidate (c = 2)"], f.C: [2], f.BP: [0.00091]}))[-46:]
        'marked: this candidate (c = 2) at BP = 0.0009.'
    """
    marked = [f"{name} at BP = {bp:.4f}" for name, bp in zip(points[f.POINT], points[f.BP], strict=True)]
    return (
        "Line chart of the brevity penalty BP = exp(1 − r/c) against the candidate length c, 1 from c = r on; "
        f"marked: {', '.join(marked)}."
    )


def precision_bars(df: pd.DataFrame, *, height: int = 220) -> alt.Chart:
    """One bar per order n with height p_n (0-1); each exact fraction is in its axis label ("p1 = 17/18").

    Axis labels follow the theme's text colour, so the fractions read in light and dark mode alike.
    """
    chart: alt.Chart = (
        alt.Chart(df)
        .mark_bar(color=OKABE_ITO["blue"], size=36)
        .encode(
            x=alt.X(
                f"{f.AXIS}:N",
                sort=df[f.AXIS].tolist(),
                title=None,
                axis=alt.Axis(labelAngle=0, labelFontSize=14, labelFontWeight="bold"),
            ),
            y=alt.Y(f"{f.P}:Q", title="modified precision p_n", scale=alt.Scale(domain=[0, 1])),
            tooltip=[alt.Tooltip(f"{f.N}:O"), alt.Tooltip(f"{f.FRACTION}:N"), alt.Tooltip(f"{f.P}:Q", format=".4f")],
        )
        .properties(height=height, title="Modified n-gram precision p_n", description=precision_description(df))
    )
    return chart


def decay_chart(df: pd.DataFrame, *, height: int = 220, low: float | None = None) -> alt.LayerChart | alt.FacetChart:
    """p_n against n on a log scale (the paper: precision decays roughly exponentially with n).

    Zero precisions have no place on a log axis; they are left out of the line and drawn as triangles on the floor
    with their fraction. ``low``: the y axis runs from it to 1 (charts shown side by side share one scale, so they
    compare by eye); by default from the power of ten below the smallest p_n > 0, so that one positive p_n (or
    none) still gives a real axis: a log scale fitted to one value collapsed in the browser (review item 9).
    """
    if low is None:
        positive = df[f.P_SCORE][df[f.P_SCORE] > 0]
        smallest = float(positive.min()) if len(positive) else 0.1
        low = 10 ** math.floor(math.log10(smallest))
        if low >= 1:
            low = 0.1
    y_scale = alt.Scale(type="log", domain=[low, 1])
    base = (
        alt.Chart(df)
        .transform_filter(f"datum['{f.P_SCORE}'] > 0")
        .encode(
            # every order stays on the axis, a zero one too (issue 20: Candidate 2's orders 3 and 4 vanished)
            x=alt.X(
                f"{f.N}:O",
                title="n-gram order n",
                axis=alt.Axis(labelAngle=0),
                scale=alt.Scale(domain=df[f.N].tolist()),
            ),
            y=alt.Y(f"{f.P_SCORE}:Q", title="p_n (log scale)", scale=y_scale),
            tooltip=[
                alt.Tooltip(f"{f.N}:O"),
                alt.Tooltip(f"{f.FRACTION}:N"),
                alt.Tooltip(f"{f.P_SCORE}:Q", format=".4f"),
            ],
        )
    )
    line = base.mark_line(color=OKABE_ITO["vermillion"], strokeWidth=3)
    points = base.mark_point(color=OKABE_ITO["vermillion"], filled=True, size=90, shape="diamond")
    layers: list[alt.Chart] = [line, points]
    zeros = df[df[f.P_SCORE] <= 0]
    if len(zeros) and (df[f.P_SCORE] > 0).any():  # a zero p_n: a triangle on the floor with its fraction
        # on the axis's floor in data units (not pixels): a pixel position outside the plot made Streamlit's
        # fit-to-width layout shrink the plot to about 50 px and push the title out (review item 9)
        floor = alt.Chart(zeros.assign(_floor=low)).encode(
            x=alt.X(f"{f.N}:O", scale=alt.Scale(domain=df[f.N].tolist())),
            y=alt.Y("_floor:Q", scale=y_scale),
            tooltip=[alt.Tooltip(f"{f.N}:O"), alt.Tooltip(f"{f.FRACTION}:N")],
        )
        layers.append(floor.mark_point(shape="triangle-down", filled=True, size=90, color=OKABE_ITO["vermillion"]))
        layers.append(
            floor.mark_text(dy=-14, fontSize=13, color=INK).encode(text=alt.Text(f"{f.AXIS}:N"))
        )  # the theme does not colour a text mark (black was unreadable on dark, vermillion 3.9:1 on light)
    if not (df[f.P_SCORE] > 0).any():  # an empty plot would look broken: say why it is empty
        note = pd.DataFrame({"note": ["every p_n is 0: nothing to draw on a log scale"]})
        layers.append(
            alt.Chart(note).mark_text(fontSize=13, color=INK).encode(text="note:N", x=alt.value(150), y=alt.value(90))
        )
    return alt.layer(*layers).properties(
        height=height, title="Precision decay across n (log scale)", description=decay_description(df)
    )


def log_terms_chart(df: pd.DataFrame, *, height: int = 240) -> alt.LayerChart | alt.FacetChart:
    """The log domain: a bar for each w_n log p_n, one for log BP, and their sum log BLEU.

    Each value is written under its term in the axis label; a term of -inf (an order with no match) is NaN
    in the frame and marked by a downward triangle at 0 instead of a bar.
    """
    x = alt.X(
        f"{f.AXIS}:N",
        sort=df[f.AXIS].tolist(),
        title=None,
        axis=alt.Axis(labelAngle=0, labelExpr="split(datum.label, '|')", labelFontSize=13),
    )
    tooltip = [alt.Tooltip(f"{f.LABEL}:N"), alt.Tooltip(f"{f.VALUE}:Q", format=".4f")]
    # every finite term 0 (each p_n is 0 and BP is 1): a domain of one value, which the axis labelled 0.000000
    # down its length (review 29 item 18); from -1 to 0 it is an axis
    finite = df[f.VALUE].dropna()
    y_scale = alt.Scale() if (finite < 0).any() else alt.Scale(domain=[-1, 0])
    bars = (
        alt.Chart(df)
        .mark_bar(size=34)
        .encode(
            x=x,
            y=alt.Y(f"{f.VALUE}:Q", title="log value (0 is best)", scale=y_scale),
            color=alt.Color(
                f"{f.KIND}:N",
                title=None,
                scale=alt.Scale(domain=list(_KIND_COLOURS), range=list(_KIND_COLOURS.values())),
                legend=None,
            ),  # the axis labels name each bar; a bottom legend would crowd out the title
            tooltip=tooltip,
        )
    )
    # out of the accessibility tree: the description names each minus infinity, and Vega gives this layer's
    # container, empty when every term is finite, an image role with no name (axe's svg-img-alt, issue 34)
    infinite = (
        alt.Chart(df)
        .transform_filter(f"!isValid(datum['{f.VALUE}'])")
        .transform_calculate(zero="0")
        .mark_point(shape="triangle-down", filled=True, size=220, color=OKABE_ITO["vermillion"], aria=False)
        .encode(
            x=x,
            y=alt.Y("zero:Q"),
            tooltip=tooltip,
        )
    )
    return alt.layer(bars, infinite).properties(
        height=height, title="log BLEU = Σ w_n log p_n + log BP", description=log_terms_description(df)
    )


def bp_curve_chart(curve: pd.DataFrame, points: pd.DataFrame, *, height: int = 240) -> alt.LayerChart | alt.FacetChart:
    """BP(c) = exp(1 - r/c) for c <= r, else 1; this candidate's point and the best match length marked."""
    line = (
        alt.Chart(curve)
        .mark_line(color=OKABE_ITO["blue"], strokeWidth=3)
        .encode(
            x=alt.X(f"{f.C}:Q", title="candidate length c (tokens)"),
            y=alt.Y(f"{f.BP}:Q", title="brevity penalty BP", scale=alt.Scale(domain=[0, 1.1])),
        )
    )
    # The candidate's dot is drawn last and smaller, over a larger diamond: when c = r both stay visible.
    marks = alt.Chart(points.assign(on_top=[1] + [0] * (len(points) - 1))).encode(
        order=alt.Order("on_top:Q"),
        # one legend for the three channels of the same field (a legend=None on one of them hid it: issue 20.7)
        size=alt.Size(f"{f.POINT}:N", title=None, scale=alt.Scale(domain=points[f.POINT].tolist(), range=[120, 360])),
        x=alt.X(f"{f.C}:Q"),
        y=alt.Y(f"{f.BP}:Q"),
        shape=alt.Shape(
            f"{f.POINT}:N",
            title=None,
            legend=alt.Legend(orient="bottom-right", labelLimit=320, labelFontSize=13, symbolSize=140),
            scale=alt.Scale(domain=points[f.POINT].tolist(), range=["circle", "diamond"]),
        ),
        color=alt.Color(
            f"{f.POINT}:N",
            title=None,
            scale=alt.Scale(domain=points[f.POINT].tolist(), range=[OKABE_ITO["vermillion"], OKABE_ITO["green"]]),
        ),
        tooltip=[alt.Tooltip(f"{f.POINT}:N"), alt.Tooltip(f"{f.C}:Q"), alt.Tooltip(f"{f.BP}:Q", format=".4f")],
    )
    dots = marks.mark_point(filled=True, opacity=1)
    rule = alt.Chart(points.tail(1)).mark_rule(strokeDash=[6, 4], color=OKABE_ITO["green"]).encode(x=alt.X(f"{f.C}:Q"))
    return alt.layer(line, rule, dots).properties(
        height=height, title="Brevity penalty BP = exp(1 − r/c) for c ≤ r", description=bp_description(points)
    )
