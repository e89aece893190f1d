"""The frame every page runs in: page config, state, the shared sidebar of BLEU settings, navigation.

``app.py`` calls :func:`run`. Each script in ``pages/`` calls :func:`guard` first: Streamlit 1.67 runs a page
of a ``pages/`` folder on its own (legacy multipage mode) when a deep link such as ``/sentence?ex=ex2`` is the
first visit to a fresh server, before any session has called ``st.navigation``. The guard sees that the
script runs outside the frame, runs the frame instead (which runs the same page inside it) and stops.
"""

from __future__ import annotations

import threading
from typing import Final

import streamlit as st

from bleu_app.ui import blas, memory, nav, serving, state
from bleu_app.ui.components import share, widgets

_ONE_BLAS_THREAD = blas.LIMIT  # set when blas is imported: once per process
serving.refuse_clear_cache()  # once per process: a client may not clear every session's caches (issue 24.3)
serving.bound_session_uploads()  # nor hold more uploads than a folder's worth (issue 24.4)

# The favicon is an emoji: a ``:material/...`` page_icon is fetched from a web font service, and the app sends
# no request beyond its own host (the pages' icons: ``nav``).
APP_ICON = "🔵"

# Text under 4.5:1 (WCAG AA) in Streamlit's own colours, per theme (tests/browser/test_contrast.py measures every
# page in both). Light: captions and quotes (Streamlit's text at 60% opacity: 3.9:1 on white) at 75% (6.1:1), lighter
# than body text; chart axis and legend text (Vega's grey #808495: 3.7:1) in a darker grey (#5C5F6C: 6.4:1).
# Dark: the primary colour #56B4E9 under a white label (primary buttons, a multiselect's chips) is 2.3:1: the
# label takes the dark background's colour instead (8.2:1). The light theme's #0072B2 under white is 5.2:1.
CONTRAST_CSS: Final = {
    "light": """<style>
[data-testid="stCaptionContainer"], [data-testid="stMarkdownContainer"] blockquote { opacity: 0.75; }
[data-testid="stVegaLiteChart"] :is(.role-axis-label, .role-axis-title, .role-legend-label, .role-legend-title,
  .role-header-label, .role-header-title) > text { fill: #5C5F6C; }
</style>""",
    "dark": """<style>
[data-testid^="stBaseButton-primary"], [data-testid^="stBaseButton-primary"] p,
[data-tag], [data-tag] span, [data-tag] button { color: #0E1117 !important; }
</style>""",
}


def contrast_css() -> None:
    """The theme's contrast fixes: a style-only block at the end of the sidebar (no gap in the main area)."""
    css = CONTRAST_CSS.get(str(st.context.theme.type or ""))
    if css:
        st.sidebar.markdown(css, unsafe_allow_html=True)


# Per script thread (one per session): set while the frame's navigation runs a page.
_inside = threading.local()


def run() -> None:
    """Page config, state, navigation, the settings sidebar, then the page the URL names."""
    presenting = st.query_params.get("present") == "1"  # presenter mode: the whole width for the step
    st.set_page_config(
        page_title="BLEU Explorer",
        page_icon=APP_ICON,
        layout="wide",
        initial_sidebar_state="collapsed" if presenting else "auto",
    )
    navigation = st.navigation(nav.pages())
    state.init(navigation.url_path)
    share.apply_link()  # a shared view's input and settings, before the sidebar's widgets are drawn
    state.follow_page(navigation.url_path)
    widgets.metrics_sidebar(navigation.url_path)
    widgets.settings_sidebar()
    contrast_css()
    _inside.active = True
    try:
        navigation.run()
    finally:
        _inside.active = False
        memory.give_back()


def guard() -> None:
    """First call of every page script: outside the frame (a bare legacy run), run the frame and stop."""
    if getattr(_inside, "active", False):
        return
    run()
    st.stop()
