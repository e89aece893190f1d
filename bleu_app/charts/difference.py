"""Charts of the difference decomposition: pure functions DataFrame -> alt.Chart (no st.*, no I/O, no configure_*).

Gains and losses are Okabe-Ito bluish green and vermillion, and every bar also carries its signed value as text,
so colour is never the only carrier.
"""

from __future__ import annotations

from collections.abc import Mapping

import altair as alt
import pandas as pd

from bleu_app.charts.style import (
    INK,
    PLOT_HEIGHT,
    RANK,
    SHOWN,
    by_rank,
    ranked,
    shown,
    slanted_labels_height,
    title_lines,
    titled_height,
)
from bleu_app.frames import difference as f, pair_buckets as pb
from bleu_app.frames.signs import signed

KIND_COLOURS = ("#0072B2", "#009E73", "#D55E00")  # total, gain, loss
TERM_COLOURS = ["#CC79A7", "#56B4E9", "#E69F00", "#009E73", "#0072B2", "#D55E00", "#F0E442", "#999999", "#000000"]


def waterfall_chart(frame: pd.DataFrame, unit: f.Unit, *, title: str | list[str]) -> alt.LayerChart | alt.FacetChart:
    """The waterfall, horizontal: a bar from ``start`` to ``end`` per step (one band per term, so each name is
    drawn however narrow the window), totals from the axis floor, the value right of each bar.

    In BLEU points the axis does not start at 0 (the steps are small next to the scores); the totals are
    drawn from the axis floor, which the caption of the page states.
    """
    steps = frame[f.KIND] != "total"
    lows = pd.concat([frame.loc[steps, f.START], frame.loc[steps, f.END], frame.loc[~steps, f.END]])
    lo, hi = float(lows.min()), float(lows.max())
    if unit == "log":
        lo, hi = min(lo, 0.0), max(hi, 0.0)
    pad = max((hi - lo) * 0.25, 1e-6)
    floor = lo - pad if unit == "points" else lo - pad * 0.4
    df = frame.assign(
        _from=frame[f.START].where(frame[f.START].notna(), floor),
        _text_at=frame[[f.START, f.END]].max(axis=1),
    )
    # Horizontal bars, one band per term: every term's name is drawn at 390 px (upright labels along x hid BP,
    # p2 and p4 there); sorted by a rank field, never by a list of names (Vega-Lite compiles a list into an
    # expression)
    y = alt.Y(f"{f.STEP}:N", sort=by_rank(f.ORDER), title=None, axis=alt.Axis(labelOverlap=False, labelLimit=130))
    x_title = f.UNIT_TITLES[unit]
    kinds = alt.Scale(domain=list(f.KINDS), range=list(KIND_COLOURS))
    bars = (
        alt.Chart(df)
        .mark_bar()
        .encode(
            y=y,
            # room on the right for the value written after the last bar
            x=alt.X("_from:Q", title=x_title, scale=alt.Scale(domain=[floor, hi + pad], clamp=True)),
            x2=alt.X2(f"{f.END}:Q"),
            color=alt.Color(
                f"{f.KIND}:N", scale=kinds, title=None, legend=alt.Legend(orient="bottom", direction="horizontal")
            ),
            tooltip=[
                f.STEP,
                alt.Tooltip(f"{f.VALUE}:Q", format="+.4f", title="value"),
                alt.Tooltip(f"{f.START}:Q", format=".4f"),
                alt.Tooltip(f"{f.END}:Q", format=".4f"),
            ],
        )
    )
    labels = (
        alt.Chart(df)
        .mark_text(align="left", dx=4, fontSize=12, fontWeight="bold")
        # right of each bar, in the page's text colour (the bars' own were under 4.5:1 on one theme or the other)
        .encode(y=y, x=alt.X("_text_at:Q"), text=f"{f.LABEL}:N", color=alt.value(INK))
    )
    return alt.layer(bars, labels).properties(title=title, height=alt.Step(30))


def versus_baseline_chart(
    frame: pd.DataFrame, unit: f.Unit, baseline: str, *, labels: Mapping[str, str] | None = None
) -> alt.LayerChart | alt.FacetChart:
    """Every system against the baseline: each system's terms stacked (gains right, losses left), a black
    tick at the net difference; the axis shows ``labels`` (the short names), the tooltip the full names."""
    systems = list(dict.fromkeys(frame[f.SYSTEM]))
    terms = list(dict.fromkeys(frame[f.TERM]))  # BP, p1..pN: our names, safe in an expression
    frame = shown(ranked(frame, f.SYSTEM, systems), f.SYSTEM, labels)
    y = alt.Y(f"{SHOWN}:N", sort=by_rank(), title=None, axis=alt.Axis(labelLimit=200, labelOverlap=False))
    baseline = labels.get(baseline, baseline) if labels else baseline
    fmt = "+.2f" if unit == "points" else "+.4f"
    bars = (
        alt.Chart(frame)
        .mark_bar()
        .encode(
            y=y,
            x=alt.X(f"{f.VALUE}:Q", title=f"difference from {baseline}, {f.UNIT_TITLES[unit]}", stack="zero"),
            color=alt.Color(
                f"{f.TERM}:N",
                scale=alt.Scale(domain=terms, range=TERM_COLOURS[: len(terms)]),
                title="term",
                sort=terms,
                legend=alt.Legend(orient="bottom", direction="horizontal"),  # fits however few systems
            ),
            order=alt.Order("term_order:Q"),
            tooltip=[f.SYSTEM, f.TERM, alt.Tooltip(f"{f.VALUE}:Q", format=fmt), alt.Tooltip(f"{f.NET}:Q", format=fmt)],
        )
        .transform_calculate(term_order=f"indexof({terms!r}, datum.term)")
    )
    net = frame.drop_duplicates(f.SYSTEM)[[f.SYSTEM, SHOWN, f.NET, RANK]]
    ticks = (
        alt.Chart(net)
        .mark_tick(thickness=3, size=22, color="#777777")
        .encode(y=y, x=alt.X(f"{f.NET}:Q"), tooltip=[f.SYSTEM, alt.Tooltip(f"{f.NET}:Q", format=fmt)])
    )
    return alt.layer(bars, ticks).properties(
        title=[f"Every system against {baseline}:", "the terms of each difference (tick: net)"],
        height=alt.Step(30),  # a fixed pixel height collapses the bands in Streamlit's container-width layout
    )


