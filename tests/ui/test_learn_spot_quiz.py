"""The exercise's Spot the errors and Questions parts, and the deep links to them and to the cards, through the
page (issue 20.5/20.6): what the student reads, right and wrong answers, answers kept, the score."""

from __future__ import annotations

from pathlib import Path

from streamlit.testing.v1 import AppTest

from bleu_app.lessons import quiz, spot
from bleu_app.lessons.cards import cards
from bleu_app.ui import state
from tests.ui.conftest import open_learn

APP = str(Path(__file__).resolve().parents[2] / "app.py")


_learn = open_learn


def _pick(at: AppTest, radio: str, value: object, button: str) -> None:
    at.radio(key=radio).set_value(value).run()
    at.button(key=button).click().run()
    assert not at.exception


def _spot(at: AppTest, key: str, kind: str) -> None:
    _pick(at, f"learn.spot.{key}.pick", kind, f"learn.spot.{key}.check")


def _texts(at: AppTest) -> str:
    return "\n".join(m.value for m in at.markdown)


def test_a_link_opens_an_excerpt_and_a_wrong_then_right_answer() -> None:
    at = _learn(tab="exercise", item="spot-shortest")
    assert at.radio(key=state.EXERCISE_PART).value == "spot"
    item = spot.SPOTS["shortest"]
    assert [c.value for c in at.code if "refs_len" in c.value] == [item.text]
    assert any("not the app's" in c.value for c in at.caption)  # the article's words, labelled as such
    assert not at.error
    assert not at.success
    _spot(at, "shortest", "correct")
    assert [e.value for e in at.error] == [f"Not “{spot.KINDS['correct']}”. {item.hint}"]
    assert "What decides it" not in _texts(at)  # the decider waits for a right answer or a second try
    _spot(at, "shortest", "reflen")
    assert [s.value for s in at.success] == [f"Right: “{spot.KINDS['reflen']}”."]
    shown = _texts(at)
    assert 'The paper, section 2.2.2: “We call the closest reference sentence length the "best match length."”' in shown
    assert "r = 60 (sum of shortest) instead of 63 (closest)" in shown  # computed now
    assert "22.18" in shown
    score = next(c.value for c in at.caption if c.value.startswith("Spot the errors:"))
    assert score == f"Spot the errors: 1 of {len(spot.SPOTS)} excerpts answered right, 0 at the first try."


def test_two_wrong_tries_show_the_answer_and_a_correct_excerpt_is_marked_right() -> None:
    at = _learn(tab="exercise", item="spot")
    assert at.radio(key=state.EXERCISE_PART).value == "spot"
    at.selectbox(key=state.SPOT_ITEM).set_value("count").run()
    _spot(at, "count", "numbers")
    assert not at.info
    _spot(at, "count", "reason")
    assert any(i.value == f"The answer: “{spot.KINDS['code']}”." for i in at.info)
    assert "ZeroDivisionError: division by zero" in _texts(at)  # the article's code, run as printed
    at.selectbox(key=state.SPOT_ITEM).set_value("naive").run()
    _spot(at, "naive", "correct")
    assert at.success[0].value == f"Right: “{spot.KINDS['correct']}”."
    assert "3/8" in _texts(at)
    at.selectbox(key=state.SPOT_ITEM).set_value("count").run()  # kept when coming back
    assert any("The answer" in i.value for i in at.info)
    at.selectbox(key=state.SPOT_ITEM).set_value("naive").run()
    assert at.success
    score = next(c.value for c in at.caption if c.value.startswith("Spot the errors:"))
    assert "1 of 10 excerpts answered right, 1 at the first try" in score


def test_a_question_wrong_then_right_names_why_each_wrong_option_is_wrong() -> None:
    q = quiz.questions()["addref"]
    at = _learn(tab="exercise", item="quiz-addref")
    assert at.radio(key=state.EXERCISE_PART).value == "quiz"
    assert q.prompt in _texts(at)
    wrong = next(i for i, o in enumerate(q.options) if not o.right)
    right = next(i for i, o in enumerate(q.options) if o.right)
    _pick(at, "learn.quiz.addref.pick", wrong, "learn.quiz.addref.check")
    assert [e.value for e in at.error] == [f"Not this one. {q.options[wrong].why}"]
    _pick(at, "learn.quiz.addref.pick", right, "learn.quiz.addref.check")
    assert at.success[0].value == f"Right. {q.options[right].why}"
    assert "BP = exp(1 − 19/18) = 0.946" in at.success[0].value
    shown = _texts(at)
    for o in q.options:
        if not o.right:
            assert f"*{o.text}* — {o.why}" in shown
    assert any(c.value.startswith("Signature: nrefs:2") for c in at.caption)
    score = next(c.value for c in at.caption if c.value.startswith("Questions:"))
    assert score == f"Questions: 1 of {len(quiz.questions())} answered right, 0 at the first try."


def test_no_answer_picked_says_so() -> None:
    at = _learn(tab="exercise", item="quiz-corpus")
    at.button(key="learn.quiz.corpus.check").click().run()
    assert [e.value for e in at.error] == ["Pick an answer first."]


def test_an_item_link_still_opens_the_computing_part() -> None:
    at = _learn(tab="exercise", item="clip")
    assert at.radio(key=state.EXERCISE_PART).value == "compute"
    assert at.selectbox(key=state.EXERCISE_ITEM).value == "clip"


def _first_myth(at: AppTest) -> str:
    return next(m.value for m in at.markdown if m.value.startswith("**Myth:**"))


def test_a_card_link_puts_that_card_first_and_marks_it() -> None:
    by_key = {c.key: c for c in cards()}
    plain = _learn(tab="cards")
    assert _first_myth(plain) == f"**Myth:** {next(iter(by_key.values())).myth}"
    assert "The card your link points to" not in _texts(plain)
    at = _learn(tab="cards", item="human")
    assert _first_myth(at) == f"**Myth:** {by_key['human'].myth}"
    texts = [m.value for m in at.markdown]
    marker = next(i for i, t in enumerate(texts) if "The card your link points to" in t)
    assert texts[marker + 1] == f"**Myth:** {by_key['human'].myth}"
    assert sum(t.startswith("**Myth:**") for t in texts) == len(by_key)  # every card still there
    at.query_params.clear()  # a rerun that rewrote the URL without item=: the card stays first
    at.run()
    assert _first_myth(at) == f"**Myth:** {by_key['human'].myth}"
