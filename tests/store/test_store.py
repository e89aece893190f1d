"""The store's contract, run on SQLite and on PostgreSQL (``store_env``): rooms, rounds, limits, expiry, deletion,
concurrent writers, corpora stored once, views, and two processes sharing one store."""

from __future__ import annotations

import dataclasses
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from bleu_app import store as store_mod
from bleu_app.store import ROUND_RATE, ROUND_TRANSLATE, StoreError
from bleu_app.store.base import MIGRATIONS
from bleu_app.store.model import CODE_LEN
from bleu_core.teaching.paper import EXAMPLE_1

ROOT = Path(__file__).resolve().parents[2]
REFS = EXAMPLE_1.references


def _room(store):
    return store.create_room("Fix this: " + EXAMPLE_1.candidates[1], REFS, {"tokenize": "13a"})


def test_migrations_reach_the_last_version_and_are_idempotent(store_env):
    last = MIGRATIONS[-1][0]
    assert store_env.schema_version() == last
    assert store_env.migrate() == last  # a second process starting finds nothing to do
    assert store_env.schema_version() == last


def test_room_codes_tokens_and_lookup(store_env):
    new = _room(store_env)
    room = new.room
    assert len(room.code) == CODE_LEN
    assert room.code.isalnum()
    assert room.code.isupper()
    assert store_env.room_by_code(room.code.lower()) == room
    assert store_env.room_by_teacher(new.teacher_token) == room
    assert store_env.room_by_teacher(room.code) is None  # the student's code is not the teacher's secret
    assert store_env.room_by_teacher(room.id) is None
    assert room.refs == REFS
    assert room.round == ROUND_TRANSLATE
    assert room.round_open


def test_submit_is_one_per_student_and_editable_until_close(store_env):
    room = _room(store_env).room
    ann, bob = store_env.join(room.id, "Ann"), store_env.join(room.id, "")
    store_env.submit(ann, "first try")
    store_env.submit(ann, "second try")
    store_env.submit(bob, "bob's")
    subs = store_env.submissions(room.id)
    assert sorted(s.text for s in subs) == ["bob's", "second try"]
    assert store_env.own_submission(ann).text == "second try"
    store_env.set_round(room.id, ROUND_TRANSLATE, open_=False)
    with pytest.raises(StoreError, match="Translation is closed"):
        store_env.submit(ann, "too late")
    assert store_env.own_submission(ann).text == "second try"


def test_limits(store_env):
    room = _room(store_env).room
    ann = store_env.join(room.id, "Ann")
    with pytest.raises(StoreError, match="too long: 1,001 characters, at most 1,000"):
        store_env.submit(ann, "x" * 1001)
    with pytest.raises(StoreError, match="empty"):
        store_env.submit(ann, "   ")
    with pytest.raises(StoreError, match="nickname is too long"):
        store_env.join(room.id, "n" * 41)
    with pytest.raises(StoreError, match="No reference"):
        store_env.create_room("src", ["", " "], {})


def test_ratings_round(store_env):
    room = _room(store_env).room
    students = [store_env.join(room.id, f"s{i}") for i in range(4)]
    subs = [store_env.submit(s, f"translation {i}") for i, s in enumerate(students)]
    with pytest.raises(StoreError, match="Rating is closed"):
        store_env.rate(students[0], subs[1].id, 3)
    store_env.set_round(room.id, ROUND_RATE, open_=True)
    with pytest.raises(StoreError, match="Translation is closed"):
        store_env.submit(students[0], "late edit")
    shown = store_env.to_rate(students[0], k=3)
    assert len(shown) == 3
    assert subs[0].id not in {s.id for s in shown}
    with pytest.raises(StoreError, match="own translation"):
        store_env.rate(students[0], subs[0].id, 4)
    for bad in (0, 6, 2.5):
        with pytest.raises(StoreError, match="from 1 to 5"):
            store_env.rate(students[0], subs[1].id, bad)
    store_env.rate(students[0], subs[1].id, 2)
    store_env.rate(students[0], subs[1].id, 5)  # the last rating counts
    store_env.rate(students[2], subs[1].id, 4)
    got = sorted((r.student_id, r.submission_id, r.rating) for r in store_env.ratings(room.id))
    assert got == sorted([(students[0].id, subs[1].id, 5), (students[2].id, subs[1].id, 4)])
    # the least-rated translations come first for the next rater
    assert subs[1].id not in {s.id for s in store_env.to_rate(students[3], k=2)}


