"""Class mode (``/class``): a teacher's room, students who translate and then judge, and the projected dashboard.

Who is who comes from the URL (kept in session state too): ``?teach=TOKEN`` is the teacher (the token is a secret
that only the teacher's link carries; the store keeps its hash), ``?room=CODE`` a student's join link, and
``&s=ID`` the student once joined (a reload keeps them). Everything lives in the store (``bleu_app.store``), so
several sessions, processes or machines see one room. Every text a person typed (source, references, nicknames,
translations) is shown with ``st.text``, in dataframes or escaped HTML: never as Markdown.
"""

from __future__ import annotations

import io
import logging
import math
from typing import Final
from urllib.parse import urlsplit

import pandas as pd
import segno
import streamlit as st

from bleu_app.charts import classroom as charts
from bleu_app.frames import classroom as frames, sentence as sentence_frames
from bleu_app.store import (
    MAX_NICK,
    MAX_TEXT,
    ROOM_TTL_S,
    ROUND_RATE,
    ROUND_TRANSLATE,
    Room,
    SqlStore,
    StoreError,
    Student,
    get_store,
    location,
)
from bleu_app.store.base import CODE_ALPHABET, CODE_LEN
from bleu_core.config import BleuConfig
from bleu_core.data.corpus import Corpus
from bleu_core.teaching.paper import EXAMPLE_1

from . import cached, docs, export, render, state

TEACH: Final = "teach"  # query parameters
ROOM: Final = "room"
STUDENT: Final = "s"
SS_TEACH: Final = "class.teach"  # session state
SS_CODE: Final = "class.code"
SS_STUDENT: Final = "class.student"
SS_TO_RATE: Final = "class.to_rate"
SS_NOTICE: Final = "class.notice"
RATE_K: Final = 3  # translations each student rates in round 2
DASHBOARD_EVERY_S: Final = 3.0
RATING_LABELS: Final = frames.RATING_LABELS
# The paper gives Example 1's references and candidates but not its Chinese source (section 2: "a Chinese source
# sentence"), so the default task is to rewrite the paper's poor Candidate 2 as good English (this app's choice).
DEFAULT_SOURCE: Final = "Rewrite this machine translation as good English: " + EXAMPLE_1.candidates[1]
DEFAULT_REFS: Final = "\n".join(EXAMPLE_1.references)

_LOG = logging.getLogger(__name__)


# --- entry ------------------------------------------------------------------------------------------------
def page() -> None:
    st.title("Class: translate, judge, and hold BLEU against the judges")
    try:
        store = get_store()
    except Exception as exc:  # a bad URL or an unreachable database: one message, no traceback
        st.error("The class store cannot be opened; the server's log says why.", icon=":material/error:")
        _LOG.warning("class store %s cannot be opened: %s", location(), exc)
        st.stop()
    ss = st.session_state
    qp = st.query_params
    teach = ss.get(SS_TEACH) or qp.get(TEACH)
    code = ss.get(SS_CODE) or qp.get(ROOM)
    notice = ss.pop(SS_NOTICE, None)
    if notice:
        st.success(notice, icon=":material/check:")
    if teach:
        _teacher(store, str(teach))
    elif code:
        _student(store, _clean_code(str(code)))
    else:
        _start(store)


def _clean_code(code: str) -> str:
    """A room code as typed: letters of the code alphabet only, upper case, at most CODE_LEN."""
    return "".join(c for c in code.upper() if c in CODE_ALPHABET)[:CODE_LEN]


def _base_url() -> str:
    """scheme://host of the page as the browser sees it (the join link and QR code point there)."""
    url = st.context.url or ""
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}" if parts.scheme and parts.netloc else "http://localhost:8501"


def _leave() -> None:
    for key in (SS_TEACH, SS_CODE, SS_STUDENT, SS_TO_RATE):
        st.session_state.pop(key, None)
    for key in (TEACH, ROOM, STUDENT):
        st.query_params.pop(key, None)


