"""BLEU against human scores, per system, as the paper's Figure 5 draws it: the compare page's and the report's chart,
each system's name placed clear of the others. Pure: no st.*, no I/O."""

from __future__ import annotations

import altair as alt
import numpy as np
import pandas as pd

from bleu_app.charts.style import OKABE_ITO
from bleu_app.frames import corpus as f

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
