"""Issue 24.1: systems from a table are capped as a folder's files are, and the compare page's resampling stays
within what one session may hold: a message (with advice that matches the cost) instead of a traceback."""

from __future__ import annotations

import pytest
from streamlit.testing.v1 import AppTest

from bleu_app.frames.metrics import page_default
from bleu_app.ui import memory
from bleu_core.config import BleuConfig
from bleu_core.metrics import get_metric
from tests.ui.conftest import open_app, uploader


def _table(n_systems: int, n_segments: int) -> tuple[str, bytes, str]:
    head = "ref\t" + "\t".join(f"S{i}" for i in range(n_systems)) + "\n"
    rows = "".join(
        f"the cat sat on the mat {k}\t"
        + "\t".join(f"the cat sat on a mat {k * i % 7}" for i in range(n_systems))
        + "\n"
        for k in range(n_segments)
    )
    return ("t.tsv", (head + rows).encode(), "text/plain")


def _no_exception(at: AppTest) -> None:
    assert not at.exception, [e.value for e in at.exception]


def test_a_table_with_more_systems_than_a_folder_may_hold_is_refused() -> None:
    at = open_app("pages/compare.py")
    uploader(at, "compare.in_table").set_value(_table(1001, 2)).run()
    _no_exception(at)
    errors = [e.value for e in at.error]
    assert len(errors) == 1, errors
    assert "has 1,001 systems; a corpus holds at most 1,000" in errors[0].replace("\\", "")


def test_trials_are_lowered_to_what_a_session_may_hold(monkeypatch: pytest.MonkeyPatch) -> None:
    # 40 systems default to 10,000 trials; a session budget that holds 2,000 of them with the page's default
    # metrics (BLEU's 10 columns, and chrF's 18 once it is registered: each holds a pool of its own)
    shown = [get_metric(k) for k in page_default("compare")]
    monkeypatch.setattr(memory, "session_budget", lambda: memory.pool_bytes(40, shown, 2000))
    at = open_app("pages/compare.py")
    uploader(at, "compare.in_table").set_value(_table(40, 20)).run()
    _no_exception(at)
    warning = next(w.value for w in at.warning if "more than one session may hold" in w.value)
    assert "10,000 trials over 40 systems" in warning
    assert "uses 2,000 trials" in warning
    assert at.select_slider(key="compare.trials").value == 2000
    assert any("bs:2000" in c.value for c in at.caption)


def test_too_many_systems_for_even_the_intervals_is_a_message(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(memory, "session_budget", lambda: memory.pool_bytes(40, BleuConfig(), 500))
    at = open_app("pages/compare.py")
    uploader(at, "compare.in_table").set_value(_table(40, 20)).run()
    _no_exception(at)
    errors = [e.value for e in at.error]
    assert any("40 systems are too many to compare here" in e and "Load fewer systems" in e for e in errors), errors


def test_the_cores_memory_check_is_a_message_with_advice_about_systems(monkeypatch: pytest.MonkeyPatch) -> None:
    # the core's own check (half the machine) on a machine with little memory: was an uncaught InputError
    from bleu_core.significance import trials

    monkeypatch.setattr(trials, "memory_budget", lambda: 2**20)
    monkeypatch.setattr(memory, "session_budget", lambda: 2**40)
    at = open_app("pages/compare.py")
    uploader(at, "compare.in_table").set_value(_table(40, 20)).run()
    _no_exception(at)
    errors = [e.value for e in at.error if "The significance test cannot run" in e.value]
    assert len(errors) == 1, [e.value for e in at.error]
    assert "of 20 segments need about" in errors[0]
    assert "compare fewer systems" in errors[0]
