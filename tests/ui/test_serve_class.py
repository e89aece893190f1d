"""`make serve-class`: N app processes behind Debian's nginx. Sessions opened through nginx spread over the
processes and keep their state (each uploads its own corpus, changes a setting and still has it: an upload or a
websocket that reached the other process would be refused), and nginx serves Streamlit's static files itself,
compressed and cached."""

from __future__ import annotations

import asyncio
import re
import urllib.request

import pytest

from bench import load
from bench.serve_class import ClassServer

pytestmark = [pytest.mark.slow, pytest.mark.live]  # nginx and two app processes

SESSIONS = 12  # over 2 processes: all on one by chance with probability 2 / 2**12


async def _session(url: str, i: int) -> str:
    lines = 3 + i
    text = "".join(f"the cat {k} sat on the mat\n" for k in range(lines)).encode()
    s = load.Session(url, load.PAGES["corpus"])
    await s.open()
    await s.rerun()
    await s.upload("corpus.in_folder", [(f"d{i}/ref.txt", text), (f"d{i}/systems/A.txt", text)])
    s.labels.clear()
    await s.rerun()
    loaded = [label for label in s.labels if label.startswith("Corpus:")]
    s.set_string("smooth", "floor")
    s.labels.clear()
    await s.rerun()  # raises if the page shows an exception
    kept = [label for label in s.labels if label.startswith("Corpus:")]
    await s.close()
    assert f"d{i}" in loaded[0], loaded
    assert f"{lines} segments" in loaded[0], loaded
    assert kept == loaded, (loaded, kept)
    return kept[0]


async def _class(url: str) -> list[str]:
    return list(await asyncio.gather(*(_session(url, i) for i in range(SESSIONS))))


def test_sessions_spread_over_the_processes_and_keep_their_state() -> None:
    with ClassServer(2) as cls:
        labels = load._run(_class(cls.url))
        uploads = [line for line in cls.access_log() if '"PUT /_stcore/upload_file/' in line]
        streams = [line for line in cls.access_log() if "/_stcore/stream" in line]
        index = urllib.request.urlopen(cls.url + "/corpus").read().decode()
        script = re.findall(r'src="\.?/?(static/js/[^"]+\.js)"', index)[0]
        req = urllib.request.Request(f"{cls.url}/{script}", headers={"Accept-Encoding": "gzip"})
        with urllib.request.urlopen(req) as r:
            static_headers = dict(r.headers)
        backends = {f"127.0.0.1:{b.port}" for b in cls.backends}
    assert len(labels) == SESSIONS
    assert len(uploads) == 2 * SESSIONS
    assert all(" 204 " in line for line in uploads), uploads
    used = {line.rsplit("up=", 1)[1] for line in uploads}
    assert used == backends  # both processes took sessions
    assert len(streams) >= SESSIONS  # nginx logs a websocket when it closes
    # static files: from nginx (no upstream), gzipped once at start, cached for a year
    assert "X-Upstream" not in static_headers
    assert static_headers.get("Content-Encoding") == "gzip"
    assert "immutable" in static_headers.get("Cache-Control", "")
