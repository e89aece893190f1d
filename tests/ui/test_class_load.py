"""bench/class_load.py against a live server (a process of its own) while this process plays the teacher through
the same store: SQLite file and PostgreSQL database. Every acknowledged translation and rating is in the store."""

from __future__ import annotations

import pytest

from bench import class_load


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
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
    from bleu_app.ui.classroom import RATE_K

    return min(RATE_K, n - 1)