# --- start: join a room or make one ------------------------------------------------------------------------
def _start(store: SqlStore) -> None:
    docs.show("intro", "class")
    join_col, make_col = st.columns(2, gap="large")
    with join_col, st.container(border=True):
        st.subheader("Join a class")
        typed = st.text_input("Room code", max_chars=CODE_LEN, key="class.join_code", placeholder="ABC234")
        if st.button("Join", key="class.join", type="primary"):
            code = _clean_code(typed)
            if store.room_by_code(code) is None:
                st.error("No open room has this code: check it with your teacher (rooms expire).")
            else:
                st.session_state[SS_CODE] = code
                st.query_params[ROOM] = code
                st.rerun()
    with make_col, st.container(border=True):
        st.subheader("Start a class (teacher)")
        st.caption(docs.text("default_task", "class"))
        _corpus_line_picker()
        st.session_state.setdefault("class.source", DEFAULT_SOURCE)
        st.session_state.setdefault("class.refs", DEFAULT_REFS)
        source = st.text_area("What the students translate", max_chars=MAX_TEXT, key="class.source")
        refs = st.text_area("References, one per line", key="class.refs", height=140)
        hours = st.number_input("The room expires after (hours)", 1, 24 * 30, ROOM_TTL_S // 3600, key="class.ttl")
        config = state.config()
        st.caption(
            "Scored with the sidebar's settings, kept with the room (the class page opens on sacreBLEU sentence)."
        )
        if st.button("Create the room", key="class.create", type="primary"):
            try:
                store.purge_expired()  # retention: expired rooms go, with everything in them
                new = store.create_room(
                    source, refs.splitlines(), frames.config_to_dict(config), ttl_s=float(hours) * 3600
                )
            except StoreError as exc:
                st.error(str(exc), icon=":material/error:")
                return
            st.session_state[SS_TEACH] = new.teacher_token
            st.query_params[TEACH] = new.teacher_token
            st.rerun()
    # where the store lives is the server's business, not every visitor's (a projected screen, a student's phone):
    # the README says where (data/ or BLEU_EXPLORER_DATA_DIR, or the PostgreSQL URL)
    st.caption("Rooms and their contents are kept on this server and deleted when they expire or on request.")


def _corpus_line_picker() -> None:
    """A line of the corpus loaded on the Corpus or Compare pages (this session's) as the room's task."""
    corpus = state.get(state.CORPUS)
    if not isinstance(corpus, Corpus):
        return
    with st.expander("Or take a line of the loaded corpus"):
        st.caption(f"{corpus.n_segments:,} lines; the source line (if the corpus has one) and its references.")
        line = st.number_input("Line", 1, corpus.n_segments, 1, key="class.corpus_line")
        st.button("Use this line", key="class.use_line", on_click=_use_line, args=(corpus, int(line) - 1))


def _use_line(corpus: Corpus, i: int) -> None:
    ss = st.session_state
    source = corpus.source.lines[i] if corpus.source is not None else ""
    ss["class.source"] = source or "Translate (this corpus has no source line: put the source here)"
    ss["class.refs"] = "\n".join(r.lines[i] for r in corpus.references if r.lines[i].strip())


# --- teacher -----------------------------------------------------------------------------------------------
@st.cache_data(max_entries=32, show_spinner=False)
def _qr_png(url: str) -> bytes:
    """The join link as a QR code (PNG, drawn here by segno: nothing is fetched)."""
    buf = io.BytesIO()
    segno.make(url, error="m").save(buf, kind="png", scale=8, border=2)
    return buf.getvalue()


def _teacher(store: SqlStore, token: str) -> None:
    room = store.room_by_teacher(token)
    if room is None:
        st.error("This teacher link names no open room: it was deleted or has expired.", icon=":material/error:")
        if st.button("Start again", key="class.restart"):
            _leave()
            st.rerun()
        return
    base = _base_url()
    join_url = f"{base}/class?{ROOM}={room.code}"
    code_col, qr_col = st.columns([3, 2])
    with code_col:
        st.metric("Room code", room.code)
        st.markdown("**Join link** (for the students)")
        st.code(join_url, language=None)
        with st.expander("Your teacher link: keep it secret (it is the only way back to this view)"):
            st.code(f"{base}/class?{TEACH}={token}", language=None)
        st.markdown("**What the students translate**")
        st.text(room.source)
        st.markdown(f"**References** ({len(room.refs)})")
        for i, ref in enumerate(room.refs):
            st.text(f"{i + 1}. {ref}")
    qr_col.image(_qr_png(join_url), caption="Scan to join", width=260)

    _round_controls(store, room)
    _dashboard(store, room.id)
    _references_section(room)
    _danger_zone(store, room)


def _round_status(room: Room) -> str:
    what = "Round 1: translate" if room.round == ROUND_TRANSLATE else "Round 2: rate the others' translations"
    return f"{what} ({'open' if room.round_open else 'closed'})"


def _round_controls(store: SqlStore, room: Room) -> None:
    st.subheader("Rounds")
    st.markdown(f"**Now:** {_round_status(room)}")
    actions: list[tuple[str, int, bool]] = []
    if room.round == ROUND_TRANSLATE:
        actions.append(
            ("Close translating", ROUND_TRANSLATE, False)
            if room.round_open
            else ("Reopen translating", ROUND_TRANSLATE, True)
        )
        actions.append(("Start round 2: rating", ROUND_RATE, True))
    else:
        actions.append(("Close rating", ROUND_RATE, False) if room.round_open else ("Reopen rating", ROUND_RATE, True))
        actions.append(("Back to round 1", ROUND_TRANSLATE, True))
    cols = st.columns(len(actions))
    for col, (label, round_no, open_) in zip(cols, actions, strict=True):
        if col.button(label, key=f"class.round.{round_no}.{open_}"):
            store.set_round(room.id, round_no, open_=open_)
            st.rerun()


def _dashboard(store: SqlStore, room_id: str) -> None:
    @st.fragment(run_every=DASHBOARD_EVERY_S)
    def live() -> None:
        room = store.room(room_id)
        if room is None:
            st.warning("This room no longer exists.")
            return
        config = frames.config_from_dict(room.config)
        subs = store.submissions(room.id)
        ratings = store.ratings(room.id)
        df = frames.ranked_frame(
            subs, ratings, room.refs, config, scorer=lambda t: cached.explain(t, room.refs, config).score.score
        )
        st.subheader("The class, live")
        a, b, c = st.columns(3)
        a.metric("Joined", store.students_count(room.id))
        b.metric("Translations", len(subs))
        c.metric("Ratings", len(ratings))
        if df.empty:
            st.info("No translation yet: the students' scores appear here as they submit.", icon=":material/hourglass:")
            return
        sig = cached.explain(subs[0].text, room.refs, config).score.signature
        st.altair_chart(charts.histogram(frames.histogram_frame(df)), width="stretch")
        st.markdown("**The translations, best BLEU first** (hidden ones stay in the export, not in the rating round)")
        st.dataframe(
            df.drop(columns=[frames.SUB_ID]),
            hide_index=True,
            width="stretch",
            column_config={frames.BLEU: st.column_config.NumberColumn(format="%.2f")},
            key="class.ranked",
        )
        render.signature(sig, what="BLEU")
        _hide_control(store, room, df)
        _agreement_section(df)
        export.downloads(
            "Download",
            {
                "room CSV": (
                    lambda: export.csv(frames.export_frame(df, ratings), sig),
                    f"class-{room.code}.csv",
                    "text/csv",
                )
            },
            key="class.export",
        )

    live()


def _hide_control(store: SqlStore, room: Room, df: pd.DataFrame) -> None:
    ids = df[frames.SUB_ID].tolist()
    labels = {
        row[frames.SUB_ID]: f"#{row[frames.RANK]} {row[frames.NICK]}: {row[frames.TEXT][:60]}"
        + (" (hidden)" if row[frames.HIDDEN] else "")
        for row in df.to_dict("records")
    }
    pick_col, button_col = st.columns([4, 1], vertical_alignment="bottom")
    chosen = pick_col.selectbox(
        "Hide or show a translation", ids, format_func=lambda i: labels[i], key="class.hide_pick"
    )
    if chosen is not None:
        hidden = bool(df.loc[df[frames.SUB_ID] == chosen, frames.HIDDEN].iloc[0])
        if button_col.button("Show" if hidden else "Hide", key="class.hide"):
            store.hide(room.id, chosen, hidden=not hidden)
            st.rerun()


def _agreement_section(df: pd.DataFrame) -> None:
    st.subheader("The class's ratings against BLEU")
    agree = frames.rated_agreement(df)
    if agree.n == 0:
        st.info("No rating yet: open round 2 and the students' ratings appear here.", icon=":material/hourglass:")
        return
    st.altair_chart(charts.ratings_scatter(df), width="stretch")
    r = agree.values["pearson"]
    lo, hi = agree.intervals["pearson"]
    if agree.note:
        st.markdown(f"**{agree.n} rated translations.** {agree.note}")
    elif math.isnan(r):
        st.markdown(f"**{agree.n} rated translations**: r is undefined (all BLEU or all ratings are equal).")
    else:
        st.markdown(
            f"**Pearson r = {r:.2f}** (95% bootstrap interval {lo:.2f} to {hi:.2f}, {agree.trials} draws over the "
            f"{agree.n} rated translations)."
        )
    st.caption(docs.text("agreement", "class"))


def _references_section(room: Room) -> None:
    if len(room.refs) < 2:
        return
    config = frames.config_from_dict(room.config)
    st.subheader("The references as candidates")
    st.caption(docs.text("references", "class"))
    st.dataframe(
        frames.references_frame(room.refs, config),
        hide_index=True,
        width="stretch",
        column_config={"BLEU against the others": st.column_config.NumberColumn(format="%.2f")},
    )
    others = room.refs[1:]
    render.signature(cached.explain(room.refs[0], others, config).score.signature, what="BLEU against the others")


def _danger_zone(store: SqlStore, room: Room) -> None:
    with st.expander("Delete this room"):
        st.caption("Deletes the room with every student, translation and rating in it, at once and for good.")
        sure = st.checkbox("Yes, delete everything in this room", key="class.delete_sure")
        if st.button("Delete the room", key="class.delete", disabled=not sure, type="primary"):
            store.delete_room(room.id)
            _leave()
            st.session_state[SS_NOTICE] = "The room and everything in it were deleted."
            st.rerun()


# --- student -----------------------------------------------------------------------------------------------
def _student(store: SqlStore, code: str) -> None:
    room = store.room_by_code(code) if code else None
    if room is None:
        st.error("No open room has this code: it may have expired or been deleted.", icon=":material/error:")
        if st.button("Back", key="class.back"):
            _leave()
            st.rerun()
        return
    ss = st.session_state
    sid = ss.get(SS_STUDENT) or st.query_params.get(STUDENT)
    student = store.student(str(sid)) if sid else None
    if student is None or student.room_id != room.id:
        _join_form(store, room)
        return
    if student.nickname:
        st.caption("You are")
        st.text(student.nickname)
    st.markdown(f"**Room {room.code}** · {_round_status(room)}")
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
        st.session_state[SS_CODE] = room.code
        st.session_state[SS_STUDENT] = student.id
        st.query_params[ROOM] = room.code
        st.query_params[STUDENT] = student.id
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
    render.score_headline("Your sentence BLEU", expl.score)
    st.caption(render.precision_summary(expl))
    render.show_html(render.legend_html() + render.candidate_html(expl, mode="longest"))
    st.markdown("**Clipping table, 1-grams**")
    render.clip_table(sentence_frames.clip_frame(expl, 1))
    st.markdown("**References**")
    render.show_html(render.references_html(expl))


def _rate(store: SqlStore, room: Room, student: Student) -> None:
    st.subheader("Round 2: judge the others, as the paper's judges did")
    st.caption(docs.text("rate", "class"))
    if not room.round_open:
        st.info("Rating is closed.", icon=":material/lock:")
        return
    ss = st.session_state
    if SS_TO_RATE not in ss:
        ss[SS_TO_RATE] = [s.id for s in store.to_rate(student, RATE_K)]
    by_id = {s.id: s for s in store.submissions(room.id, include_hidden=False)}
    todo = [by_id[i] for i in ss[SS_TO_RATE] if i in by_id]
    if not todo:
        st.info("No translation of the others to rate yet.", icon=":material/hourglass:")
        if st.button("Look again", key="class.rate_again"):
            ss.pop(SS_TO_RATE, None)
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
