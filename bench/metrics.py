"""``python -m bench.metrics``: chrF and chrF++ of 16 systems x 3,000 lines, ours against ``sacrebleu -m chrf``.

The input is ``bench.ranking``'s 3,000-line test set (WMT21 en-de from ../shared/data: each system's 1,002 lines three
times over, pass b against human reference b of A, C, D, as one reference file), for the first 16 of its 20 systems
by name. Both sides are whole processes, timed from start to exit, alternating run by run on the same files: ours is
a short script that reads the files and calls ``bleu_core.corpus_chrf`` on each system (the user's API: the
references prepared anew per call, the C kernel counting); sacreBLEU is its CLI with the 16 systems after ``-i`` (it
prepares the references once). Each side prints every system's score to 10 decimals and the bench checks they are
the same strings. Reported: wall time min/median/max of each side, the ratio of the medians and of the minima, and
the CPU seconds (user + system, the children's rusage) of each, whose ratio is what a busy machine leaves intact.
Target: ours at least 20x faster than sacreBLEU (wall, medians).
"""

from __future__ import annotations

import argparse
import json
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from bench.ranking import build

ROOT = Path(__file__).resolve().parent.parent
VENV_BIN = Path(sys.executable).parent
SYSTEMS = 16
WIDTH = 10
TARGET = 20.0

_OURS = """
import sys
from bleu_core import corpus_chrf
word_order, width, ref, *hyps = sys.argv[1:]
read = lambda p: open(p, encoding="utf-8").read().split("\\n")[:-1]
refs = [read(ref)]
for h in hyps:
    print(h, f"{corpus_chrf(read(h), refs, word_order=int(word_order)).score:.{int(width)}f}", sep="\\t")
"""


def _run(cmd: list[str]) -> tuple[float, float, str]:
    """Wall seconds, CPU seconds (user + system of the child) and stdout of one whole process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    proc = subprocess.run(cmd, check=False, capture_output=True, text=True, cwd=ROOT)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    assert proc.returncode == 0, f"{cmd[0]} failed ({proc.returncode}): {proc.stderr.strip()[-500:]}"
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, proc.stdout


def _spread(values: list[float]) -> dict[str, float]:
    return {"min": min(values), "median": statistics.median(values), "max": max(values)}


def run(word_order: int, repeat: int) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as d:
        ref, hyps = build(Path(d))
        hyps = hyps[:SYSTEMS]
        ours_cmd = [sys.executable, "-c", _OURS, str(word_order), str(WIDTH), str(ref), *map(str, hyps)]
        sb_cmd = [str(VENV_BIN / "sacrebleu"), str(ref), "-i", *map(str, hyps), "-m", "chrf", "-w", str(WIDTH)]
        sb_cmd += ["--chrf-word-order", str(word_order)]
        ours: list[tuple[float, float, str]] = []
        theirs: list[tuple[float, float, str]] = []
        for _ in range(repeat):  # alternating, so that both sides see the same load on a shared machine
            ours.append(_run(ours_cmd))
            theirs.append(_run(sb_cmd))
        mine = dict(line.split("\t") for line in ours[0][2].splitlines())
        name = "chrF2" + "+" * word_order
        sacre = {row["system"]: row[name] for row in json.loads(theirs[0][2])}
        assert len(mine) == SYSTEMS, f"ours printed {len(mine)} systems"
        assert mine == sacre, f"scores differ: {sorted(set(mine.items()) ^ set(sacre.items()))[:4]}"
        assert all(o[2] == ours[0][2] for o in ours), "ours printed different scores on different runs"
        wall_ours, wall_sb = _spread([o[0] for o in ours]), _spread([t[0] for t in theirs])
        return {
            "case": f"{name}: {SYSTEMS} systems x 3000 lines, 1 ref, whole process, {repeat} runs each",
            "ours_wall_s": wall_ours,
            "sacrebleu_wall_s": wall_sb,
            "ours_cpu_s": _spread([o[1] for o in ours]),
            "sacrebleu_cpu_s": _spread([t[1] for t in theirs]),
            "x_median": wall_sb["median"] / wall_ours["median"],
            "x_min": wall_sb["min"] / wall_ours["min"],
            "x_cpu_median": statistics.median(t[1] for t in theirs) / statistics.median(o[1] for o in ours),
            "same_scores": len(mine),
        }


def spread_text(d: dict[str, float]) -> str:
    """A :func:`_spread` as ``min/median/max`` seconds (bench.metric_pairs prints its figures so too)."""
    return f"{d['min']:.2f}/{d['median']:.2f}/{d['max']:.2f}"


def _line(r: dict[str, Any]) -> str:
    s = spread_text
    met = "met" if r["x_median"] >= TARGET else "NOT met"
    return (
        f"{r['case']}\n"
        f"  wall s min/median/max: ours {s(r['ours_wall_s'])}, sacreBLEU {s(r['sacrebleu_wall_s'])}; "
        f"{r['x_median']:.1f}x (medians), {r['x_min']:.1f}x (minima); target {TARGET:.0f}x {met}\n"
        f"  CPU s min/median/max: ours {s(r['ours_cpu_s'])}, sacreBLEU {s(r['sacrebleu_cpu_s'])}; "
        f"{r['x_cpu_median']:.1f}x; {r['same_scores']} scores equal to 10 decimals"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.metrics", description=__doc__.split("\n")[0])
    parser.add_argument("--repeat", type=int, default=3, help="runs of each side (alternating)")
    parser.add_argument("--word-order", type=int, nargs="+", default=[0, 2], help="0: chrF, 2: chrF++ (default: both)")
    args = parser.parse_args(argv)
    rows = []
    for word_order in args.word_order:
        rows.append(run(word_order, args.repeat))
        print(_line(rows[-1]), flush=True)
    out = ROOT / "artifacts" / "bench-metrics.json"
    out.parent.mkdir(exist_ok=True)
    out.write_text(json.dumps(rows, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
