"""``python -m bench.ter``: TER, whole process, ours against ``sacrebleu -m ter``, side by side in one run.

Input, built at run time from ../shared/data (never committed): 3 WMT21 en-de systems (the first, the 11th and
the last of the 20, sorted by name), each 3,000 lines: the system's 1,002 lines three times over, the reference
file being references A, C and D one after another, so every line is a real system output against a real
reference and no (hypothesis, reference) pair repeats. One reference stream (``--refs 3`` scores against
three streams, rotating A, C, D).

Each run starts two fresh processes one after the other: ``sacrebleu REF -i S1 S2 S3 -m ter -w 10`` and ours
(``python -m bench.ter --worker``: reads the files, prepares the references once with
``bleu_core.metrics.ter``, scores every system, prints the same JSON as sacreBLEU). The bench checks that both
printed the same scores to 10 decimals in every run, and reports each tool's min/median/max seconds and the
ratio (sacreBLEU / ours) per run, min/median/max. Target: ours at least 20x faster. sacreBLEU takes about
30 s a system, so a run takes about two minutes.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
WMT21 = ROOT.parent / "shared" / "data" / "wmt21-news-en-de"
VENV_BIN = Path(sys.executable).parent
WIDTH = 10


def _lines(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").split("\n")[:-1]


def build(tmp: Path, n_lines: int, n_systems: int, n_refs: int) -> tuple[list[Path], list[Path]]:
    """The reference files and system files (see the module docstring)."""
    refs = [_lines(WMT21 / f"reference.{k}.de") for k in "ACD"]
    paths = sorted((WMT21 / "systems").glob("*.de"))
    assert len(paths) == 20, f"expected 20 WMT21 systems, found {len(paths)}"
    chosen = [paths[round(i * (len(paths) - 1) / max(n_systems - 1, 1))] for i in range(n_systems)]
    ref_files = []
    for k in range(n_refs):
        lines = [line for b in range(3) for line in refs[(b + k) % 3]][:n_lines]
        ref_files.append(tmp / f"ref{k}.de")
        ref_files[-1].write_text("\n".join(lines) + "\n", encoding="utf-8")
    sys_files = []
    for p in chosen:
        lines = (_lines(p) * 3)[:n_lines]
        sys_files.append(tmp / p.name)
        sys_files[-1].write_text("\n".join(lines) + "\n", encoding="utf-8")
    return ref_files, sys_files


def worker(refs: list[str], systems: list[str]) -> None:
    """Ours as one process: read, prepare the references once, score each system, print sacreBLEU's JSON."""
    from bleu_core.metrics.ter import Ter

    prepared = Ter().prepare([_lines(Path(r)) for r in refs])
    out = [{"system": s, "TER": f"{prepared.corpus_score(_lines(Path(s))).score:.{WIDTH}f}"} for s in systems]
    print(json.dumps(out, indent=4))


def _run(cmd: list[str]) -> tuple[float, list[dict[str, str]]]:
    start = time.perf_counter()
    proc = subprocess.run(cmd, check=True, capture_output=True, text=True, cwd=ROOT)
    seconds = time.perf_counter() - start
    return seconds, json.loads(proc.stdout)


def _spread(values: list[float]) -> str:
    return f"{min(values):.3f} / {statistics.median(values):.3f} / {max(values):.3f}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.ter", description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=3, help="side-by-side runs (default 3)")
    parser.add_argument("--lines", type=int, default=3000)
    parser.add_argument("--systems", type=int, default=3)
    parser.add_argument("--refs", type=int, default=1, choices=(1, 2, 3))
    parser.add_argument("--worker", nargs="+", metavar="FILE", help=argparse.SUPPRESS)
    parser.add_argument("--n-refs", type=int, default=1, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker:
        worker(args.worker[: args.n_refs], args.worker[args.n_refs :])
        return 0
    assert WMT21.is_dir(), f"real data not found at {WMT21}"
    with tempfile.TemporaryDirectory() as d:
        refs, systems = build(Path(d), args.lines, args.systems, args.refs)
        ours_cmd = [sys.executable, "-m", "bench.ter", "--n-refs", str(len(refs)), "--worker", *map(str, refs)]
        ours_cmd += [str(s) for s in systems]
        sacre_cmd = [str(VENV_BIN / "sacrebleu"), *map(str, refs), "-i", *map(str, systems), "-m", "ter"]
        sacre_cmd += ["-w", str(WIDTH)]
        if len(systems) == 1:
            sacre_cmd.append("-b")
        ours_s: list[float] = []
        sacre_s: list[float] = []
        scores: list[Any] = []
        for _ in range(args.runs):
            t_ours, out_ours = _run(ours_cmd)
            if len(systems) == 1:
                start = time.perf_counter()
                text = subprocess.run(sacre_cmd, check=True, capture_output=True, text=True).stdout.strip()
                t_sacre, out_sacre = time.perf_counter() - start, [{"system": str(systems[0]), "TER": text}]
            else:
                t_sacre, out_sacre = _run(sacre_cmd)
            if out_ours != out_sacre:
                print(f"DIFFERENT SCORES\nours:      {out_ours}\nsacreBLEU: {out_sacre}")
                return 1
            ours_s.append(t_ours)
            sacre_s.append(t_sacre)
            scores = out_ours
    ratios = [s / o for s, o in zip(sacre_s, ours_s, strict=True)]
    case = f"TER, {args.systems} systems x {args.lines} lines x {args.refs} ref(s), whole process"
    print(case)
    print(f"  ours      s (min / median / max of {args.runs}): {_spread(ours_s)}")
    print(f"  sacreBLEU s (min / median / max of {args.runs}): {_spread(sacre_s)}")
    print(f"  sacreBLEU / ours per run (min / median / max):  {_spread(ratios)}")
    print(
        f"  same scores in every run ({WIDTH} decimals): "
        + ", ".join(f"{Path(s['system']).name} {s['TER']}" for s in scores)
    )
    out = ROOT / "artifacts" / "bench-ter.json"
    out.parent.mkdir(exist_ok=True)
    report = {"case": case, "ours_s": ours_s, "sacrebleu_s": sacre_s, "ratios": ratios, "scores": scores}
    out.write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {out.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
