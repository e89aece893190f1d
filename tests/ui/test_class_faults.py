"""Issue 36 on the Class page: a store that fails (the database down, a full disk) shows one sentence where the user
acted, keeps what they typed and saves nothing half; a student's link does not make its holder that student; one
client meets the caps with the store's sentence; text typed before the teacher closes the round stays, marked not
sent; the dashboard is rebuilt only when the room moved. Each AppTest session is a browser of its own, sharing one
store (SQLite and PostgreSQL: ``store_env``)."""

from __future__ import annotations

import dataclasses
import errno

import pytest
from streamlit.testing.v1 import AppTest

from bleu_app.store import SqlStore, StoreUnavailableError
from bleu_app.ui import cached, state
from bleu_app.ui.classroom import room as links
from bleu_app.ui.components import stored
from tests.ui.conftest import open_app, outage

PAGE = "pages/class.py"
DOWN = "Not sent: the server's database is unavailable; your text is kept, try again."


def _texts(app: AppTest) -> list[str]:
    return [t.value for t in app.text]


def _alerts(app: AppTest) -> str:
    return "\n".join(a.value for kind in (app.error, app.warning, app.info, app.success) for a in kind)


def _teacher() -> tuple[AppTest, str]:
    t = open_app(PAGE)
    t.button(key="class.create").click().run()
    assert not t.exception
    return t, next(m.value for m in t.metric if m.label == "Room code")


def _student(code: str, nick: str) -> AppTest:
    s = open_app(PAGE, query={links.ROOM: code})
    s.text_input(key=state.CLASS_NICK).input(nick)
    s.button(key="class.join_room").click().run()
    assert not s.exception
    return s


def _submit(s: AppTest, text: str) -> None:
    s.text_area(key=state.CLASS_TRANSLATION).input(text)
    s.button(key="class.submit").click().run()
    assert not s.exception


# --- a store that fails ------------------------------------------------------------------------------------------
def test_a_send_while_the_database_is_down_says_so_and_keeps_the_text(store_env):
    _, code = _teacher()
    s = _student(code, "Ann")
    room = store_env.room_by_code(code)
    with outage(store_env, "submit"):  # down between the page's read and the send
        _submit(s, "my careful translation")
    assert [e.value for e in s.error] == [DOWN]
    assert s.text_area(key=state.CLASS_TRANSLATION).value == "my careful translation"
    with outage(store_env):  # down for the whole page: one sentence, the text kept while its box is not drawn
        s.button(key="class.refresh").click().run()
        assert not s.exception
        assert [e.value for e in s.error] == [
            "Cannot load this now: the server's database is unavailable; your text is kept, try again."
        ]
        assert s.session_state[state.CLASS_TRANSLATION] == "my careful translation"
    assert store_env.submissions(room.id) == []  # nothing half-written
    s.button(key="class.retry").click().run()
    assert s.text_area(key=state.CLASS_TRANSLATION).value == "my careful translation"
    s.button(key="class.submit").click().run()
    assert [x.text for x in store_env.submissions(room.id)] == ["my careful translation"]


def test_a_full_disk_refuses_a_join_and_a_new_room_with_one_sentence(store_env):
    _, code = _teacher()
    s = open_app(PAGE, query={links.ROOM: code})
    s.text_input(key=state.CLASS_NICK).input("Ann")
    maker = open_app(PAGE)
    with outage(store_env, "enrol", "create_room", err=errno.ENOSPC):
        s.button(key="class.join_room").click().run()
        maker.button(key="class.create").click().run()
    for app in (s, maker):
        assert not app.exception
        assert [e.value for e in app.error] == [
            "Not sent: the server's disk is full; your text is kept, try again once the server has more space "
            "(tell whoever runs it)."
        ]
    assert s.text_input(key=state.CLASS_NICK).value == "Ann"
    assert store_env.students_count(store_env.room_by_code(code).id) == 0
    assert maker.session_state[state.CLASS_SOURCE].startswith("Rewrite this machine translation")
    assert not maker.metric  # no room was made


