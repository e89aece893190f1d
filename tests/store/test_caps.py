"""Issue 36, S3-S6 and P3: caps and throttles, each flooded from one client key on SQLite and PostgreSQL
(``store_env``). Each refusal is a LimitReachedError naming its limit, its value and what to do; other clients
are not refused; a full views' store forgets the largest views instead of refusing everyone."""

from __future__ import annotations

import dataclasses
import re
import threading
from pathlib import Path

import pytest

from bleu_app import store as store_mod
from bleu_app.store import LimitReachedError, NicknameTakenError, StoreError
from bleu_app.store.model import CODE_ALPHABET, CODE_LEN, GUESS_WINDOW_S, SENTENCE_VIEW_BYTES, Limits


def _limit(store, **kw) -> None:
    store.limits = dataclasses.replace(store.limits, **kw)


def _room(store, client: str = ""):
    return store.create_room("src", ["ref"], {}, client=client)


def test_students_per_room(store_env):
    _limit(store_env, students_per_room=5)
    room, other = _room(store_env).room, _room(store_env).room
    for i in range(5):
        store_env.join(room.id, f"s{i}")
    with pytest.raises(LimitReachedError, match="This room is full: 5 students") as err:
        store_env.join(room.id, "one too many")
    assert err.value.limit == "students_per_room"
    assert "second room" in str(err.value)
    assert store_env.students_count(room.id) == 5
    store_env.join(other.id, "elsewhere")  # per room