def test_hidden_translations_are_not_given_to_rate(store_env):
    room = _room(store_env).room
    a, b = store_env.join(room.id, "a"), store_env.join(room.id, "b")
    sub = store_env.submit(a, "rude words")
    store_env.hide(room.id, sub.id)
    assert store_env.submissions(room.id)[0].hidden
    assert store_env.to_rate(b) == []
    assert store_env.submissions(room.id, include_hidden=False) == []


def test_a_removed_student_takes_their_translation_and_ratings(store_env):
    room = _room(store_env).room
    a, b, c = (store_env.join(room.id, n) for n in ("a", "b", "c"))
    sub_a, sub_b = store_env.submit(a, "rude words"), store_env.submit(b, "fine words")
    store_env.set_round(room.id, ROUND_RATE, open_=True)
    store_env.rate(a, sub_b.id, 1)
    store_env.rate(c, sub_a.id, 5)
    store_env.rate(c, sub_b.id, 4)
    before = store_env.room_version(room.id)
    store_env.remove_student(room.id, a.id)
    assert store_env.room_version(room.id) == before + 1  # the dashboard redraws
    assert store_env.student(a.id) is None
    assert [s.text for s in store_env.submissions(room.id)] == ["fine words"]
    assert [(r.student_id, r.rating) for r in store_env.ratings(room.id)] == [(c.id, 4)]
    assert store_env.students_count(room.id) == 2
    other = _room(store_env).room  # a student id of another room removes nobody there
    store_env.remove_student(other.id, b.id)
    assert store_env.student(b.id) is not None


def test_expiry_and_delete(store_env):
    now = [1_000_000.0]
    store_env.clock = lambda: now[0]
    new = store_env.create_room("src", ["ref"], {}, ttl_s=3600)
    ann = store_env.join(new.room.id, "Ann")
    store_env.submit(ann, "hello")
    now[0] += 3599
    assert store_env.room_by_code(new.room.code) is not None
    now[0] += 2
    assert store_env.room_by_code(new.room.code) is None
    assert store_env.room_by_teacher(new.teacher_token) is None
    with pytest.raises(StoreError, match="no longer exists"):
        store_env.join(new.room.id, "late")
    assert store_env.purge_expired() >= 1
    assert store_env.submissions(new.room.id) == []
    assert store_env.student(ann.id) is None
    other = store_env.create_room("src", ["ref"], {})
    store_env.submit(store_env.join(other.room.id, "x"), "text")
    store_env.delete_room(other.room.id)
    assert store_env.room(other.room.id) is None
    assert store_env.submissions(other.room.id) == []


