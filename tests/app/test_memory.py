"""bleu_app.ui.memory: freed heap goes back to the system after a run that grew the process."""

from __future__ import annotations

import pytest

from bleu_app.ui import memory

pytestmark = pytest.mark.skipif(memory._TRIM is None or not memory.rss_mb(), reason="needs glibc and /proc")


def test_a_run_that_grew_gives_its_freed_heap_back() -> None:
    memory.give_back()
    memory._after_last_trim[0] = memory.rss_mb()
    junk = [bytes(1500) for _ in range(150_000)]  # ~230 MB of malloc'd blocks
    keep = junk[::500]  # a survivor every 500 blocks: the heap cannot shrink from its top alone
    grown = memory.rss_mb()
    del junk
    held = memory.rss_mb()
    assert held > grown - 50, "glibc kept the freed blocks (what give_back is for)"
    assert memory.give_back() is True
    assert memory.rss_mb() < held - 150
    assert len(keep) == 300


def test_an_ordinary_rerun_does_not_trim() -> None:
    memory._after_last_trim[0] = memory.rss_mb()
    assert memory.give_back() is False
