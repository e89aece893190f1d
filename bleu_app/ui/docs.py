"""The app's prose on a page: ``docs/<section>/<name>.md`` (read once per version of the file by
``bleu_app.prose``, the one reader of the app's prose) shown as Markdown."""

from __future__ import annotations

import streamlit as st

from bleu_app.prose import text

__all__ = ["show", "text"]


def show(name: str, section: str = "learn") -> None:
    """Render ``docs/<section>/<name>.md``."""
    st.markdown(text(name, section))