def pair_bucket_chart(frame: pd.DataFrame, *, x_title: str, y_title: str) -> alt.LayerChart | alt.FacetChart:
    """A and B side by side in each bucket (``frames.pair_buckets.long``): a point per system with its 95%
    interval as a rule; A blue circles, B orange squares (shape as well as colour)."""
    sides = list(dict.fromkeys(frame[pb.SIDE]))
    colour = alt.Color(
        f"{pb.SIDE}:N",
        scale=alt.Scale(domain=sides, range=["#0072B2", "#E69F00"][: len(sides)]),
        title=None,
        legend=alt.Legend(orient="bottom"),  # at the right it took a third of a phone's width
    )
    shape = alt.Shape(f"{pb.SIDE}:N", scale=alt.Scale(domain=sides, range=["circle", "square"][: len(sides)]))
    axis = alt.Axis(labelAngle=-30, labelOverlap=False, labelLimit=180)
    x = alt.X(f"{pb.BUCKET}:N", sort=by_rank(pb.ORDER), title=x_title, axis=axis)
    offset = alt.XOffset(f"{pb.SIDE}:N", sort=sides)
    base = alt.Chart(frame)
    rule = base.mark_rule(strokeWidth=2).encode(
        x=x,
        xOffset=offset,
        y=alt.Y(f"{pb.LOW}:Q", title=y_title, scale=alt.Scale(zero=False)),  # from 0, gaps of 1-5 points vanished
        y2=f"{pb.HIGH}:Q",
        color=colour,
    )
    tooltip = [
        pb.BUCKET,
        pb.SIDE,
        pb.COUNT,
        alt.Tooltip(pb.VALUE, format=".2f"),
        alt.Tooltip(pb.LOW, format=".2f"),
        alt.Tooltip(pb.HIGH, format=".2f"),
    ]
    pts = base.mark_point(filled=True, size=80).encode(
        x=x, xOffset=offset, y=f"{pb.VALUE}:Q", color=colour, shape=shape, tooltip=tooltip
    )
    lines = title_lines(f"{y_title} by {x_title} (95% bootstrap CI)")
    # the plot, the x axis's title and the legend (30 px), and the slanted bucket labels, all inside the height
    height = titled_height(PLOT_HEIGHT + 60 + slanted_labels_height(frame[pb.BUCKET].astype(str).tolist()), lines)
    return alt.layer(rule, pts).properties(title=lines, height=height)


def gap_curve_chart(frame: pd.DataFrame, gap: float) -> alt.LayerChart | alt.FacetChart:
    """The cumulative share of B - A (``frames.difference.gap_curve``): a line over the sentences taken largest
    share first, a dashed rule at B - A (where the line ends) and one at 0."""
    lines = title_lines("How many sentences carry the gap")
    line = (
        alt.Chart(frame)
        .mark_line(color="#0072B2", strokeWidth=2)
        .encode(
            x=alt.X(f"{f.SENTENCES}:Q", title="sentences, largest share (in the gap's direction) first"),
            # short: a long rotated axis title stood above the plot and pushed the chart title out of the box
            y=alt.Y(f"{f.CUMULATIVE}:Q", title="B − A so far (points)"),
            tooltip=[
                alt.Tooltip(f"{f.SENTENCES}:Q", title="sentences"),
                alt.Tooltip(f"{f.CUMULATIVE}:Q", format="+.3f", title="their shares together"),
            ],
        )
    )
    marks = pd.DataFrame({"at": [gap, 0.0], "what": [f"B − A = {signed(gap)}", "0"]})
    rules = (
        alt.Chart(marks)
        .mark_rule(strokeDash=[4, 3], color=INK)
        .encode(y=alt.Y("at:Q"), tooltip=[alt.Tooltip("what:N", title="line")])
    )
    label = (
        alt.Chart(marks.head(1))
        .mark_text(align="left", baseline="bottom", dx=4, dy=-3, color=INK)
        .encode(y=alt.Y("at:Q"), x=alt.value(0), text="what:N")
    )
    return alt.layer(line, rules, label).properties(title=lines, height=titled_height(260, lines))
