"""Issue 36, F1 and F2: every store failure is a StoreError a student can read, and nothing is half-written.
SQLite with a full disk (a small ``max_page_count``) and a read-only data directory; PostgreSQL stopped, and
restarted under 20 simultaneous submits (the pooled connections it left dead are checked before use)."""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Callable, Iterator

import pytest

from bleu_app import store as store_mod
from bleu_app.store import StoreError, StoreUnavailableError
from bleu_app.store.postgres import PostgresStore
from bleu_app.store.sqlite import SqliteStore

TEXT = "a translation long enough to need room of its own on the page " * 15  # 1,000 characters, as MAX_TEXT


def _until_full(op: Callable[[int], object], most: int = 2000) -> tuple[int, StoreUnavailableError]:
    """Run op(0), op(1), ... until the store says its disk is full; (calls that succeeded, the error)."""
    for i in range(most):
        try:
            op(i)
        except StoreUnavailableError as exc:
            return i, exc
    pytest.fail(f"{most} writes and the store never said it was full")


def test_a_full_sqlite_disk_refuses_each_write_with_one_message_and_keeps_what_it_acknowledged(tmp_path):
    store = SqliteStore(tmp_path / "bleu.sqlite3")
    room = store.create_room("src", ["ref"], {}).room
    students = [store.join(room.id, f"s{i}") for i in range(60)]
    with sqlite3.connect(tmp_path / "bleu.sqlite3") as db:
        pages = db.execute("PRAGMA page_count").fetchone()[0]
    store.close()  # every connection from now on has the cap: the database may grow by two pages only
    connect = store._connect

    def capped() -> sqlite3.Connection:
        conn = connect()
        conn.execute(f"PRAGMA max_page_count = {pages + 2}")
        return conn

    store._connect = capped  # type: ignore[method-assign]
    sent, exc = _until_full(lambda i: store.submit(students[i], f"{i} {TEXT}"[:1000]))
    assert exc.reason == "full"
    assert str(exc) == StoreUnavailableError.MESSAGES["full"]
    assert "disk is full" in str(exc)
    assert isinstance(exc.__cause__, sqlite3.OperationalError)  # the driver's error stays for the log
    joined, exc = _until_full(lambda i: store.join(room.id, f"late {i} " + "n" * 30))
    assert exc.reason == "full"
    _, exc = _until_full(lambda i: store.create_view({"page": "corpus"}, f"{i} {TEXT * 5}"))
    assert exc.reason == "full"
    _, exc = _until_full(lambda i: store.create_room(TEXT, [TEXT] * 8, {}))
    assert exc.reason == "full"
    # nothing half-written: what was acknowledged is stored, the refused submit is not
    store._connect = connect  # type: ignore[method-assign]
    store.close()
    texts = {s.student_id: s.text for s in store.submissions(room.id)}
    assert sorted(texts) == sorted(s.id for s in students[:sent])
    assert students[sent].id not in texts
    assert store.students_count(room.id) == 60 + joined
    with sqlite3.connect(tmp_path / "bleu.sqlite3") as db:
        assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    store.submit(students[sent], "sent once there is room again")  # and it recovers
    assert store.own_submission(students[sent]).text == "sent once there is room again"


def test_a_read_only_data_dir_is_one_readable_error_at_open_and_for_get_store(read_only_dir, monkeypatch):
    d, freeze = read_only_dir
    made = store_mod.open_store(None, d)
    code = made.create_room("src", ["ref"], {}).room.code
    made.close()
    freeze()
    with pytest.raises(StoreUnavailableError) as err:
        store_mod.open_store(None, d)
    assert err.value.reason == "read-only"
    assert str(err.value).startswith("The server's database is read-only, so nothing was saved")
    with pytest.raises(StoreUnavailableError):
        store_mod.open_store(None, d / "new")  # a store that does not exist yet cannot be made either
    monkeypatch.setenv(store_mod.DATA_DIR_ENV, str(d))
    monkeypatch.delenv(store_mod.DATABASE_URL_ENV, raising=False)
    monkeypatch.setattr(store_mod, "_stores", {})
    with pytest.raises(StoreUnavailableError):
        store_mod.get_store()  # what the class page and Share call first
    assert store_mod._stores == {}  # not kept: the next call tries again
    assert len(code) == store_mod.CODE_LEN


