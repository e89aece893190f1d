"""Charts of the corpus and compare pages: pure functions DataFrame -> alt.Chart (no st.*, no I/O, no configure_*).

Colours are the Okabe-Ito colour-blind-safe palette; where colour carries meaning a shape or a label does too.
Systems past the eighth take Paul Tol's colour-blind-safe "muted" colours, drawn hollow (bars) or with a shape
of their own (points), so two of 12+ systems never look the same. Selections that the pages read back are named
here (``PICK``, ``NGRAM_PICK``).

No user string (a system name, an n-gram) is ever part of a Vega expression: an explicit ``sort`` list is
compiled into one, so a name such as ``if`` or one with a quote broke the whole chart. Categorical axes sort by
a rank field of the data instead (:func:`by_rank`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final, Literal

import altair as alt
import numpy as np
import pandas as pd

from bleu_app.frames import corpus as f
from bleu_app.frames.signs import signed as signed_number

# Okabe-Ito with Tol's light grey for black (black vanishes on the dark theme).
OKABE_ITO = ["#0072B2", "#E69F00", "#009E73", "#D55E00", "#CC79A7", "#56B4E9", "#F0E442", "#BBBBBB"]
# Tol's muted, the colours least like Okabe-Ito's first.
TOL_MUTED = ["#882255", "#332288", "#999933", "#117733", "#AA4499", "#DDCC77", "#CC6677", "#44AA99", "#88CCEE"]
SYSTEM_COLOURS = OKABE_ITO + TOL_MUTED  # 17 distinct colours
SHAPES = ["circle", "square", "diamond", "triangle-up", "triangle-down", "cross", "triangle-right", "triangle-left"]
RANK = "rank"  # the sort key of a categorical axis (0 first)
PICK = "pick"  # point selection on the A-vs-B scatter (field: segment)
NGRAM_PICK = "ngram_pick"  # point selection on the n-gram chart (field: n-gram)
SIG_COLOURS = ("#0072B2", "#D55E00", "#d0d0d0")  # row better, row worse, not significant
# Chart text in the page's own text colour: Vega writes it as the SVG fill, which takes the light or the dark theme's
# text colour (a text mark's default is black; a fixed colour cannot reach 4.5:1 on both themes' backgrounds).
INK = "currentColor"
LEGEND_GREY = "#888888"  # a colourless legend's symbols: 3.5:1 on white, 5.3:1 on the dark theme
# Above DENSE sentences a chart draws bins instead of one mark per sentence: 50,000 marks cost the browser
# seconds and the page megabytes over the websocket (issue 24), and drew an ink blot all the same.
DENSE = 2000
BP_BINS = 150  # c/r bins of the brevity-penalty chart above DENSE sentences
PAIR_BIN = 2.0  # BLEU points per bin side of the A-vs-B density above DENSE sentences (50 x 50 cells)
TOP_POINTS = 500  # points kept on a dense A-vs-B scatter: the largest |B - A| (and as many n-gram-marked ones)
SENTENCES = "sentences"  # a bin's count


TITLE_LINE = 20  # px of a second title line (16 px font)
TITLE_CHARS = 34  # a title line that fits a 390 px phone (a 330 px chart, Streamlit's 16 px bold title font)


def title_lines(text: str, width: int = TITLE_CHARS) -> str | list[str]:
    """``text`` as one title line when it is short, else as lines of at most ``width`` characters (Vega-Lite draws
    a list as lines): a trailing "(...)" on a line of its own, the rest broken at spaces. A title longer than the
    chart was cut with "…" on a phone.

    Example:
        >>> title_lines("Precision decay")
        'Precision decay'
        >>> title_lines("BLEU by reference length (95% bootstrap CI)")
        ['BLEU by reference length', '(95% bootstrap CI)']
    """
    import textwrap

    if len(text) <= width:
        return text
    head, paren, tail = text.rpartition(" (")
    parts = [head, paren.strip() + tail] if paren and head else [text]
    return [line for part in parts for line in textwrap.wrap(part, width, break_on_hyphens=False)]


def titled_height(height: int, title: str | list[str]) -> int:
    """``height`` plus the pixels of the title's lines after the first: Streamlit fits the whole chart, title
    included, in the height, so a second or third line squeezed the plot.

    Example:
        >>> titled_height(240, "BLEU"), titled_height(240, ["BLEU by reference length", "(95% bootstrap CI)"])
        (240, 260)
    """
    return height + (TITLE_LINE * (len(title) - 1) if isinstance(title, list) else 0)


def _palette(n: int) -> list[str]:
    return [SYSTEM_COLOURS[i % len(SYSTEM_COLOURS)] for i in range(max(n, 1))]


def _shapes(n: int) -> list[str]:
    """One shape per system: the i-th and the (i+8)-th system never share colour and shape."""
    return [SHAPES[(i + i // len(SHAPES)) % len(SHAPES)] for i in range(max(n, 1))]


def _fill_opacity(n: int) -> list[float]:
    """Bars of systems past the eighth are drawn hollow (a second channel next to their colour)."""
    return [1.0 if i < len(OKABE_ITO) else 0.25 for i in range(max(n, 1))]


def by_rank(field: str = RANK) -> alt.EncodingSortField:
    """Sort a categorical axis by a numeric field of the data (never by a list of its values)."""
    return alt.EncodingSortField(field=field, op="min", order="ascending")


SHOWN = "shown"  # the name on an axis: what sets the systems apart (frames.names.short_names); full on hover


def _shown(df: pd.DataFrame, column: str, labels: Mapping[str, str] | None, to: str = SHOWN) -> pd.DataFrame:
    """``df`` with ``to``: each ``column`` value's display label (the value itself without ``labels``)."""
    return df.assign(**{to: [labels.get(v, v) if labels else v for v in df[column]]})


