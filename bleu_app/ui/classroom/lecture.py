"""The live class and the Learn page's lecture (issue 34): the teacher presents the slides to the room (the phones
that follow show each slide, and the opening's vote is a poll on them), and a student's page links the slides."""

from __future__ import annotations

from typing import Final

import streamlit as st

from bleu_app.store import Room
from bleu_app.ui import nav, state

FOLLOW: Final = "follow"  # the Learn page's ``?follow=CODE`` (its phone view)


def present(token: str) -> None:
    """The teacher's way into presenter mode tied to this room (the token stays in the session, not in a URL)."""
    st.subheader("The lecture on the students' phones")
    st.caption(
        "Present the Learn page's slides from here: the phones that follow (Follow the lecture, on each student's "
        "page) show every slide within two seconds of yours, and the opening's vote is a poll on them whose answers "
        "your slide draws."
    )
    if st.button("Present the lecture to this room", key="class.present", icon=":material/co_present:"):
        state.present_to_room(token)
        st.switch_page(nav.LEARN, query_params={"present": "1"})


def follow_link(room: Room) -> None:
    """On a student's page: the teacher's slides on this phone."""
    st.page_link(
        nav.LEARN,
        label="Follow the lecture's slides",
        query_params={FOLLOW: room.code},
        icon=":material/cast_for_education:",
    )
