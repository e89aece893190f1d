"""Charts of the corpus and compare pages: pure functions DataFrame -> alt.Chart (no st.*, no I/O, no configure_*).

Colours are the Okabe-Ito colour-blind-safe palette; where colour carries meaning a shape or a label does too.
Systems past the eighth take Paul Tol's colour-blind-safe "muted" colours, drawn hollow (bars) or with a shape
of their own (points), so two of 12+ systems never look the same (``style``). Selections that the pages read back
are named here (``PICK``, ``NGRAM_PICK``); the human-score chart is ``human``'s.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

import altair as alt
import numpy as np
import pandas as pd

from bleu_app.charts import style
from bleu_app.frames import corpus as f
from bleu_app.frames.signs import signed as signed_number

PICK = "pick"  # point selection on the A-vs-B scatter (field: segment)
NGRAM_PICK = "ngram_pick"  # point selection on the n-gram chart (field: n-gram)
SIG_COLOURS = ("#0072B2", "#D55E00", "#d0d0d0")  # row better, row worse, not significant
BP_BINS = 150  # c/r bins of the brevity-penalty chart above style.DENSE sentences
PAIR_BIN = 2.0  # BLEU points per bin side of the A-vs-B density above style.DENSE sentences (50 x 50 cells)
# A title line wider than the plot is cut with an ellipsis at the plot's width (and the axis titles at the plot's
# sides): with two WMT file names at 420 px the title stood left of the chart and above its box (researcher walk B2)
TITLE_FITS: Final = {"limit": {"expr": "width"}}
TOP_POINTS = 500  # points kept on a dense A-vs-B scatter: the largest |B - A| (and as many n-gram-marked ones)


def precision_decay(prec: pd.DataFrame) -> alt.Chart:
    """Modified precision p_n against n, one line per system (the paper's Figure 1 shape: it decays with n)."""
    systems = list(dict.fromkeys(prec[f.SYSTEM]))
    base = alt.Chart(prec).encode(
        x=alt.X(f"{f.N}:O", title="n-gram order n", axis=alt.Axis(labelAngle=0)),
        y=alt.Y(f"{f.PRECISION}:Q", title="modified precision p_n", scale=alt.Scale(domain=[0, 1])),
        color=alt.Color(
            f"{f.SYSTEM}:N", scale=alt.Scale(domain=systems, range=style.palette(len(systems))), title="system"
        ),
        tooltip=[f.SYSTEM, f.N, f.FRACTION, alt.Tooltip(f.PRECISION, format=".4f")],
    )
    chart: alt.Chart = (
        base.mark_line()
        + base.mark_point(filled=True, size=70).encode(
            shape=alt.Shape(
                f"{f.SYSTEM}:N", scale=alt.Scale(domain=systems, range=style.shapes(len(systems))), title="system"
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
    sent = _bp_sentences(points[points[f.KIND] == "sentence"], float(max(curve[f.RATIO].max(), 1.2)))
    corpus = points[points[f.KIND] == "corpus"]
    dot = (
        alt.Chart(corpus)
        .mark_point(shape="diamond", size=260, filled=True, color=style.OKABE_ITO[3], stroke="white", strokeWidth=1.5)
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
        .mark_text(align="left", dx=10, dy=-10, fontWeight="bold", color=style.INK)
        .encode(x=f"{f.RATIO}:Q", y=f"{f.BP}:Q", text=alt.value("corpus (Σc/Σr)"))
    )
    return alt.layer(line, sent, dot, label).properties(title="Brevity penalty", height=260)


def _bp_sentences(sentences: pd.DataFrame, xmax: float) -> alt.Chart:
    """Every sentence's (c/r, BP): one point each, or above ``style.DENSE`` sentences bins sized by their count."""
    if len(sentences) <= style.DENSE:
        chart: alt.Chart = (
            alt.Chart(sentences)
            .mark_circle(size=28, opacity=0.45, color=style.OKABE_ITO[0])
            .encode(
                x=alt.X(f"{f.RATIO}:Q"),
                y=alt.Y(f"{f.BP}:Q"),
                tooltip=[f.SEGMENT, alt.Tooltip(f.RATIO, format=".3f"), alt.Tooltip(f.BP, format=".3f")],
            )
        )
        return chart
    binned: alt.Chart = (
        alt.Chart(bp_bins(sentences, xmax))
        .mark_circle(opacity=0.45, color=style.OKABE_ITO[0])
        .encode(
            x=alt.X(f"{f.RATIO}:Q"),
            y=alt.Y(f"{f.BP}:Q"),
            size=alt.Size(f"{style.SENTENCES}:Q", scale=alt.Scale(range=[28, 400]), title="sentences per bin"),
            tooltip=[
                alt.Tooltip(style.SENTENCES, title="sentences"),
                alt.Tooltip("ratio_min:Q", format=".3f", title="c/r from"),
                alt.Tooltip("ratio_max:Q", format=".3f", title="c/r to"),
                alt.Tooltip("bp_min:Q", format=".3f", title="BP from"),
                alt.Tooltip("bp_max:Q", format=".3f", title="BP to"),
            ],
        )
    )
    return binned


def bp_bins(sentences: pd.DataFrame, xmax: float, bins: int = BP_BINS) -> pd.DataFrame:
    """The sentences' (c/r, BP) in ``bins`` equal c/r bins over [0, ``xmax``] (a c/r past it in the last, as the
    chart's clamped axis draws it): each non-empty bin's count, the mean point where it is drawn, and the
    exact range of its sentences' c/r and BP (the tooltip's).

    Example:
        >>> df = pd.DataFrame({f.RATIO: [0.5, 0.52, 1.0, 9.0], f.BP: [0.1353, 0.1572, 1.0, 1.0]})
        >>> bp_bins(df, 2.0, bins=4)[[style.SENTENCES, "ratio_min", "ratio_max"]].values.tolist()
        [[2.0, 0.5, 0.52], [1.0, 1.0, 1.0], [1.0, 9.0, 9.0]]
    """
    ratio = sentences[f.RATIO].to_numpy(dtype=float)
    which = np.clip((np.minimum(ratio, xmax) / xmax * bins).astype(int), 0, bins - 1)
    df = pd.DataFrame({"bin": which, f.RATIO: np.minimum(ratio, xmax), "r": ratio, f.BP: sentences[f.BP]})
    out = df.groupby("bin", sort=True).agg(
        **{
            style.SENTENCES: (f.BP, "size"),
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
    x = alt.X(f"{f.BUCKET}:N", sort=style.by_rank("order"), title=title, axis=axis)
    rule = (
        alt.Chart(buckets)
        .mark_rule(strokeWidth=2, color=style.OKABE_ITO[0])
        .encode(x=x, y=alt.Y(f"{f.CI_LOW}:Q", title="BLEU", scale=alt.Scale(zero=False)), y2=f"{f.CI_HIGH}:Q")
    )
    pts = (
        alt.Chart(buckets)
        .mark_point(filled=True, size=90, color=style.OKABE_ITO[0])
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
    lines = style.title_lines(f"BLEU by {title} (95% bootstrap CI)")
    labels = style.slanted_labels_height(buckets[f.BUCKET].astype(str).tolist())
    return alt.layer(rule, pts).properties(
        title=lines, height=style.titled_height(style.PLOT_HEIGHT + 30 + labels, lines)
    )


def block_chart(blocks: pd.DataFrame, *, labels: Mapping[str, str] | None = None) -> alt.LayerChart | alt.FacetChart:
    """Every block's BLEU per system (the paper's block test), with each system's mean as a tick."""
    systems = list(dict.fromkeys(blocks[f.SYSTEM]))
    blocks = style.shown(style.ranked(blocks, f.SYSTEM, systems), f.SYSTEM, labels)
    y = alt.Y(f"{style.SHOWN}:N", sort=style.by_rank(), title=None, axis=alt.Axis(labelOverlap=False))
    colour = alt.Color(f"{f.SYSTEM}:N", scale=alt.Scale(domain=systems, range=style.palette(len(systems))), legend=None)
    shape = alt.Shape(f"{f.SYSTEM}:N", scale=alt.Scale(domain=systems, range=style.shapes(len(systems))), legend=None)
    n_blocks = blocks[f.BLOCK].nunique()
    x = alt.X(f"{f.BLEU}:Q", title="BLEU of a block")
    # No fixed colour on the tick: the theme's mark colour (Streamlit's light or dark), never dark grey on black.
    if len(blocks) <= style.DENSE:
        pts = (
            alt.Chart(blocks)
            .mark_circle(size=40, opacity=0.6)
            .encode(x=x, y=y, color=colour, shape=shape, tooltip=[f.SYSTEM, f.BLOCK, alt.Tooltip(f.BLEU, format=".2f")])
        )
        mean = alt.Chart(blocks).mark_tick(thickness=3, size=22).encode(x=alt.X(f"mean({f.BLEU}):Q"), y=y)
    else:  # 2,000 blocks a system at 50,000 lines: blocks in BLOCK_BIN-point bins, the mean from every block
        keys = [f.SYSTEM, style.RANK, style.SHOWN]
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
        title=style.title_lines(f"Block test: BLEU of {n_blocks} blocks (tick: mean)"),
        height=alt.Step(28),  # one 28 px band per system: a pixel height collapsed to a strip in Streamlit
    )


BLOCK_BIN = 0.5  # BLEU points per bin of the block chart above style.DENSE blocks
BLOCKS = "blocks"  # a bin's count


def block_bins(blocks: pd.DataFrame, width: float = BLOCK_BIN) -> pd.DataFrame:
    """Each system's blocks (``block_chart``'s frame: system, rank, shown, BLEU) in ``width``-point BLEU bins:
    the count, the mean where the bin is drawn, and the exact lowest and highest BLEU in it.

    Example:
        >>> df = pd.DataFrame({f.SYSTEM: ["a"] * 3, style.RANK: 0, style.SHOWN: "a", f.BLEU: [10.1, 10.4, 12.0]})
        >>> block_bins(df)[[BLOCKS, "bleu_min", "bleu_max"]].values.tolist()
        [[2.0, 10.1, 10.4], [1.0, 12.0, 12.0]]
    """
    keys = [f.SYSTEM, style.RANK, style.SHOWN]
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
    score: str = f.BLEU,
    higher_is_better: bool = True,
    digits: int = 2,
) -> alt.LayerChart | alt.FacetChart:
    """Each system's corpus score (column ``score``: BLEU, chrF2, TER ...) with its 95 % bootstrap interval, best
    first (lowest first where lower is better); the baseline is a diamond. With ``clusters`` (system ->
    significance cluster, 1 = top) each cluster has its colour and a band of its own."""
    df = systems.assign(role=[("baseline" if s == baseline else "system") for s in systems[f.SYSTEM]])
    best_first = df.sort_values(score, ascending=not higher_is_better, kind="stable")[f.SYSTEM]
    df = style.ranked(df, f.SYSTEM, list(best_first))
    df = style.shown(df, f.SYSTEM, labels)
    if clusters:
        df = df.assign(group=[f"cluster {clusters.get(s, 0)}" for s in df[f.SYSTEM]])
    colour = _ci_colour(clusters)
    y = alt.Y(f"{style.SHOWN}:N", sort=style.by_rank(), title=None, axis=alt.Axis(labelOverlap=False))
    rule = (
        alt.Chart(df)
        .mark_rule(strokeWidth=2)
        .encode(
            x=alt.X(f"{f.CI_LOW}:Q", title=f"{score} (95% bootstrap CI)", scale=alt.Scale(zero=False)),
            x2=f"{f.CI_HIGH}:Q",
            y=y,
            color=colour,
        )
    )
    pts = (
        alt.Chart(df)
        .mark_point(filled=True, size=90)
        .encode(
            x=alt.X(f"{score}:Q"),
            y=y,
            color=colour,
            shape=alt.Shape(
                "role:N",
                scale=alt.Scale(domain=["baseline", "system"], range=["diamond", "circle"]),
                title=None,
                # the shape legend has no colour of its own: Vega drew its symbols black, unseen on the dark theme
                legend=alt.Legend(symbolFillColor=style.LEGEND_GREY, symbolStrokeColor=style.LEGEND_GREY),
            ),
            tooltip=[
                f.SYSTEM,
                alt.Tooltip(score, format=f".{digits}f"),
                alt.Tooltip(f.CI_LOW, format=f".{digits}f"),
                alt.Tooltip(f.CI_HIGH, format=f".{digits}f"),
                *[alt.Tooltip(c, format=".3f") for c in (f.BP, f.RATIO) if c in df],
            ],
        )
    )
    title = [f"Corpus {score} per system,", "by significance cluster"] if clusters else [f"Corpus {score} per system"]
    if not higher_is_better:  # an error rate: its best is its lowest (a line of its own: an axis title's second
        title.append("(lower is better)")  # line took the height the system names had)
    shown = title[0] if len(title) == 1 else title
    return alt.layer(rule, pts).properties(title=shown, height=style.titled_height(max(220, 30 * len(df)), shown))


def _ci_colour(clusters: Mapping[str, int] | None) -> alt.Color:
    """The interval chart's colour: each significance cluster its own, or the baseline apart from the rest."""
    if clusters:
        groups = [f"cluster {k}" for k in sorted(set(clusters.values()))]
        return alt.Color(
            "group:N", scale=alt.Scale(domain=groups, range=style.palette(len(groups))), title="significance cluster"
        )
    return alt.Color(
        "role:N",
        scale=alt.Scale(domain=["baseline", "system"], range=[style.OKABE_ITO[3], style.OKABE_ITO[0]]),
        title=None,
    )


# Bars tell systems apart by colour and fill: 8 hues, solid then hollow. Past that many systems two share both
# (WMT21 en-de has 20; review 29 item 17), and the chart is a grid instead: a row per system, a cell per order.
BARS_UP_TO: Final = 2 * len(style.OKABE_ITO)
GRID_SHADES: Final = ("#F7FBFF", "#4292C6")  # the lightest and a middle blue of ColorBrewer's Blues
GRID_TEXT: Final = "#111111"  # 5.5:1 on the darker shade, 18.6:1 on the lighter


def precision_bars(
    prec: pd.DataFrame, *, labels: Mapping[str, str] | None = None
) -> alt.Chart | alt.LayerChart | alt.FacetChart:
    """Grouped bars: p_1..p_N per system (groups are orders, bars within a group are systems); above
    ``BARS_UP_TO`` systems a grid, each cell p_n written and shaded (:func:`_precision_grid`). The legend and the
    grid's rows show ``labels`` (the short names of the other charts), the tooltip the full name."""
    full = list(dict.fromkeys(prec[f.SYSTEM]))
    prec = style.shown(style.ranked(prec, f.SYSTEM, full), f.SYSTEM, labels)
    systems = list(dict.fromkeys(prec[style.SHOWN]))
    if len(systems) > BARS_UP_TO:
        return _precision_grid(prec)
    legend = alt.Legend(symbolLimit=0, symbolStrokeWidth=1.5)
    chart: alt.Chart = (
        alt.Chart(prec)
        .mark_bar(strokeWidth=1.5)
        .encode(
            x=alt.X(f"{f.N}:O", title="n-gram order n", axis=alt.Axis(labelAngle=0)),
            xOffset=alt.XOffset(f"{style.SHOWN}:N", sort=style.by_rank()),
            y=alt.Y(f"{f.PRECISION}:Q", title="modified precision p_n", scale=alt.Scale(domain=[0, 1])),
            color=alt.Color(
                f"{style.SHOWN}:N",
                scale=alt.Scale(domain=systems, range=style.palette(len(systems))),
                title="system",
                legend=legend,
            ),
            stroke=alt.Stroke(
                f"{style.SHOWN}:N",
                scale=alt.Scale(domain=systems, range=style.palette(len(systems))),
                title="system",
                legend=legend,
            ),
            fillOpacity=alt.FillOpacity(
                f"{style.SHOWN}:N",
                scale=alt.Scale(type="ordinal", domain=systems, range=style.fill_opacity(len(systems))),
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
            y=alt.Y(f"{style.SHOWN}:N", sort=style.by_rank(), title=None),
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


def _verdicts(sig: pd.DataFrame, higher_is_better: bool = True, digits: int = 2) -> pd.DataFrame:
    """Each cell's verdict (row better or worse after Holm, or not significant: for an error rate a negative
    difference is better) and its label (the difference, starred when significant)."""
    cells = list(zip(sig[f.DELTA], sig[f.SIGNIFICANT], sig[f.ROW], sig[f.COL], strict=True))
    return sig.assign(
        verdict=[
            ("row better" if (d > 0) == higher_is_better else "row worse")
            if s
            else ("-" if r == c else "not significant")
            for d, s, r, c in cells
        ],
        label=[("" if r == c else f"{signed_number(d, digits)}{'*' if s else ''}") for d, s, r, c in cells],
    )


def significance_heatmap(
    sig: pd.DataFrame,
    names: list[str],
    *,
    labels: Mapping[str, str] | None = None,
    score: str = f.BLEU,
    higher_is_better: bool = True,
    digits: int = 2,
) -> alt.LayerChart | alt.FacetChart:
    """The N x N matrix in the order of ``names`` (the page passes them best first): cell colour says whether the
    row system is significantly better or worse than the column system after Holm's correction (for an error
    rate such as TER, lower is better); the text is the ``score`` difference (row - column)."""
    sig = style.ranked(style.ranked(sig[sig[f.ROW] != sig[f.COL]], f.ROW, names, "row_rank"), f.COL, names, "col_rank")
    df = _verdicts(
        style.shown(style.shown(sig, f.ROW, labels, "row_shown"), f.COL, labels, "col_shown"), higher_is_better, digits
    )
    # In a narrow window Streamlit squeezes the width to the container: below MIN_CELL px per column the
    # numbers would overprint, so the cells keep only their colour (and the tooltip), names turn upright.
    roomy = f"width / {max(len(names), 1)} >= {MIN_CELL}"
    x = alt.X(
        "col_shown:N",
        sort=style.by_rank("col_rank"),
        title="column system",
        # narrow: upright names in a smaller font, every one drawn (a 390 px phone has ~19 px per column)
        axis=alt.Axis(
            labelAngle=alt.expr(f"{roomy} ? -40 : -90"),
            labelFontSize=alt.expr(f"{roomy} ? 11 : 9"),
            labelOverlap=False,
            labelLimit=120,
        ),
    )
    y = alt.Y("row_shown:N", sort=style.by_rank("row_rank"), title="row system", axis=alt.Axis(labelOverlap=False))
    rect = alt.Chart(df).mark_rect(stroke="white", strokeWidth=1).encode(x=x, y=y, **_verdict_encoding(digits))
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
    lower = "" if higher_is_better else ", lower is better"
    return alt.layer(rect, text).properties(
        title=[f"Pairwise significance, {score}", f"(difference{lower}; * = significant)"],
        width=size,
        height=alt.Step(26),
    )


def _verdict_encoding(digits: int = 2) -> dict[str, Any]:
    """A matrix cell's colour (its verdict, the legend under the matrix) and tooltip."""
    return {
        "color": alt.Color(
            "verdict:N",
            scale=alt.Scale(domain=["row better", "row worse", "not significant"], range=list(SIG_COLOURS)),
            title="Holm p < 0.05",
            # under the matrix: at the right it took a third of a phone's width from the cells
            legend=alt.Legend(orient="bottom", direction="horizontal", columns=2),
        ),
        "tooltip": [
            f.ROW,
            f.COL,
            alt.Tooltip(f.DELTA, format=f"+.{digits}f"),
            alt.Tooltip(f.P_RAW, format=".4f"),
            alt.Tooltip(f.P_HOLM, format=".4f"),
            "verdict:N",
        ],
    }


def pair_scatter(
    pairs: pd.DataFrame, a: str, b: str, *, highlight: tuple[int, ...] = ()
) -> alt.LayerChart | alt.FacetChart:
    """Sentence BLEU of system A (x) against B (y); above the diagonal B is better. Click a point (selection
    ``PICK`` on ``segment``) to open the sentence."""
    pick = alt.selection_point(name=PICK, fields=[f.SEGMENT], on="click", clear="dblclick")
    numbers = pairs[[f.SEGMENT, f.BLEU_A, f.BLEU_B, f.DIFF]]  # the texts stay out of the chart's spec
    df = numbers.assign(marked=numbers[f.SEGMENT].isin(highlight))
    dense = len(df) > style.DENSE
    if dense:  # every sentence in the density below; points (clickable) only for the extremes
        df = extreme_pairs(df)
    pts = (
        alt.Chart(df)
        .mark_point(filled=True)
        .encode(
            x=_pair_axis(alt.X, f.BLEU_A, f"sentence BLEU of {a} (A)", "width"),
            y=_pair_axis(alt.Y, f.BLEU_B, f"sentence BLEU of {b} (B)", "height"),
            color=alt.condition("datum.marked", alt.value(style.OKABE_ITO[3]), alt.value(style.OKABE_ITO[0])),
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
        return alt.layer(diag, pts).properties(
            title={"text": _pair_title(a, b), **TITLE_FITS}, height=style.titled_height(360, _pair_title(a, b))
        )
    density = _pair_density(numbers)
    shown = len(df)
    return alt.layer(density, diag, pts).properties(
        title={
            "text": _pair_title(a, b),
            **TITLE_FITS,
            "subtitle": [  # lines that fit a phone
                f"shaded: all {len(numbers)} sentences, in {PAIR_BIN:g}-point cells;",
                f"points: the {shown} with the largest |B − A|",
                "(and the n-gram's)",
            ],
        },
        height=style.titled_height(360, _pair_title(a, b)) + 3 * 16,  # and three subtitle lines
    )


def _pair_axis(channel: Any, field: str, title: str, side: str) -> Any:
    """An axis of the A-vs-B scatter, 0-100, its title cut at the plot's ``side`` ("width" or "height"): a rotated
    title longer than the plot is tall pushed the chart's title above its box (researcher walk B2)."""
    return channel(
        f"{field}:Q", title=title, scale=alt.Scale(domain=[0, 100]), axis=alt.Axis(titleLimit=alt.ExprRef(side))
    )


def _pair_density(numbers: pd.DataFrame) -> alt.Chart:
    """Every sentence of a dense A-vs-B scatter, counted in ``PAIR_BIN``-point cells (log-shaded)."""
    chart: alt.Chart = (
        alt.Chart(pair_bins(numbers))
        .mark_rect()
        .encode(
            x=alt.X("a_from:Q"),
            x2="a_to:Q",
            y=alt.Y("b_from:Q"),
            y2="b_to:Q",
            color=alt.Color(
                f"{style.SENTENCES}:Q", scale=alt.Scale(type="log", scheme="greys"), title="sentences per cell"
            ),
            tooltip=[
                alt.Tooltip(style.SENTENCES, title="sentences"),
                alt.Tooltip("a_from:Q", title="BLEU A from"),
                alt.Tooltip("a_to:Q", title="BLEU A below"),
                alt.Tooltip("b_from:Q", title="BLEU B from"),
                alt.Tooltip("b_to:Q", title="BLEU B below"),
            ],
        )
    )
    return chart


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
            style.SENTENCES: counts.to_numpy(),
        }
    )


def ngram_chart(ngrams: pd.DataFrame) -> alt.Chart:
    """The n-grams that most separate A and B (z of the smoothed log-odds); select one (``NGRAM_PICK``)."""
    pick = alt.selection_point(name=NGRAM_PICK, fields=[f.NGRAM], on="click", clear="dblclick")
    # the segment lists stay on the server (the page reads them from its frame): at 50,000 lines they were
    # 98 % of the chart's bytes, and the chart draws none of them
    shown = ngrams.drop(columns=[f.SEGMENTS_LIST], errors="ignore")
    df = style.ranked(shown, f.NGRAM, list(shown.sort_values(f.LOG_ODDS, ascending=False)[f.NGRAM]))
    chart: alt.Chart = (
        alt.Chart(df)
        .mark_bar()
        .encode(
            # one 20 px band per n-gram: the chart is as tall as its labels need, whatever the container
            y=alt.Y(
                f"{f.NGRAM}:N",
                sort=style.by_rank(),
                title=None,
                scale=alt.Scale(paddingInner=0.15),
                axis=alt.Axis(labelOverlap=False, labelLimit=260),
            ),
            x=alt.X(f"{f.LOG_ODDS}:Q", title="← matched more by B · z of log-odds · matched more by A →"),
            color=alt.Color(
                f"{f.FAVOURS}:N",
                scale=alt.Scale(domain=["A", "B"], range=[style.OKABE_ITO[0], style.OKABE_ITO[1]]),
                title="favours",
            ),
            opacity=alt.condition(pick, alt.value(1.0), alt.value(0.45)),
            tooltip=[f.NGRAM, f.N, f.ONLY_A, f.ONLY_B, alt.Tooltip(f.LOG_ODDS, format="+.2f")],
        )
        .add_params(pick)
        .properties(title=["n-grams one system matches", "and the other does not"], height=alt.Step(20))
    )
    return chart