def ranked(df: pd.DataFrame, column: str, order: list[str], rank: str = RANK) -> pd.DataFrame:
    """``df`` with ``rank``: the position of each row's ``column`` value in ``order``."""
    where = {v: i for i, v in enumerate(order)}
    return df.assign(**{rank: [where.get(v, len(where)) for v in df[column]]})


def precision_decay(prec: pd.DataFrame) -> alt.Chart:
    """Modified precision p_n against n, one line per system (the paper's Figure 1 shape: it decays with n)."""
    systems = list(dict.fromkeys(prec[f.SYSTEM]))
    base = alt.Chart(prec).encode(
        x=alt.X(f"{f.N}:O", title="n-gram order n", axis=alt.Axis(labelAngle=0)),
        y=alt.Y(f"{f.PRECISION}:Q", title="modified precision p_n", scale=alt.Scale(domain=[0, 1])),
        color=alt.Color(f"{f.SYSTEM}:N", scale=alt.Scale(domain=systems, range=_palette(len(systems))), title="system"),
        tooltip=[f.SYSTEM, f.N, f.FRACTION, alt.Tooltip(f.PRECISION, format=".4f")],
    )
    chart: alt.Chart = (
        base.mark_line()
        + base.mark_point(filled=True, size=70).encode(
            shape=alt.Shape(
                f"{f.SYSTEM}:N", scale=alt.Scale(domain=systems, range=_shapes(len(systems))), title="system"
            )
        )
    ).properties(title="Precision decay", height=260)
    return chart


def bp_chart(curve: pd.DataFrame, points: pd.DataFrame) -> alt.LayerChart | alt.FacetChart:
    """The brevity penalty curve exp(1 - r/c) with every sentence's (c/r, BP) and the corpus point."""
    line = (
        alt.Chart(curve)
        .mark_line(color="#777777")
        .encode(
            x=alt.X(
                f"{f.RATIO}:Q",
                # two lines: at 390 px one line lost its closing parenthesis
                title=["c / r", "candidate length over effective reference length"],
                scale=alt.Scale(domain=[0, float(max(curve[f.RATIO].max(), 1.2))], clamp=True),
            ),
            y=alt.Y(f"{f.BP}:Q", title="brevity penalty BP", scale=alt.Scale(domain=[0, 1.05])),
        )
    )
    sentences = points[points[f.KIND] == "sentence"]
    if len(sentences) > DENSE:
        xmax = float(max(curve[f.RATIO].max(), 1.2))
        sent = (
            alt.Chart(bp_bins(sentences, xmax))
            .mark_circle(opacity=0.45, color=OKABE_ITO[0])
            .encode(
                x=alt.X(f"{f.RATIO}:Q"),
                y=alt.Y(f"{f.BP}:Q"),
                size=alt.Size(f"{SENTENCES}:Q", scale=alt.Scale(range=[28, 400]), title="sentences per bin"),
                tooltip=[
                    alt.Tooltip(SENTENCES, title="sentences"),
                    alt.Tooltip("ratio_min:Q", format=".3f", title="c/r from"),
                    alt.Tooltip("ratio_max:Q", format=".3f", title="c/r to"),
                    alt.Tooltip("bp_min:Q", format=".3f", title="BP from"),
                    alt.Tooltip("bp_max:Q", format=".3f", title="BP to"),
                ],
            )
        )
    else:
        sent = (
            alt.Chart(sentences)
            .mark_circle(size=28, opacity=0.45, color=OKABE_ITO[0])
            .encode(
                x=alt.X(f"{f.RATIO}:Q"),
                y=alt.Y(f"{f.BP}:Q"),
                tooltip=[f.SEGMENT, alt.Tooltip(f.RATIO, format=".3f"), alt.Tooltip(f.BP, format=".3f")],
            )
        )
    corpus = points[points[f.KIND] == "corpus"]
    dot = (
        alt.Chart(corpus)
        .mark_point(shape="diamond", size=260, filled=True, color=OKABE_ITO[3], stroke="white", strokeWidth=1.5)
        .encode(
            x=f"{f.RATIO}:Q",
            y=f"{f.BP}:Q",
            tooltip=[
                alt.Tooltip(f.RATIO, format=".4f", title="corpus c/r"),
                alt.Tooltip(f.BP, format=".4f", title="corpus BP"),
            ],
        )
    )
    label = (
        alt.Chart(corpus)
        .mark_text(align="left", dx=10, dy=-10, fontWeight="bold", color=INK)
        .encode(x=f"{f.RATIO}:Q", y=f"{f.BP}:Q", text=alt.value("corpus (Σc/Σr)"))
    )
    return alt.layer(line, sent, dot, label).properties(title="Brevity penalty", height=260)


def bp_bins(sentences: pd.DataFrame, xmax: float, bins: int = BP_BINS) -> pd.DataFrame:
    """The sentences' (c/r, BP) in ``bins`` equal c/r bins over [0, ``xmax``] (a c/r past it in the last, as the
    chart's clamped axis draws it): each non-empty bin's count, the mean point where it is drawn, and the
    exact range of its sentences' c/r and BP (the tooltip's).

    Example:
        >>> df = pd.DataFrame({f.RATIO: [0.5, 0.52, 1.0, 9.0], f.BP: [0.1353, 0.1572, 1.0, 1.0]})
        >>> bp_bins(df, 2.0, bins=4)[[SENTENCES, "ratio_min", "ratio_max"]].values.tolist()
        [[2.0, 0.5, 0.52], [1.0, 1.0, 1.0], [1.0, 9.0, 9.0]]
    """
    ratio = sentences[f.RATIO].to_numpy(dtype=float)
    which = np.clip((np.minimum(ratio, xmax) / xmax * bins).astype(int), 0, bins - 1)
    df = pd.DataFrame({"bin": which, f.RATIO: np.minimum(ratio, xmax), "r": ratio, f.BP: sentences[f.BP]})
    out = df.groupby("bin", sort=True).agg(
        **{
            SENTENCES: (f.BP, "size"),
            f.RATIO: (f.RATIO, "mean"),
            f.BP: (f.BP, "mean"),
            "ratio_min": ("r", "min"),
            "ratio_max": ("r", "max"),
            "bp_min": (f.BP, "min"),
            "bp_max": (f.BP, "max"),
        }
    )
    return out.reset_index(drop=True)


