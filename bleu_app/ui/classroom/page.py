"""Class mode (``/class``): a teacher's room, students who translate and then judge, and the projected dashboard.

Who is who comes from the URL (kept in session state too): ``?teach=TOKEN`` is the teacher (the token is a secret
that only the teacher's link carries; the store keeps its hash; once opened, the address bar says
``?teacher=CODE`` and the session and a cookie keep the token, so the projected screen shows no secret;
``&present=1`` is the projector view), ``?room=CODE`` a student's join link, and
``&s=ID`` the student once joined. The link alone does not make its holder that student: joining gives the browser
a secret (kept in the session and in a cookie, so a reload keeps them), and a browser without it is asked
"You are X? Not you: join as yourself" (``student``). Everything lives in the store (``bleu_app.store``), so
several sessions, processes or machines see one room; every call to it goes through ``components.stored`` (one
message for every store error, the typed text kept). Every text a person typed (source, references, nicknames,
translations) is shown with ``st.text``, in dataframes or escaped HTML: never as Markdown.
"""

from __future__ import annotations

import logging
from typing import Final

import streamlit as st

from bleu_app.frames import classroom as frames
from bleu_app.store import (
    MAX_TEXT,
    ROOM_TTL_S,
    SqlStore,
    get_store,
    location,
)
from bleu_app.store.model import CODE_LEN
from bleu_app.ui import docs, state
from bleu_app.ui.classroom import room as links, student as student_view, teacher as teacher_view
from bleu_app.ui.components import stored
from bleu_app.ui.components.stored import Refused
from bleu_core.data.corpus import Corpus
from bleu_core.teaching.paper import EXAMPLE_1

# The paper gives Example 1's references and candidates but not its Chinese source (section 2: "a Chinese source
# sentence"), so the default task is to rewrite the paper's poor Candidate 2 as good English (this app's choice).
DEFAULT_SOURCE: Final = "Rewrite this machine translation as good English: " + EXAMPLE_1.candidates[1]
DEFAULT_REFS: Final = "\n".join(EXAMPLE_1.references)

_LOG = logging.getLogger(__name__)


# --- entry ------------------------------------------------------------------------------------------------
def show() -> None:
    """The Class page: the teacher's view, a student's, or the start (join a room or make one)."""
    # a short title: the whole sentence as a title took five lines (247 px) of a 390x844 phone (issue 34)
    st.title("Class")
    st.caption("Translate, judge, and hold BLEU against the judges.")
    store = stored.attempt(get_store, action="load")
    if isinstance(store, Refused):  # a bad URL or an unreachable database: one message, no traceback
        _LOG.warning("class store %s cannot be opened: %s", location(), store.message)
        stored.retry_button("class.retry_open")
        st.stop()
    qp = st.query_params
    # the token comes once in the teacher link; from then on the session and a cookie hold it (``links.keep_teacher``)
    teach = state.get(state.CLASS_TEACH) or qp.get(links.TEACH) or links.teacher_in_browser(qp.get(links.TEACHER))
    if not teach and qp.get(links.TEACHER):
        st.warning(
            "This browser does not hold the teacher's key of this room: open your teacher link here once.",
            icon=":material/key_off:",
        )
    code = state.get(state.CLASS_CODE) or qp.get(links.ROOM)
    notice = state.take(state.CLASS_NOTICE)
    if notice:
        st.success(notice, icon=":material/check:")
    if teach:
        teacher_view.show(store, str(teach))
    elif code:
        student_view.show(store, links.clean_code(str(code)))
    else:
        _start(store)


# --- start: join a room or make one ------------------------------------------------------------------------
def _start(store: SqlStore) -> None:
    docs.show("intro", "class")
    join_col, make_col = st.columns(2, gap="large")
    with join_col, st.container(border=True):
        st.subheader("Join a class")
        typed = st.text_input("Room code", max_chars=CODE_LEN, key="class.join_code", placeholder="ABCD2345")
        if st.button("Join", key="class.join", type="primary"):
            code = links.clean_code(typed)
            # a wrong code counts against this session's guess budget (the store's code_guesses)
            room = stored.attempt(lambda: store.room_by_code(code, client=state.client_key()), action="load")
            if room is None:
                st.error("No open room has this code: check it with your teacher (rooms expire).")
            elif not isinstance(room, Refused):
                state.put(state.CLASS_CODE, code)
                st.query_params[links.ROOM] = code
                st.rerun()
    with make_col, st.container(border=True):
        st.subheader("Start a class (teacher)")
        st.caption(docs.text("default_task", "class"))
        _corpus_line_picker()
        state.put_absent(state.CLASS_SOURCE, DEFAULT_SOURCE)
        state.put_absent(state.CLASS_REFS, DEFAULT_REFS)
        source = st.text_area("What the students translate", max_chars=MAX_TEXT, key=state.CLASS_SOURCE)
        refs = st.text_area("References, one per line", key=state.CLASS_REFS, height=140)
        hours = st.number_input("The room expires after (hours)", 1, 24 * 30, ROOM_TTL_S // 3600, key="class.ttl")
        config = state.config()
        st.caption(
            "Scored with the sidebar's settings, kept with the room (the class page opens on sacreBLEU sentence)."
        )
        if st.button("Create the room", key="class.create", type="primary"):
            # expired rooms are purged by get_store (at start, then hourly), not on this click
            new = stored.attempt(
                lambda: store.create_room(
                    source,
                    refs.splitlines(),
                    frames.config_to_dict(config),
                    ttl_s=float(hours) * 3600,
                    client=state.client_key(),
                ),
                kept=True,
            )
            if isinstance(new, Refused):
                return
            state.put(state.CLASS_TEACH, new.teacher_token)
            st.query_params[links.TEACH] = new.teacher_token
            st.rerun()
    # where the store lives is the server's business, not every visitor's (a projected screen, a student's phone):
    # docs/serving.md says where (data/ or BLEU_EXPLORER_DATA_DIR, or the PostgreSQL URL)
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
    source = corpus.source.lines[i] if corpus.source is not None else ""
    state.put(state.CLASS_SOURCE, source or "Translate (this corpus has no source line: put the source here)")
    state.put(state.CLASS_REFS, "\n".join(r.lines[i] for r in corpus.references if r.lines[i].strip()))
