"""The Class page's teacher: the room's code, link and QR code, the rounds, the live dashboard of the class's
translations and ratings against BLEU, and deleting the room."""

from __future__ import annotations

import math
from dataclasses import replace
from typing import Final

import streamlit as st

from bleu_app import markup
from bleu_app.frames import answers, classroom as frames, metrics as metric_frames
from bleu_app.store import (
    ROUND_RATE,
    ROUND_TRANSLATE,
    Room,
    SqlStore,
)
from bleu_app.ui import cached, docs, state
from bleu_app.ui.classroom import lecture, room as links
from bleu_app.ui.components import export, scores, stored, tables, vega
from bleu_app.ui.components.stored import Refused
from bleu_app.views.classroom import ClassBoard
from bleu_core.metrics import Bleu

DASHBOARD_EVERY_S: Final = 3.0
HIDE_PICK: Final = "class.hide_pick"  # the Hide/Show picker's key (a submission id)
HIDE_LABEL: Final = "class.hide_label"  # the label the browser last showed for it
PROJECTOR_PX: Final = 26  # the projector view's table and body text (presenter mode's; its charts get 18 px text)
# the projector view: no sidebar (settings, pages) and nothing to click; the body and the table in large type
PROJECTOR_CSS: Final = f"""<style>
[data-testid="stSidebar"], [data-testid="stSidebarCollapsedControl"], [data-testid="stExpandSidebarButton"],
[data-testid="stToolbar"] {{ display: none !important; }}
[data-testid="stMain"] [data-testid="stTable"] td, [data-testid="stMain"] [data-testid="stTable"] th,
[data-testid="stMain"] [data-testid="stMarkdownContainer"] p, [data-testid="stMain"] [data-testid="stCode"] code,
[data-testid="stMain"] [data-testid="stMetricLabel"] p {{ font-size: {PROJECTOR_PX}px !important; line-height: 1.45; }}
[data-testid="stMain"] [data-testid="stCaptionContainer"] {{ font-size: 20px !important; }}
</style>"""


def show(store: SqlStore, token: str) -> None:
    """The teacher's view of the room the token opens (a message when it names none); ``&present=1`` the projector
    view of it."""
    room = stored.attempt(lambda: store.room_by_teacher(token), action="load")
    if isinstance(room, Refused):
        stored.retry_button("class.retry")
        return
    if room is None:
        st.error("This teacher link names no open room: it was deleted or has expired.", icon=":material/error:")
        if st.button("Start again", key="class.restart"):
            links.leave()
            st.rerun()
        return
    # the address decides, not the session's presenter flag: a teacher back from presenting the Learn slides in
    # this session gets the dashboard with its controls, not the projector view
    projecting = st.query_params.get(links.PROJECT) == "1"
    links.keep_teacher(room, token, cookie=not projecting)
    if projecting:
        _projector(store, room)
        return
    base = links.base_url()
    join_url = f"{base}/class?{links.ROOM}={room.code}"
    code_col, qr_col = st.columns([3, 2])
    with code_col:
        st.metric("Room code", room.code)
        st.markdown("**Join link** (for the students)")
        st.code(join_url, language=None)
        with st.expander("Your teacher link: keep it secret (it is the only way back to this view)"):
            st.caption("Open it on another device to teach from there; never on the projected screen.")
            st.code(f"{base}/class?{links.TEACH}={token}", language=None)
        st.markdown("**What the students translate**")
        st.text(room.source)
        st.markdown(f"**References** ({len(room.refs)})")
        for i, ref in enumerate(room.refs):
            st.text(f"{i + 1}. {ref}")
        hint = answers.references_hint(list(room.refs), frames.config_from_dict(room.config).tokenize)
        if hint:  # the teacher can still make the room again, with the sidebar's tokenizer, before the class
            st.warning(f"{hint} Make the room again with it before the class.", icon=":material/translate:")
    qr_col.image(cached.qr_png(join_url), caption="Scan to join", width=260)

    lecture.present(token)
    _projector_link(room)
    _round_controls(store, room)
    _dashboard(store, room.id)
    _references_section(room)
    _danger_zone(store, room)