def bucket_chart(buckets: pd.DataFrame, title: str) -> alt.LayerChart | alt.FacetChart:
    """BLEU per bucket with its 95 % bootstrap interval."""
    # slanted, never dropped: Vega hid 2 of 5 length-bucket labels in a half-width column
    axis = alt.Axis(labelAngle=-30, labelOverlap=False, labelLimit=180)
    x = alt.X(f"{f.BUCKET}:N", sort=by_rank("order"), title=title, axis=axis)
    rule = (
        alt.Chart(buckets)
        .mark_rule(strokeWidth=2, color=OKABE_ITO[0])
        .encode(x=x, y=alt.Y(f"{f.CI_LOW}:Q", title="BLEU"), y2=f"{f.CI_HIGH}:Q")
    )
    pts = (
        alt.Chart(buckets)
        .mark_point(filled=True, size=90, color=OKABE_ITO[0])
        .encode(
            x=x,
            y=f"{f.BLEU}:Q",
            tooltip=[
                f.BUCKET,
                f.COUNT,
                alt.Tooltip(f.BLEU, format=".2f"),
                alt.Tooltip(f.CI_LOW, format=".2f"),
                alt.Tooltip(f.CI_HIGH, format=".2f"),
            ],
        )
    )
    lines = title_lines(f"BLEU by {title} (95% bootstrap CI)")
    return alt.layer(rule, pts).properties(title=lines, height=titled_height(240, lines))


def block_chart(blocks: pd.DataFrame, *, labels: Mapping[str, str] | None = None) -> alt.LayerChart | alt.FacetChart:
    """Every block's BLEU per system (the paper's block test), with each system's mean as a tick."""
    systems = list(dict.fromkeys(blocks[f.SYSTEM]))
    blocks = _shown(ranked(blocks, f.SYSTEM, systems), f.SYSTEM, labels)
    y = alt.Y(f"{SHOWN}:N", sort=by_rank(), title=None, axis=alt.Axis(labelOverlap=False))
    colour = alt.Color(f"{f.SYSTEM}:N", scale=alt.Scale(domain=systems, range=_palette(len(systems))), legend=None)
    shape = alt.Shape(f"{f.SYSTEM}:N", scale=alt.Scale(domain=systems, range=_shapes(len(systems))), legend=None)
    n_blocks = blocks[f.BLOCK].nunique()
    x = alt.X(f"{f.BLEU}:Q", title="BLEU of a block")
    # No fixed colour on the tick: the theme's mark colour (Streamlit's light or dark), never dark grey on black.
    if len(blocks) <= DENSE:
        pts = (
            alt.Chart(blocks)
            .mark_circle(size=40, opacity=0.6)
            .encode(x=x, y=y, color=colour, shape=shape, tooltip=[f.SYSTEM, f.BLOCK, alt.Tooltip(f.BLEU, format=".2f")])
        )
        mean = alt.Chart(blocks).mark_tick(thickness=3, size=22).encode(x=alt.X(f"mean({f.BLEU}):Q"), y=y)
    else:  # 2,000 blocks a system at 50,000 lines: blocks in BLOCK_BIN-point bins, the mean from every block
        keys = [f.SYSTEM, RANK, SHOWN]
        pts = (
            alt.Chart(block_bins(blocks))
            .mark_circle(opacity=0.6)
            .encode(
                x=x,
                y=y,
                color=colour,
                shape=shape,
                size=alt.Size(f"{BLOCKS}:Q", scale=alt.Scale(range=[40, 300]), legend=None),
                tooltip=[
                    f.SYSTEM,
                    alt.Tooltip(BLOCKS, title="blocks"),
                    alt.Tooltip("bleu_min:Q", format=".2f", title="BLEU from"),
                    alt.Tooltip("bleu_max:Q", format=".2f", title="BLEU to"),
                ],
            )
        )
        means = blocks.groupby(keys, sort=False)[f.BLEU].mean().reset_index()
        mean = alt.Chart(means).mark_tick(thickness=3, size=22).encode(x=alt.X(f"{f.BLEU}:Q"), y=y)
    return alt.layer(pts, mean).properties(
        title=title_lines(f"Block test: BLEU of {n_blocks} blocks (tick: mean)"),
        height=alt.Step(28),  # one 28 px band per system: a pixel height collapsed to a strip in Streamlit
    )


BLOCK_BIN = 0.5  # BLEU points per bin of the block chart above DENSE blocks
BLOCKS = "blocks"  # a bin's count


