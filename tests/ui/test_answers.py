"""Answers where students ask (issue 34): "why is my translation 0?" names the zero precision and points to the
Learn step on it, on the Sentence page and in the class; Chinese scored with a space tokenizer gets the tokenizer
hint there too; the class says which BLEU it scores with."""

from __future__ import annotations

from streamlit.testing.v1 import AppTest

from bleu_app.frames import answers
from bleu_app.ui import state
from bleu_app.ui.learn import steps
from bleu_core.config import BleuConfig
from bleu_core.teaching.explain import explain_segment
from bleu_core.teaching.paper import EXAMPLE_1
from tests.ui.conftest import open_app
from tests.ui.test_classroom import PAGE, _metrics, _student, _submit

ARMY = "The army always obeys the party."  # the review's student: p2 = 0/5 against Reference 1, BLEU 0


def _sentence(hyp: str, ref: str) -> AppTest:
    at = open_app("pages/sentence.py")
    at.text_area(key="sentence.hyp_box").set_value(hyp)
    at.text_area(key="sentence.ref_box.0").set_value(ref)
    at.text_area(key="sentence.ref_box.1").set_value("")
    at.text_area(key="sentence.ref_box.2").set_value("").run()
    assert not at.exception
    return at


def _said(at: AppTest) -> str:
    return "\n".join([i.value for i in at.info] + [w.value for w in at.warning] + [c.value for c in at.caption])


def test_why_0_on_the_sentence_page_names_the_zero_precision_and_the_learn_step():
    at = _sentence(ARMY, EXAMPLE_1.references[0])
    assert _metrics(at)["Sentence BLEU"].startswith("0.00")
    why = next(i.value for i in at.info if i.value.startswith("**Why 0?**"))
    assert "No 2-gram of the candidate matches a reference (p2 = 0/5)" in why  # as the review read it
    assert f"]({answers.ZERO_STEP})" in why
    assert steps.resolve(answers.ZERO_STEP.split("=")[1]) == "zero"  # the link opens that step
    assert "sidebar's *Smoothing*" in why
    # a sentence with every precision above 0 gets no such line
    at = _sentence(EXAMPLE_1.candidates[0], EXAMPLE_1.references[0])
    assert "Why 0?" not in _said(at)


def test_chinese_on_the_sentence_page_gets_the_tokenizer_hint():
    at = _sentence("我们今天去公园玩", "我们今天去了公园玩")
    hint = next(w.value for w in at.warning if "**Chinese**" in w.value)
    assert "the paper tokenizer splits only on spaces" in hint
    assert "pick **zh** as the sidebar's *Tokenizer*" in hint
    at.session_state[state.TOKENIZE] = "zh"
    at.run()
    assert "**Chinese**" not in _said(at)
    clip = at.table[0].value  # scored by characters now: all 8 of the candidate's match (the reference has 9)
    assert (clip["Count_clip"].sum(), clip["Count"].sum()) == (8, 8)


def test_the_class_says_which_bleu_and_what_smoothing_did_with_a_0(store_env):
    teacher = open_app(PAGE)
    teacher.button(key="class.create").click().run()
    s = _student(_metrics(teacher)["Room code"], "Ann")
    _submit(s, ARMY)
    expl = explain_segment(ARMY, list(EXAMPLE_1.references), BleuConfig.sentence())
    zero = next(o for o in expl.orders if o.total > 0 and o.matches == 0)
    assert expl.score.score > 0
    said = _said(s)
    assert f"No {zero.n}-gram of the candidate matches a reference (p{zero.n} = 0/{zero.total}). With exp " in said
    assert "Why 0?" not in said
    line = (
        "Scored with sacreBLEU's sentence BLEU (13a tokens, case kept, exp smoothing, effective order), not the "
        "lecture's (the paper's word tokens, lower case, no smoothing)"
    )
    assert line in said
    teacher.run()
    assert line in _said(teacher)


def test_a_chinese_room_on_a_space_tokenizer_tells_the_student(store_env):
    teacher = open_app(PAGE)
    teacher.session_state[state.CLASS_REFS] = "我们今天去了公园玩"
    teacher.run()
    teacher.button(key="class.create").click().run()
    teacher_hint = next(w.value for w in teacher.warning if "**Chinese**" in w.value)
    assert teacher_hint.endswith("Make the room again with it before the class.")
    s = _student(_metrics(teacher)["Room code"], "Ann")
    _submit(s, "我们今天去公园玩")
    hint = next(w.value for w in s.warning if "**Chinese**" in w.value)
    assert "a room made with the zh tokenizer" in hint


def test_a_class_on_the_lectures_bleu_explains_a_0(store_env):
    teacher = open_app(PAGE)
    for key, value in state.PRESETS["paper"].values.items():
        teacher.session_state[key] = value
    teacher.session_state[state.PRESET] = "paper"
    teacher.session_state[state.AUTO] = False  # the teacher's choice, as the preset box's on_change makes it
    teacher.run()
    teacher.button(key="class.create").click().run()
    code = _metrics(teacher)["Room code"]
    s = _student(code, "Ann")
    _submit(s, ARMY)
    expl = explain_segment(ARMY, list(EXAMPLE_1.references), BleuConfig.paper())
    zero = next(o for o in expl.orders if o.matches == 0)
    assert expl.score.score == 0
    assert _metrics(s)["Your sentence BLEU"].startswith("0.00")
    why = next(i.value for i in s.info if i.value.startswith("**Why 0?**"))
    assert f"No {zero.n}-gram of the candidate matches a reference (p{zero.n} = 0/{zero.total})" in why
    assert "sidebar" not in why  # a student cannot change the room's settings
    assert "Scored with the lecture's BLEU (the paper's word tokens, lower case, no smoothing)." in _said(s)
    teacher.run()
    assert "Scored with the lecture's BLEU" in _said(teacher)
