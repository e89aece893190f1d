"""AppTest through app.py for the sentence page: render, settings, bad input, escaping, handoff, sharing."""

from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from bleu_app.ui import state
from tests.ui.conftest import open_app

APP = str(Path(__file__).resolve().parents[2] / "app.py")


@pytest.fixture
def at() -> AppTest:
    return open_app("pages/sentence.py")


def _html(app: AppTest) -> str:
    return "\n".join(h.value for h in app.html)


def _set_hyp(app: AppTest, text: str) -> None:
    app.text_area(key="sentence.hyp_box").set_value(text).run()


def test_opens_on_example_1_with_17_18_table(at):
    assert [m.value for m in at.metric][:1] == ["50.46  (0.5046)"]
    clip = at.table[0].value
    assert clip["Count_clip"].sum() == 17
    assert clip["Count"].sum() == 18
    assert at.html[0].value.count('class="bleu-tok matched"') == 17
    assert at.html[0].value.count('class="bleu-tok unmatched"') == 1


def _use_preset(app: AppTest, name: str) -> None:
    # AppTest drops the sidebar from its element tree after switch_page (the script still renders it), so
    # the settings are set through their session-state keys, as the preset's on_change would.
    app.session_state[state.PRESET] = name
    for key, value in state.PRESETS[name].values.items():
        app.session_state[key] = value
    app.run()


def test_settings_reach_the_signature(at):
    assert any("tok:paper" in c.value for c in at.caption)
    _use_preset(at, "sacrebleu")
    assert not at.exception
    assert any("tok:13a" in c.value and "smooth:exp" in c.value for c in at.caption)


def test_empty_references_prompt(at):
    at.text_area(key="sentence.ref_box.0").set_value("")
    at.text_area(key="sentence.ref_box.1").set_value("  ")
    at.text_area(key="sentence.ref_box.2").set_value("").run()
    assert not at.exception
    assert any("at least one **reference**" in w.value for w in at.warning)


def test_empty_candidate_prompt_keeps_references(at):
    _set_hyp(at, "")
    assert any("candidate" in i.value for i in at.info)
    assert at.text_area(key="sentence.ref_box.0").value.startswith("It is a guide")


def test_html_typed_into_a_box_is_text(at):
    payload = "<script>alert(1)</script><img src=x onerror=alert(2)>"
    _set_hyp(at, payload + " it is a guide")
    assert not at.exception
    html = _html(at)
    assert "<script>" not in html
    assert "<img" not in html
    assert "&lt;" in html or "&lt;script&gt;" in html


def test_odd_unicode_and_huge_text_no_traceback(at):
    for text in ("שלום עולם مرحبا", "e\u0301te\u0301 🙂 the\u200bcat", "\u202eevil"):
        _set_hyp(at, text)
        assert not at.exception
    _set_hyp(at, "word " * 21_000)
    assert not at.exception
    assert any("more text than one sentence" in w.value for w in at.warning)
    assert at.text_area(key="sentence.hyp_box").value.startswith("word word")


def test_tokenized_and_short_candidate_warnings(at):
    _set_hyp(at, "it is a guide .")
    assert any("looks tokenized" in w.value for w in at.warning)
    _set_hyp(at, "of the")
    assert any("fewer than the max order" in w.value for w in at.warning)


def test_add_and_remove_references(at):
    at.button(key="sentence.add_ref").click().run()
    assert at.text_area(key="sentence.ref_box.3").value == ""
    at.button(key="sentence.del_ref.0").click().run()
    assert at.text_area(key="sentence.ref_box.0").value.startswith("It is the guiding")
    assert len([t for t in at.text_area if t.key.startswith("sentence.ref_box")]) == 3


def test_load_example_and_share_link(at):
    at.selectbox(key="sentence.example_pick").set_value("ex2").run()
    assert at.table[0].value["Count_clip"].sum() == 2
    assert at.query_params.get("ex") in ("ex2", ["ex2"])
    _set_hyp(at, "the cat")
    assert at.query_params.get("hyp") in ("the cat", ["the cat"])
    assert "ex" not in at.query_params


