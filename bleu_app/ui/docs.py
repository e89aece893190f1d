"""The one loader of the app's prose: Markdown files under ``docs/<section>/`` (teaching text lives in
Markdown, not in Python). A missing file raises: it is a bug of the app, not something a user can fix."""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Final

import streamlit as st

ROOT: Final = Path(__file__).resolve().parents[2] / "docs"


def text(name: str, section: str = "learn") -> str:
    """The text of ``docs/<section>/<name>.md``."""
    path = ROOT / section / f"{name}.md"
    return _read(path, path.stat().st_mtime_ns)


def show(name: str, section: str = "learn") -> None:
    """Render ``docs/<section>/<name>.md``."""
    st.markdown(text(name, section))


@functools.lru_cache(maxsize=256)
def _read(path: Path, mtime_ns: int) -> str:
    """A doc's text, read once per version of the file (every session shows the same prose)."""
    return path.read_text(encoding="utf-8")
