"""The class dashboard as projected (issue 34): a projector view with no control and no secret in any address it
shows or sets, without hidden translations (kept in the export) and, unless the teacher turns them on, without
nicknames; bidi controls never reach the screen; the teacher removes a student."""

from __future__ import annotations

import io

import pandas as pd
from streamlit.testing.v1 import AppTest

from bleu_app.frames import classroom as frames
from bleu_app.frames.metrics import Signed
from bleu_app.markup import md_escape
from bleu_app.ui import state
from bleu_app.ui.classroom import room as links
from bleu_app.ui.components import export
from bleu_core.config import BleuConfig
from bleu_core.teaching.explain import explain_segment
from bleu_core.teaching.paper import EXAMPLE_1
from tests.ui.conftest import open_app
from tests.ui.test_classroom import PAGE, _metrics, _student, _submit, _teacher

RUDE = "This lecture is boring and BLEU is stupid."
FINE = "It is a guide to action that ensures that the army will always heed the commands of the Party."


def _everything(app: AppTest) -> str:
    """Every element's whole message (values, labels, links), as one text: what the page shows or could open."""
    out = []
    stack = list(app._tree.children.values())
    while stack:
        node = stack.pop()
        out.append(str(getattr(node, "proto", "")))
        stack.extend(getattr(node, "children", {}).values())
    return "\n".join(out)


def _class(store) -> tuple[AppTest, str, str]:
    """A teacher, a rude student (hidden) and a fine one: the teacher's session, the room code and the token."""
    teacher, code = _teacher()
    token = teacher.session_state[state.CLASS_TEACH]
    rude, fine = _student(code, "Rude Ravi"), _student(code, "Mei")
    _submit(rude, RUDE)
    _submit(fine, FINE)
    teacher.run()
    sub_id = next(s.id for s in store.submissions(store.room_by_code(code).id) if s.text == RUDE)
    teacher.selectbox(key="class.hide_pick").set_value(sub_id).run()
    teacher.button(key="class.hide").click().run()
    assert not teacher.exception
    return teacher, code, token


def _project(teacher: AppTest, *, names: bool = False) -> AppTest:
    teacher.query_params[links.PROJECT] = "1"
    if names:
        teacher.query_params[links.NAMES] = "1"
    teacher.run()
    assert not teacher.exception
    return teacher


def test_the_token_leaves_the_address_bar_at_once(store_env):
    teacher, code = _teacher()
    token = teacher.session_state[state.CLASS_TEACH]
    # the room's code (public) in the address bar, not the token
    assert teacher.query_params[links.TEACHER] == code
    assert links.TEACH not in teacher.query_params
    assert all(token not in str(v) for v in teacher.query_params.values())
    assert any("document.cookie" in h.proto.body and token in h.proto.body for h in teacher.get("html"))
    # a teacher link opened later (another device) works, and at once leaves the address bar too
    other = open_app(PAGE, query={links.TEACH: token})
    assert _metrics(other)["Room code"] == code
    assert token not in str(dict(other.query_params))
    # the projector link the teacher is given names the room, never the token
    link = next(b for b in teacher.get("link_button") if "projector" in b.proto.label)
    assert link.proto.url == f"/class?{links.TEACHER}={code}&{links.PROJECT}=1"
    # a browser without the teacher's cookie gets nothing from the room's code
    stranger = open_app(PAGE, query={links.TEACHER: code, links.PROJECT: "1"})
    assert any("does not hold the teacher's key" in w.value for w in stranger.warning)
    assert not stranger.metric


