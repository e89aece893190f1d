"""A poll of the class on the projector (issue 34): N phones that follow the lecture through ``make serve-class``
(app processes behind nginx, one SQLite store) answer the opening's vote, and a real projector page (Debian's
Chromium) draws the class's answers.

The projector is the teacher's: Chromium opens the room's teacher link, presses "Present the lecture to this room"
(the class view's button) and shows the opening step, whose poll counts are a fragment that reads the store every
second (``bleu_app.ui.learn.follow``). The phones are not browsers (40 Chromium pages would take the 2 cores from
the server being measured): as in ``bench.follow`` each is a websocket client that does what its browser does
(``bench.load.Session``). Each phone opens ``/class?room=CODE``, joins with a nickname (the Join button), opens
``/learn?follow=CODE`` in the same session (the page link), asks for its watcher fragment every second as the
browser's timer does, and taps one of the poll's buttons. The taps are spread over ``--spread`` seconds in a random
order, with a known number of each answer.

For each repeat (a new room, new phones): the time from the moment the last phone sent its tap to the moment the
projector's page shows "N answers" and every option's count as sent (each a whole line of the page's rendered
text, with no exception element on it). Reported: p50 / p95 / max over the repeats against the 2 s target; polls
whose stored answers differ from those sent (a failure); taps whose phone never showed "Your answer" within 30 s
(counted, not a failure: the answer is stored and drawn, the phone's own page did not redraw); the app processes'
CPU.

Run alone::

    python -m bench.poll --phones 40 --processes 2 --repeats 5
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import random
import statistics
import sys
import tempfile
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from playwright.sync_api import TimeoutError as PlaywrightTimeout

from bench.follow import Phone
from bench.load import _run
from bench.serve_class import ClassServer
from bleu_app.store import SqlStore, open_store
from bleu_app.ui.learn import steps
from bleu_app.ui.learn.follow import POLLS
from tests.browser.conftest import CHROMIUM, CHROMIUM_ARGS  # the flags the browser tests use (one list)

TARGET_S = 2.0  # issue 34: the class's answers on the projector within 2 s of the last one
DEADLINE_S = 600.0  # a poll whose answers are not all drawn by then (joins included) is a failure
POLL = POLLS["opening"]
COUNTS = ".st-key-learn-poll_counts"  # the projector's counts (its fragment)
# drawn: every wanted line is a whole line of the counts' rendered text ("4 answers" is not in "14 answers"), and
# the page shows no exception element
DRAWN_JS = """([sel, want]) => {
    const box = document.querySelector(sel);
    if (!box || document.querySelector("[data-testid='stException']")) return false;
    const lines = new Set(box.innerText.split("\\n").map(line => line.trim()));
    return want.every(line => lines.has(line));
}"""


@dataclass
class PollPhone(Phone):
    """A follow phone that can tap a button while its watcher runs, and notes its answer's acknowledgement."""

    acked_at: float | None = None
    failed: list[str] = field(default_factory=list)

    def _note_widget(self, element: Any) -> None:
        super()._note_widget(element)
        kind = element.WhichOneof("type")
        if kind == "alert" and element.alert.body.startswith("Your answer:") and self.acked_at is None:
            self.acked_at = time.monotonic()
        elif kind == "exception":
            self.failed.append(f"{element.exception.type}: {element.exception.message}")

    def set_trigger(self, key: str) -> None:
        from streamlit.proto.WidgetStates_pb2 import WidgetState

        wid = self.widgets[key]
        self.states[wid] = WidgetState(id=wid, trigger_value=True)

    async def join(self, nickname: str) -> None:
        """The class page's join form, then the follow page in the same session (its page link)."""
        from streamlit.proto.WidgetStates_pb2 import WidgetState

        await self.open()
        await self.rerun()
        wid = self.widgets["class.nick"]
        self.states[wid] = WidgetState(id=wid, string_value=nickname)
        self.set_trigger("class.join_room")
        await self.rerun()
        self.states.clear()
        code = self.query.removeprefix("room=")
        self.path, self.query = "learn", f"follow={code}"
        await self.first_run()

    async def tap(self, key: str) -> None:
        """A button of the page: one run with its trigger (the watcher's reader takes the answer)."""
        from streamlit.proto.BackMsg_pb2 import BackMsg

        self.set_trigger(key)
        msg = BackMsg()
        msg.rerun_script.query_string = self.query
        msg.rerun_script.page_name = self.path
        msg.rerun_script.widget_states.widgets.extend(self.states.values())
        self.states.clear()
        await self.ws.send(msg.SerializeToString())


