"""The Class page's student: joining a room, translating in round 1 (with the sentence's BLEU, highlighted), rating
the others' translations in round 2."""

from __future__ import annotations

from typing import Final

import streamlit as st

from bleu_app.frames import classroom as frames, sentence as sentence_frames
from bleu_app.store import (
    MAX_NICK,
    MAX_TEXT,
    ROUND_TRANSLATE,
    Room,
    SqlStore,
    StoreError,
    Student,
)
from bleu_app.ui import cached, docs, state
from bleu_app.ui.classroom import room as links
from bleu_app.ui.components import highlight, scores, tables
from bleu_core.config import BleuConfig

RATE_K: Final = 3  # translations each student rates in round 2
RATING_LABELS: Final = frames.RATING_LABELS


def show(store: SqlStore, code: str) -> None:
    """A student's view of the room with this code: the join form, then the open round (a message for no room)."""
    room = store.room_by_code(code) if code else None
    if room is None:
        st.error("No open room has this code: it may have expired or been deleted.", icon=":material/error:")
        if st.button("Back", key="class.back"):
            links.leave()
            st.rerun()
        return
    sid = state.get(state.CLASS_STUDENT) or st.query_params.get(links.STUDENT)
    student = store.student(str(sid)) if sid else None
    if student is None or student.room_id != room.id:
        _join_form(store, room)
        return
    if student.nickname:
        st.caption("You are")
        st.text(student.nickname)
    st.markdown(f"**Room {room.code}** · {links.round_status(room)}")
    if st.button("Refresh", key="class.refresh", icon=":material/refresh:"):
        st.rerun()
    if room.round == ROUND_TRANSLATE:
        _translate(store, room, student)
    else:
        _rate(store, room, student)
        own = store.own_submission(student)
        if own is not None:
            with st.expander("Your translation and its BLEU"):
                _own_score(room, own.text)


def _join_form(store: SqlStore, room: Room) -> None:
    st.subheader(f"Join room {room.code}")
    nick = st.text_input(
        "Nickname (optional; others see it on the projected dashboard)", max_chars=MAX_NICK, key="class.nick"
    )
    if st.button("Join", key="class.join_room", type="primary"):
        try:
            student = store.join(room.id, nick)
        except StoreError as exc:
            st.error(str(exc), icon=":material/error:")
            return
        state.put(state.CLASS_CODE, room.code)
        state.put(state.CLASS_STUDENT, student.id)
        st.query_params[links.ROOM] = room.code
        st.query_params[links.STUDENT] = student.id
        st.rerun()


def _translate(store: SqlStore, room: Room, student: Student) -> None:
    st.markdown("**Translate this**")
    st.text(room.source)
    own = store.own_submission(student)
    if not room.round_open:
        st.info("Translating is closed for now: wait for your teacher.", icon=":material/lock:")
    else:
        text = st.text_area(
            "Your translation", own.text if own else "", max_chars=MAX_TEXT, key="class.translation", height=110
        )
        label = "Send again (replaces your translation)" if own else "Send"
        if st.button(label, key="class.submit", type="primary"):
            try:
                own = store.submit(student, text)
            except StoreError as exc:
                st.error(str(exc), icon=":material/error:")
                return
            st.success("Sent. Your score is below; you can change your translation until the round closes.")
    if own is not None:
        _own_score(room, own.text)


def _own_score(room: Room, text: str) -> None:
    """The student's BLEU with the Sentence page's highlights and unigram clipping table."""
    config: BleuConfig = frames.config_from_dict(room.config)
    expl = cached.explain(text, room.refs, config)
    scores.score_headline("Your sentence BLEU", expl.score)
    st.caption(scores.precision_summary(expl))
    highlight.show_html(highlight.legend_html() + highlight.candidate_html(expl, mode="longest"))
    st.markdown("**Clipping table, 1-grams**")
    tables.clip_table(sentence_frames.clip_frame(expl, 1))
    st.markdown("**References**")
    highlight.show_html(highlight.references_html(expl))


def _rate(store: SqlStore, room: Room, student: Student) -> None:
    st.subheader("Round 2: judge the others, as the paper's judges did")
    st.caption(docs.text("rate", "class"))
    if not room.round_open:
        st.info("Rating is closed.", icon=":material/lock:")
        return
    if not state.has(state.CLASS_TO_RATE):
        state.put(state.CLASS_TO_RATE, [s.id for s in store.to_rate(student, RATE_K)])
    by_id = {s.id: s for s in store.submissions(room.id, include_hidden=False)}
    todo = [by_id[i] for i in state.get(state.CLASS_TO_RATE) if i in by_id]
    if not todo:
        st.info("No translation of the others to rate yet.", icon=":material/hourglass:")
        if st.button("Look again", key="class.rate_again"):
            state.drop(state.CLASS_TO_RATE)
            st.rerun()
        return
    st.markdown("**Translate this** (what they translated)")
    st.text(room.source)
    with st.form("class.rate_form"):
        chosen: dict[str, int | None] = {}
        for k, sub in enumerate(todo):
            st.markdown(f"**Translation {k + 1}**")
            st.text(sub.text)
            chosen[sub.id] = st.radio(
                f"Your rating of translation {k + 1}",
                list(RATING_LABELS),
                index=None,
                format_func=RATING_LABELS.get,
                horizontal=True,
                key=f"class.rating.{sub.id}",
            )
        sent = st.form_submit_button("Send ratings", type="primary", key="class.rate_send")
    if sent:
        n = 0
        for sub_id, rating in chosen.items():
            if rating is None:
                continue
            try:
                store.rate(student, sub_id, int(rating))
            except StoreError as exc:
                st.error(str(exc), icon=":material/error:")
                return
            n += 1
        st.success(f"Thank you: {n} rating{'s' if n != 1 else ''} sent (you can change them until rating closes).")
