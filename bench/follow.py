"""Phones in step (issue 34): N phones follow a lecture through ``make serve-class`` (app processes behind nginx,
one SQLite store), over Streamlit's websocket as a browser does (``bench.load.Session``: no browser).

Each phone opens ``/learn?follow=CODE`` and then does what its browser does for the page's watcher fragment
(``st.fragment(run_every=1s)``): it asks the server to run that fragment every second (the ``auto_rerun`` message
names it). The teacher's moves are written to the store from this process, as the presenter's session writes them
(``SqlStore.show_slide`` with the room's teacher token). For each move, each phone's latency is the time from the
write to the first heading it receives that is the new step's; a phone that shows any other heading after the move
settles is a failure. Reported: p50 / p95 / max over every (move, phone), and the app processes' CPU over the whole run
(first visits included) per phone-second.

Run alone::

    python -m bench.follow --phones 40 --processes 2
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bench.load import Session, _run
from bench.serve_class import ClassServer
from bleu_app.store import open_store
from bleu_app.ui.learn import steps

MOVES = ("plain", "clipping", "bigrams", "corpus", "short")  # the teacher's Next, five times from the opening
SETTLE_S = 15.0  # a move not seen by every phone within this is reported as missed


@dataclass
class Phone(Session):
    """A phone on the follow page: the headings it receives (time, text) and its watcher fragment's id."""

    seen: list[tuple[float, str]] = field(default_factory=list)
    fragment: str = ""
    interval: float = 1.0

    def _note_widget(self, element: Any) -> None:
        super()._note_widget(element)
        if element.WhichOneof("type") == "heading":
            self.seen.append((time.monotonic(), element.heading.body))

    def _note(self, fm: Any) -> str:
        """Note what a message says (a heading, the watcher's fragment); return its kind."""
        kind = str(fm.WhichOneof("type"))
        if kind == "auto_rerun":
            self.fragment, self.interval = fm.auto_rerun.fragment_id, fm.auto_rerun.interval
        elif kind == "delta" and fm.delta.WhichOneof("type") == "new_element":
            self._note_widget(fm.delta.new_element)
        return kind

    async def first_run(self) -> None:
        """The page's first run, as the browser asks for it (its watcher registers there)."""
        from streamlit.proto.BackMsg_pb2 import BackMsg
        from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

        msg = BackMsg()
        msg.rerun_script.query_string = self.query
        msg.rerun_script.page_name = self.path
        await self.ws.send(msg.SerializeToString())
        while True:
            fm = ForwardMsg()
            fm.ParseFromString(await self.ws.recv())
            finished = self._note(fm) == "script_finished"
            if finished and ForwardMsg.ScriptFinishedStatus.Name(fm.script_finished) != "FINISHED_EARLY_FOR_RERUN":
                return

    async def watch(self, stop: asyncio.Event) -> None:
        """Read the server's messages, and ask for the watcher's run every ``interval`` as the browser's timer
        does, until ``stop``."""
        from streamlit.proto.BackMsg_pb2 import BackMsg
        from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

        async def read() -> None:
            while True:
                fm = ForwardMsg()
                fm.ParseFromString(await self.ws.recv())
                self._note(fm)

        reader = asyncio.create_task(read())
        try:
            while not stop.is_set():
                await asyncio.sleep(self.interval)
                if self.fragment:
                    msg = BackMsg()
                    msg.rerun_script.query_string = self.query
                    msg.rerun_script.page_name = self.path
                    msg.rerun_script.fragment_id = self.fragment
                    msg.rerun_script.is_auto_rerun = True
                    await self.ws.send(msg.SerializeToString())
        finally:
            reader.cancel()


@dataclass(frozen=True)
class FollowResult:
    phones: int
    processes: int
    latencies_s: tuple[float, ...]
    missed: int
    wrong: int
    cpu_per_phone_s: float

    @property
    def p95(self) -> float:
        t = sorted(self.latencies_s)
        return statistics.quantiles(t, n=20, method="inclusive")[18] if len(t) > 1 else t[0]


async def _lecture(url: str, store: Any, token: str, code: str, n: int) -> tuple[list[float], int, int]:
    phones = [Phone(url, "learn", f"follow={code}") for _ in range(n)]
    for phone in phones:  # as a class arrives: one after another, each drawn before the next
        await phone.open()
        await phone.first_run()
    stop = asyncio.Event()
    watchers = [asyncio.create_task(p.watch(stop)) for p in phones]
    latencies, missed, wrong = [], 0, 0
    try:
        await asyncio.sleep(2.0)
        for key in MOVES:
            title = steps.heading(steps.get(key))
            t0 = time.monotonic()
            store.show_slide(token, key)
            deadline = t0 + SETTLE_S
            while time.monotonic() < deadline and not all(_first(p, title, t0) for p in phones):
                await asyncio.sleep(0.05)
            for p in phones:
                at = _first(p, title, t0)
                if at is None:
                    missed += 1
                else:
                    latencies.append(at - t0)
            await asyncio.sleep(1.5)
            wrong += sum(1 for p in phones if p.seen and p.seen[-1][1] != title)
    finally:
        stop.set()
        await asyncio.gather(*watchers, return_exceptions=True)
        for p in phones:
            await p.close()
    return latencies, missed, wrong


def _first(phone: Phone, title: str, since: float) -> float | None:
    return next((t for t, text in phone.seen if t >= since and text == title), None)


def run_follow(phones: int = 40, processes: int = 2) -> FollowResult:
    """A lecture of ``len(MOVES)`` moves followed by ``phones`` phones through nginx and ``processes`` app
    processes sharing one SQLite store in a temporary directory."""
    with tempfile.TemporaryDirectory(prefix="bleu-follow-") as tmp:
        os.environ["BLEU_EXPLORER_DATA_DIR"] = tmp  # the app processes inherit it: one store for all
        os.environ.pop("BLEU_EXPLORER_DATABASE_URL", None)
        store = open_store(directory=Path(tmp))
        new = store.create_room("src", ["the cat sat on the mat"], {})
        store.show_slide(new.teacher_token, steps.KEYS[0])
        with ClassServer(processes=processes) as server:
            cpu0 = server.cpu_seconds()
            wall0 = time.monotonic()
            latencies, missed, wrong = _run(_lecture(server.url, store, new.teacher_token, new.room.code, phones))
            cpu = server.cpu_seconds() - cpu0
            wall = time.monotonic() - wall0
        store.close()
    return FollowResult(phones, processes, tuple(latencies), missed, wrong, cpu / (phones * wall))


def report(r: FollowResult) -> str:
    t = sorted(r.latencies_s)
    return (
        f"{r.phones} phones, {r.processes} app processes behind nginx, {len(MOVES)} moves: teacher's move to phone "
        f"p50 {statistics.median(t):.2f} s, p95 {r.p95:.2f} s, max {t[-1]:.2f} s; missed {r.missed}, wrong title "
        f"{r.wrong}; app CPU {r.cpu_per_phone_s * 1000:.0f} ms per phone-second"
    )


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--phones", type=int, default=40)
    ap.add_argument("--processes", type=int, default=2)
    args = ap.parse_args(argv)
    r = run_follow(args.phones, args.processes)
    print(report(r), flush=True)
    ok = r.missed == 0 and r.wrong == 0 and r.p95 <= 2.0
    print("target (every phone the right title, p95 <= 2 s):", "met" if ok else "NOT met", flush=True)
    return 0 if r.missed == 0 and r.wrong == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