def block_bins(blocks: pd.DataFrame, width: float = BLOCK_BIN) -> pd.DataFrame:
    """Each system's blocks (``block_chart``'s frame: system, rank, shown, BLEU) in ``width``-point BLEU bins:
    the count, the mean where the bin is drawn, and the exact lowest and highest BLEU in it.

    Example:
        >>> df = pd.DataFrame({f.SYSTEM: ["a"] * 3, RANK: 0, SHOWN: "a", f.BLEU: [10.1, 10.4, 12.0]})
        >>> block_bins(df)[[BLOCKS, "bleu_min", "bleu_max"]].values.tolist()
        [[2.0, 10.1, 10.4], [1.0, 12.0, 12.0]]
    """
    keys = [f.SYSTEM, RANK, SHOWN]
    binned = blocks.assign(_bin=np.floor(blocks[f.BLEU].to_numpy(dtype=float) / width).astype(int))
    out = binned.groupby([*keys, "_bin"], sort=False).agg(
        **{
            BLOCKS: (f.BLEU, "size"),
            f.BLEU: (f.BLEU, "mean"),
            "bleu_min": (f.BLEU, "min"),
            "bleu_max": (f.BLEU, "max"),
        }
    )
    return out.reset_index().drop(columns="_bin")


def systems_ci_chart(
    systems: pd.DataFrame,
    baseline: str = "",
    *,
    clusters: Mapping[str, int] | None = None,
    labels: Mapping[str, str] | None = None,
) -> alt.LayerChart | alt.FacetChart:
    """Each system's corpus BLEU with its 95 % bootstrap interval, best first; the baseline is a diamond. With
    ``clusters`` (system -> significance cluster, 1 = top) each cluster has its colour and a band of its own."""
    df = systems.assign(role=[("baseline" if s == baseline else "system") for s in systems[f.SYSTEM]])
    df = ranked(df, f.SYSTEM, list(df.sort_values(f.BLEU, ascending=False, kind="stable")[f.SYSTEM]))
    df = _shown(df, f.SYSTEM, labels)
    if clusters:
        df = df.assign(group=[f"cluster {clusters.get(s, 0)}" for s in df[f.SYSTEM]])
        groups = [f"cluster {k}" for k in sorted(set(clusters.values()))]
        colour = alt.Color(
            "group:N", scale=alt.Scale(domain=groups, range=_palette(len(groups))), title="significance cluster"
        )
    else:
        colour = alt.Color(
            "role:N", scale=alt.Scale(domain=["baseline", "system"], range=[OKABE_ITO[3], OKABE_ITO[0]]), title=None
        )
    y = alt.Y(f"{SHOWN}:N", sort=by_rank(), title=None, axis=alt.Axis(labelOverlap=False))
    rule = (
        alt.Chart(df)
        .mark_rule(strokeWidth=2)
        .encode(
            x=alt.X(f"{f.CI_LOW}:Q", title="BLEU (95% bootstrap CI)", scale=alt.Scale(zero=False)),
            x2=f"{f.CI_HIGH}:Q",
            y=y,
            color=colour,
        )
    )
    pts = (
        alt.Chart(df)
        .mark_point(filled=True, size=90)
        .encode(
            x=f"{f.BLEU}:Q",
            y=y,
            color=colour,
            shape=alt.Shape(
                "role:N",
                scale=alt.Scale(domain=["baseline", "system"], range=["diamond", "circle"]),
                title=None,
                # the shape legend has no colour of its own: Vega drew its symbols black, unseen on the dark theme
                legend=alt.Legend(symbolFillColor=LEGEND_GREY, symbolStrokeColor=LEGEND_GREY),
            ),
            tooltip=[
                f.SYSTEM,
                alt.Tooltip(f.BLEU, format=".2f"),
                alt.Tooltip(f.CI_LOW, format=".2f"),
                alt.Tooltip(f.CI_HIGH, format=".2f"),
                alt.Tooltip(f.BP, format=".3f"),
                alt.Tooltip(f.RATIO, format=".3f"),
            ],
        )
    )
    title = ["Corpus BLEU per system,", "by significance cluster"] if clusters else "Corpus BLEU per system"
    return alt.layer(rule, pts).properties(title=title, height=titled_height(max(220, 30 * len(df)), title))


# Bars tell systems apart by colour and fill: 8 hues, solid then hollow. Past that many systems two share both
# (WMT21 en-de has 20; review 29 item 17), and the chart is a grid instead: a row per system, a cell per order.
BARS_UP_TO: Final = 2 * len(OKABE_ITO)
GRID_SHADES: Final = ("#F7FBFF", "#4292C6")  # the lightest and a middle blue of ColorBrewer's Blues
GRID_TEXT: Final = "#111111"  # 5.5:1 on the darker shade, 18.6:1 on the lighter


def precision_bars(prec: pd.DataFrame) -> alt.Chart | alt.LayerChart | alt.FacetChart:
    """Grouped bars: p_1..p_N per system (groups are orders, bars within a group are systems); above
    ``BARS_UP_TO`` systems a grid, each cell p_n written and shaded (:func:`_precision_grid`)."""
    systems = list(dict.fromkeys(prec[f.SYSTEM]))
    prec = ranked(prec, f.SYSTEM, systems)
    if len(systems) > BARS_UP_TO:
        return _precision_grid(prec)
    legend = alt.Legend(symbolLimit=0, symbolStrokeWidth=1.5)
    chart: alt.Chart = (
        alt.Chart(prec)
        .mark_bar(strokeWidth=1.5)
        .encode(
            x=alt.X(f"{f.N}:O", title="n-gram order n", axis=alt.Axis(labelAngle=0)),
            xOffset=alt.XOffset(f"{f.SYSTEM}:N", sort=by_rank()),
            y=alt.Y(f"{f.PRECISION}:Q", title="modified precision p_n", scale=alt.Scale(domain=[0, 1])),
            color=alt.Color(
                f"{f.SYSTEM}:N",
                scale=alt.Scale(domain=systems, range=_palette(len(systems))),
                title="system",
                legend=legend,
            ),
            stroke=alt.Stroke(
                f"{f.SYSTEM}:N",
                scale=alt.Scale(domain=systems, range=_palette(len(systems))),
                title="system",
                legend=legend,
            ),
            fillOpacity=alt.FillOpacity(
                f"{f.SYSTEM}:N",
                scale=alt.Scale(type="ordinal", domain=systems, range=_fill_opacity(len(systems))),
                title="system",
                legend=legend,
            ),
            tooltip=[f.SYSTEM, f.N, f.FRACTION, alt.Tooltip(f.PRECISION, format=".4f")],
        )
        # tall enough for the legend (a row per system): with 12 systems 300 px cut its last entry
        .properties(title="Modified precisions p_n per system", height=max(300, 24 * len(systems) + 60))
    )
    return chart


