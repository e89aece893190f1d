"""Issue 24.7: a link's setting that no widget offers falls back to the page's preset (not the widget's first
option) and the sidebar says which setting was ignored; valid settings of the same link are kept."""

from __future__ import annotations

from pathlib import Path

import pytest

from bleu_app.ui import state
from tests.ui.conftest import open_app

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize(
    ("page", "params", "expected", "named"),
    [
        ("pages/corpus.py", {"order": "100"}, {state.MAX_ORDER: 4}, "max n-gram order (order=100)"),
        ("pages/corpus.py", {"order": "abc"}, {state.MAX_ORDER: 4}, "max n-gram order (order=abc)"),
        ("pages/corpus.py", {"smooth": "evil"}, {state.SMOOTH: "exp"}, "smoothing (smooth=evil)"),
        ("", {"tok": "unknown"}, {state.TOKENIZE: "paper"}, "tokenizer (tok=unknown)"),
        ("", {"lc": "maybe"}, {state.LOWERCASE: True}, "lowercase (lc=maybe)"),
        (
            "pages/compare.py",
            {"smooth": "floor", "sv": "nan"},
            {state.SMOOTH: "floor", state.SMOOTH_VALUE: 0.1},
            "(sv=nan)",
        ),
        (
            "pages/compare.py",
            {"smooth": "floor", "sv": "-5"},
            {state.SMOOTH: "floor", state.SMOOTH_VALUE: 0.1},
            "(sv=-5)",
        ),
    ],
)
def test_a_bad_setting_in_a_link_takes_the_pages_preset_and_is_named(
    page: str, params: dict[str, str], expected: dict[str, object], named: str
) -> None:
    at = open_app(page or None, query=params, from_start=False)
    for key, value in expected.items():
        assert at.session_state[key] == value, (key, at.session_state[key])
    notes = [w.value.replace("\\", "") for w in at.sidebar.warning]
    assert len(notes) == 1, notes
    assert named in notes[0]
    assert "the page's preset value is used instead" in notes[0]


def test_a_good_link_says_nothing() -> None:
    at = open_app("pages/corpus.py", query={"order": "3", "smooth": "floor", "sv": "0.2"}, from_start=False)
    assert (at.session_state[state.MAX_ORDER], at.session_state[state.SMOOTH_VALUE]) == (3, 0.2)
    assert not at.sidebar.warning