def _projector_link(room: Room) -> None:
    """The projector view, in a tab of its own (for the screen the class sees): no controls, no secret in its
    address, nicknames only when the teacher turns them on."""
    st.subheader("Project")
    names = st.toggle("Show nicknames on the projector", value=False, key="class.project_names")
    query = f"{links.TEACHER}={room.code}&{links.PROJECT}=1" + (f"&{links.NAMES}=1" if names else "")
    st.link_button("Open the projector view", f"/class?{query}", icon=":material/present_to_all:")
    st.caption(
        "Read-only, in large type, without hidden translations"
        + (" (nicknames shown)." if names else " or nicknames.")
        + " Its address names the room's code, never your teacher link."
    )


def _projector(store: SqlStore, room: Room) -> None:
    """The dashboard as the class sees it: the code and QR code to join, then the live board, with no control."""
    st.html(PROJECTOR_CSS)
    join_url = f"{links.base_url()}/class?{links.ROOM}={room.code}"
    code_col, qr_col = st.columns([4, 1])
    with code_col:
        st.metric("Room code", room.code)
        st.code(join_url, language=None)
        st.markdown(f"**Now:** {links.round_status(room)}")
    qr_col.image(cached.qr_png(join_url), width=180)
    _dashboard(store, room.id, projected=True, names=st.query_params.get(links.NAMES) == "1")


def _round_controls(store: SqlStore, room: Room) -> None:
    st.subheader("Rounds")
    st.markdown(f"**Now:** {links.round_status(room)}")
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
            _set_round(store, room, round_no, open_=open_)


def _set_round(store: SqlStore, room: Room, round_no: int, *, open_: bool) -> None:
    done = stored.attempt(lambda: store.set_round(room.id, round_no, open_=open_), action="save")
    if not isinstance(done, Refused):
        st.rerun()


def _dashboard(store: SqlStore, room_id: str, *, projected: bool = False, names: bool = True) -> None:
    @st.fragment(run_every=DASHBOARD_EVERY_S)
    def live() -> None:
        board = stored.attempt(lambda: _read_board(store, room_id), action="load")
        if isinstance(board, Refused):
            return  # the message is shown; the next redraw tries again
        if board is None:
            st.warning("This room no longer exists.")
            return
        if projected:
            _projected_board(board, names=names)
        else:
            _board(store, board)

    live()


def _read_board(store: SqlStore, room_id: str) -> ClassBoard | None:
    """One cheap read per redraw (the room's version); the board (scores, charts, agreement) is built again only
    when the room moved. None when the room is gone."""
    version = store.room_version(room_id)
    return None if version is None else cached.class_board(store, room_id, version)


def _board(store: SqlStore, board: ClassBoard) -> None:
    st.subheader("The class, live")
    a, b, c = st.columns(3)
    a.metric("Joined", board.students)
    b.metric("Translations", len(board.ranked))
    c.metric("Ratings", len(board.ratings))
    if board.histogram is None:
        st.info("No translation yet: the students' scores appear here as they submit.", icon=":material/hourglass:")
        return
    vega.vega(board.histogram)
    st.markdown(
        "**The translations, best BLEU first** (hidden ones stay here and in the export, not on the projector or in "
        "the rating round)"
    )
    st.dataframe(
        board.table,
        hide_index=True,
        width="stretch",
        column_config={frames.BLEU: st.column_config.NumberColumn(format="%.2f")},
        key="class.ranked",
    )
    scores.signature(board.signature, what="BLEU")
    st.caption(answers.scoring_line(frames.config_from_dict(board.room.config)))
    _remove_control(store, board, _hide_control(store, board))
    _agreement_section(board)
    export.downloads(
        "Download",
        {
            "room CSV": (
                lambda: export.csv(frames.export_frame(board.ranked, board.ratings), [_signed(board)]),
                f"class-{board.room.code}.csv",
                "text/csv",
            )
        },
        key="class.export",
    )


def _signed(board: ClassBoard) -> metric_frames.Signed:
    """The room CSV's signatures: its BLEU (the board's, under the room's settings) and sacreBLEU's."""
    room = board.room
    theirs = metric_frames.signed(Bleu(frames.config_from_dict(room.config)), len(room.refs))
    return replace(theirs, ours=board.signature)


