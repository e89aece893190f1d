"""``python -m bench.ranking``: a ranking a paper can print, whole process, against sacreBLEU pair by pair (issue 21).

20 systems x 3,000 lines built at run time from ../shared/data (WMT21 en-de: the 20 systems' 1,002 lines three
times over, each pass against another of the three human references). Ours: one ``bleu-explorer compare
--json`` process: every system scored, the default number of draws for 20 systems (the trial policy), all 190
pairs tested, Holm over them, the clusters and rank ranges. sacreBLEU: one process that runs its paired
bootstrap (``PairedTest``) for each of the 190 pairs with the same number of draws, the first system of a pair
as baseline (sacreBLEU has no all-pairs test). Both are timed as whole processes (start-up, reading,
tokenizing, resampling), best of ``repeat`` runs for ours, one run for sacreBLEU (minutes).

The bench checks that what it timed is what a user gets: ours printed 20 ranked systems, every one with a
rank, a rank range and a cluster, and 190 raw p-values, each equal to sacreBLEU's for the same pair.
Target (issue 21): ours at most 2 s on 2 cores.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
WMT21 = ROOT.parent / "shared" / "data" / "wmt21-news-en-de"
VENV_BIN = Path(sys.executable).parent
LINES = 3000

_SACREBLEU_PAIRS = """
import json, sys
from sacrebleu.metrics import BLEU
from sacrebleu.significance import PairedTest

ref, trials, *hyps = sys.argv[1:]
read = lambda p: open(p, encoding="utf-8").read().split("\\n")[:-1]
refs = [read(ref)]
outs = [read(h) for h in hyps]
p = {}
for i in range(len(outs)):
    for j in range(i + 1, len(outs)):
        named = [(str(i), outs[i]), (str(j), outs[j])]
        test = PairedTest(named, {"BLEU": BLEU(references=refs)}, references=None, test_type="bs",
                          n_samples=int(trials))
        p[f"{i},{j}"] = test()[1]["BLEU"][1].p_value
print(json.dumps(p))
"""


def _lines(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").split("\n")[:-1]


def build(tmp: Path) -> tuple[Path, list[Path]]:
    """The 3,000-line test set: three passes over WMT21's 1,002 lines, pass b scored against reference b."""
    refs = [_lines(WMT21 / f"reference.{k}.de") for k in "ACD"]
    systems = sorted((WMT21 / "systems").glob("*.de"))
    assert len(systems) == 20, f"expected 20 WMT21 systems, found {len(systems)}"
    ref = tmp / "ref.de"
    ref.write_text("\n".join((refs[0] + refs[1] + refs[2])[:LINES]) + "\n", encoding="utf-8")
    hyps = []
    for path in systems:
        out = _lines(path)
        hyp = tmp / path.name
        hyp.write_text("\n".join((out * 3)[:LINES]) + "\n", encoding="utf-8")
        hyps.append(hyp)
    return ref, hyps


def _timed(cmd: list[str]) -> tuple[float, str]:
    start = time.perf_counter()
    proc = subprocess.run(cmd, check=False, capture_output=True, text=True, cwd=ROOT)
    elapsed = time.perf_counter() - start
    assert proc.returncode == 0, f"{cmd[0]} failed ({proc.returncode}): {proc.stderr.strip()[-500:]}"
    return elapsed, proc.stdout


def run(repeat: int = 2, *, sacrebleu: bool = True) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as d:
        ref, hyps = build(Path(d))
        ours_cmd = [str(VENV_BIN / "bleu-explorer"), "compare", str(ref), "-i", *map(str, hyps), "--json"]
        runs = [_timed(ours_cmd) for _ in range(repeat)]
        ours_s = min(t for t, _ in runs)
        out = json.loads(runs[0][1])
        systems = out["systems"]
        assert len(systems) == 20, f"ours ranked {len(systems)} systems"
        for s in systems:
            assert {"rank", "rank_range", "cluster"} <= s.keys(), f"missing ranking fields in {sorted(s)}"
        p = out["pairwise"]["p_values"]
        pairs = [(i, j) for i in range(20) for j in range(i + 1, 20)]
        assert all(p[i][j] is not None for i, j in pairs), "a pair has no p-value"
        trials = out["trials"]
        result: dict[str, Any] = {
            "case": f"20 systems x {LINES} lines: 190 pairs, {trials} draws, Holm, clusters",
            "ours_s": ours_s,
            "trials": trials,
            "clusters": len({s["cluster"] for s in systems}),
        }
        if sacrebleu:
            sb_cmd = [sys.executable, "-c", _SACREBLEU_PAIRS, str(ref), str(trials), *map(str, hyps)]
            sb_s, sb_out = _timed(sb_cmd)
            theirs = json.loads(sb_out)
            same = sum(p[i][j] == theirs[f"{i},{j}"] for i, j in pairs)
            assert same == len(pairs), f"only {same} of {len(pairs)} p-values equal sacreBLEU's"
            result |= {"sacrebleu_s": sb_s, "x_vs_sacrebleu": sb_s / ours_s, "p_values_equal": same}
        return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.ranking", description=__doc__.split("\n")[0])
    parser.add_argument("--repeat", type=int, default=2, help="runs of ours (the best counts)")
    parser.add_argument("--no-sacrebleu", action="store_true", help="skip sacreBLEU's 190 paired tests (minutes)")
    args = parser.parse_args(argv)
    r = run(args.repeat, sacrebleu=not args.no_sacrebleu)
    line = f"{r['case']}: ours {r['ours_s']:.2f} s ({r['clusters']} clusters)"
    if "sacrebleu_s" in r:
        line += (
            f", sacreBLEU pair by pair {r['sacrebleu_s']:.1f} s, {r['x_vs_sacrebleu']:.0f}x; "
            f"{r['p_values_equal']}/190 p-values equal"
        )
    print(line, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