def test_shared_link_loads_text():
    app = open_app("pages/sentence.py", query={"hyp": "the cat sat", "ref": ["the cat sat on the mat", "a cat"]})
    assert app.text_area(key="sentence.hyp_box").value == "the cat sat"
    assert app.text_area(key="sentence.ref_box.1").value == "a cat"


def test_handoff_with_two_systems():
    app = open_app()
    app.session_state[state.HANDOFF] = {
        "hyp": "the cat sat",
        "refs": ["the cat sat on the mat"],
        "other_hyp": "a cat on the mat",
        "label": "segment 3 of A vs B",
    }
    app.switch_page("pages/sentence.py").run()
    assert not app.exception
    assert app.text_area(key="sentence.hyp_box").value == "the cat sat"
    assert any("segment 3 of A vs B" in c.value for c in app.caption)
    overlap = app.dataframe[-2].value if len(app.dataframe) > 2 else app.dataframe[-1].value
    assert set(overlap["matched by"]) >= {"both", "only A", "only B"}


def test_whatif_shows_deltas(at):
    at.text_input(key="sentence.whatif").set_value("it is a guide to action").run()
    assert not at.exception
    bp = next(m for m in at.metric if m.label == "BP" and m.delta)
    assert bp.delta.startswith("-")


def test_a_short_rows_table_score_is_on_the_page_it_opens():
    """Review 29 item 1: the corpus table's sentence BLEU (effective order, sacreBLEU's sentence_bleu default)
    said 63.00 and the page the row opened said only 0.00 (the sidebar's eff:no). The page now gives both."""
    from bleu_core import sentence_bleu

    app = open_app()
    app.session_state[state.HANDOFF] = {"hyp": "the cat", "refs": ["the cat sat"], "label": "segment 156 of s"}
    app.switch_page("pages/sentence.py").run()
    assert not app.exception
    table_score = sentence_bleu("the cat", ["the cat sat"]).score  # what the corpus table shows
    assert f"{table_score:.2f}" != "0.00"
    assert app.metric[0].value.startswith("0.00")  # the sidebar's settings: eff:no
    notes = [c.value for c in app.caption if "With effective order" in c.value]
    assert len(notes) == 1
    assert f"**{table_score:.2f}**" in notes[0]
    assert "eff:yes" in notes[0]
    # a sentence whose score effective order does not change gets no note
    _set_hyp(app, "the cat sat on the mat")
    assert not [c.value for c in app.caption if "With effective order" in c.value]


def test_a_scatter_points_two_scores_are_on_the_page_it_opens():
    """Review 29: a compare scatter point at A = 0, B = 100 (effective order, as the tables) opened a page whose
    two-systems section said "B — BLEU 0.00" (the sidebar's eff:no) and nothing else."""
    from bleu_core import sentence_bleu

    app = open_app()
    refs = ["How are you doing today", "Hello"]
    app.session_state[state.HANDOFF] = {
        "hyp": "How do you do",
        "refs": refs,
        "other_hyp": "Hello",
        "label": "segment 1284 of A vs B",
    }
    app.switch_page("pages/sentence.py").run()
    assert not app.exception
    table_b = sentence_bleu("Hello", refs).score  # the compare table's and the scatter's B
    assert f"{table_b:.2f}" == "100.00"
    (b_label,) = [m.value for m in app.markdown if m.value.startswith("**B** — BLEU")]
    assert b_label.startswith("**B** — BLEU 0.00")
    assert f"with effective order, as in the tables: {table_b:.2f}" in b_label
    (a_label,) = [m.value for m in app.markdown if m.value.startswith("**A** — BLEU")]
    assert "effective order" not in a_label  # four tokens: effective order changes nothing