def test_the_projector_view_drops_hidden_rows_and_nicknames_and_shows_no_secret(store_env):
    teacher, code, token = _class(store_env)
    own = teacher.dataframe[0].value  # the teacher's own screen keeps the hidden row, marked
    assert own.set_index(frames.TEXT).loc[RUDE, frames.HIDDEN]
    projector = _project(teacher)
    shown = projector.table[0].value
    assert shown[frames.TEXT].tolist() == [md_escape(FINE)]  # a static table renders Markdown: shown as typed
    fine = explain_segment(FINE, list(EXAMPLE_1.references), BleuConfig.sentence()).score.score
    assert [float(b) for b in shown[frames.BLEU]] == [round(fine, 2)]  # to 2 decimals, as the teacher's table
    assert shown[frames.RANK].tolist() == [1]  # ranked again among what is shown
    assert frames.NICK not in shown.columns
    page = _everything(projector)
    assert RUDE not in page
    assert "Rude Ravi" not in page
    assert "Mei" not in page
    assert token not in page  # no link, code or script of the projector view carries the token
    assert all(token not in str(v) for v in projector.query_params.values())
    # nothing to click on the projected page (the settings sidebar is hidden by its style)
    main = projector.main
    assert not main.button
    assert not main.selectbox
    assert not main.toggle
    assert not main.get("download_button")
    assert any("stSidebar" in h.proto.body and "display: none" in h.proto.body for h in projector.get("html"))
    assert _metrics(projector)["Translations"] == "1"
    # nicknames when the teacher turns them on: only the visible translation's
    named = _project(teacher, names=True).table[0].value
    assert named[frames.NICK].tolist() == ["Mei"]
    # the export keeps the hidden translation, marked (what the teacher's Download button writes)
    room = store_env.room_by_code(code)
    ranked = frames.ranked_frame(
        store_env.submissions(room.id), store_env.ratings(room.id), room.refs, frames.config_from_dict(room.config)
    )
    out = pd.read_csv(io.StringIO(export.csv(frames.export_frame(ranked, []), [Signed("BLEU", "sig", None)])))
    assert out.set_index(frames.TEXT).loc[RUDE, frames.HIDDEN]
    assert out.set_index(frames.TEXT).loc[RUDE, frames.NICK] == "Rude Ravi"


def test_a_bidi_override_in_a_nickname_is_never_shown(store_env):
    teacher, code = _teacher()
    s = _student(code, "\u202eloot")
    _submit(s, "the \u202ecat")
    room = store_env.room_by_code(code)
    # a name kept before the store cleaned names (written straight into the table) is cleaned where it is shown
    with store_env._tx() as cur:
        store_env._run(cur, "UPDATE students SET nickname = ? WHERE room_id = ?", ("\u202eevil\u2060", room.id))
        store_env._run(cur, "UPDATE submissions SET text = ? WHERE room_id = ?", ("the \u202ecat", room.id))
        store_env._touch(cur, room.id)
    teacher.run()
    own = teacher.dataframe[0].value
    assert own[frames.NICK].tolist() == ["evil"]
    assert own[frames.TEXT].tolist() == ["the cat"]
    assert all("\u202e" not in o for o in teacher.selectbox(key="class.hide_pick").options)
    named = _project(teacher, names=True).table[0].value
    assert named[frames.NICK].tolist() == ["evil"]
    assert named[frames.TEXT].tolist() == ["the cat"]
    assert "\u202e" not in _everything(teacher)


def test_the_teacher_removes_a_student(store_env):
    teacher, code, _ = _class(store_env)
    room = store_env.room_by_code(code)
    rude = next(s for s in store_env.submissions(room.id) if s.text == RUDE)
    teacher.selectbox(key="class.hide_pick").set_value(rude.id).run()
    teacher.button(key="class.remove").click().run()
    assert not teacher.exception
    assert store_env.student(rude.student_id) is None
    assert [s.text for s in store_env.submissions(room.id)] == [FINE]
    assert _metrics(teacher)["Joined"] == "1"
    assert any("removed" in x.value for x in teacher.success)


def test_back_from_presenting_the_teacher_gets_the_controls(store_env):
    teacher, _ = _teacher()
    _project(teacher)
    assert not teacher.main.button
    # the teacher presented the Learn slides in this session (presenter mode stays on for them), then opened the
    # class page again, without &present=1
    teacher.session_state[state.PRESENTING] = True
    teacher.query_params.pop(links.PROJECT)
    teacher.run()
    assert teacher.button(key="class.delete").label == "Delete the room"
    assert any("projector" in b.proto.label for b in teacher.get("link_button"))
