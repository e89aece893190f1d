"""bench/class_load.py against a live server (a process of its own) while this process plays the teacher through
the same store: SQLite file and PostgreSQL database. Every acknowledged translation and rating is in the store."""

from __future__ import annotations

import pytest

from bench import class_load

pytestmark = pytest.mark.live  # a server process of its own (two in the second test)
BACKENDS = ["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)]


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_small_class_over_the_websocket_loses_nothing(backend, request):
    url = request.getfixturevalue("postgres_server")() if backend == "postgresql" else ""
    r = class_load.run_class(students=6, spread=1.0, database_url=url)
    assert r.backend == backend
    assert r.failures == 0
    assert len(r.submit_to_score_s) == 6  # every student saw "Your sentence BLEU" after sending
    assert r.acknowledged_submissions == r.stored_submissions == 6
    assert r.acknowledged_ratings == r.stored_ratings == 6 * class_load_rated(6)
    assert r.lost == 0
    assert r.cpu_s > 0
    assert "lost 0" in class_load.report(r)


def class_load_rated(n: int) -> int:
    """Each student rates RATE_K others, or all the others in a class smaller than that."""
    from bleu_app.ui.classroom.student import RATE_K

    return min(RATE_K, n - 1)


async def _two_servers(a, b, code: str, token: str) -> dict[str, object]:
    students = []
    for i, text in enumerate(["It is a guide to action.", "The army heeds the party."]):
        s = class_load.ClassSession(a.url, "class", f"room={code}")
        await s.open()
        await s.rerun()
        s.set_string("class.nick", f"s{i}")
        await s.click("class.join_room")
        s.set_string("class.translation", text)
        await s.click("class.submit")
        students.append(s)
    teacher = class_load.ClassSession(b.url, "class", f"teach={token}")
    await teacher.open()
    await teacher.rerun()
    seen = dict(teacher.metrics)
    await teacher.click("class.round.2.True")  # the teacher, on the other process, opens rating
    await students[0].click("class.refresh")
    radios = [k for k in students[0].widgets if k.startswith("class.rating.")]
    for k in radios:
        students[0].set_string(k, "4")
    await students[0].click("class.rate_send")
    await teacher.rerun()
    out = {"before": seen, "after": dict(teacher.metrics), "score": students[0].metrics, "radios": len(radios)}
    for s in [*students, teacher]:
        await s.close()
    return out


@pytest.mark.parametrize("backend", BACKENDS)
def test_students_on_one_process_teacher_on_another(backend, request, tmp_path, monkeypatch):
    from bench.load import ROOT, Server, _run
    from bleu_app.store import DATA_DIR_ENV, DATABASE_URL_ENV, open_store

    url = request.getfixturevalue("postgres_server")() if backend == "postgresql" else ""
    monkeypatch.setenv(DATA_DIR_ENV, str(tmp_path))
    if url:
        monkeypatch.setenv(DATABASE_URL_ENV, url)
    else:
        monkeypatch.delenv(DATABASE_URL_ENV, raising=False)
    store = open_store(url or None, tmp_path)
    new = store.create_room("Translate: x", ["It is a guide to action that ensures the party."], {"tokenize": "13a"})
    with Server(ROOT) as a, Server(ROOT) as b:
        out = _run(_two_servers(a, b, new.room.code, new.teacher_token))
    assert out["score"].get("Your sentence BLEU")  # the student saw a score on process A
    assert out["before"]["Joined"] == "2"  # process B's dashboard sees both students of process A
    assert out["before"]["Translations"] == "2"
    assert out["radios"] == 1  # the other student's translation, offered after B opened round 2
    assert out["after"]["Ratings"] == "1"
    assert [r.rating for r in store.ratings(new.room.id)] == [4]
    store.close()
