"""The Class page's student: joining a room, translating in round 1 (with the sentence's BLEU, highlighted), rating
the others' translations in round 2.

A student is a browser, not a link: joining (``store.enrol``) gives this session a secret, kept in a cookie too
(``room.keep_in_browser``), and every translation and rating is sent with it. A browser that opens another
student's link (``?room=CODE&s=ID``) without their secret is asked "You are X? Not you: join as yourself" and can
send nothing for them; the student on their own browser, after a reload or a reconnect, goes on as before."""

from __future__ import annotations

from typing import Final

import streamlit as st

from bleu_app import markup
from bleu_app.frames import answers, classroom as frames, sentence as sentence_frames
from bleu_app.store import (
    MAX_NICK,
    MAX_TEXT,
    ROUND_TRANSLATE,
    Room,
    SqlStore,
    Student,
    Submission,
)
from bleu_app.store.model import StoreError, clean_text
from bleu_app.ui import cached, docs, state
from bleu_app.ui.classroom import lecture, room as links
from bleu_app.ui.components import highlight, scores, stored, tables
from bleu_app.ui.components.stored import Refused
from bleu_core.config import BleuConfig

RATE_K: Final = 3  # translations each student rates in round 2
RATING_LABELS: Final = frames.RATING_LABELS
RETURNING_MOST: Final = 8  # a browser's student cookies looked at when it opens a join link


def show(store: SqlStore, code: str) -> None:
    """A student's view of the room with this code: the join form, then the open round (a message for no room)."""
    # a wrong code counts against this session's guess budget (the store's code_guesses); when the page cannot be
    # drawn, a translation being typed keeps its value (its box keeps it while hidden)
    room = stored.attempt(
        lambda: store.room_by_code(code, client=state.client_key()) if code else None,
        action="load",
        kept=bool(state.get(state.CLASS_TRANSLATION)),
    )
    if isinstance(room, Refused):
        stored.retry_button("class.retry")
        return
    if room is None:
        st.error("No open room has this code: it may have expired or been deleted.", icon=":material/error:")
        if st.button("Back", key="class.back"):
            links.leave()
            st.rerun()
        return
    who = _who(store, room)
    if who is None:
        return
    student, secret = who
    if student.nickname:
        st.caption("You are")
        st.text(student.nickname)
    st.markdown(f"**Room {room.code}** · {links.round_status(room)}")
    lecture.follow_link(room)
    if st.button("Refresh", key="class.refresh", icon=":material/refresh:"):
        st.rerun()
    if room.round == ROUND_TRANSLATE:
        _translate(store, room, student, secret)
    else:
        _rate(store, room, student, secret)
        own = stored.attempt(lambda: store.own_submission(student), action="load")
        if isinstance(own, Submission):
            with st.expander("Your translation and its BLEU"):
                _own_score(room, own.text)
    if secret:
        links.keep_in_browser(student.id, secret, room.expires_at)


def _who(store: SqlStore, room: Room) -> tuple[Student, str] | None:
    """The student this browser is in the room, with their secret; None when the page shows something else (the
    join form, "Not you", a store error)."""
    sid = str(state.get(state.CLASS_STUDENT) or st.query_params.get(links.STUDENT) or "")
    if not sid:
        _join_form(store, room)
        return None
    secret = state.get(state.CLASS_SECRET) if state.get(state.CLASS_STUDENT) == sid else None
    secret = secret or links.browser_secret(sid)
    ident = stored.attempt(
        lambda: store.identify(sid, secret), action="load", kept=bool(state.get(state.CLASS_TRANSLATION))
    )
    if isinstance(ident, Refused):
        stored.retry_button("class.retry")
        return None
    if ident.student is None or ident.student.room_id != room.id:
        _join_form(store, room)
        return None
    if not ident.yours:
        _not_you(ident.student)
        return None
    # sent with every translation and rating: the store checks it again ("" for a student from before secrets)
    secret = secret or ""
    state.join_class(room.code, sid, secret)
    return ident.student, secret


def _not_you(student: Student) -> None:
    """Someone else's link in a browser that does not hold their secret: say whose it is, send nothing for them."""
    who = f"“{markup.md_escape(student.nickname)}”" if student.nickname else "the student of this link"
    st.warning(
        f"**You are {who}?** This link is theirs, and this browser is not the one they joined with, so it cannot "
        "send or rate for them. If it is you on another device, go on in the browser you joined with.",
        icon=":material/person_off:",
    )
    if st.button("Not you: join as yourself", key="class.not_me", type="primary"):
        state.drop(state.CLASS_STUDENT, state.CLASS_SECRET, state.CLASS_TO_RATE, state.CLASS_TRANSLATION)
        st.query_params.pop(links.STUDENT, None)
        st.rerun()


def _returning(store: SqlStore, room: Room) -> None:
    """A browser that joined this room before (its cookie) may go on as that student instead of joining again."""
    for sid, secret in links.browser_students()[:RETURNING_MOST]:
        student = _theirs(store, room, sid, secret)
        if student is None:
            continue
        name = f" as “{student.nickname}”" if student.nickname else ""
        st.info(f"This browser joined room {room.code} before{markup.md_escape(name)}.", icon=":material/history:")
        if st.button("Go on" + name, key=f"class.again.{sid}", type="primary"):
            state.join_class(room.code, sid, secret)
            st.query_params[links.ROOM] = room.code
            st.query_params[links.STUDENT] = sid
            st.rerun()
        return