def test_teacher_actions_and_the_dashboard_while_the_database_is_down(store_env):
    teacher, code = _teacher()
    _submit(_student(code, "Ann"), "It is a guide to action.")
    room = store_env.room_by_code(code)
    teacher.run()
    with outage(store_env, "room_version", "room_state"):
        teacher.run()  # the dashboard's redraw fails alone; the rest of the page is drawn
        assert not teacher.exception
        assert [e.value for e in teacher.error] == [
            "Cannot load this now: the server's database is unavailable, try again."
        ]
    for label, call in (("Close translating", "set_round"), ("Hide", "hide")):
        with outage(store_env, call):
            next(b for b in teacher.button if b.label == label).click().run()
            assert not teacher.exception
            assert [e.value for e in teacher.error] == ["Not saved: the server's database is unavailable, try again."]
    teacher.checkbox(key="class.delete_sure").check().run()
    with outage(store_env, "delete_room"):
        teacher.button(key="class.delete").click().run()
        assert [e.value for e in teacher.error] == ["Not saved: the server's database is unavailable, try again."]
    with outage(store_env):  # down for the whole page
        teacher.run()
        assert [e.value for e in teacher.error] == [
            "Cannot load this now: the server's database is unavailable, try again."
        ]
    # nothing changed, and the page comes back
    assert store_env.room(room.id).round_open
    assert not store_env.submissions(room.id)[0].hidden
    teacher.button(key="class.retry").click().run()
    assert {m.label: m.value for m in teacher.metric}["Translations"] == "1"


def test_the_class_page_on_a_read_only_data_dir(read_only_dir, monkeypatch):
    from bleu_app import store as store_mod

    d, freeze = read_only_dir
    monkeypatch.setenv(store_mod.DATA_DIR_ENV, str(d))
    monkeypatch.delenv(store_mod.DATABASE_URL_ENV, raising=False)
    monkeypatch.setattr(store_mod, "_stores", {})
    store_mod.open_store(None, d).close()
    freeze()
    app = open_app(PAGE)
    assert [e.value for e in app.error] == [
        "Cannot load this now: the server's database is read-only, try again once the server's data directory is "
        "writable (tell whoever runs it)."
    ]
    assert app.button(key="class.retry_open")


# --- identity: a link is not a student --------------------------------------------------------------------------
def test_someone_elses_link_cannot_send_for_them_and_the_student_goes_on(store_env, monkeypatch):
    _, code = _teacher()
    alice = _student(code, "alice")
    _submit(alice, "alice's careful translation")
    sid, secret = alice.session_state[state.CLASS_STUDENT], alice.session_state[state.CLASS_SECRET]
    assert alice.query_params[links.STUDENT] == sid
    assert secret not in str(dict(alice.query_params))  # the secret is never in the URL
    script = next(h for h in alice.get("html") if links.SECRET_COOKIE in h.value)
    assert script.proto.unsafe_allow_javascript
    assert f"{links.SECRET_COOKIE}{sid}={secret};" in script.value  # the browser keeps it in a cookie

    # bob opens alice's address-bar URL in his browser: asked who he is, nothing to send with
    bob = open_app(PAGE, query={links.ROOM: code, links.STUDENT: sid})
    assert "You are “alice”?" in _alerts(bob)
    assert state.CLASS_TRANSLATION not in [t.key for t in bob.text_area]
    assert "class.submit" not in [b.key for b in bob.button]
    bob.button(key="class.not_me").click().run()
    assert bob.subheader[0].value == f"Join room {code}"
    assert links.STUDENT not in bob.query_params
    room = store_env.room_by_code(code)
    assert [x.text for x in store_env.submissions(room.id)] == ["alice's careful translation"]
    # even a send crafted with alice's id and no secret is refused by the store
    forged = store_env.student(sid)
    with pytest.raises(Exception, match="not yours"):
        store_env.submit(forged, "overwritten", secret="")

    # alice reloads in her own browser (a new session that sends her cookie): she goes on as before
    monkeypatch.setattr(links, "browser_students", lambda: [(sid, secret)])
    again = open_app(PAGE, query={links.ROOM: code, links.STUDENT: sid})
    assert "alice" in _texts(again)
    assert again.text_area(key=state.CLASS_TRANSLATION).value == "alice's careful translation"
    _submit(again, "alice's second thought")
    assert [x.text for x in store_env.submissions(room.id)] == ["alice's second thought"]
    # and the bare join link (the QR code scanned again) offers to go on as her, not to join twice
    back = open_app(PAGE, query={links.ROOM: code})
    back.button(key=f"class.again.{sid}").click().run()
    assert back.text_area(key=state.CLASS_TRANSLATION).value == "alice's second thought"
    assert store_env.students_count(room.id) == 1


# --- caps: one client against each ------------------------------------------------------------------------------
def _limits(store: SqlStore, **caps: int) -> None:
    store.limits = dataclasses.replace(store.limits, **caps)


