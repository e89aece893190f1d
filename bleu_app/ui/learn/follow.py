"""Phones in step with the lecture (issue 34): a presenter tied to a class room moves its students' phones, and the
opening's vote is a poll on them whose answers the projected slide draws.

The teacher's class view starts the presenter (``state.present_to_room``: the room's token stays in the session,
never in a URL); each step the slides window shows is written to the store (``SqlStore.show_slide``), so phones
served by any app process see it. A phone opens ``/learn?follow=CODE`` (the student's class page links it): it shows
the teacher's slide read-only and looks at the store once a second (one short read; the slide itself is drawn again
only when the teacher moved, from the cache layer's examples, made once for every phone). "Explore on my own" leaves
the lecture at that step; "Follow the teacher again" comes back. A poll takes each student's first answer (their
browser's identity from the class: ``components.identity``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

import streamlit as st

from bleu_app.lessons import lab as lesson
from bleu_app.store import Slide, SqlStore, Student, get_store
from bleu_app.store.model import CODE_ALPHABET, CODE_LEN
from bleu_app.ui import state
from bleu_app.ui.components import identity, stored
from bleu_app.ui.components.stored import Refused
from bleu_app.ui.learn import links, opening, steps
from bleu_app.ui.learn.lecture import Lecture
from bleu_core.teaching.variants import VARIANTS

__all__ = [
    "FOLLOW",
    "FOLLOW_S",
    "LAB_POLL",
    "POLLS",
    "Poll",
    "come_back",
    "following",
    "lab_poll",
    "phone",
    "poll_of",
    "publish",
]

FOLLOW: Final = "follow"  # ``/learn?follow=CODE``: this phone follows the lecture of room CODE
FOLLOW_S: Final = 1.0  # how often a phone looks whether the teacher moved, and the projector counts the answers


@dataclass(frozen=True, slots=True)
class Poll:
    """A question the phones that follow a step answer once each."""

    key: str
    question: str
    options: tuple[str, ...]


POLLS: Final = {"opening": Poll("opening", "Which translation is better?", opening.CHOICES)}
LAB_POLL: Final = "lab|"  # + the lab's round (``lessons.lab.game_key``): the class predicts that round


def lab_poll(variant: str, corpus: str, nltk: int) -> Poll | None:
    """The prediction poll of one lab round (None for a variant or a corpus the lab does not have)."""
    if variant not in VARIANTS or corpus not in lesson.CORPORA:
        return None
    return Poll(
        LAB_POLL + lesson.game_key(variant, corpus, nltk),
        f"{VARIANTS[variant].label}, on {lesson.CORPORA[corpus].label}: will this mistake raise, lower or not change "
        "BLEU?",
        tuple(lesson.CHOICES.values()),
    )


def poll_of(step: str, key: str | None) -> Poll | None:
    """The poll a slide carries: the opening's vote, or the lab round the store names (``key``)."""
    if step in POLLS:
        return POLLS[step]
    if step != "lab" or not key or not key.startswith(LAB_POLL):
        return None
    head, _, corpus = key.removeprefix(LAB_POLL).partition("|")
    variant, _, nltk = head.partition(":")
    return lab_poll(variant, corpus, int(nltk) if nltk.isdigit() else 0)


def _teachers_poll(step: str) -> Poll | None:
    """The poll of the presenter's slide: the opening's, or the lab round its pickers show."""
    if step != "lab":
        return POLLS.get(step)
    return lab_poll(
        str(state.get(state.LAB_VARIANT)), str(state.get(state.LAB_CORPUS)), int(state.get(state.LAB_NLTK_KEPT, 0))
    )


def _store() -> SqlStore | None:
    got = stored.attempt(get_store, action="load")
    return None if isinstance(got, Refused) else got


