"""bench/load.py's headless client against a live server: what a browser's first visit and upload do."""

from __future__ import annotations

from pathlib import Path

import pytest

from bench import load


@pytest.fixture(scope="module")
def server():
    with load.Server(load.ROOT) as s:
        yield s


@pytest.mark.live
def test_a_burst_of_first_visits_finishes_every_run(server):
    burst = load.class_burst(server, 3)
    assert burst.failures == 0
    assert len(burst.times) == 3
    assert all(0 < t < 120 for t in burst.times)
    assert burst.cpu_s > 0  # the server's own CPU, read from /proc
    assert burst.rss_mb > 50


@pytest.mark.live
def test_an_unknown_page_stops_the_bench(server):
    # Streamlit answers an unknown page with page_not_found and runs the default page: that is not a time
    with pytest.raises(RuntimeError, match="page not found"):
        load.class_burst(server, 1, page="no-such-page")


@pytest.mark.live
def test_a_folder_upload_loads_and_a_setting_change_redraws(server, tmp_path: Path):
    items = load.make_corpus(tmp_path / "wmt21x300", 300)
    assert [n.split("/", 1)[1] for n, _ in items[:2]] == ["source.en", "reference.A.de"]
    run = load.corpus_run(server, "corpus", items)  # raises unless the panel names 300 segments
    assert run.status == "FINISHED_SUCCESSFULLY/FINISHED_SUCCESSFULLY"
    assert run.first_cpu > 0
    assert run.rss_mb >= run.base_mb > 0
    # once loaded, the upload's bytes are let go (the corpus holds the lines): Streamlit holds none of them
    assert run.upload_held_mb == 0.0


@pytest.mark.live
def test_the_server_reports_the_uploads_it_holds(tmp_path: Path):
    # what makes the check above able to fail: bytes sitting in an uploader (here a file the Files tab keeps
    # until "Load these files") are counted. Its own server: the server computes the figure at most every 5 s,
    # so a figure asked for earlier on a shared server could be served again
    items = load.make_corpus(tmp_path / "wmt21x200", 200)

    async def upload_without_loading(server: load.Server) -> float:
        s = load.Session(server.url, load.PAGES["corpus"])
        await s.open()
        await s.rerun()
        await s.upload("corpus.in_refs", items[1:2])
        await s.rerun()
        held = server.upload_mb()
        await s.close()
        return held

    with load.Server(load.ROOT) as server:
        held = load._run(upload_without_loading(server))
    assert held * 2**20 == pytest.approx(len(items[1][1]))


@pytest.mark.live
def test_the_client_runs_beside_a_running_event_loop(server):
    # make test runs these beside the browser tests, whose Playwright sync API keeps an event loop running in
    # the main thread: a plain asyncio.run would refuse to start ("cannot be called from a running event loop")
    async def inside_a_loop() -> load.Burst:
        return load.class_burst(server, 1)

    burst = load._run(inside_a_loop())  # its own loop: this very process may hold Playwright's loop already
    assert burst.failures == 0
    assert len(burst.times) == 1


def test_the_targets_verdicts_follow_the_figures():
    def run(first: float, redraw: float, added_mb: float) -> load.CorpusRun:
        return load.CorpusRun("p", 0.1, first, redraw, first, redraw, 100.0, 100.0 + added_mb, 0.0, "ok")

    burst = load.Burst(20, (1.0,) * 18 + (11.0, 11.0), 0.1 * 20, 100.0, 0)  # p95 of these 20 runs: over 10 s
    after = {"class50": burst, "corpus": run(2.0, 0.5, 200.0), "compare": run(3.5, 0.5, 300.0)}
    got = {t.what: t.met for t in load.targets({"after": after}, (50,), 50.0, 0)}
    assert got["Learn page: server CPU per first visit"] is True  # 0.1 s
    assert got["50 first visits at once: p95"] is False
    assert got["corpus page, 50k x 4: first draw after the upload"] is True
    assert got["compare page, 50k x 4: first draw after the upload"] is False
    assert got["corpus page, 50k x 4: memory added / size on disk"] is True  # 4x
    assert got["compare page, 50k x 4: memory added / size on disk"] is False  # 6x