def _precision_grid(prec: pd.DataFrame) -> alt.LayerChart | alt.FacetChart:
    """A row per system in rank order, a column per order n, each cell's p_n written on a shade of where it
    stands in its column (lowest lightest): the systems are compared within an order, where the decay across orders
    would otherwise take the whole scale. Dark text on every shade (at least 5.5:1 on the darkest)."""
    base = (
        alt.Chart(prec)
        .transform_joinaggregate(low=f"min({f.PRECISION})", high=f"max({f.PRECISION})", groupby=[f.N])
        .transform_calculate(
            standing=f"datum.high > datum.low ? (datum['{f.PRECISION}'] - datum.low) / (datum.high - datum.low) : 0.5"
        )
        .encode(
            x=alt.X(
                f"{f.N}:O",
                title=["n-gram order n", "(shade: lowest to highest p_n in each order)"],
                axis=alt.Axis(labelAngle=0, orient="top"),
            ),
            y=alt.Y(f"{f.SYSTEM}:N", sort=by_rank(), title=None),
            tooltip=[f.SYSTEM, f.N, f.FRACTION, alt.Tooltip(f.PRECISION, format=".4f")],
        )
    )
    cells = base.mark_rect().encode(
        color=alt.Color("standing:Q", scale=alt.Scale(domain=[0, 1], range=list(GRID_SHADES)), legend=None)
    )
    values = base.mark_text(fontSize=12, color=GRID_TEXT).encode(text=alt.Text(f"{f.PRECISION}:Q", format=".3f"))
    return alt.layer(cells, values).properties(
        title="Modified precisions p_n per system",  # a subtitle is not in Streamlit's theme (black on dark)
        height=alt.Step(22),
        width=alt.Step(64),
    )


MIN_CELL = 30  # px per matrix column below which the in-cell numbers are dropped


def significance_heatmap(
    sig: pd.DataFrame, names: list[str], *, labels: Mapping[str, str] | None = None
) -> alt.LayerChart | alt.FacetChart:
    """The N x N matrix in the order of ``names`` (the page passes them best first): cell colour says whether the
    row system is significantly better or worse than the column system after Holm's correction; the text is
    the BLEU difference (row - column)."""
    sig = ranked(ranked(sig[sig[f.ROW] != sig[f.COL]], f.ROW, names, "row_rank"), f.COL, names, "col_rank")
    sig = _shown(_shown(sig, f.ROW, labels, "row_shown"), f.COL, labels, "col_shown")
    df = sig.assign(
        verdict=[
            ("row better" if d > 0 else "row worse") if s else ("-" if r == c else "not significant")
            for d, s, r, c in zip(sig[f.DELTA], sig[f.SIGNIFICANT], sig[f.ROW], sig[f.COL], strict=True)
        ],
        label=[
            ("" if r == c else f"{signed_number(d)}{'*' if s else ''}")
            for d, s, r, c in zip(sig[f.DELTA], sig[f.SIGNIFICANT], sig[f.ROW], sig[f.COL], strict=True)
        ],
    )
    # In a narrow window Streamlit squeezes the width to the container: below MIN_CELL px per column the
    # numbers would overprint, so the cells keep only their colour (and the tooltip), names turn upright.
    roomy = f"width / {max(len(names), 1)} >= {MIN_CELL}"
    x = alt.X(
        "col_shown:N",
        sort=by_rank("col_rank"),
        title="column system",
        # narrow: upright names in a smaller font, every one drawn (a 390 px phone has ~19 px per column)
        axis=alt.Axis(
            labelAngle=alt.expr(f"{roomy} ? -40 : -90"),
            labelFontSize=alt.expr(f"{roomy} ? 11 : 9"),
            labelOverlap=False,
            labelLimit=120,
        ),
    )
    y = alt.Y("row_shown:N", sort=by_rank("row_rank"), title="row system", axis=alt.Axis(labelOverlap=False))
    rect = (
        alt.Chart(df)
        .mark_rect(stroke="white", strokeWidth=1)
        .encode(
            x=x,
            y=y,
            color=alt.Color(
                "verdict:N",
                scale=alt.Scale(domain=["row better", "row worse", "not significant"], range=list(SIG_COLOURS)),
                title="Holm p < 0.05",
                # under the matrix: at the right it took a third of a phone's width from the cells
                legend=alt.Legend(orient="bottom", direction="horizontal", columns=2),
            ),
            tooltip=[
                f.ROW,
                f.COL,
                alt.Tooltip(f.DELTA, format="+.2f"),
                alt.Tooltip(f.P_RAW, format=".4f"),
                alt.Tooltip(f.P_HOLM, format=".4f"),
                "verdict:N",
            ],
        )
    )
    text = (
        alt.Chart(df)
        .mark_text(fontSize=11, opacity=alt.expr(f"{roomy} ? 1 : 0"))
        .encode(
            x=x,
            y=y,
            text="label:N",
            # white on blue (5.2:1), black on vermillion (5.4:1; white was 3.9:1) and on grey
            color=alt.condition("datum.verdict == 'row better'", alt.value("white"), alt.value("black")),
        )
    )
    # rows by the band (as the block chart): a pixel height is shared with the slanted column names, which
    # squeezed 12 rows into 19 px each and let a long first name touch the second
    size = max(240, 34 * len(names))
    return alt.layer(rect, text).properties(
        title=["Pairwise significance", "(BLEU difference, * = significant)"], width=size, height=alt.Step(26)
    )


