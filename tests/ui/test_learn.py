"""AppTest through app.py for the learn page: the paper's numbers, settings, the lab and the exercise."""

from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from bleu_app.ui import state

APP = str(Path(__file__).resolve().parents[2] / "app.py")


@pytest.fixture
def at() -> AppTest:
    app = AppTest.from_file(APP, default_timeout=60)
    app.run()
    assert not app.exception
    return app


def _metrics(app: AppTest) -> dict[str, str]:
    return {m.label: m.value for m in app.metric}


def test_walk_shows_the_papers_fractions(at):
    first = at.table[0].value
    assert first["Count_clip"].sum() == 17
    assert first["Count"].sum() == 18
    assert list(first.columns) == ["Count", "Ref 1", "Ref 2", "Ref 3", "Max_Ref_Count", "Count_clip"]
    text = "\n".join(m.value for m in at.markdown)
    for frac in ("17/18", "8/14", "10/17", "1/13"):
        assert frac in text
    m = _metrics(at)
    assert m["Plain precision (no clipping)"] == "7/7"
    assert m["Modified precision p₁"] == "2/7"
    assert m["r (best match length)"] == "16"
    assert m["Naive recall of reference words"] == "3/5"  # the last card, Candidate 2


def test_no_settings_warning_with_the_papers_preset(at):
    assert not any(b.key == "learn.use_paper" for b in at.button)


def test_other_settings_say_so_and_offer_the_paper(at):
    at.selectbox(key=state.PRESET).set_value("sacrebleu").run()
    assert not at.exception
    assert any("differ from the paper" in m.value for m in at.markdown)
    assert any("tok:13a" in c.value for c in at.caption)  # the lab's and the score's signatures
    at.button(key="learn.use_paper").click().run()
    assert at.session_state[state.TOKENIZE] == "paper"
    assert not any(b.key == "learn.use_paper" for b in at.button)
    assert at.table[0].value["Count_clip"].sum() == 17


def test_variant_lab_shows_wrong_beside_right(at):
    at.selectbox(key="learn.variant").set_value("shortest_ref").run()
    m = _metrics(at)
    assert m["Correct BLEU"] == "22.18"
    assert m["Shortest reference length"] == "23.58"
    assert any("closest" in x.value for x in at.markdown)
    at.selectbox(key="learn.variant").set_value("nltk").run()
    at.selectbox(key="learn.lab_corpus").set_value("ex3").run()
    at.selectbox(key="learn.nltk").set_value(1).run()
    assert not at.exception
    assert float(_metrics(at)["NLTK's corpus_bleu"]) > 0  # smoothing lifts the zero precisions
    table = at.dataframe[-1].value
    assert len(table) == 9


def test_exercise_checks_answers_and_explains_first_mistake(at):
    at.selectbox(key="learn.exercise_pick").set_value("ex2").run()
    answers = {"p1": "7/7", "p2": "0/6", "p3": "0/5", "p4": "0/4", "c": "7", "r": "7", "bp": "1.000"}
    for k, v in answers.items():
        at.text_input(key=f"learn.exercise.ex2.{k}").set_value(v)
    next(b for b in at.button if "Check" in b.label).click().run()
    assert not at.exception
    assert any("First mistake" in e.value and "without clipping" in e.value for e in at.error)
    at.text_input(key="learn.exercise.ex2.p1").set_value("2/7")
    next(b for b in at.button if "Check" in b.label).click().run()
    assert any("All steps are right" in s.value for s in at.success)


def test_paper_preset_says_punctuation_dropping_is_inferred():
    assert "inferred" in state.PRESETS["paper"].description
