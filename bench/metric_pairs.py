"""``python -m bench.metric_pairs``: every pair of 16 systems on chrF, ours, against sacreBLEU's one pair.

The input is ``bench.ranking``'s 3,000-line test set (WMT21 en-de from ../shared/data), its first 16 systems by name.
Ours: one ``bleu-explorer compare -m chrf --json`` process: every system scored, the trial policy's draws for 16
systems, all 120 pairs tested with sacreBLEU's paired bootstrap, Holm over them, clusters and rank ranges.
sacreBLEU: one process that runs its paired bootstrap (``PairedTest`` with ``CHRF``; its CLI cannot print a chrF
paired test as JSON: the float32 p-values are not JSON serialisable) for ONE pair, the first two systems, with the
same number of draws. Both are whole processes (start-up, reading, counting, resampling), alternating run by run.

The bench checks that what it timed is what a user gets: ours ranked 16 systems, each with a rank, a rank range and
a cluster, 120 p-values, and its p-value for the first pair equal to sacreBLEU's.
Target (issue 32): ours (all 120 pairs) at most 2x sacreBLEU's time for one pair.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
from pathlib import Path
from typing import Any

from bench.metrics import _run, _spread, spread_text
from bench.ranking import build

ROOT = Path(__file__).resolve().parent.parent
VENV_BIN = Path(sys.executable).parent
SYSTEMS = 16
TARGET = 2.0

_SACREBLEU_ONE_PAIR = """
import sys
from sacrebleu.metrics import CHRF
from sacrebleu.significance import PairedTest

ref, trials, a, b = sys.argv[1:]
read = lambda p: open(p, encoding="utf-8").read().split("\\n")[:-1]
named = [("a", read(a)), ("b", read(b))]
test = PairedTest(named, {"chrF": CHRF(references=[read(ref)])}, references=None, test_type="bs", n_samples=int(trials))
print(repr(float(test()[1]["chrF2"][1].p_value)))
"""


def _check_ours(out: dict[str, Any]) -> float:
    """Ours printed what a user reads: 16 ranked systems with clusters, every pair's p-value; the first pair's."""
    systems = out["systems"]
    assert len(systems) == SYSTEMS, f"ours ranked {len(systems)} systems"
    assert out["metrics"][0]["name"] == "chrF2", out["metrics"][0]["name"]
    for s in systems:
        assert {"rank", "rank_range", "cluster"} <= s.keys(), f"missing ranking fields in {sorted(s)}"
    p = out["pairwise"]["p_values"]
    pairs = [(i, j) for i in range(SYSTEMS) for j in range(i + 1, SYSTEMS)]
    assert all(p[i][j] is not None for i, j in pairs), "a pair has no p-value"
    return float(p[0][1])


def run(repeat: int) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as d:
        ref, hyps = build(Path(d))
        hyps = hyps[:SYSTEMS]
        ours_cmd = [str(VENV_BIN / "bleu-explorer"), "compare", str(ref), "-i", *map(str, hyps), "-m", "chrf", "--json"]
        ours = [_run(ours_cmd)]
        trials = json.loads(ours[0][2])["trials"]
        sb_cmd = [sys.executable, "-c", _SACREBLEU_ONE_PAIR, str(ref), str(trials), str(hyps[0]), str(hyps[1])]
        theirs = [_run(sb_cmd)]
        for _ in range(repeat - 1):  # alternating, so that both sides see the same load on a shared machine
            ours.append(_run(ours_cmd))
            theirs.append(_run(sb_cmd))
        p_ours = _check_ours(json.loads(ours[0][2]))
        p_theirs = float(theirs[0][2].strip())
        assert p_ours == p_theirs, f"first pair's p-value: ours {p_ours}, sacreBLEU {p_theirs}"
        wall_ours, wall_sb = _spread([o[0] for o in ours]), _spread([t[0] for t in theirs])
        return {
            "case": f"chrF2: {SYSTEMS} systems x 3000 lines, all 120 pairs, {trials} draws, Holm, clusters",
            "trials": trials,
            "ours_wall_s": wall_ours,
            "sacrebleu_one_pair_wall_s": wall_sb,
            "ours_cpu_s": _spread([o[1] for o in ours]),
            "sacrebleu_one_pair_cpu_s": _spread([t[1] for t in theirs]),
            "ratio_median": wall_ours["median"] / wall_sb["median"],
            "ratio_cpu_median": statistics.median(o[1] for o in ours) / statistics.median(t[1] for t in theirs),
            "first_pair_p": p_ours,
        }


def _line(r: dict[str, Any]) -> str:
    s = spread_text
    met = "met" if r["ratio_median"] <= TARGET else "NOT met"
    return (
        f"{r['case']}\n"
        f"  wall s min/median/max: ours (120 pairs) {s(r['ours_wall_s'])}, sacreBLEU (1 pair) "
        f"{s(r['sacrebleu_one_pair_wall_s'])}; ours/sacreBLEU {r['ratio_median']:.2f} (medians), target <= "
        f"{TARGET:.0f} {met}\n"
        f"  CPU s min/median/max: ours {s(r['ours_cpu_s'])}, sacreBLEU {s(r['sacrebleu_one_pair_cpu_s'])}; "
        f"{r['ratio_cpu_median']:.2f}; first pair's p-value {r['first_pair_p']} on both sides"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.metric_pairs", description=__doc__.split("\n")[0])
    parser.add_argument("--repeat", type=int, default=3, help="runs of each side (alternating)")
    args = parser.parse_args(argv)
    r = run(args.repeat)
    print(_line(r), flush=True)
    out = ROOT / "artifacts" / "bench-metric-pairs.json"
    out.parent.mkdir(exist_ok=True)
    out.write_text(json.dumps(r, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