def pair_scatter(
    pairs: pd.DataFrame, a: str, b: str, *, highlight: tuple[int, ...] = ()
) -> alt.LayerChart | alt.FacetChart:
    """Sentence BLEU of system A (x) against B (y); above the diagonal B is better. Click a point (selection
    ``PICK`` on ``segment``) to open the sentence."""
    pick = alt.selection_point(name=PICK, fields=[f.SEGMENT], on="click", clear="dblclick")
    numbers = pairs[[f.SEGMENT, f.BLEU_A, f.BLEU_B, f.DIFF]]  # the texts stay out of the chart's spec
    df = numbers.assign(marked=numbers[f.SEGMENT].isin(highlight))
    dense = len(df) > DENSE
    if dense:  # every sentence in the density below; points (clickable) only for the extremes
        df = extreme_pairs(df)
    pts = (
        alt.Chart(df)
        .mark_point(filled=True)
        .encode(
            x=alt.X(f"{f.BLEU_A}:Q", title=f"sentence BLEU of {a} (A)", scale=alt.Scale(domain=[0, 100])),
            y=alt.Y(f"{f.BLEU_B}:Q", title=f"sentence BLEU of {b} (B)", scale=alt.Scale(domain=[0, 100])),
            color=alt.condition("datum.marked", alt.value(OKABE_ITO[3]), alt.value(OKABE_ITO[0])),
            shape=alt.condition("datum.marked", alt.value("diamond"), alt.value("circle")),
            size=alt.condition(pick, alt.value(160), alt.value(45)),
            opacity=alt.condition(pick, alt.value(0.9), alt.value(0.35)),
            tooltip=[
                f.SEGMENT,
                alt.Tooltip(f.BLEU_A, format=".1f"),
                alt.Tooltip(f.BLEU_B, format=".1f"),
                alt.Tooltip(f.DIFF, format="+.1f"),
            ],
        )
        .add_params(pick)
    )
    diag = (
        alt.Chart(pd.DataFrame({"x": [0, 100], "y": [0, 100]}))
        .mark_line(color="#888888", strokeDash=[4, 4])
        .encode(x="x:Q", y="y:Q")
    )
    if not dense:
        return alt.layer(diag, pts).properties(title=_pair_title(a, b), height=titled_height(360, _pair_title(a, b)))
    density = (
        alt.Chart(pair_bins(numbers))
        .mark_rect()
        .encode(
            x=alt.X("a_from:Q"),
            x2="a_to:Q",
            y=alt.Y("b_from:Q"),
            y2="b_to:Q",
            color=alt.Color(f"{SENTENCES}:Q", scale=alt.Scale(type="log", scheme="greys"), title="sentences per cell"),
            tooltip=[
                alt.Tooltip(SENTENCES, title="sentences"),
                alt.Tooltip("a_from:Q", title="BLEU A from"),
                alt.Tooltip("a_to:Q", title="BLEU A below"),
                alt.Tooltip("b_from:Q", title="BLEU B from"),
                alt.Tooltip("b_to:Q", title="BLEU B below"),
            ],
        )
    )
    shown = len(df)
    return alt.layer(density, diag, pts).properties(
        title={
            "text": _pair_title(a, b),
            "subtitle": [  # lines that fit a phone
                f"shaded: all {len(numbers)} sentences, in {PAIR_BIN:g}-point cells;",
                f"points: the {shown} with the largest |B − A|",
                "(and the n-gram's)",
            ],
        },
        height=titled_height(360, _pair_title(a, b)) + 3 * 16,  # and three subtitle lines
    )


def _pair_title(a: str, b: str) -> list[str]:
    """The scatter's title: two lines (the page's caption says a point opens its sentence)."""
    return ["Sentence BLEU", f"{a} (A) vs {b} (B)"]


def extreme_pairs(df: pd.DataFrame, top: int = TOP_POINTS) -> pd.DataFrame:
    """The ``top`` rows of ``df`` with the largest |B - A| (ties: the lower segment), and as many more of its
    ``marked`` rows (the n-gram's), in segment order.

    Example:
        >>> df = pd.DataFrame({f.SEGMENT: [1, 2, 3, 4], f.DIFF: [5.0, -9.0, 0.0, 5.0], "marked": [0, 0, 1, 0]})
        >>> extreme_pairs(df, top=2)[f.SEGMENT].tolist()
        [1, 2, 3]
    """
    by_size = df.assign(_abs=-df[f.DIFF].abs()).sort_values(["_abs", f.SEGMENT], kind="stable")
    keep = pd.concat([by_size.head(top), by_size[by_size["marked"].astype(bool)].head(top)])
    return keep.drop(columns="_abs").drop_duplicates(f.SEGMENT).sort_values(f.SEGMENT).reset_index(drop=True)