def test_one_session_against_the_code_guesses_and_the_room_caps(store_env):
    _limits(store_env, code_guesses=3, rooms_per_client=2, students_per_room=2)
    _, code = _teacher()
    guesser = open_app(PAGE)
    for wrong in ("AAAAAAAA", "BBBBBBBB", "CCCCCCCC"):
        guesser.text_input(key="class.join_code").input(wrong)
        guesser.button(key="class.join").click().run()
        assert any("No open room has this code" in e.value for e in guesser.error)
    guesser.text_input(key="class.join_code").input(code)  # the right code, after the budget is spent
    guesser.button(key="class.join").click().run()
    assert any(e.value.startswith("Too many wrong room codes from here (3 in 10 minutes)") for e in guesser.error)
    assert links.ROOM not in guesser.query_params
    assert guesser.text_input(key="class.join_code").placeholder == "ABCD2345"  # as long as a real code

    # students: the room takes two
    _student(code, "a"), _student(code, "b")
    late = _student(code, "c")
    assert any(e.value.startswith("This room is full: 2 students") for e in late.error)
    assert late.text_input(key=state.CLASS_NICK).value == "c"

    # rooms: one session makes two, then is refused
    maker = open_app(PAGE)
    for _ in range(2):
        maker.button(key="class.create").click().run()
        assert maker.metric
        del maker.session_state[state.CLASS_TEACH]
        maker.query_params.clear()
        maker.run()
    maker.button(key="class.create").click().run()
    assert any(e.value.startswith("You already have 2 open rooms") for e in maker.error)
    assert not maker.metric


def test_one_session_against_the_views_cap_and_the_sentence_pages_limit(store_env):
    _limits(store_env, views_per_client=2)
    a = open_app("pages/sentence.py")
    for _ in range(2):
        a.button(key="share.sentence").click().run()
        assert not a.error
    a.button(key="share.sentence").click().run()
    assert next(e.value for e in a.error).startswith("You have shared 2 views, the most one session keeps")
    assert a.text_area(key=state.HYP_BOX).proto.max_chars == 20_000
    # over the page's own limit (a candidate and its references), no Share at all
    a.text_area(key=state.HYP_BOX).set_value("word " * 3_990).run()
    assert any("Over 20,000 characters: shorten the text to share it." in i.value for i in a.info)
    assert "share.sentence" not in [b.key for b in a.button]


# --- round 1 closed under a student's typing --------------------------------------------------------------------
def test_text_typed_before_the_round_closed_stays_marked_not_sent(store_env):
    _, code = _teacher()
    carol = _student(code, "carol")
    room = store_env.room_by_code(code)
    store_env.set_round(room.id, 1, open_=False)  # the teacher closes while carol types
    _submit(carol, "carol typed this and pressed Send late")
    assert any(w.value.startswith("**Not sent:** translating closed before this was sent") for w in carol.warning)
    assert "carol typed this and pressed Send late" in _texts(carol)
    assert store_env.submissions(room.id) == []
    store_env.set_round(room.id, 1, open_=True)
    carol.button(key="class.refresh").click().run()
    assert carol.text_area(key=state.CLASS_TRANSLATION).value == "carol typed this and pressed Send late"
    carol.button(key="class.submit").click().run()
    assert [x.text for x in store_env.submissions(room.id)] == ["carol typed this and pressed Send late"]


# --- the dashboard: rebuilt when the room moved, not every redraw -----------------------------------------------
def test_the_dashboard_is_rebuilt_only_when_the_room_changed(store_env, monkeypatch):
    built: list[int] = []
    real = cached.class_board_view

    def counting(room_state, **kw):
        built.append(room_state.room.version)
        return real(room_state, **kw)

    monkeypatch.setattr(cached, "class_board_view", counting)
    cached.class_board.clear()
    teacher, code = _teacher()
    s = _student(code, "Ann")
    _submit(s, "It is a guide to action.")
    teacher.run()
    n = len(built)
    for _ in range(3):
        teacher.run()  # three redraws of an unchanged room
    assert len(built) == n
    second = open_app(PAGE, query={links.TEACH: teacher.session_state[state.CLASS_TEACH]})  # a projector's session
    assert len(built) == n
    assert {m.label: m.value for m in second.metric}["Translations"] == "1"
    _submit(_student(code, "Bo"), "The army heeds the party.")
    teacher.run()
    assert len(built) == n + 1
    assert {m.label: m.value for m in teacher.metric}["Translations"] == "2"


def test_messages_name_what_failed():
    assert stored.message(StoreUnavailableError("down"), kept=True) == DOWN
    assert stored.message(StoreUnavailableError("read-only"), action="save").startswith(
        "Not saved: the server's database is read-only"
    )