def _hide_control(store: SqlStore, board: ClassBoard) -> str | None:
    """Hide or show the picked translation; returns the pick (a submission id)."""
    df = board.ranked
    pick_col, button_col = st.columns([4, 1], vertical_alignment="bottom")
    labels = board.labels
    _keep_pick(labels)
    chosen = pick_col.selectbox(
        "Hide or show a translation", list(labels), format_func=lambda i: labels[i], key=HIDE_PICK
    )
    state.put(HIDE_LABEL, labels.get(chosen) if chosen is not None else None)
    if chosen is not None:
        hidden = bool(df.loc[df[frames.SUB_ID] == chosen, frames.HIDDEN].iloc[0])
        button_col.button(
            "Show" if hidden else "Hide",
            key="class.hide",
            on_click=_set_hidden,
            args=(store, board.room.id, chosen),
            kwargs={"hidden": not hidden},
        )
    return chosen


def _keep_pick(labels: dict[str, str]) -> None:
    """Keep the picker on its row when the row's label changed since the last run (renumbered when a better
    translation came in, "(hidden)" added or dropped): the browser names its pick by the label, and an old label
    matched no option, so the picker fell back to row #1 (issue 34, A5). Read before the picker is drawn, the pick
    is still the previous run's row; set again, it is sent back to the browser under its new label."""
    picked = state.get(HIDE_PICK)
    if picked in labels and labels[picked] != state.get(HIDE_LABEL):
        state.put(HIDE_PICK, picked)


def _set_hidden(store: SqlStore, room_id: str, sub_id: str, *, hidden: bool) -> None:
    """Hide or show a translation and keep the picker on it. Its label gains or loses "(hidden)", and a browser
    names its pick by the label: the old one matched no option and the picker fell back to row #1 (issue 34, A5).
    Set by its value here, before the rerun, the pick is sent back under its new label."""
    stored.attempt(lambda: store.hide(room_id, sub_id, hidden=hidden), action="save")
    state.put(HIDE_PICK, sub_id)


def _remove_control(store: SqlStore, board: ClassBoard, chosen: str | None) -> None:
    """Remove the student of the translation picked above (with their ratings): asked once more, in a popover."""
    df = board.ranked
    rows = df[df[frames.SUB_ID] == chosen]
    if rows.empty:
        return
    student, nick = str(rows[frames.STUDENT].iloc[0]), frames.shown(str(rows[frames.NICK].iloc[0]), name=True)
    with st.popover("Remove this student", icon=":material/person_remove:"):
        st.caption("Removes the student, their translation, the ratings they gave and those it got, for good.")
        if st.button(f"Remove {markup.md_escape(nick)}", key="class.remove", type="primary"):
            done = stored.attempt(lambda: store.remove_student(board.room.id, student), action="save")
            if not isinstance(done, Refused):
                state.put(state.CLASS_NOTICE, "The student was removed, with their translation and ratings.")
                st.rerun()


def _projected_board(board: ClassBoard, *, names: bool) -> None:
    """The board on the projector: counts, the histogram, the visible translations (nicknames when ``names``) in
    large type, the ratings against BLEU; no control, no export."""
    a, b, c = st.columns(3)
    a.metric("Joined", board.students)
    b.metric("Translations", int((~board.ranked[frames.HIDDEN]).sum()) if not board.ranked.empty else 0)
    c.metric("Ratings", len(board.ratings))
    if board.histogram is None:
        st.info("No translation yet: the scores appear here as students send them.", icon=":material/hourglass:")
        return
    vega.vega(board.histogram)
    st.table(tables.as_text(frames.projected_frame(board.ranked, names=names)), hide_index=True)
    scores.signature(board.signature, what="BLEU")
    st.caption(answers.scoring_line(frames.config_from_dict(board.room.config)))
    _agreement_section(board)


def _agreement_section(board: ClassBoard) -> None:
    st.subheader("The class's ratings against BLEU")
    agree = board.agreement
    if board.scatter is None:
        st.info("No rating yet: open round 2 and the students' ratings appear here.", icon=":material/hourglass:")
        return
    vega.vega(board.scatter)
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
    scores.signature(cached.explain(room.refs[0], others, config).score.signature, what="BLEU against the others")


def _danger_zone(store: SqlStore, room: Room) -> None:
    with st.expander("Delete this room"):
        st.caption("Deletes the room with every student, translation and rating in it, at once and for good.")
        sure = st.checkbox("Yes, delete everything in this room", key="class.delete_sure")
        if st.button("Delete the room", key="class.delete", disabled=not sure, type="primary"):
            done = stored.attempt(lambda: store.delete_room(room.id), action="save")
            if isinstance(done, Refused):
                return
            links.leave()
            state.put(state.CLASS_NOTICE, "The room and everything in it were deleted.")
            st.rerun()
