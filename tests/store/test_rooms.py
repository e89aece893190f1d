"""Issue 36, S2, F3, P2 and the dashboard's version: a student bound to their browser by a secret, text that
cannot reverse what is projected, a purge in one statement per table, and a room version that moves on every
write to the room. On SQLite and PostgreSQL (``store_env``), and a store made before these (schema version 1)."""

from __future__ import annotations

import hashlib
import sqlite3

import pytest

from bleu_app import store as store_mod
from bleu_app.store import NotYoursError, RoomGoneError, StoreError
from bleu_app.store.base import MIGRATIONS
from bleu_app.store.model import clean_text
from bleu_app.store.sqlite import SqliteStore


def _room(store):
    return store.create_room("src", ["the cat sat on the mat"], {"tokenize": "13a"})


# --- S2: a student bound to their browser ----------------------------------------------------------------------
def test_a_student_link_opened_in_another_browser_cannot_overwrite_their_work(store_env):
    room = _room(store_env).room
    alice = store_env.enrol(room.id, "alice")
    assert len(alice.secret) >= 32
    me = store_env.identify(alice.student.id, alice.secret)
    assert me.student == alice.student
    assert me.yours
    for other in ("", "x" * 32, None, store_env.enrol(room.id, "bob").secret):
        them = store_env.identify(alice.student.id, other)
        assert them.student == alice.student  # the UI can ask "You are alice?"
        assert not them.yours
    assert store_env.identify("no-such-student", alice.secret).student is None
    unbound = store_env.join(room.id, "joined without a secret")  # as every student before issue 36
    assert store_env.identify(unbound.id, None).yours
    store_env.submit(alice.student, "alice's own words", secret=alice.secret)
    with pytest.raises(NotYoursError, match="This link is “alice”'s, not yours, so nothing was sent"):
        store_env.submit(alice.student, "overwritten by someone holding alice's link", secret="wrong")
    assert store_env.own_submission(alice.student).text == "alice's own words"
    bob = store_env.enrol(room.id, "bob2")
    store_env.submit(bob.student, "bob's words", secret=bob.secret)
    store_env.set_round(room.id, 2, open_=True)
    sub = store_env.own_submission(bob.student)
    with pytest.raises(NotYoursError):
        store_env.rate(alice.student, sub.id, 1, secret=bob.secret)
    assert store_env.ratings(room.id) == []
    store_env.rate(alice.student, sub.id, 4, secret=alice.secret)
    assert [r.rating for r in store_env.ratings(room.id)] == [4]


def test_a_forms_ratings_are_saved_together_or_not_at_all(store_env):
    room = _room(store_env).room
    students = [store_env.enrol(room.id, nick) for nick in ("a", "b", "c")]
    for s in students:
        store_env.submit(s.student, f"{s.student.nickname}'s words", secret=s.secret)
    store_env.set_round(room.id, 2, open_=True)
    a, b, c = (store_env.own_submission(s.student) for s in students)
    rater = students[0]
    before = store_env.room_version(room.id)
    with pytest.raises(StoreError, match="Students do not rate their own translation"):  # the last one is refused
        store_env.rate_many(rater.student, {b.id: 5, c.id: 2, a.id: 3}, secret=rater.secret)
    assert store_env.ratings(room.id) == []  # ... and the two before it were not saved either
    assert store_env.room_version(room.id) == before
    assert store_env.rate_many(rater.student, {b.id: 5, c.id: 2}, secret=rater.secret) == 2
    assert sorted(r.rating for r in store_env.ratings(room.id)) == [2, 5]
    with pytest.raises(StoreError, match="whole number from 1 to 5"):
        store_env.rate_many(rater.student, {b.id: 1, c.id: 6}, secret=rater.secret)
    assert sorted(r.rating for r in store_env.ratings(room.id)) == [2, 5]
    assert store_env.rate_many(rater.student, {}, secret=rater.secret) == 0