def test_students_per_room_holds_under_simultaneous_joins(store_env):
    _limit(store_env, students_per_room=5)
    room = _room(store_env).room
    outcomes: list[str] = []
    start = threading.Barrier(12)

    def one(i: int) -> None:
        start.wait()
        try:
            store_env.join(room.id, f"s{i}")
            outcomes.append("in")
        except LimitReachedError:
            outcomes.append("full")

    threads = [threading.Thread(target=one, args=(i,)) for i in range(12)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(outcomes) == ["full"] * 7 + ["in"] * 5
    assert store_env.students_count(room.id) == 5


def test_rooms_per_client_and_live_rooms(store_env):
    _limit(store_env, rooms_per_client=3, rooms=5)
    mine = [_room(store_env, client="session-a") for _ in range(3)]
    with pytest.raises(LimitReachedError, match="already have 3 open rooms") as err:
        _room(store_env, client="session-a")
    assert err.value.limit == "rooms_per_client"
    _room(store_env, client="session-b")  # another client is not refused
    store_env.delete_room(mine[0].room.id)
    _room(store_env, client="session-a")  # a deleted room no longer counts
    _room(store_env)  # the fifth live room
    with pytest.raises(LimitReachedError, match="already holds 5 open rooms") as err:
        _room(store_env, client="session-c")
    assert err.value.limit == "rooms"
    now = store_env.clock()
    store_env.clock = lambda: now + 25 * 3600  # they expire: the cap counts live rooms only
    _room(store_env, client="session-a")


def test_shared_views_per_client_and_size(store_env):
    _limit(store_env, views_per_client=3, view_mb=1)
    for i in range(3):
        store_env.create_view({"page": "sentence"}, f'{{"hyp": "{i}"}}', client="session-a")
    with pytest.raises(LimitReachedError, match="shared 3 views") as err:
        store_env.create_view({"page": "sentence"}, '{"hyp": "3"}', client="session-a")
    assert err.value.limit == "views_per_client"
    store_env.create_view({"page": "sentence"}, '{"hyp": "3"}', client="session-b")
    corpora = store_env.corpora_count()
    huge = "spam " * 4_000_000  # the probe's 19.5 MB sentence
    with pytest.raises(LimitReachedError, match="one sentence may take 256 KB") as err:
        store_env.create_view({"page": "sentence"}, huge, client="session-c")
    assert err.value.limit == "view_size"
    store_env.create_view({"page": "sentence"}, "x" * SENTENCE_VIEW_BYTES)  # the page's own largest
    with pytest.raises(LimitReachedError, match=r"2\.0 MB, and one shared corpus may take 1\.0 MB"):
        store_env.create_view({"page": "corpus"}, "y" * 2 * 2**20)
    assert store_env.corpora_count() == corpora + 1  # nothing of the refused views was stored


def test_a_full_views_store_forgets_the_largest_views_not_everyone(store_env):
    """S3: one client filled the 200 MB store and every other share was refused for 30 days."""
    _limit(store_env, views_mb=10_000 / 2**20, view_mb=3_000 / 2**20)  # 10,000 bytes; 3,000 a view
    legit = store_env.create_view({"page": "corpus"}, "a legitimate corpus " * 10, client="teacher")
    flood = [store_env.create_view({"page": "corpus"}, f"{i:04d}" + "f" * 2_996, client="flood") for i in range(12)]
    late = store_env.create_view({"page": "corpus"}, "another legitimate corpus " * 10, client="student")
    assert store_env.load_view(legit.view.id).content == "a legitimate corpus " * 10
    assert store_env.load_view(late.view.id) is not None
    assert store_env.load_view(flood[-1].view.id) is not None  # the newest flood view was stored too
    assert store_env.load_view(flood[0].view.id) is None  # the oldest of the largest went first
    with store_env._tx() as cur:
        store_env._run(cur, "SELECT SUM(bytes) FROM corpora")
        assert int(cur.fetchone()[0]) <= 10_000


def test_room_codes_are_eight_characters_and_guesses_are_budgeted(store_env):
    _limit(store_env, code_guesses=5)
    room = _room(store_env).room
    assert len(room.code) == CODE_LEN == 8
    assert set(room.code) <= set(CODE_ALPHABET)
    wrong = "ABCDEFGH" if room.code != "ABCDEFGH" else "HGFEDCBA"
    for _ in range(5):
        assert store_env.room_by_code(wrong, client="guesser") is None
    with pytest.raises(LimitReachedError, match="Too many wrong room codes") as err:
        store_env.room_by_code(room.code, client="guesser")  # past the budget even the right code waits
    assert err.value.limit == "code_guesses"
    assert store_env.room_by_code(room.code, client="student") == room  # another client is not refused
    for _ in range(20):
        assert store_env.room_by_code(room.code, client="student") == room  # right codes never count
    now = store_env.clock()
    store_env.clock = lambda: now + GUESS_WINDOW_S + 1
    assert store_env.room_by_code(room.code, client="guesser") is not None  # the wrong guesses aged out


@pytest.mark.parametrize("taken", ["alice", " ALICE ", "Alice\u200b", "A\u200dlice", "ａｌｉｃｅ", "alice\u202e"])
def test_nicknames_are_unique_in_a_room_without_case(store_env, taken):
    room, other = _room(store_env).room, _room(store_env).room
    store_env.join(room.id, "Alice")
    with pytest.raises(NicknameTakenError, match="already called"):
        store_env.join(room.id, taken)
    store_env.join(other.id, taken)  # another room may have its own Alice
    store_env.join(room.id, "")  # the anonymous are many
    store_env.join(room.id, "")
    assert store_env.students_count(room.id) == 3


@pytest.mark.parametrize("name", ["Teacher", "TEACHER", "the teacher", "Teacher 2", "t.e.a.c.h.e.r", "Admin"])
def test_teacher_names_are_reserved(store_env, name):
    room = _room(store_env).room
    with pytest.raises(NicknameTakenError, match="kept for the teacher"):
        store_env.join(room.id, name)
    assert store_env.students_count(room.id) == 0


def test_one_nickname_under_simultaneous_joins(store_env):
    room = _room(store_env).room
    outcomes: list[BaseException | None] = []
    start = threading.Barrier(8)

    def one() -> None:
        start.wait()
        try:
            store_env.join(room.id, "Bob")
            outcomes.append(None)
        except StoreError as exc:
            outcomes.append(exc)

    threads = [threading.Thread(target=one) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert outcomes.count(None) == 1
    assert all(isinstance(o, NicknameTakenError) for o in outcomes if o is not None)
    assert store_env.students_count(room.id) == 1


def test_limits_come_from_the_environment(monkeypatch, tmp_path):
    monkeypatch.setenv("BLEU_EXPLORER_MAX_STUDENTS", "2")
    monkeypatch.setenv("BLEU_EXPLORER_VIEWS_MAX_MB", "0.5")
    s = store_mod.open_store(None, tmp_path)
    assert s.limits == Limits(students_per_room=2, views_mb=0.5)
    room = _room(s).room
    s.join(room.id, "a")
    s.join(room.id, "b")
    with pytest.raises(LimitReachedError, match="2 students"):
        s.join(room.id, "c")
    s.close()
    monkeypatch.setenv("BLEU_EXPLORER_MAX_ROOMS", "many")
    with pytest.raises(StoreError, match="BLEU_EXPLORER_MAX_ROOMS must be a whole number of at least 1, got 'many'"):
        store_mod.open_store(None, tmp_path)
    assert set(store_mod.LIMIT_ENV) == {f.name for f in dataclasses.fields(Limits)}


def test_the_serving_notes_list_every_limit_with_its_default():
    readme = (Path(__file__).resolve().parents[2] / "docs" / "serving.md").read_text()
    rows = dict(re.findall(r"^\| `(BLEU_EXPLORER_\w+)` \| ([\d.]+) \|", readme, flags=re.M))
    defaults = Limits()
    from bleu_app.ui import serving  # the one limit that is the web server's, not the store's

    assert rows.pop(serving.PROCESS_UPLOAD_ENV) == f"{serving.PROCESS_UPLOAD_MB:g}"
    assert rows == {env: f"{getattr(defaults, name):g}" for name, env in store_mod.LIMIT_ENV.items()}
