"""The rebuilt exercise through the page (issue 20.6): one step at a time, traps named, the worked step after two
wrong tries, answers kept per item, a score at the end."""

from __future__ import annotations

from pathlib import Path

from streamlit.testing.v1 import AppTest

from bleu_app.lessons import exercise as x
from bleu_app.ui import state
from tests.ui.conftest import open_learn

APP = str(Path(__file__).resolve().parents[2] / "app.py")


def _answer(at: AppTest, item: str, step: str, text: str) -> None:
    at.text_input(key=f"learn.ex.{item}.{step}").set_value(text)
    next(b for b in at.button if "Check" in b.label).click().run()
    assert not at.exception


def _open_inputs(at: AppTest) -> list[str]:
    return [t.key for t in at.text_input if t.key and t.key.startswith("learn.ex.")]


def test_steps_unlock_one_at_a_time_and_traps_are_named():
    at = open_learn()
    at.selectbox(key=state.EXERCISE_ITEM).set_value("corpus").run()
    assert _open_inputs(at) == ["learn.ex.corpus.p1"]  # one box: focus cannot run down a column
    assert not at.error  # no red before any typing
    steps = x.steps(x.ITEMS["corpus"])
    for step in steps[:5]:
        _answer(at, "corpus", step.key, step.text)
    assert _open_inputs(at) == ["learn.ex.corpus.r"]
    _answer(at, "corpus", "r", "4")
    assert any("one sentence's length" in e.value for e in at.error)
    assert not at.info  # the worked step waits for a second wrong try
    _answer(at, "corpus", "r", "11")
    assert any("Worked step" in i.value and "r = 10" in i.value for i in at.info)
    _answer(at, "corpus", "r", "10")
    _answer(at, "corpus", "bp", "1.105")
    assert any("BP above 1" in e.value for e in at.error)


def test_answers_are_kept_per_item_and_the_score_counts_first_tries():
    at = open_learn()
    score = next(c.value for c in at.caption if c.value.startswith("Your score"))
    assert "no item complete yet (0 of 6)" in score  # review 29 item 9
    assert "of 0" not in score
    at.selectbox(key=state.EXERCISE_ITEM).set_value("warmup").run()
    steps = x.steps(x.ITEMS["warmup"])
    _answer(at, "warmup", "p1", "5/5")  # wrong once
    for step in steps:
        _answer(at, "warmup", step.key, step.text)
    assert any("Item complete: 7 of 8" in s.value for s in at.success)
    at.selectbox(key=state.EXERCISE_ITEM).set_value("clip").run()
    _answer(at, "clip", "p1", "6/7")
    at.selectbox(key=state.EXERCISE_ITEM).set_value("warmup").run()
    shown = [m.value for m in at.markdown if m.value.startswith("✔")]
    assert len(shown) == 8
    at.selectbox(key=state.EXERCISE_ITEM).set_value("clip").run()
    clip_p1 = x.steps(x.ITEMS["clip"])[0].label
    assert [m.value for m in at.markdown if m.value.startswith("✔")] == [f"✔ **{clip_p1}** = 6/7"]
    assert _open_inputs(at) == ["learn.ex.clip.p2"]
    score = next(c.value for c in at.caption if c.value.startswith("Your score"))
    assert "1 of 6 items complete, 7 of 8" in score