# --- the teacher's side -------------------------------------------------------------------------------------------
def publish(step: str) -> None:
    """The presenter shows ``step`` (drawn: the lab's pickers have their round): when the session presents to a
    room, its phones show it too (written once per move), and a poll's answers are drawn as they arrive."""
    token = state.get(state.FOLLOW_TEACH)
    if not token:
        return
    poll = _teachers_poll(step)
    sent = (step, poll.key if poll else None)
    if state.get(state.FOLLOW_SENT) != sent:
        store = _store()
        if store is None:
            return
        room_id = stored.attempt(lambda: store.show_slide(str(token), step, poll=sent[1]))
        if not isinstance(room_id, str):
            return
        state.put(state.FOLLOW_ROOM, room_id)
        state.put(state.FOLLOW_SENT, sent)
    if poll is not None and state.get(state.FOLLOW_ROOM):
        _counts(str(state.get(state.FOLLOW_ROOM)), poll)


@st.fragment(run_every=FOLLOW_S)
def _counts(room_id: str, poll: Poll) -> None:
    store = _store()
    if store is None:
        return
    counts = stored.attempt(lambda: store.poll_counts(room_id, poll.key, poll.options), action="load", show=False)
    if isinstance(counts, Refused):
        return
    total = sum(counts.values())
    with st.container(key="learn-poll_counts"):
        st.markdown(f"**The class's phones: {total} answer{'' if total == 1 else 's'}**")
        for option, n in counts.items():
            st.progress(n / total if total else 0.0, text=f"{option}: {n}")


# --- a phone ------------------------------------------------------------------------------------------------------
def following() -> bool:
    """Whether this session is a phone that follows a lecture now (``?follow=CODE`` turns it on)."""
    raw = st.query_params.get(FOLLOW)
    if raw:
        code = "".join(c for c in raw.upper() if c in CODE_ALPHABET)[:CODE_LEN]
        state.put(state.FOLLOW_CODE, code)
        state.put(state.FOLLOWING, True)
    return bool(state.get(state.FOLLOWING) and state.get(state.FOLLOW_CODE))


def _shown(slide: Slide | Refused | None) -> tuple[str, str | None] | None:
    """What a phone shows of the room's slide: its step and its poll (None before the teacher starts)."""
    if slide is None or isinstance(slide, Refused) or slide.step not in steps.KEYS:
        return None
    return slide.step, slide.poll


def _explore() -> None:
    state.put(state.FOLLOWING, False)
    st.query_params.pop(FOLLOW, None)
    shown = state.get(state.FOLLOW_SHOWN)
    if shown:
        st.query_params[links.STEP] = shown[0]
        state.put(state.STEP_LINKED, shown[0])


def _again() -> None:
    code = str(state.get(state.FOLLOW_CODE))
    state.drop(state.STEP_LINKED)
    st.query_params.clear()
    st.query_params[FOLLOW] = code
    state.put(state.FOLLOWING, True)


def come_back() -> None:
    """On the Learn page of a phone that left a lecture to explore: the way back to the teacher's slide."""
    code = state.get(state.FOLLOW_CODE)
    if code and not state.get(state.FOLLOWING):
        st.button(
            f"Follow the teacher again (room {code})",
            key="learn.follow_again",
            on_click=_again,
            type="primary",
            icon=":material/cast_for_education:",
        )


def phone(w: Lecture) -> None:
    """The teacher's current slide, read-only, and a watcher that redraws it within a second of the teacher's move."""
    store = _store()
    code = str(state.get(state.FOLLOW_CODE))
    room = stored.attempt(lambda: store.room_by_code(code, client=state.client_key()), action="load") if store else None
    if store is None or isinstance(room, Refused):
        stored.retry_button("learn.follow_retry")
        return
    if room is None:
        st.error("No open room has this code: it may have expired or been deleted.", icon=":material/error:")
        st.button("Explore on my own", key="learn.follow_leave", on_click=_explore)
        return
    shown = _shown(stored.attempt(lambda: store.slide(room.id), action="load"))
    state.put(state.FOLLOW_SHOWN, shown)
    top = st.columns([3, 2], vertical_alignment="center")
    top[0].caption(f"Following the lecture of room {room.code}")
    top[1].button("Explore on my own", key="learn.follow_leave", on_click=_explore, icon=":material/explore:")
    if shown is None:
        st.info("Your teacher has not started the slides yet: they show here when they do.", icon=":material/cast:")
    else:
        _slide(store, room.id, room.code, steps.get(shown[0]), poll_of(*shown), w)
    _watch(room.id)  # last: its reruns every second leave the slide above it alone


