"""One 49 MB line on the Corpus page (issue 36, C1): this tree and the tree before the fix, side by side in one run.

The input is the review's (``probe/exp10_bigline.py``): a folder of a reference and one system, each a single line of
"the cat " repeated to 49 MB (the system with its first 1,000 "cat" turned into "cap"). Each tree runs in a child
process of its own: the Corpus page through ``app.py`` in Streamlit's AppTest (the page's own script, no browser),
the folder uploaded through the page's folder uploader, and the run that follows timed (wall and CPU) with the
child's peak resident memory (``VmHWM``). A run counts only when the page shows no exception element and its BLEU
card shows the corpus's BLEU as ``bleu_core.corpus_bleu`` computes it on the same text.

    python -m bench.bigline                 # this tree and BASELINE
    python -m bench.bigline --no-baseline   # this tree only
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from bench.load import baseline_tree

ROOT = Path(__file__).resolve().parent.parent
BASELINE = "5435872"  # main before the size-aware checks (issue 36, C1)
MB = 49

_CHILD = r"""
import json, resource, sys, time
from streamlit.testing.v1 import AppTest
sys.path.insert(0, sys.argv[1])
from bleu_core import corpus_bleu

big = b"the cat " * ({mb} * 2**20 // 8)
system = big.replace(b"cat", b"cap", 1000)
files = [("d/ref.txt", big + b"\n", "text/plain"), ("d/systems/s.txt", system + b"\n", "text/plain")]
expected = corpus_bleu([system.decode()], [[big.decode()]]).score
del big, system
at = AppTest.from_file(sys.argv[1] + "/app.py", default_timeout=900)
at.run()
at.switch_page("pages/corpus.py").run()
up = next(u for u in at.get("file_uploader") if "corpus.in_folder" in u.proto.id)
up.set_value(files)
del files
t0, c0 = time.perf_counter(), time.process_time()
up.run()
wall, cpu = time.perf_counter() - t0, time.process_time() - c0
peak = int(next(l for l in open("/proc/self/status") if l.startswith("VmHWM")).split()[1]) / 1024
cards = [m.value for m in at.metric]
print(json.dumps({{"wall": wall, "cpu": cpu, "peak_mb": peak, "exceptions": [e.value for e in at.exception],
                  "cards": cards, "expected": f"{{expected:.2f}}"}}))
"""


def run_tree(tree: Path, mb: int = MB) -> dict[str, Any]:
    """One child process on ``tree``: the upload's run, measured; refused unless the page drew the right BLEU."""
    out = subprocess.run(
        [sys.executable, "-c", _CHILD.format(mb=mb), str(tree)],
        capture_output=True,
        text=True,
        check=False,
        cwd=tree,
        timeout=1800,
    )
    if out.returncode != 0:
        raise SystemExit(f"{tree}: the child failed: {out.stderr.strip().splitlines()[-1:]}")
    got: dict[str, Any] = json.loads(out.stdout.strip().splitlines()[-1])
    if got["exceptions"]:
        raise SystemExit(f"{tree}: the page shows an exception: {got['exceptions'][0][:200]}")
    if not any(card.startswith(got["expected"]) for card in got["cards"]):
        raise SystemExit(f"{tree}: no BLEU card shows {got['expected']} (cards: {got['cards']})")
    return got


def main(argv: list[str] | None = None) -> dict[str, Any]:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--no-baseline", action="store_true", help="measure this tree only")
    ap.add_argument("--baseline", default=BASELINE, help="the commit measured as 'before'")
    ap.add_argument("--mb", type=int, default=MB, help="the line's size in MB (49: the review's)")
    args = ap.parse_args(argv)
    results = {"this tree": run_tree(ROOT, args.mb)}
    if not args.no_baseline:
        with baseline_tree(args.baseline) as tree:
            results[f"before ({args.baseline})"] = run_tree(tree, args.mb)
    print(f"\nOne {args.mb} MB line on the Corpus page, the upload's run (AppTest, one child process per tree):")
    print(f"{'tree':<22}{'wall s':>9}{'CPU s':>9}{'peak MB':>10}  BLEU shown")
    for name, r in results.items():
        print(f"{name:<22}{r['wall']:>9.2f}{r['cpu']:>9.2f}{r['peak_mb']:>10.0f}  {r['expected']}")
    if len(results) == 2:
        now, before = results.values()
        print(
            f"ratio before/after: wall {before['wall'] / now['wall']:.1f}x, peak memory "
            f"{before['peak_mb'] / now['peak_mb']:.1f}x"
        )
    return results


if __name__ == "__main__":
    main()