def test_concurrent_submissions_none_lost(store_env):
    room = _room(store_env).room
    students = [store_env.join(room.id, f"s{i}") for i in range(40)]
    errors: list[BaseException] = []

    def work(chunk):
        try:
            for s in chunk:
                store_env.submit(s, f"text of {s.nickname}")
        except BaseException as exc:  # pragma: no cover - reported below
            errors.append(exc)

    threads = [threading.Thread(target=work, args=(students[i::8],)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert sorted(s.text for s in store_env.submissions(room.id)) == sorted(f"text of s{i}" for i in range(40))


def test_corpus_stored_once_and_views(store_env):
    corpus = '{"hyp": ["a b c"], "refs": [["a b d"]]}'
    v1 = store_env.create_view({"page": "corpus", "tok": "13a"}, corpus)
    v2 = store_env.create_view({"page": "corpus", "tok": "intl"}, corpus)
    assert v1.view.digest == v2.view.digest == store_mod.digest_of(corpus)
    assert store_env.corpora_count() == 1
    assert store_env.corpus(v1.view.digest) == corpus
    got = store_env.view(v1.view.id)
    assert got.settings == {"page": "corpus", "tok": "13a"}
    assert len(v1.view.id) >= 20
    assert v1.view.id != v2.view.id
    assert not store_env.delete_view(v1.view.id, v2.delete_token)
    assert store_env.delete_view(v1.view.id, v1.delete_token)
    assert store_env.view(v1.view.id) is None
    assert store_env.view(v2.view.id) is not None
    assert store_env.corpus(v1.view.digest) == corpus  # v2 still uses it
    assert store_env.delete_view(v2.view.id, v2.delete_token)
    assert store_env.corpora_count() == 0  # the last view gone: its corpus at once, not at the next purge
    assert store_env.corpus(v1.view.digest) is None


_OTHER_PROCESS = """
import sys
from bleu_app.store import get_store
s = get_store()
room = s.room_by_code(sys.argv[1])
st = s.join(room.id, "from another process")
s.submit(st, "written by process two")
print(s.backend)
"""


def test_two_processes_share_one_store(store_env):
    new = _room(store_env)
    out = subprocess.run(
        [sys.executable, "-c", _OTHER_PROCESS, new.room.code], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert out.stdout.strip() == store_env.backend
    subs = store_env.submissions(new.room.id)
    assert [(s.nickname, s.text) for s in subs] == [("from another process", "written by process two")]


def test_bad_database_url(monkeypatch, tmp_path):
    with pytest.raises(StoreError, match="must start with postgresql://"):
        store_mod.open_store("mysql://x")


def test_views_have_a_size_cap_and_expire(store_env):
    """A full views' store forgets its largest views to take a new one (issue 36, S3: it refused everyone)."""
    store_env.limits = dataclasses.replace(store_env.limits, views_mb=10 / 2**20)  # 10 bytes
    first = store_env.create_view({"page": "sentence"}, "12345")
    store_env.create_view({"page": "sentence"}, "12345")  # the same corpus again costs nothing
    assert store_env.corpora_count() == 1
    second = store_env.create_view({"page": "sentence"}, "123456")
    assert store_env.load_view(first.view.id) is None
    assert store_env.load_view(second.view.id).content == "123456"
    now = [store_env.clock()]
    store_env.clock = lambda: now[0]
    v = store_env.create_view({"page": "sentence"}, "1234", ttl_s=60)
    now[0] += 61
    assert store_env.view(v.view.id) is None


def test_a_long_running_server_purges_expired_rows_hourly(monkeypatch, tmp_path):
    """get_store() purges at first use and then whenever its last purge is PURGE_EVERY_S old: a server that runs
    for weeks does not keep a month of expired rooms and views (until the store is full)."""
    monkeypatch.setenv(store_mod.DATA_DIR_ENV, str(tmp_path))
    monkeypatch.delenv(store_mod.DATABASE_URL_ENV, raising=False)
    monkeypatch.setattr(store_mod, "_stores", {})
    monkeypatch.setattr(store_mod, "_purged", {})
    mono = [500.0]
    monkeypatch.setattr(store_mod, "_monotonic", lambda: mono[0])
    s = store_mod.get_store()
    wall = [s.clock()]
    s.clock = lambda: wall[0]
    room = s.create_room("src", ["ref"], {}, ttl_s=60)
    view = s.create_view({"page": "sentence"}, "some corpus", ttl_s=60)
    wall[0] += 61  # both expired
    mono[0] += store_mod.PURGE_EVERY_S - 1
    assert store_mod.get_store() is s
    assert s.corpora_count() == 1  # not yet: the last purge is under an hour old
    mono[0] += 1
    store_mod.get_store()
    assert s.corpora_count() == 0
    assert s.room(room.room.id) is None
    assert s.view(view.view.id) is None
    s.close()
