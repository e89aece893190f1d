"""A class on one server process (issue 23): N students join, translate and rate within a minute, over Streamlit's
websocket as browsers do (``bench.load.Session``: no browser, no AppTest).

The server is started as ``bench.load`` starts it, with ``BLEU_EXPLORER_DATA_DIR`` (or the PostgreSQL URL given)
pointing at a store of its own. This process plays the teacher through the same store (another process on the
same SQLite file or database: the room is made and the rounds are opened here) and opens the teacher's dashboard
over the websocket to measure its redraw. Each student:

1. opens ``/class?room=CODE`` (GET, websocket, first run: the join form);
2. joins with a nickname (the Join button's trigger), then sends a translation (text area + Send): the time from
   sending the translation to the end of the run that shows "Your sentence BLEU" is the submit-to-score latency;
3. when the teacher opens round 2, clicks Refresh and rates the translations it is shown (radios + Send ratings).

Students start spread over ``--spread`` seconds (default 30) so that the whole class is done within a minute.
Reported: p50/p95/max submit-to-score, server CPU seconds per student (utime + stime of the server over the whole
class, divided by N), one dashboard redraw's server CPU with the class in it, and the counts: translations and
ratings acknowledged to students against those in the store afterwards (a lost one is a failure).

Run alone::

    python -m bench.class_load --students 100
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import sys
import tempfile
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from bench.load import ROOT, Server, Session, _run
from bleu_app.frames.classroom import RATING_LABELS

STUDENT_TEXTS = (
    "It is a guide to action which ensures that the military always obeys the commands of the party.",
    "It is a guide to action that makes sure the army always follows the party's orders.",
    "This is the guiding principle that keeps the troops under the command of the party.",
    "It ensures that the troops forever heed the directions of the party.",
    "It is a practical guide which makes the military always obey the party.",
)


class ClassSession(Session):
    """A Session that also notes the metrics each run shows (label -> value)."""

    metrics: dict[str, str]

    def _note_widget(self, element: Any) -> None:
        super()._note_widget(element)
        if element.WhichOneof("type") == "metric":
            if not hasattr(self, "metrics"):
                self.metrics = {}
            self.metrics[element.metric.label] = element.metric.body

    def trigger(self, key: str) -> None:
        """A button click, sent with the next rerun only."""
        from streamlit.proto.WidgetStates_pb2 import WidgetState

        wid = self.widgets[key]
        self.states[wid] = WidgetState(id=wid, trigger_value=True)

    def untrigger(self) -> None:
        self.states = {k: v for k, v in self.states.items() if v.WhichOneof("value") != "trigger_value"}

    async def click(self, key: str) -> str:
        self.metrics = {}
        self.trigger(key)
        try:
            return await self.rerun()
        finally:
            self.untrigger()


@dataclass(frozen=True)
class ClassResult:
    students: int
    backend: str
    wall_s: float
    submit_to_score_s: tuple[float, ...]
    cpu_s: float
    dashboard_cpu_s: float
    dashboard_wall_s: float
    acknowledged_submissions: int
    stored_submissions: int
    acknowledged_ratings: int
    stored_ratings: int
    failures: int

    @property
    def p95(self) -> float:
        t = sorted(self.submit_to_score_s)
        return statistics.quantiles(t, n=20, method="inclusive")[18] if len(t) > 1 else t[0]

    @property
    def lost(self) -> int:
        return (self.acknowledged_submissions - self.stored_submissions) + (
            self.acknowledged_ratings - self.stored_ratings
        )


async def _student(
    server: Server,
    code: str,
    i: int,
    delay: float,
    round2: asyncio.Event,
    out: dict[str, Any],
) -> None:
    await asyncio.sleep(delay)
    s = ClassSession(server.url, "class", f"room={code}")
    try:
        await s.open()
        await s.rerun()
        s.set_string("class.nick", f"student {i:03d}")
        await s.click("class.join_room")
        s.set_string("class.translation", STUDENT_TEXTS[i % len(STUDENT_TEXTS)] + f" ({i})")
        t0 = time.perf_counter()
        status = await s.click("class.submit")
        took = time.perf_counter() - t0
        if status != "FINISHED_SUCCESSFULLY" or "Your sentence BLEU" not in s.metrics:
            raise RuntimeError(f"no score after submitting ({status}, metrics {sorted(s.metrics)})")
        out["latency"].append(took)
        out["acked_subs"] += 1
        out["submitted"].set() if out["acked_subs"] == out["n"] else None
        await round2.wait()
        await asyncio.sleep(random.Random(i).uniform(0, 5))
        await s.click("class.refresh")
        radios = [k for k in s.widgets if k.startswith("class.rating.")]
        for j, k in enumerate(radios):
            s.set_string(k, RATING_LABELS[1 + (i + j) % 5])
        if radios:
            status = await s.click("class.rate_send")
            if status != "FINISHED_SUCCESSFULLY":
                raise RuntimeError(f"rating run ended {status}")
            out["acked_ratings"] += len(radios)
    except Exception as exc:  # counted and reported, never hidden
        out["failures"] += 1
        print(f"  student {i} failed: {exc!r}", file=sys.stderr)
        out["submitted"].set() if out["acked_subs"] + out["failures"] >= out["n"] else None
    finally:
        out["done"] += 1
        await s.close()


async def _class(server: Server, store: Any, n: int, spread: float) -> ClassResult:
    new = store.create_room(
        "Rewrite this machine translation as good English: "
        "It is to insure the troops forever hearing the activity guidebook that party direct.",
        [
            "It is a guide to action that ensures that the military will forever heed Party commands.",
            "It is the guiding principle which guarantees the military forces always being under the command of "
            "the Party.",
            "It is the practical guide for the army always to heed the directions of the party.",
        ],
        {
            "tokenize": "13a",
            "lowercase": False,
            "smooth_method": "exp",
            "smooth_value": None,
            "use_effective_order": True,
            "max_ngram_order": 4,
            "weights": None,
            "force": False,
        },
    )
    code, token = new.room.code, new.teacher_token
    # one visit first: imports and module-level work happen once per process, not per student
    warm = ClassSession(server.url, "class", "")
    await warm.open()
    await warm.rerun()
    await warm.close()

    out: dict[str, Any] = {
        "latency": [],
        "acked_subs": 0,
        "acked_ratings": 0,
        "failures": 0,
        "done": 0,
        "n": n,
        "submitted": asyncio.Event(),
    }
    round2 = asyncio.Event()
    rng = random.Random(23)
    cpu0, t0 = server.cpu_seconds(), time.perf_counter()
    tasks = [asyncio.create_task(_student(server, code, i, rng.uniform(0, spread), round2, out)) for i in range(n)]
    await asyncio.wait_for(out["submitted"].wait(), timeout=600)
    store.set_round(new.room.id, 2, open_=True)  # the teacher opens rating
    round2.set()
    await asyncio.gather(*tasks)
    wall = time.perf_counter() - t0
    cpu = server.cpu_seconds() - cpu0

    # the dashboard with the whole class in it: one full redraw of the teacher's page (the fragment reruns part
    # of it every few seconds in a browser; a full run bounds that from above)
    teacher = ClassSession(server.url, "class", f"teach={token}")
    await teacher.open()
    await teacher.rerun()  # first draw (scores cached from the students' runs)
    c0, w0 = server.cpu_seconds(), time.perf_counter()
    redraws = 5
    for _ in range(redraws):
        await teacher.rerun()
    dash_cpu = (server.cpu_seconds() - c0) / redraws
    dash_wall = (time.perf_counter() - w0) / redraws
    joined = getattr(teacher, "metrics", {}).get("Joined")
    await teacher.close()
    if joined != str(n):
        raise RuntimeError(f"the teacher's dashboard says {joined} joined, expected {n}")

    return ClassResult(
        students=n,
        backend=store.backend,
        wall_s=wall,
        submit_to_score_s=tuple(sorted(out["latency"])),
        cpu_s=cpu,
        dashboard_cpu_s=dash_cpu,
        dashboard_wall_s=dash_wall,
        acknowledged_submissions=out["acked_subs"],
        stored_submissions=len(store.submissions(new.room.id)),
        acknowledged_ratings=out["acked_ratings"],
        stored_ratings=len(store.ratings(new.room.id)),
        failures=out["failures"],
    )


def run_class(students: int = 100, spread: float = 30.0, database_url: str = "") -> ClassResult:
    """Start a server on a store of its own, run the class, stop the server."""
    from bleu_app.store import DATA_DIR_ENV, DATABASE_URL_ENV, open_store

    with tempfile.TemporaryDirectory(prefix="bench-class-") as d:
        saved = {k: os.environ.get(k) for k in (DATA_DIR_ENV, DATABASE_URL_ENV)}
        os.environ[DATA_DIR_ENV] = d
        if database_url:
            os.environ[DATABASE_URL_ENV] = database_url
        else:
            os.environ.pop(DATABASE_URL_ENV, None)
        try:
            store = open_store(database_url or None, Path(d))
            with Server(ROOT) as server:
                result: ClassResult = _run(_class(server, store, students, spread))
            store.close()
        finally:
            for k, v in saved.items():
                if v is None:
                    os.environ.pop(k, None)
                else:
                    os.environ[k] = v
    return result


def report(r: ClassResult) -> str:
    t = r.submit_to_score_s
    lat = (
        f"submit-to-score p50 {statistics.median(t):.2f} s, p95 {r.p95:.2f} s, max {t[-1]:.2f} s"
        if t
        else "no submission scored"
    )
    return (
        f"class of {r.students} on one process ({r.backend}, {os.cpu_count()} CPUs): all done in {r.wall_s:.1f} s; "
        f"{lat}; server CPU {r.cpu_s:.1f} s = {r.cpu_s / r.students * 1000:.0f} ms per student; "
        f"dashboard redraw {r.dashboard_cpu_s * 1000:.0f} ms CPU ({r.dashboard_wall_s * 1000:.0f} ms wall); "
        f"translations acknowledged {r.acknowledged_submissions}, stored {r.stored_submissions}; "
        f"ratings acknowledged {r.acknowledged_ratings}, stored {r.stored_ratings}; lost {r.lost}; "
        f"failed students {r.failures}"
    )


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--students", type=int, default=100)
    ap.add_argument("--spread", type=float, default=30.0, help="seconds over which the students start")
    ap.add_argument("--database-url", default="", help="a postgresql:// URL (default: SQLite in a temp dir)")
    ap.add_argument("--json", type=Path, help="also write the result here")
    args = ap.parse_args(argv)
    r = run_class(args.students, args.spread, args.database_url)
    print(report(r))
    if args.json:
        args.json.write_text(json.dumps({**asdict(r), "p95": r.p95, "lost": r.lost}, indent=1) + "\n")
    return 0 if r.lost == 0 and r.failures == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
