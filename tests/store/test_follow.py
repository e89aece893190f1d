"""Issue 34, phones in step: the slide a room's teacher shows, written with the teacher's token only, and polls that
count each student's first answer once. On SQLite and PostgreSQL (``store_env``)."""

from __future__ import annotations

import pytest

from bleu_app.store import NotYoursError, RoomGoneError, StoreError


def _room(store):
    return store.create_room("src", ["the cat sat on the mat"], {"tokenize": "13a"})


def test_the_teachers_token_moves_the_rooms_slide_and_nothing_else_does(store_env):
    new, other = _room(store_env), _room(store_env)
    assert store_env.slide(new.room.id) is None  # no lecture presented to the room yet
    assert store_env.show_slide(new.teacher_token, "opening") == new.room.id
    first = store_env.slide(new.room.id)
    assert first.step == "opening"
    assert first.poll is None
    store_env.show_slide(new.teacher_token, "lab", poll="lab|nltk:2|toy")
    assert store_env.slide(new.room.id).poll == "lab|nltk:2|toy"
    store_env.show_slide(new.teacher_token, "clipping")
    moved = store_env.slide(new.room.id)
    assert moved.step == "clipping"
    assert moved.poll is None
    assert moved.moved_at >= first.moved_at
    assert store_env.slide(other.room.id) is None  # one room's lecture is not another's
    with pytest.raises(RoomGoneError):
        store_env.show_slide("not-a-teacher-token", "bigrams")
    with pytest.raises(StoreError, match="A step is 1 to 64 characters"):
        store_env.show_slide(new.teacher_token, "x" * 65)
    assert store_env.slide(new.room.id).step == "clipping"
    store_env.delete_room(new.room.id)
    assert store_env.slide(new.room.id) is None
    with pytest.raises(RoomGoneError):
        store_env.show_slide(new.teacher_token, "opening")


def test_a_polls_first_answer_per_student_counts_once(store_env):
    room = _room(store_env).room
    options = ("Candidate 1", "Candidate 2", "We cannot tell")
    assert store_env.poll_counts(room.id, "opening", options) == dict.fromkeys(options, 0)
    alice, bob, cara = (store_env.enrol(room.id, nick) for nick in ("alice", "bob", "cara"))
    assert store_env.answer_poll(alice.student, "opening", "Candidate 1", secret=alice.secret)
    assert not store_env.answer_poll(alice.student, "opening", "Candidate 2", secret=alice.secret)  # once
    assert store_env.answer_poll(bob.student, "opening", "Candidate 1", secret=bob.secret)
    assert store_env.answer_poll(cara.student, "opening", "Candidate 2", secret=cara.secret)
    with pytest.raises(NotYoursError):
        store_env.answer_poll(cara.student, "lab-x", "up", secret=alice.secret)
    assert store_env.poll_counts(room.id, "opening", options) == {
        "Candidate 1": 2,
        "Candidate 2": 1,
        "We cannot tell": 0,
    }
    assert store_env.poll_answer(alice.student, "opening") == "Candidate 1"
    assert store_env.poll_answer(alice.student, "lab-x") is None
    assert store_env.poll_counts(room.id, "lab-x") == {}  # another poll is counted apart
    other = _room(store_env).room
    assert store_env.poll_counts(other.id, "opening") == {}
    store_env.delete_room(room.id)
    assert store_env.poll_counts(room.id, "opening") == {}