def pair_bins(numbers: pd.DataFrame, width: float = PAIR_BIN) -> pd.DataFrame:
    """Every sentence's (BLEU A, BLEU B) counted in square cells of ``width`` points over [0, 100] (100 in the
    last cell); only non-empty cells.

    Example:
        >>> df = pd.DataFrame({f.BLEU_A: [0.0, 1.9, 100.0], f.BLEU_B: [0.0, 0.5, 99.0]})
        >>> pair_bins(df).values.tolist()
        [[0.0, 2.0, 0.0, 2.0, 2.0], [98.0, 100.0, 98.0, 100.0, 1.0]]
    """
    last = int(np.ceil(100 / width)) - 1
    ia = np.clip((numbers[f.BLEU_A].to_numpy(dtype=float) // width).astype(int), 0, last)
    ib = np.clip((numbers[f.BLEU_B].to_numpy(dtype=float) // width).astype(int), 0, last)
    counts = pd.DataFrame({"ia": ia, "ib": ib}).groupby(["ia", "ib"], sort=True).size()
    ia, ib = counts.index.get_level_values(0).to_numpy(), counts.index.get_level_values(1).to_numpy()
    return pd.DataFrame(
        {
            "a_from": ia * width,
            "a_to": np.minimum((ia + 1) * width, 100.0),
            "b_from": ib * width,
            "b_to": np.minimum((ib + 1) * width, 100.0),
            SENTENCES: counts.to_numpy(),
        }
    )


def ngram_chart(ngrams: pd.DataFrame) -> alt.Chart:
    """The n-grams that most separate A and B (z of the smoothed log-odds); select one (``NGRAM_PICK``)."""
    pick = alt.selection_point(name=NGRAM_PICK, fields=[f.NGRAM], on="click", clear="dblclick")
    # the segment lists stay on the server (the page reads them from its frame): at 50,000 lines they were
    # 98 % of the chart's bytes, and the chart draws none of them
    shown = ngrams.drop(columns=[f.SEGMENTS_LIST], errors="ignore")
    df = ranked(shown, f.NGRAM, list(shown.sort_values(f.LOG_ODDS, ascending=False)[f.NGRAM]))
    chart: alt.Chart = (
        alt.Chart(df)
        .mark_bar()
        .encode(
            # one 20 px band per n-gram: the chart is as tall as its labels need, whatever the container
            y=alt.Y(
                f"{f.NGRAM}:N",
                sort=by_rank(),
                title=None,
                scale=alt.Scale(paddingInner=0.15),
                axis=alt.Axis(labelOverlap=False, labelLimit=260),
            ),
            x=alt.X(f"{f.LOG_ODDS}:Q", title="← matched more by B · z of log-odds · matched more by A →"),
            color=alt.Color(
                f"{f.FAVOURS}:N",
                scale=alt.Scale(domain=["A", "B"], range=[OKABE_ITO[0], OKABE_ITO[1]]),
                title="favours",
            ),
            opacity=alt.condition(pick, alt.value(1.0), alt.value(0.45)),
            tooltip=[f.NGRAM, f.N, f.ONLY_A, f.ONLY_B, alt.Tooltip(f.LOG_ODDS, format="+.2f")],
        )
        .add_params(pick)
        .properties(title=["n-grams one system matches", "and the other does not"], height=alt.Step(20))
    )
    return chart


# Streamlit fits the whole chart into its height, title and x axis included (autosize "fit"): those take 120 px
# (measured in Chromium at 390 and 1400 px), so a 440 px chart has a 320 px plot. Names are placed on the plot at
# its narrowest: 291 px at a 390 px phone. (Placed for a 330 x 320 plot while Streamlit drew 291 x 200, WMT21's
# names collided: review 29.)
HUMAN_HEIGHT = 440  # px of the human-score chart
HUMAN_PLOT_HEIGHT = 320  # px of its plot
HUMAN_WIDTH = 290  # px of its plot at the narrowest
CHAR_PX = 6.2  # px per character of an 11 px label (above Chromium's average, so estimated boxes do not undercount)
LINE_PX = 13  # px per label line
NEAR_MARGIN = 4  # px a name must be nearer its own point than any other point
LABEL_SPOT = "label_spot"  # index into _SPOTS of where a name is drawn, or -1 (no room)
# Where a name may go, in px from its point (dx, dy; y grows down), tried in order: right of it, left of it,
# then one and two lines above or below on either side.
_SPOTS = [(7, 0), (-7, 0), (7, -13), (-7, -13), (7, 13), (-7, 13), (7, -26), (-7, -26), (7, 26), (-7, 26)]


def _padded(values: pd.Series) -> tuple[float, float]:
    lo, hi = float(values.min()), float(values.max())
    pad = (hi - lo) * 0.08 or max(abs(hi) * 0.05, 1.0)
    return lo - pad, hi + pad


def place_labels(
    df: pd.DataFrame, x: str, y: str, text: str, *, width: float = HUMAN_WIDTH, height: float = HUMAN_PLOT_HEIGHT
) -> pd.DataFrame:
    """Each point's name placed where its box overlaps no other name, no other point and not the plot's edge.

    Vega-Lite has no label-placement transform, and names drawn at one fixed offset from clustered points
    (WMT22's systems) were written over each other. The plot's domains are the columns' padded extents (the
    chart sets them, so the px geometry here is the drawn one at ``width`` x ``height``), and names are placed
    greedily from the highest point down. Returns ``df`` with ``label_spot``: the index in ``_SPOTS`` of the px
    offset its name is drawn at, or -1 for a name that fits nowhere (its point keeps its tooltip). Offsets are
    in px, so a wider plot than ``width`` only moves the points apart.
    """
    out = df.copy()
    out[LABEL_SPOT] = -1
    if out.empty:
        return out
    (x0, x1), (y0, y1) = _padded(out[x]), _padded(out[y])
    px = ((out[x] - x0) / (x1 - x0) * width).to_numpy()
    py = ((y1 - out[y]) / (y1 - y0) * height).to_numpy()
    boxes: list[tuple[float, float, float, float]] = []
    dots = [(a - 5, b - 5, a + 5, b + 5) for a, b in zip(px, py, strict=True)]

    def gap(box: tuple[float, float, float, float], k: int) -> float:
        """px from point k to the nearest edge of ``box``."""
        left, top, right, bottom = box
        return float(np.hypot(max(left - px[k], 0, px[k] - right), max(top - py[k], 0, py[k] - bottom)))

    def free(box: tuple[float, float, float, float], own: int) -> bool:
        left, top, right, bottom = box
        if left < 0 or right > width or top < 0 or bottom > height:
            return False
        others = [d for k, d in enumerate(dots) if k != own] + boxes
        if not all(right <= o[0] or left >= o[2] or bottom <= o[1] or top >= o[3] for o in others):
            return False
        # a name must sit nearer its own point than any other (by NEAR_MARGIN px), or a reader pairs it wrongly
        mine = gap(box, own)
        return all(gap(box, k) >= mine + NEAR_MARGIN for k in range(len(px)) if k != own)

    spots = out.columns.get_loc(LABEL_SPOT)
    for i in np.argsort(py, kind="stable"):
        w = CHAR_PX * len(str(out[text].iloc[i]))
        for k, (dx, dy) in enumerate(_SPOTS):
            left = px[i] + dx if dx > 0 else px[i] + dx - w
            box = (left, py[i] + dy - LINE_PX / 2, left + w, py[i] + dy + LINE_PX / 2)
            if free(box, int(i)):
                boxes.append(box)
                out.iloc[i, spots] = k
                break
    return out


def human_chart(human: pd.DataFrame, label: str) -> alt.LayerChart | alt.FacetChart:
    """The human score against BLEU per system, as the paper's Figure 5 draws it (BLEU on x, the human score on
    y, the least-squares line of the human score on BLEU), each name placed clear of the others and nearest its
    own point (``place_labels``)."""
    placed = place_labels(human, f.BLEU, f.HUMAN, f.SYSTEM).assign(ink="system")
    x_dom = list(_padded(human[f.BLEU])) if len(human) else None
    y_dom = list(_padded(human[f.HUMAN])) if len(human) else None
    x_scale = alt.Scale(domain=x_dom, nice=False) if x_dom else alt.Scale(zero=False)
    y_scale = alt.Scale(domain=y_dom, nice=False) if y_dom else alt.Scale(zero=False)
    base = alt.Chart(placed).encode(
        x=alt.X(f"{f.BLEU}:Q", title="corpus BLEU", scale=x_scale),
        y=alt.Y(f"{f.HUMAN}:Q", title=f"human score ({label})", scale=y_scale),
    )
    # Points and names in the theme's first chart colour (a colour scale over one datum takes the "category"
    # range, which Streamlit fills from the light or dark theme): a text mark's own default is black, which
    # was unreadable on the dark theme.
    ink = alt.Color("ink:N", scale=alt.Scale(domain=["system"]), legend=None)
    pts = base.mark_point(filled=True, size=80).encode(
        color=ink, tooltip=[f.SYSTEM, alt.Tooltip(f.BLEU, format=".2f"), alt.Tooltip(f.HUMAN, format=".4f")]
    )
    names = [
        base.transform_filter(alt.datum[LABEL_SPOT] == k)
        .mark_text(align="left" if dx > 0 else "right", baseline="middle", dx=dx, dy=dy, fontSize=11)
        .encode(text=f"{f.SYSTEM}:N", color=ink)
        for k, (dx, dy) in enumerate(_SPOTS)
        if (placed[LABEL_SPOT] == k).any()
    ]
    fit = base.transform_regression(f.BLEU, f.HUMAN).mark_line(color=OKABE_ITO[3], strokeDash=[5, 3])
    return alt.layer(fit, pts, *names).properties(title="Human judgement against BLEU, per system", height=HUMAN_HEIGHT)


def unlabelled(human: pd.DataFrame) -> list[str]:
    """The systems whose names ``human_chart`` could not place (said under the chart)."""
    placed = place_labels(human, f.BLEU, f.HUMAN, f.SYSTEM)
    return [str(n) for n in placed.loc[placed[LABEL_SPOT] < 0, f.SYSTEM]]


def signed(spec: dict[str, Any], signature: str) -> dict[str, Any]:
    """The spec with ``signature`` as its title's subtitle (a file that leaves the app says how it was scored).

    Example:
        >>> signed({"title": "BLEU", "mark": "point"}, "nrefs:1|tok:13a")["title"]
        {'text': 'BLEU', 'subtitle': 'nrefs:1|tok:13a'}
    """
    if not signature:
        return spec
    title = spec.get("title", "")
    title = dict(title) if isinstance(title, dict) else {"text": title}
    old = title.get("subtitle")
    title["subtitle"] = [*([old] if isinstance(old, str) else old), signature] if old else signature
    return {**spec, "title": title}


def export(chart: alt.TopLevelMixin, fmt: Literal["png", "svg", "html"], signature: str = "") -> bytes | str:
    """The chart as PNG (bytes), SVG or HTML (str), for a lazy download, all by vl-convert, with ``signature``
    under its title.

    The HTML carries the Vega bundle inline (``bundle=True``): it opens offline and loads nothing from a CDN.
    """
    import vl_convert as vlc

    spec = signed(chart.to_dict(), signature)
    if fmt == "html":
        return str(vlc.vegalite_to_html(spec, bundle=True))
    if fmt == "svg":
        return str(vlc.vegalite_to_svg(spec))
    return bytes(vlc.vegalite_to_png(spec, scale=2))