@dataclass(frozen=True)
class Round:
    """One poll: the time from the last tap to the projector's full count, and what was checked."""

    drawn_s: float
    acked: int
    stored: dict[str, int]
    sent: dict[str, int]


@dataclass(frozen=True)
class PollResult:
    phones: int
    processes: int
    rounds: tuple[Round, ...]
    cpu_s: float

    @property
    def times(self) -> list[float]:
        return sorted(r.drawn_s for r in self.rounds)

    @property
    def p95(self) -> float:
        t = self.times
        return statistics.quantiles(t, n=20, method="inclusive")[18] if len(t) > 1 else t[0]

    @property
    def lost(self) -> int:
        """Polls whose stored answers are not the ones the phones sent."""
        return sum(r.stored != r.sent for r in self.rounds)

    @property
    def unacknowledged(self) -> int:
        """Taps whose phone never showed "Your answer" (within 30 s)."""
        return sum(self.phones - r.acked for r in self.rounds)


def answers(n: int) -> list[str]:
    """What the class answers, uneven so that a miscount shows: about 55%, 30% and 15% of the options."""
    cut1, cut2 = round(n * 0.55), round(n * 0.85)
    return [POLL.options[0 if i < cut1 else 1 if i < cut2 else 2] for i in range(n)]


def drawn_lines(n: int) -> list[str]:
    """What the projector shows once every answer is in: the total, then each option's count (0 included)."""
    sent = Counter(answers(n))
    return [f"The class's phones: {n} answer{'' if n == 1 else 's'}", *(f"{o}: {sent[o]}" for o in POLL.options)]


async def _class(url: str, code: str, n: int, spread: float, seed: int, out: dict[str, Any]) -> None:
    """N phones join and follow, then answer: ``out['last_tap']`` is when the last one tapped."""
    phones = [PollPhone(url, "class", f"room={code}") for _ in range(n)]
    stop = asyncio.Event()
    watchers: list[asyncio.Task[None]] = []
    try:
        for i, p in enumerate(phones):  # as a class arrives: one after another
            await p.join(f"phone {i:02d}")
            if not any(k.startswith(f"learn.poll.{POLL.key}.") for k in p.widgets):
                raise RuntimeError(f"phone {i} shows no poll buttons on the follow page (failures {p.failed})")
        watchers = [asyncio.create_task(p.watch(stop)) for p in phones]
        await asyncio.sleep(2.0)
        chosen = answers(n)
        rng = random.Random(seed)
        order = list(range(n))
        rng.shuffle(order)
        delays = sorted(rng.uniform(0, spread) for _ in order)
        t0 = time.monotonic()
        for i, delay in zip(order, delays, strict=True):
            await asyncio.sleep(max(0.0, t0 + delay - time.monotonic()))
            await phones[i].tap(f"learn.poll.{POLL.key}.{POLL.options.index(chosen[i])}")
        out["sent"] = dict(Counter(chosen))
        out["last_tap"] = time.monotonic()
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and not all(p.acked_at for p in phones):
            await asyncio.sleep(0.1)
        out["acked"] = sum(1 for p in phones if p.acked_at)
        out["failed"] = [f for p in phones for f in p.failed]
        await out["done"].wait()
    finally:
        stop.set()
        await asyncio.gather(*watchers, return_exceptions=True)
        for p in phones:
            await p.close()