def test_the_browser_secret_is_stored_only_as_its_hash(store_env):
    room = _room(store_env).room
    new = store_env.enrol(room.id, "alice")
    with store_env._tx() as cur:
        store_env._run(cur, "SELECT * FROM students WHERE id = ?", (new.student.id,))
        row = cur.fetchone()
    assert new.secret not in [str(v) for v in row]
    assert hashlib.sha256(new.secret.encode()).hexdigest() in row


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def old_store(request, tmp_path):
    """A function that opens a store whose database was made at schema version 1 (before issue 36) and holds a
    room ABC234 (teacher token "tok") with two students, s1 and s2, both called alice."""
    rows = [
        "CREATE TABLE schema_version (version INTEGER PRIMARY KEY)",
        *MIGRATIONS[0][1],
        "INSERT INTO schema_version VALUES (1)",
        "INSERT INTO rooms (id, code, teacher_hash, source, refs, config, created_at, expires_at) "
        f"VALUES ('r1', 'ABC234', '{hashlib.sha256(b'tok').hexdigest()}', 'src', '[\"the cat\"]', '{{}}', 0, 9e12)",
        "INSERT INTO students (id, room_id, nickname, joined_at) VALUES ('s1', 'r1', 'alice', 0)",
        "INSERT INTO students (id, room_id, nickname, joined_at) VALUES ('s2', 'r1', 'alice', 0)",
    ]
    if request.param == "sqlite":
        path = tmp_path / "old.sqlite3"
        with sqlite3.connect(path) as db:
            for stmt in rows:
                db.execute(stmt)
        db.close()
        return lambda: SqliteStore(path)
    import psycopg

    from bleu_app.store.postgres import PostgresStore

    url = request.getfixturevalue("postgres_server")()
    with psycopg.connect(url) as db:
        for stmt in rows:
            db.execute(stmt)
    return lambda: PostgresStore(url)


def test_a_store_of_schema_version_1_migrates_and_its_rooms_keep_working(old_store):
    """Rooms made before issue 36: their students have no secret (anybody's, as before), their names may repeat,
    and their codes have 6 characters."""
    s = old_store()
    assert s.schema_version() == MIGRATIONS[-1][0]
    room = s.room_by_code("abc234")
    assert room.version == 0
    assert s.room_by_teacher("tok") == room
    old = s.identify("s1", None)
    assert old.yours  # no secret to hold: the link is the student, as before
    s.submit(old.student, "still works", secret="whatever this browser has")
    assert s.own_submission(old.student).text == "still works"
    assert s.room_version(room.id) == 1
    new = s.enrol(room.id, "carol")
    assert not s.identify(new.student.id, None).yours
    assert s.students_count(room.id) == 3
    s.close()


# --- the dashboard's room version ---------------------------------------------------------------------------
def test_the_room_version_moves_on_every_write_to_the_room_and_only_then(store_env):
    room = _room(store_env).room
    seen = [store_env.room_version(room.id)]
    assert seen == [0]

    def moved() -> bool:
        v = store_env.room_version(room.id)
        fresh = v > seen[-1]
        seen.append(v)
        return fresh

    a, b = store_env.join(room.id, "a"), store_env.join(room.id, "b")
    assert moved()
    sub = store_env.submit(a, "the cat sat")
    assert moved()
    store_env.submit(b, "a cat")
    assert moved()
    store_env.hide(room.id, sub.id)
    assert moved()
    store_env.room_state(room.id), store_env.submissions(room.id), store_env.to_rate(b)  # reads
    store_env.room(room.id), store_env.ratings(room.id), store_env.students_count(room.id)
    assert not moved()
    store_env.set_round(room.id, 2, open_=True)
    assert moved()
    with pytest.raises(StoreError, match="Translation is closed"):
        store_env.submit(a, "too late")  # a refused write changes nothing, the version included
    assert not moved()
    store_env.hide(room.id, sub.id, hidden=False)
    store_env.rate(b, sub.id, 5)
    assert moved()
    other = _room(store_env).room
    store_env.join(other.id, "elsewhere")
    assert not moved()  # another room's writes
    state = store_env.room_state(room.id)
    assert state.room.version == seen[-1]
    assert (state.students, len(state.submissions), len(state.ratings)) == (2, 2, 1)
    store_env.delete_room(room.id)
    assert store_env.room_version(room.id) is None
    assert store_env.room_state(room.id) is None
    with pytest.raises(RoomGoneError):
        store_env.join(room.id, "c")


