"""The Class page's teacher: the room's code, link and QR code, the rounds, the live dashboard of the class's
translations and ratings against BLEU, and deleting the room."""

from __future__ import annotations

import math
from typing import Final

import streamlit as st

from bleu_app.frames import classroom as frames
from bleu_app.store import (
    ROUND_RATE,
    ROUND_TRANSLATE,
    Room,
    SqlStore,
)
from bleu_app.ui import cached, docs, state
from bleu_app.ui.classroom import lecture, room as links
from bleu_app.ui.components import export, scores, stored, vega
from bleu_app.ui.components.stored import Refused
from bleu_app.views.classroom import ClassBoard

DASHBOARD_EVERY_S: Final = 3.0


def show(store: SqlStore, token: str) -> None:
    """The teacher's view of the room the token opens (a message when it names none)."""
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
    base = links.base_url()
    join_url = f"{base}/class?{links.ROOM}={room.code}"
    code_col, qr_col = st.columns([3, 2])
    with code_col:
        st.metric("Room code", room.code)
        st.markdown("**Join link** (for the students)")
        st.code(join_url, language=None)
        with st.expander("Your teacher link: keep it secret (it is the only way back to this view)"):
            st.code(f"{base}/class?{links.TEACH}={token}", language=None)
        st.markdown("**What the students translate**")
        st.text(room.source)
        st.markdown(f"**References** ({len(room.refs)})")
        for i, ref in enumerate(room.refs):
            st.text(f"{i + 1}. {ref}")
    qr_col.image(cached.qr_png(join_url), caption="Scan to join", width=260)

    lecture.present(token)
    _round_controls(store, room)
    _dashboard(store, room.id)
    _references_section(room)
    _danger_zone(store, room)


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


def _dashboard(store: SqlStore, room_id: str) -> None:
    @st.fragment(run_every=DASHBOARD_EVERY_S)
    def live() -> None:
        board = stored.attempt(lambda: _read_board(store, room_id), action="load")
        if isinstance(board, Refused):
            return  # the message is shown; the next redraw tries again
        if board is None:
            st.warning("This room no longer exists.")
            return
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
    st.markdown("**The translations, best BLEU first** (hidden ones stay in the export, not in the rating round)")
    st.dataframe(
        board.table,
        hide_index=True,
        width="stretch",
        column_config={frames.BLEU: st.column_config.NumberColumn(format="%.2f")},
        key="class.ranked",
    )
    scores.signature(board.signature, what="BLEU")
    _hide_control(store, board)
    _agreement_section(board)
    export.downloads(
        "Download",
        {
            "room CSV": (
                lambda: export.csv(frames.export_frame(board.ranked, board.ratings), board.signature),
                f"class-{board.room.code}.csv",
                "text/csv",
            )
        },
        key="class.export",
    )


def _hide_control(store: SqlStore, board: ClassBoard) -> None:
    df = board.ranked
    pick_col, button_col = st.columns([4, 1], vertical_alignment="bottom")
    labels = board.labels
    chosen = pick_col.selectbox(
        "Hide or show a translation", list(labels), format_func=lambda i: labels[i], key="class.hide_pick"
    )
    if chosen is not None:
        hidden = bool(df.loc[df[frames.SUB_ID] == chosen, frames.HIDDEN].iloc[0])
        if button_col.button("Show" if hidden else "Hide", key="class.hide"):
            done = stored.attempt(lambda: store.hide(board.room.id, chosen, hidden=not hidden), action="save")
            if not isinstance(done, Refused):
                st.rerun()


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