def _round(page: Any, server: ClassServer, store: SqlStore, n: int, spread: float, seed: int) -> Round:
    new = store.create_room("src", ["the cat sat on the mat"], {})
    page.goto(f"{server.url}/class?teach={new.teacher_token}")
    page.get_by_role("button", name="Present the lecture to this room").click(timeout=120_000)
    title = steps.heading(steps.get(steps.KEYS[0]))
    page.wait_for_function(
        "t => [...document.querySelectorAll('[data-testid=stMain] h2')].some(h => h.innerText.trim() === t)",
        arg=title,
        timeout=120_000,
    )
    page.wait_for_selector(COUNTS, timeout=60_000)  # the projector draws the poll (0 answers) before any phone
    finished = threading.Event()  # the phones' thread is over (done, or failed)
    out: dict[str, Any] = {}

    def phones() -> None:
        async def main() -> None:
            out["loop"], out["done"] = asyncio.get_running_loop(), asyncio.Event()
            await _class(server.url, new.room.code, n, spread, seed, out)

        try:
            _run(main())
        except BaseException as e:  # reported in the main thread
            out["error"] = e
        finally:
            finished.set()

    worker = threading.Thread(target=phones, daemon=True)
    worker.start()
    try:
        deadline = time.monotonic() + DEADLINE_S
        while True:  # the count is awaited on the page, a second at a time: the phones may fail before it
            if finished.is_set() or time.monotonic() > deadline:
                raise RuntimeError(f"the projector never drew {n} answers (phones: {out.get('error')!r})")
            try:
                page.wait_for_function(DRAWN_JS, arg=[COUNTS, drawn_lines(n)], timeout=1_000, polling="raf")
                break
            except PlaywrightTimeout:
                continue
        drawn = time.monotonic()
        while "last_tap" not in out:  # set just after the last tap's message went out (the count needs it)
            time.sleep(0.01)
    finally:
        if "loop" in out:
            out["loop"].call_soon_threadsafe(out["done"].set)
        worker.join(120)
    if "error" in out:
        raise RuntimeError(f"the phones failed: {out['error']!r}")
    if out["failed"]:
        raise RuntimeError(f"a phone showed an exception: {out['failed'][0]}")
    room_id = new.room.id
    stored = {k: v for k, v in store.poll_counts(room_id, POLL.key, POLL.options).items() if v}
    return Round(drawn - out["last_tap"], int(out["acked"]), stored, dict(out["sent"]))


def run_poll(
    phones: int = 40, processes: int = 2, repeats: int = 5, spread: float = 5.0, *, browser: Any = None
) -> PollResult:
    """``repeats`` polls of ``phones`` phones through nginx and ``processes`` app processes sharing one SQLite store
    in a temporary directory, drawn by a Chromium projector at 1280x720 (``browser``: a Playwright browser already
    open, else Debian's Chromium is launched here)."""
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory(prefix="bleu-poll-") as tmp, contextlib.ExitStack() as stack:
        for name in ("BLEU_EXPLORER_DATA_DIR", "BLEU_EXPLORER_DATABASE_URL"):  # as they were, once done
            stack.callback(_restore, name, os.environ.get(name))
        os.environ["BLEU_EXPLORER_DATA_DIR"] = tmp  # the app processes inherit it: one store for all
        os.environ.pop("BLEU_EXPLORER_DATABASE_URL", None)
        store = open_store(directory=Path(tmp))
        stack.callback(store.close)
        server = stack.enter_context(ClassServer(processes=processes))
        if browser is None:
            pw = stack.enter_context(sync_playwright())
            browser = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
            stack.callback(browser.close)
        context = browser.new_context(viewport={"width": 1280, "height": 720})
        stack.callback(context.close)
        page = context.new_page()
        cpu0 = server.cpu_seconds()
        rounds = [_round(page, server, store, phones, spread, seed=k) for k in range(repeats)]
        cpu = server.cpu_seconds() - cpu0
    return PollResult(phones, processes, tuple(rounds), cpu)


def _restore(name: str, value: str | None) -> None:
    if value is None:
        os.environ.pop(name, None)
    else:
        os.environ[name] = value


def report(r: PollResult) -> str:
    t = r.times
    return (
        f"{r.phones} phones answer the opening's vote ({len(t)} polls, {r.processes} app processes behind nginx, "
        f"Chromium projector): last answer to all {r.phones} drawn p50 {statistics.median(t):.2f} s, p95 "
        f"{r.p95:.2f} s, max {t[-1]:.2f} s; polls with answers lost {r.lost}; taps the phone never acknowledged "
        f"{r.unacknowledged} of {r.phones * len(t)}; app CPU {r.cpu_s / len(t):.1f} s per poll (joins and follow "
        "included)"
    )


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--phones", type=int, default=40)
    ap.add_argument("--processes", type=int, default=2)
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--spread", type=float, default=5.0, help="seconds over which the class taps its answers")
    args = ap.parse_args(argv)
    r = run_poll(args.phones, args.processes, args.repeats, args.spread)
    print(report(r), flush=True)
    ok = r.lost == 0 and r.p95 <= TARGET_S
    print(f"target (every answer drawn, p95 <= {TARGET_S:g} s): {'met' if ok else 'NOT met'}", flush=True)
    return 0 if r.lost == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