def _slide(store: SqlStore, room_id: str, code: str, step: steps.Step, poll: Poll | None, w: Lecture) -> None:
    """The step as the projector shows it (its heading, its lines, its figure), with its poll when it has one (the
    opening's sentences, a lab round's mistake); the other tabs' screens are the phone's own to explore."""
    st.header(steps.heading(step), anchor=False)
    if step.key in POLLS:
        opening.sentences()
    elif poll is not None:
        variant = VARIANTS[poll.key.removeprefix(LAB_POLL).split("|")[0].split(":")[0]]
        st.markdown(f"**{variant.label}.** {variant.mistake}")
    elif step.part in steps.LECTURE:
        if step.doc:
            w.slide(step.doc)
        (step.slide or step.show)(w)
    else:
        st.markdown("The projector shows this screen: open it here to try it yourself.")
    if poll is not None:
        _poll(store, room_id, code, poll)


def _student(store: SqlStore, room_id: str) -> tuple[Student, str] | None:
    """The student this browser is in the room (the session's, else a cookie's) with their secret, or None."""
    known = [(str(state.get(state.CLASS_STUDENT) or ""), str(state.get(state.CLASS_SECRET) or ""))]
    for sid, secret in [*known, *identity.browser_students()[:8]]:
        student = _theirs(store, room_id, sid, secret) if sid else None
        if student is not None:
            return student, secret
    return None


def _theirs(store: SqlStore, room_id: str, sid: str, secret: str) -> Student | None:
    ident = stored.attempt(lambda: store.identify(sid, secret), action="load", show=False)
    if isinstance(ident, Refused) or ident.student is None or not ident.yours or ident.student.room_id != room_id:
        return None
    return ident.student


def _poll(store: SqlStore, room_id: str, code: str, poll: Poll) -> None:
    """The poll's buttons, one tap each; once answered, the answer (the projector draws the class's)."""
    who = _student(store, room_id)
    if who is None:
        st.info("Join the room to answer the teacher's question.", icon=":material/how_to_vote:")
        st.page_link("pages/class.py", label=f"Join room {code}", query_params={"room": code})
        return
    student, secret = who
    mine = stored.attempt(lambda: store.poll_answer(student, poll.key), action="load")
    if isinstance(mine, str):
        st.success(f"Your answer: {mine}. The projector shows the class's.", icon=":material/how_to_vote:")
        return
    st.markdown(f"**{poll.question}** (one answer each)")
    for k, option in enumerate(poll.options):
        if st.button(option, key=f"learn.poll.{poll.key}.{k}", width="stretch"):
            _answer(store, student, secret, poll, option)


def _answer(store: SqlStore, student: Student, secret: str, poll: Poll, option: str) -> None:
    sent = stored.attempt(lambda: store.answer_poll(student, poll.key, option, secret=secret))
    if not isinstance(sent, Refused):
        st.rerun()


@st.fragment(run_every=FOLLOW_S)
def _watch(room_id: str) -> None:
    """Every second, one read of the room's slide: when the teacher moved, the page runs again on the new step."""
    store = _store()
    if store is None:
        return
    shown = _shown(stored.attempt(lambda: store.slide(room_id), action="load", show=False))
    if shown is not None and shown != state.get(state.FOLLOW_SHOWN):
        st.rerun()
