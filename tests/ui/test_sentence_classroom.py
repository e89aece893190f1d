"""The Sentence page for a class (issue 20.7): Start blank, sample buttons, the footnote-4 caveat."""

from __future__ import annotations

from pathlib import Path

from bleu_app import samples
from bleu_app.ui import state
from bleu_core import BleuConfig, explain_segment
from tests.ui.conftest import open_app

APP = str(Path(__file__).resolve().parents[2] / "app.py")


def test_start_blank_leaves_nothing_of_the_example():
    at = open_app("pages/sentence.py", from_start=False)
    assert len(at.session_state[state.SENTENCE_REFS]) == 3  # Example 1 by default
    at.button(key="sentence.blank").click().run()
    assert not at.exception
    assert at.session_state[state.SENTENCE_HYP] == ""
    assert at.session_state[state.SENTENCE_REFS] == [""]
    assert any("Type or paste a **candidate**" in i.value for i in at.info)
    # a student's own sentence is now scored against their one reference only (teacher-walk item 4)
    at.text_area(key=state.HYP_BOX).set_value("the the the the")
    at.text_area(key=state.ref_box(0)).set_value("the cat is on the mat").run()
    assert not at.exception
    m: dict[str, str] = {}
    for x in at.metric:
        m.setdefault(x.label, x.value)  # the headline row's, before the what-if box
    assert m["r (best match length)"] == "6"  # one reference of 6 tokens, not Example 1's three
    assert (
        m["BP"] == f"{explain_segment('the the the the', ['the cat is on the mat'], BleuConfig.paper()).score.bp:.4f}"
    )


def test_sample_buttons_load_and_score_them():
    at = open_app("pages/sentence.py", from_start=False)
    for key, (label, hyp, refs) in samples.CLASSROOM_SAMPLES.items():
        at.button(key=f"sentence.sample.{key}").click().run()
        assert not at.exception
        assert at.session_state[state.SENTENCE_HYP] == hyp
        assert at.session_state[state.SENTENCE_REFS] == list(refs)
        want = explain_segment(hyp, list(refs), BleuConfig.paper()).score.score
        headline = next(m for m in at.metric if m.label == "Sentence BLEU")
        assert headline.value.startswith(f"{want:.2f}"), label
    assert headline.value.startswith("0.00")  # the wrong inflections, last: no 4-gram matches


def test_footnote_4_caveat_under_sentence_bleu():
    at = open_app("pages/sentence.py", from_start=False)
    text = " ".join(m.value for m in at.markdown)
    assert "BLEU only needs to match human judgment when averaged over a test corpus" in " ".join(text.split())
