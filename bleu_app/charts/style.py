"""What every chart of the app shares: the colour-blind-safe palettes and shapes, ink that follows the theme,
titles that fit a phone, categorical axes sorted by a rank field, and the export of a chart as a file with its
signature. Pure: no st.*, no I/O.

No user string (a system name, an n-gram) is ever part of a Vega expression: an explicit ``sort`` list is
compiled into one, so a name such as ``if`` or one with a quote broke the whole chart. Categorical axes sort by
a rank field of the data instead (:func:`by_rank`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final, Literal

import altair as alt
import pandas as pd

# Okabe-Ito with Tol's light grey for black (black vanishes on the dark theme).
OKABE_ITO = ["#0072B2", "#E69F00", "#009E73", "#D55E00", "#CC79A7", "#56B4E9", "#F0E442", "#BBBBBB"]
# Tol's muted, the colours least like Okabe-Ito's first.
TOL_MUTED = ["#882255", "#332288", "#999933", "#117733", "#AA4499", "#DDCC77", "#CC6677", "#44AA99", "#88CCEE"]
SYSTEM_COLOURS = OKABE_ITO + TOL_MUTED  # 17 distinct colours
SHAPES = ["circle", "square", "diamond", "triangle-up", "triangle-down", "cross", "triangle-right", "triangle-left"]
RANK = "rank"  # the sort key of a categorical axis (0 first)
# Chart text in the page's own text colour: Vega writes it as the SVG fill, which takes the light or the dark theme's
# text colour (a text mark's default is black; a fixed colour cannot reach 4.5:1 on both themes' backgrounds).
INK = "currentColor"
LEGEND_GREY = "#888888"  # a colourless legend's symbols: 3.5:1 on white, 5.3:1 on the dark theme
# Above DENSE sentences a chart draws bins instead of one mark per sentence: 50,000 marks cost the browser
# seconds and the page megabytes over the websocket (issue 24), and drew an ink blot all the same.
DENSE = 2000
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


PLOT_HEIGHT: Final = 220  # the plot of a bucket chart, axes and legend apart: gaps of 1-5 points can be read
SLANT_LABEL_PX: Final = 3.5  # vertical pixels a character of a -30 degree axis label takes (6.5 px wide x sin 30)
SLANT_LABEL_MAX: Final = 90  # a label cut at labelLimit 180 px, slanted: at most this tall


def slanted_labels_height(labels: Sequence[str]) -> int:
    """The vertical pixels an x axis of ``labels`` slanted at -30 degrees takes: Streamlit fits the axis inside
    the chart's height, so a plot given a bare height lost this much (WMT's bucket charts were ~45 px tall).

    Example:
        >>> slanted_labels_height(["1-10 tokens", "11-20 tokens"]), slanted_labels_height(["x" * 80])
        (42, 90)
    """
    longest = max((len(str(label)) for label in labels), default=0)
    return min(SLANT_LABEL_MAX, round(longest * SLANT_LABEL_PX))


def palette(n: int) -> list[str]:
    return [SYSTEM_COLOURS[i % len(SYSTEM_COLOURS)] for i in range(max(n, 1))]


def shapes(n: int) -> list[str]:
    """One shape per system: the i-th and the (i+8)-th system never share colour and shape."""
    return [SHAPES[(i + i // len(SHAPES)) % len(SHAPES)] for i in range(max(n, 1))]


def fill_opacity(n: int) -> list[float]:
    """Bars of systems past the eighth are drawn hollow (a second channel next to their colour)."""
    return [1.0 if i < len(OKABE_ITO) else 0.25 for i in range(max(n, 1))]


def by_rank(field: str = RANK) -> alt.EncodingSortField:
    """Sort a categorical axis by a numeric field of the data (never by a list of its values)."""
    return alt.EncodingSortField(field=field, op="min", order="ascending")


SHOWN = "shown"  # the name on an axis: what sets the systems apart (frames.names.short_names); full on hover


def shown(df: pd.DataFrame, column: str, labels: Mapping[str, str] | None, to: str = SHOWN) -> pd.DataFrame:
    """``df`` with ``to``: each ``column`` value's display label (the value itself without ``labels``)."""
    return df.assign(**{to: [labels.get(v, v) if labels else v for v in df[column]]})


def ranked(df: pd.DataFrame, column: str, order: list[str], rank: str = RANK) -> pd.DataFrame:
    """``df`` with ``rank``: the position of each row's ``column`` value in ``order``."""
    where = {v: i for i, v in enumerate(order)}
    return df.assign(**{rank: [where.get(v, len(where)) for v in df[column]]})


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
