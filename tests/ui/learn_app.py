"""The Learn page opened through app.py in AppTest, with query parameters (a deep link), shared by its tests."""

from __future__ import annotations

from pathlib import Path

from streamlit.testing.v1 import AppTest

APP = str(Path(__file__).resolve().parents[2] / "app.py")


def open_learn(**params: str) -> AppTest:
    """The Learn page as a link with ``params`` opens it (no exception)."""
    at = AppTest.from_file(APP, default_timeout=60)
    for k, v in params.items():
        at.query_params[k] = v
    at.switch_page("pages/learn.py").run()
    assert not at.exception, [e.value for e in at.exception]
    return at