# --- PostgreSQL ------------------------------------------------------------------------------------------------
@pytest.fixture
def pg_store(pg_cluster) -> Iterator[PostgresStore]:
    store = PostgresStore(pg_cluster.new_database())
    yield store
    store.close()


@pytest.mark.postgres
def test_postgres_down_every_call_is_store_unavailable_and_nothing_is_half_written(pg_cluster, pg_store):
    s = pg_store
    new = s.create_room("src", ["ref"], {})
    room = new.room
    a, b = s.join(room.id, "a"), s.join(room.id, "b")
    sub = s.submit(a, "before the outage")
    view = s.create_view({"page": "sentence"}, '{"hyp": "x"}')
    pg_cluster.stop()
    try:
        calls: dict[str, Callable[[], object]] = {
            "create_room": lambda: s.create_room("src", ["ref"], {}),
            "room_by_code": lambda: s.room_by_code(room.code, client="k"),
            "room_by_teacher": lambda: s.room_by_teacher(new.teacher_token),
            "enrol": lambda: s.enrol(room.id, "c"),
            "submit": lambda: s.submit(a, "during the outage"),
            "set_round": lambda: s.set_round(room.id, 2, open_=True),
            "hide": lambda: s.hide(room.id, sub.id),
            "rate": lambda: s.rate(b, sub.id, 3),
            "room_state": lambda: s.room_state(room.id),
            "room_version": lambda: s.room_version(room.id),
            "delete_room": lambda: s.delete_room(room.id),
            "create_view": lambda: s.create_view({"page": "sentence"}, '{"hyp": "y"}'),
            "load_view": lambda: s.load_view(view.view.id),
            "delete_view": lambda: s.delete_view(view.view.id, view.delete_token),
            "purge_expired": s.purge_expired,
            "open_store": lambda: store_mod.open_store(s.url),
        }
        for name, call in calls.items():
            with pytest.raises(StoreUnavailableError) as err:
                call()
            assert err.value.reason == "down", name
            assert "database is unavailable" in str(err.value), name
    finally:
        pg_cluster.start()
    # F2: a view the database could not load raised instead of saying the view is gone; now it loads
    assert s.load_view(view.view.id).content == '{"hyp": "x"}'
    assert s.load_view("no-such-view") is None
    assert [x.text for x in s.submissions(room.id)] == ["before the outage"]
    assert s.room(room.id).round == 1
    assert s.students_count(room.id) == 2


@pytest.mark.postgres
def test_twenty_simultaneous_submits_after_a_postgres_restart_all_succeed(pg_cluster, pg_store):
    s = pg_store
    room = s.create_room("src", ["ref"], {}).room
    students = [s.join(room.id, f"s{i}") for i in range(20)]

    def burst(text: str) -> list[BaseException]:
        errors: list[BaseException] = []
        start = threading.Barrier(len(students))

        def one(st) -> None:
            start.wait()
            try:
                s.submit(st, f"{text} {st.nickname}")
            except BaseException as exc:
                errors.append(exc)

        threads = [threading.Thread(target=one, args=(st,)) for st in students]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        return errors

    assert burst("before") == []
    assert s._idle.qsize() > 0  # the burst left pooled connections, which the restart kills
    pg_cluster.stop()
    pg_cluster.start()
    assert burst("after") == []
    assert sorted(x.text for x in s.submissions(room.id)) == sorted(f"after s{i}" for i in range(20))


def test_store_errors_are_one_family():
    """What the UI catches: every class the store raises is a StoreError."""
    for cls in (
        store_mod.StoreUnavailableError,
        store_mod.LimitReachedError,
        store_mod.NicknameTakenError,
        store_mod.NotYoursError,
        store_mod.RoomGoneError,
    ):
        assert issubclass(cls, StoreError)
