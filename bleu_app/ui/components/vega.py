"""Charts drawn from cached Vega-Lite specs (``cached.vega_spec``): full width, and in presenter mode with text of at
least 18 px in the theme's full text colour."""

from __future__ import annotations

from typing import Any, Final

import streamlit as st

from bleu_app.ui import state

# presenter mode (``?present=1``): chart text at least 18 px, in the theme's full text colour
LARGE_CHART_TEXT: Final = {"labelFontSize": 18, "titleFontSize": 20}
# Streamlit's own text colours per theme (12.6:1 on its light background, 17:1 on its dark one)
PRESENTER_INK: Final = {"light": "#31333F", "dark": "#FAFAFA"}


def vega(spec: dict[str, Any]) -> None:
    """Draw a spec from ``vega_spec`` full width (a shallow copy: Streamlit moves the datasets out of it); in
    presenter mode with chart labels and titles of at least 18 px."""
    out = dict(spec)
    if "autosize" not in out and not _composed(out):
        # Streamlit's default for a single or layered chart is "fit": the whole SVG, title and axes included,
        # squeezed into the spec's height. Vega places the title outside that box (it was cut at the top) and,
        # with presenter mode's 18-22 px text, left the plot a strip. "fit-x": the plot keeps its height and
        # the SVG grows by what the title and axes need.
        out["autosize"] = {"type": "fit-x", "contains": "padding"}
    if state.presenting():
        config = dict(out.get("config") or {})
        for part in ("axis", "legend", "header"):
            config[part] = {**(config.get(part) or {}), **LARGE_CHART_TEXT}
        config["title"] = {**(config.get("title") or {}), "fontSize": 22}
        config["text"] = {**(config.get("text") or {}), "fontSize": 18}
        ink = PRESENTER_INK.get(str(st.context.theme.type or ""))
        if ink:  # axis and legend text in the theme's full text colour: the default grey is 3.7:1 on white
            for part in ("axis", "legend", "header"):
                config[part] = {**config[part], "labelColor": ink, "titleColor": ink}
            config["title"] = {**config["title"], "color": ink}
        out = _at_least(out, 18)
        out["config"] = config
    st.vega_lite_chart(spec=out, width="stretch")


def _composed(spec: dict[str, Any]) -> bool:
    """A facet or concatenation (Streamlit sizes those itself: "fit-x" is not for them)."""
    if any(k in spec for k in ("facet", "concat", "hconcat", "vconcat", "repeat")):
        return True
    encoding = spec.get("encoding") or {}
    return any(k in encoding for k in ("row", "column", "facet"))


_SIZE_KEYS: Final = frozenset({"fontSize", "labelFontSize", "titleFontSize"})


def _at_least(node: Any, px: int) -> Any:
    """A copy of a spec with every font size a chart sets explicitly raised to ``px`` (datasets untouched)."""
    if isinstance(node, dict):
        return {
            k: (
                max(v, px)
                if k in _SIZE_KEYS and isinstance(v, int | float)
                else v
                if k == "datasets"
                else _at_least(v, px)
            )
            for k, v in node.items()
        }
    if isinstance(node, list):
        return [_at_least(v, px) for v in node]
    return node
