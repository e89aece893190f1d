"""Phones in step (issue 34): a presenter tied to a class room moves the phones that follow it (``/learn?follow=CODE``),
the opening's vote is a poll on them that counts each student once, and the projected slide draws the class's
answers. Each window is an AppTest session of its own sharing one store (SQLite and PostgreSQL: ``store_env``)."""

from __future__ import annotations

from pathlib import Path

from streamlit.testing.v1 import AppTest

from bleu_app.ui import state
from bleu_app.ui.classroom import lecture as class_lecture
from bleu_app.ui.learn import follow, opening, steps
from bleu_core.teaching.variants import VARIANTS
from tests.ui.conftest import TIMEOUT, keyed, open_app

APP = str(Path(__file__).resolve().parents[2] / "app.py")


def _session(query: dict[str, str], **kept: str) -> AppTest:
    """A browser session of app.py at ``query`` holding ``kept`` in its session state (what an earlier page of the
    same session left there: the teacher's token, the student's identity)."""
    at = AppTest.from_file(APP, default_timeout=TIMEOUT)
    for key, value in kept.items():
        at.session_state[key] = value
    for key, value in query.items():
        at.query_params[key] = value
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def _headers(at: AppTest) -> list[str]:
    return [h.value for h in at.header]


def _progress(at: AppTest) -> list[str]:
    return [p.proto.text for p in at.get("progress")]


def test_the_class_view_starts_the_presenter_for_its_room_and_the_student_page_links_the_slides(store_env):
    teacher = open_app("pages/class.py")
    teacher.button(key="class.create").click().run()
    token = teacher.session_state[state.CLASS_TEACH]
    room = store_env.room_by_teacher(token)
    assert store_env.slide(room.id) is None
    teacher.button(key="class.present").click().run()
    assert not teacher.exception, [e.value for e in teacher.exception]
    assert teacher.session_state[state.FOLLOW_TEACH] == token
    assert token not in str(dict(teacher.query_params))  # the secret never reaches the projected URL
    assert store_env.slide(room.id).step == steps.KEYS[0]
    student = open_app("pages/class.py", query={"room": room.code})
    student.text_input(key="class.nick").input("mei")
    student.button(key="class.join_room").click().run()
    (link,) = [p for p in student.get("page_link") if p.proto.label == "Follow the lecture's slides"]
    assert class_lecture.FOLLOW == follow.FOLLOW  # the class wing names the Learn page's parameter
    assert link.proto.query_string == f"{follow.FOLLOW}={room.code}"


def test_a_phone_follows_the_teachers_move_and_answers_the_poll_once(store_env):
    new = store_env.create_room("src", ["the cat sat on the mat"], {})
    room = new.room
    mei, ravi = store_env.enrol(room.id, "mei"), store_env.enrol(room.id, "ravi")
    teacher = _session({"present": "1", "step": "opening"}, **{state.FOLLOW_TEACH: new.teacher_token})
    assert store_env.slide(room.id).step == "opening"
    phone = _session(
        {follow.FOLLOW: room.code.lower()},
        **{state.CLASS_STUDENT: mei.student.id, state.CLASS_SECRET: mei.secret},
    )
    assert _headers(phone) == [steps.heading(steps.get("opening"))]
    assert [b.label for b in phone.button if b.key.startswith("learn.poll.")] == list(opening.CHOICES)

    phone.button(key="learn.poll.opening.1").click().run()
    assert [s.value for s in phone.success] == ["Your answer: Candidate 2. The projector shows the class's."]
    assert not [b for b in phone.button if b.key.startswith("learn.poll.")]  # answered: no second vote
    again = _session(  # the same student on a second tab: still one answer
        {follow.FOLLOW: room.code},
        **{state.CLASS_STUDENT: mei.student.id, state.CLASS_SECRET: mei.secret},
    )
    assert not [b for b in again.button if b.key.startswith("learn.poll.")]
    assert not store_env.answer_poll(mei.student, "opening", "Candidate 1", secret=mei.secret)
    store_env.answer_poll(ravi.student, "opening", "Candidate 1", secret=ravi.secret)
    teacher.run()
    assert _progress(teacher) == ["Candidate 1: 1", "Candidate 2: 1", "We cannot tell: 0"]

    keyed(teacher, "learn.step_next").click().run()
    moved = steps.heading(steps.get(steps.KEYS[1]))
    assert store_env.slide(room.id).step == steps.KEYS[1]
    assert _headers(phone) != [moved]
    phone.run()  # what its watcher does within a second of the move
    assert _headers(phone) == [moved]


def test_a_phone_leaves_the_lecture_to_explore_and_comes_back(store_env):
    new = store_env.create_room("src", ["the cat sat on the mat"], {})
    store_env.show_slide(new.teacher_token, "clipping")
    phone = _session({follow.FOLLOW: new.room.code})
    assert _headers(phone) == [steps.heading(steps.get("clipping"))]
    assert not phone.button(key="learn.follow_leave").disabled
    phone.button(key="learn.follow_leave").click().run()
    assert phone.query_params.get("step") == "clipping"
    assert follow.FOLLOW not in phone.query_params
    store_env.show_slide(new.teacher_token, "bigrams")
    phone.run()  # exploring: the teacher's move does not take the phone along
    assert steps.heading(steps.get("clipping")) in _headers(phone)
    phone.button(key="learn.follow_again").click().run()
    assert _headers(phone) == [steps.heading(steps.get("bigrams"))]


def test_a_phone_that_has_not_joined_is_asked_to_join_before_it_votes(store_env):
    new = store_env.create_room("src", ["the cat sat on the mat"], {})
    store_env.show_slide(new.teacher_token, "opening")
    phone = _session({follow.FOLLOW: new.room.code})
    assert not [b for b in phone.button if b.key.startswith("learn.poll.")]
    assert [p.proto.label for p in phone.get("page_link")] == [f"Join room {new.room.code}"]


def test_the_labs_round_is_a_prediction_poll_on_the_phones_and_a_new_round_is_a_new_poll(store_env):
    new = store_env.create_room("src", ["the cat sat on the mat"], {})
    mei = store_env.enrol(new.room.id, "mei")
    teacher = _session({"present": "1", "step": "lab"}, **{state.FOLLOW_TEACH: new.teacher_token})
    variant, corpus = teacher.session_state[state.LAB_VARIANT], teacher.session_state[state.LAB_CORPUS]
    poll = follow.lab_poll(variant, corpus, 0)
    assert store_env.slide(new.room.id).poll == poll.key
    assert follow.poll_of("lab", poll.key) == poll  # the phone reads the round back from the store
    phone = _session(
        {follow.FOLLOW: new.room.code}, **{state.CLASS_STUDENT: mei.student.id, state.CLASS_SECRET: mei.secret}
    )
    assert [b.label for b in phone.button if b.key.startswith("learn.poll.")] == list(poll.options)
    phone.button(key=f"learn.poll.{poll.key}.1").click().run()
    assert store_env.poll_counts(new.room.id, poll.key) == {poll.options[1]: 1}
    teacher.run()
    assert f"{poll.options[1]}: 1" in _progress(teacher)

    other = next(v for v in VARIANTS if v != variant)
    teacher.selectbox(key=state.LAB_VARIANT).set_value(other).run()
    moved = store_env.slide(new.room.id).poll
    assert moved != poll.key
    assert moved.startswith(follow.LAB_POLL + other)
    phone.run()
    assert [b.key for b in phone.button if b.key.startswith("learn.poll.")] == [
        f"learn.poll.{moved}.{k}" for k in range(3)
    ]