# --- F3: text that cannot reverse what is projected --------------------------------------------------------
@pytest.mark.parametrize(
    ("typed", "stored"),
    [
        ("\u202eloot", "loot"),  # RLO: "tool" on the projector
        ("\u2067evil\u2069 name", "evil name"),  # an isolate
        ("al\u200bice", "alice"),  # a zero-width space: looks like alice
        ("\ufeffbob\u00ad", "bob"),  # BOM, soft hyphen
        ("two\nlines\tand  spaces", "two lines and spaces"),
        ("👩\u200d💻 dev", "👩\u200d💻 dev"),  # an emoji's joiner stays
        ("\u05d3\u05e0\u05d4", "\u05d3\u05e0\u05d4"),  # Hebrew as typed
    ],
)
def test_nicknames_lose_invisible_and_reordering_characters(store_env, typed, stored):
    room = _room(store_env).room
    assert store_env.join(room.id, typed).nickname == stored


@pytest.mark.parametrize(
    ("typed", "stored"),
    [
        ("\u202eloot OFFENSIVE\u202c", "loot OFFENSIVE"),
        ("a \u202bb c\u202c d \u2066e\u2069", "a b c d e"),
        ("\u0645\u0631\u062d\u0628\u0627 \u0628\u0627\u0644\u0639\u0627\u0644\u0645", None),  # Arabic
        ("\u05e9\u05dc\u05d5\u05dd, world\u200f.", None),  # Hebrew with a right-to-left mark
        ("\u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645", None),  # Persian's zero-width non-joiner
        ("\u0e20\u0e32\u0e29\u0e32\u200b\u0e44\u0e17\u0e22", None),  # Thai's zero-width space between words
    ],
)
def test_texts_lose_only_bidi_overrides_embeddings_and_isolates(store_env, typed, stored):
    room = _room(store_env).room
    st = store_env.join(room.id, "")
    assert store_env.submit(st, typed).text == (stored or typed)
    assert store_env.own_submission(st).text == (stored or typed)
    assert clean_text(typed, what="x") == (stored or typed)


# --- P2: the purge --------------------------------------------------------------------------------------------
def _fill(store, n: int) -> None:
    for i in range(n):
        room = store.create_room("src", ["ref"], {}, ttl_s=60).room
        a, b = store.join(room.id, f"a{i}"), store.join(room.id, f"b{i}")
        sub = store.submit(a, "t")
        store.submit(b, "u")
        store.set_round(room.id, 2, open_=True)
        store.rate(b, sub.id, 3)
        store.create_view({"page": "sentence"}, f"view {i}", ttl_s=60)


def test_the_purge_is_one_statement_per_table_however_many_rooms_expired(store_env):
    """P2: one transaction per expired room made "Create the room" wait 3 s behind 10,000 of them."""
    counts = []
    run = store_env._run
    for n in (1, 25):
        _fill(store_env, n)
        now = store_env.clock()
        store_env.clock = lambda now=now: now + 61
        statements: list[str] = []

        def counted(cur, sql, params=(), into=statements):
            into.append(sql)
            return run(cur, sql, params)

        store_env._run = counted
        try:
            assert store_env.purge_expired() == 2 * n
        finally:
            del store_env._run
        counts.append(len(statements))
        with store_env._tx() as cur:
            for table in ("rooms", "students", "submissions", "ratings", "views", "corpora"):
                store_env._run(cur, f"SELECT COUNT(*) FROM {table}")
                assert cur.fetchone()[0] == 0, table  # the foreign keys cascaded
    assert counts[0] == counts[1] <= 4


def test_get_store_purges_with_a_database_that_refuses_and_tries_again(monkeypatch, tmp_path):
    monkeypatch.setenv(store_mod.DATA_DIR_ENV, str(tmp_path))
    monkeypatch.delenv(store_mod.DATABASE_URL_ENV, raising=False)
    monkeypatch.setattr(store_mod, "_stores", {})
    monkeypatch.setattr(store_mod, "_purged", {})
    s = store_mod.get_store()
    calls = []

    def refuse() -> int:
        calls.append(1)
        raise store_mod.StoreUnavailableError("read-only")

    monkeypatch.setattr(s, "purge_expired", refuse)
    store_mod._purged.clear()
    assert store_mod.get_store() is s  # a read-only store still serves what it holds
    assert store_mod.get_store() is s
    assert len(calls) == 2  # and the purge is tried again, not marked done
    s.close()