def _theirs(store: SqlStore, room: Room, sid: str, secret: str) -> Student | None:
    """The student ``sid`` when ``secret`` is theirs and they are in ``room`` (a failed store: None, quietly)."""
    ident = stored.attempt(lambda: store.identify(sid, secret), action="load", show=False)
    if isinstance(ident, Refused) or ident.student is None or not ident.yours or ident.student.room_id != room.id:
        return None
    return ident.student


def _join_form(store: SqlStore, room: Room) -> None:
    st.subheader(f"Join room {room.code}")
    _returning(store, room)
    nick = st.text_input(
        "Nickname (optional; others see it on the projected dashboard)",
        max_chars=MAX_NICK,
        key=state.CLASS_NICK,
    )
    if st.button("Join", key="class.join_room", type="primary"):
        new = stored.attempt(lambda: store.enrol(room.id, nick), kept=bool(nick))
        if isinstance(new, Refused):
            return
        state.join_class(room.code, new.student.id, new.secret)
        st.query_params[links.ROOM] = room.code
        st.query_params[links.STUDENT] = new.student.id
        st.rerun()


def _translate(store: SqlStore, room: Room, student: Student, secret: str) -> None:
    st.markdown("**Translate this**")
    st.text(room.source)
    own = stored.attempt(lambda: store.own_submission(student), action="load")
    own = own if isinstance(own, Submission) else None
    if not room.round_open:
        st.info("Translating is closed for now: wait for your teacher.", icon=":material/lock:")
        _unsent(own)
    else:
        # the box keeps its text while it is hidden (a closed round, a failed page): a reopened round shows it again
        state.put_absent(state.CLASS_TRANSLATION, own.text if own else "")
        text = st.text_area(
            "Your translation", max_chars=MAX_TEXT, key=state.CLASS_TRANSLATION, height=110, persist_state="session"
        )
        label = "Send again (replaces your translation)" if own else "Send"
        if st.button(label, key="class.submit", type="primary"):
            sent = stored.attempt(lambda: store.submit(student, text, secret=secret), kept=True)
            if isinstance(sent, Refused):
                return
            own = sent
            st.success("Sent. Your score is below; you can change your translation until the round closes.")
    if own is not None:
        _own_score(room, own.text)


def _unsent(own: Submission | None) -> None:
    """Text typed (or sent with Send) after the teacher closed the round: shown, marked not sent, and kept for a
    reopened round."""
    typed = str(state.get(state.CLASS_TRANSLATION) or "")
    try:
        cleaned = clean_text(typed, what="translation")
    except StoreError:  # longer than a translation may be: it was never sendable
        cleaned = typed
    if not cleaned or (own is not None and cleaned == own.text):
        return
    st.warning(
        "**Not sent:** translating closed before this was sent. It is kept here: if your teacher reopens "
        "translating, it is back in the box, ready to send.",
        icon=":material/unpublished:",
    )
    st.text(typed)


def _own_score(room: Room, text: str) -> None:
    """The student's BLEU with the Sentence page's highlights and unigram clipping table."""
    config: BleuConfig = frames.config_from_dict(room.config)
    expl = cached.explain(text, room.refs, config)
    scores.score_headline("Your sentence BLEU", expl.score)
    st.caption(scores.precision_summary(expl) + " · " + answers.scoring_line(config))
    scores.answers(expl)
    highlight.show_html(highlight.legend_html(longest=True) + highlight.candidate_html(expl, mode="longest"))
    st.markdown("**Clipping table, 1-grams**")
    # narrow: a student reads it on a phone
    tables.clip_table(sentence_frames.narrow_clip_frame(expl, 1))
    st.caption(sentence_frames.NARROW_CLIP_NOTE)
    st.markdown("**References**")
    highlight.show_html(highlight.references_html(expl))


def _to_rate(store: SqlStore, room: Room, student: Student) -> list[Submission] | None:
    """The translations this student rates (chosen once per session), or None when the store failed."""
    if not state.has(state.CLASS_TO_RATE):
        picked = stored.attempt(lambda: [s.id for s in store.to_rate(student, RATE_K)], action="load")
        if isinstance(picked, Refused):
            return None
        state.put(state.CLASS_TO_RATE, picked)
    subs = stored.attempt(lambda: store.submissions(room.id, include_hidden=False), action="load")
    if isinstance(subs, Refused):
        return None
    by_id = {s.id: s for s in subs}
    return [by_id[i] for i in state.get(state.CLASS_TO_RATE) if i in by_id]


def _rate(store: SqlStore, room: Room, student: Student, secret: str) -> None:
    st.subheader("Round 2: judge the others, as the paper's judges did")
    st.caption(docs.text("rate", "class"))
    if not room.round_open:
        st.info("Rating is closed.", icon=":material/lock:")
        return
    todo = _to_rate(store, room, student)
    if todo is None:
        return
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
        picks = {sub_id: int(rating) for sub_id, rating in chosen.items() if rating is not None}
        n = stored.attempt(lambda: store.rate_many(student, picks, secret=secret), kept=True)
        if isinstance(n, Refused):
            return
        st.success(f"Thank you: {n} rating{'s' if n != 1 else ''} sent (you can change them until rating closes).")
