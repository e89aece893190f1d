"""Serving (issue 24.3): a client's ``clear_cache`` message clears no cache outside development mode (`make dev`),
checked on a live server through the cache sizes it reports (``/_stcore/metrics``)."""

from __future__ import annotations

import asyncio
import shlex
import subprocess
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from streamlit.runtime.app_session import AppSession

from bench import load
from bleu_app.ui import serving


def _shared_entries(server: load.Server) -> int:
    """Entries of the app's caches (``bleu_app.ui.cached``) after a Learn visit: its global ones (the Learn page
    reads no session's corpus)."""
    url = f"{server.url}/_stcore/metrics?families=cache_memory_bytes"
    text = urllib.request.urlopen(url, timeout=30).read().decode()
    return sum(1 for line in text.splitlines() if "bleu_app.ui.cached." in line)


async def _visit_then_clear(server: load.Server) -> int:
    """A Learn visit fills the shared caches; the same client then sends ``clear_cache`` and a heartbeat, and
    the heartbeat's answer shows the server has handled the clear (messages are handled in order). The metrics
    are read once, after that: the server keeps a reading of cache sizes for a few seconds, so an earlier read
    would be served again."""
    from streamlit.proto.BackMsg_pb2 import BackMsg
    from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

    s = load.Session(server.url, load.PAGES["learn"])
    await s.open()
    await s.rerun()
    await s.ws.send(BackMsg(clear_cache=True).SerializeToString())
    await s.ws.send(BackMsg(app_heartbeat=True).SerializeToString())
    while True:
        fm = ForwardMsg()
        fm.ParseFromString(await asyncio.wait_for(s.ws.recv(), 60))
        if fm.WhichOneof("type") == "heartbeat_ack":
            break
    after = _shared_entries(server)
    await s.close()
    return after


def test_the_guard_wraps_streamlits_handler() -> None:
    # the method the guard replaces still exists under that name in the pinned Streamlit (else the patch is moot)
    serving.refuse_clear_cache()
    assert getattr(AppSession._handle_clear_cache_request, "_bleu_explorer_guard", False)


@pytest.mark.live
@pytest.mark.parametrize(("flags", "cleared"), [((), False), (("--server.runOnSave", "true"), True)])
def test_a_client_clears_the_caches_only_in_development(flags: tuple[str, ...], cleared: bool) -> None:
    with load.Server(load.ROOT, flags=flags) as server:
        after = load._run(_visit_then_clear(server))
    # kept: the Learn visit's entries are there (so in development, 0 means they were cleared)
    assert (after == 0) is cleared, after


BOOM = """import streamlit as st
st.write("before")
raise ValueError("secret detail at /srv/bleu/private.py")
"""


def _dev_flags() -> tuple[str, ...]:
    """The ``--option value`` pairs `make dev` passes to ``streamlit run`` (read from ``make -n dev``)."""
    out = subprocess.run(
        ["make", "-n", "--no-print-directory", "dev"], cwd=load.ROOT, capture_output=True, text=True, check=True
    ).stdout
    line = next(x for x in out.replace("\\\n", " ").splitlines() if "streamlit run" in x)
    words = shlex.split(line.split("streamlit run", 1)[1])
    flags = words[1:]  # after the script
    pairs = [
        (k, v) for k, v in zip(flags[::2], flags[1::2], strict=True) if k not in ("--server.port", "--server.address")
    ]
    return tuple(w for pair in pairs for w in pair)


async def _exception_of(server: load.Server) -> Any:
    s = load.Session(server.url, "")
    await s.open()
    with pytest.raises(RuntimeError, match="the page showed an exception"):
        await s.rerun()
    await s.close()
    return s.exceptions[0]


@pytest.mark.live
@pytest.mark.parametrize("dev", [False, True])
def test_tracebacks_reach_the_browser_only_in_development(tmp_path: Path, dev: bool) -> None:
    # the repo's .streamlit/config.toml (cwd) with a script that fails; `make dev`'s own flags for development
    script = tmp_path / "boom.py"
    script.write_text(BOOM)
    flags = _dev_flags() if dev else ()
    with load.Server(load.ROOT, script=str(script), flags=flags) as server:
        exc = load._run(_exception_of(server))
    assert exc.type == "ValueError"
    shown = exc.message + "\n".join(exc.stack_trace)
    assert ("secret detail" in shown) is dev, shown
    assert ("boom.py" in shown) is dev, shown
