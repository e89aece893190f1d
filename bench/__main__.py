"""``python -m bench``: bleu-explorer vs sacrebleu vs bleuscore, in one process, on the same inputs (and chrF against
``sacrebleu -m chrf``, whole processes: ``bench.metrics``); then the app
under load (``bench.load``: class sizes and the 50,000-line corpus, before and after, in the same run), then a live
class (``bench.class_load``: 100 students join, translate and rate within a minute), then 40 phones that follow a
lecture (``bench.follow``: the time from the teacher's move to each phone's new slide) and answer a poll
(``bench.poll``: the time from the last answer to all of them drawn on a Chromium projector), then what a person
waits for in Chromium (``bench.browser``).

Inputs are built at run time from ../shared/data (never committed): 3,000 lines with 1 and 4
references, 100,000 lines, the 20 WMT21 en-de systems, and the paired tests. Times are the best of a
few runs (``time.perf_counter``), each started with every tokenizer cache empty (see ``cold``);
peak memory is the peak resident set (``VmHWM`` in
/proc/self/status) of a fresh child process per tool, input lines included. Results print as a
table and go to artifacts/bench.json.
"""

from __future__ import annotations

import gc
import json
import os
import platform
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import bleuscore
import numpy as np
import sacrebleu
from sacrebleu.metrics import BLEU
from sacrebleu.significance import PairedTest

from bleu_core import BleuConfig, corpus_bleu
from bleu_core.engine import ReferenceSet
from bleu_core.metrics.bleu import score_matrix
from bleu_core.significance import compare

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT.parent / "shared" / "data"
WMT21 = DATA / "wmt21-news-en-de"
WMT22 = DATA / "wmt22-general-zh-en"
VENV_BIN = Path(sys.executable).parent


def lines(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").split("\n")[:-1]


def cold() -> None:
    """Empty every tokenizer cache (sacrebleu's lru_caches and ours) and collect garbage.

    Every timed run starts cold and clean: a warm sacrebleu cache from an earlier repetition would
    flatter it, and the tens of thousands of cached strings it leaves behind slow the next tool down
    (measured: our 100k-line run takes 3.4 s right after sacrebleu's, 2.7 s once its caches are emptied).
    """
    from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a
    from sacrebleu.tokenizers.tokenizer_re import TokenizerRegexp

    from bleu_core.engine import tokenizers

    for fn in (
        Tokenizer13a.__call__,
        TokenizerRegexp.__call__,
        tokenizers._tok_13a,
        tokenizers._tok_intl,
        tokenizers._tok_char,
        tokenizers._tok_paper,
    ):
        fn.cache_clear()  # type: ignore[attr-defined]
    gc.collect()


def best(fn: Callable[[], Any], repeat: int) -> tuple[float, Any]:
    times, out = [], None
    for _ in range(repeat):
        cold()
        t = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t)
    return min(times), out


def build_inputs() -> dict[str, Any]:
    refs21 = [lines(WMT21 / f"reference.{k}.de") for k in "ACD"]
    systems21 = sorted((WMT21 / "systems").glob("*.de"))
    outs21 = [lines(p) for p in systems21]
    refs22 = [lines(WMT22 / f"reference.{k}.en") for k in "AB"]
    outs22 = [lines(p) for p in sorted((WMT22 / "systems").glob("*.en"))]
    # 3,000 lines: three different WMT21 systems, each against a rotated reference (no line twice);
    # the 4th reference is another system's output (WMT21 has three human references)
    hyp3k, refs3k = [], [[], [], [], []]
    for b in range(3):
        hyp3k += outs21[b]
        for k in range(3):
            refs3k[k] += refs21[(b + k) % 3]
        refs3k[3] += outs21[10 + b]
    hyp3k, refs3k = hyp3k[:3000], [r[:3000] for r in refs3k]
    # 100,000 lines: every WMT21 and WMT22 system, each against its (rotated) reference, cycled
    hyp100k: list[str] = []
    ref100k: list[str] = []
    cycle = 0
    while len(hyp100k) < 100_000:
        for s, out in enumerate(outs21):
            hyp100k += out
            ref100k += refs21[(s + cycle) % 3]
        for s, out in enumerate(outs22):
            hyp100k += out
            ref100k += refs22[(s + cycle) % 2]
        cycle += 1
    return {
        "refs21": refs21,
        "names21": [p.name for p in systems21],
        "outs21": outs21,
        "hyp3k": hyp3k,
        "refs3k": refs3k,
        "hyp100k": hyp100k[:100_000],
        "ref100k": ref100k[:100_000],
    }


def corpus_row(name: str, hyps: list[str], refs: list[list[str]], repeat: int) -> dict[str, Any]:
    per_seg = [list(r) for r in zip(*refs, strict=True)]  # bleuscore's layout, built outside the timing
    t_sb, sb = best(lambda: sacrebleu.corpus_bleu(hyps, refs), repeat)
    t_bs, bs = best(lambda: bleuscore.compute(per_seg, hyps, max_order=4, ref_len_method="sacrebleu"), repeat)
    t_us, us = best(lambda: corpus_bleu(hyps, refs), repeat)
    return {
        "case": name,
        "ours_s": t_us,
        "sacrebleu_s": t_sb,
        "bleuscore_s": t_bs,
        "x_vs_sacrebleu": t_sb / t_us,
        "x_vs_bleuscore": t_bs / t_us,
        "scores": {"ours": us.score, "sacrebleu": sb.score, "bleuscore": 100 * float(bs["bleu"])},
        "identical": us.score == sb.score
        and us.counts == sb.counts
        and us.ref_len == sb.ref_len
        and abs(us.score - 100 * float(bs["bleu"])) < 1e-9,
    }


def systems_row(inp: dict[str, Any]) -> dict[str, Any]:
    refs, outs = inp["refs21"], inp["outs21"]
    per_seg = [list(r) for r in zip(*refs, strict=True)]
    config = BleuConfig()

    def ours() -> list[float]:
        ref_set = ReferenceSet(refs)
        return [score_matrix(ref_set.stats(h), config, ref_set.nrefs).score for h in outs]

    def theirs() -> list[float]:
        bleu = BLEU(references=refs)  # sacrebleu's own reference cache
        return [bleu.corpus_score(h, None).score for h in outs]

    t_us, us = best(ours, 3)
    t_sb, sb = best(theirs, 2)
    t_bs, bs = best(
        lambda: [100 * float(bleuscore.compute(per_seg, h, ref_len_method="sacrebleu")["bleu"]) for h in outs], 3
    )
    return {
        "case": "20 systems x 1002 lines x 3 refs",
        "ours_s": t_us,
        "sacrebleu_s": t_sb,
        "bleuscore_s": t_bs,
        "x_vs_sacrebleu": t_sb / t_us,
        "x_vs_bleuscore": t_bs / t_us,
        "identical": us == sb and all(abs(a - b) < 1e-9 for a, b in zip(us, bs, strict=True)),
    }


def paired_rows(inp: dict[str, Any]) -> list[dict[str, Any]]:
    refs = inp["refs21"][:1]
    names, outs = inp["names21"], inp["outs21"]
    base, other = names.index("UEdin.de"), names.index("Online-W.de")
    named = [(names[base], outs[base]), (names[other], outs[other])]
    config = BleuConfig()
    rows = []
    for test, n in (("bs", 1000), ("ar", 10000)):

        def theirs(test: str = test, n: int = n) -> list[Any]:
            pt = PairedTest(named, {"BLEU": BLEU(references=refs)}, references=None, test_type=test, n_samples=n)
            return pt()[1]["BLEU"]

        def run_test(mats: list[np.ndarray], test: str = test, n: int = n) -> list[Any]:
            # what PairedTest computes: the baseline's interval (bs only: sacrebleu's AR default draws
            # none) and each system's test
            c = compare(mats[0], mats[1:], config, method=test, trials=n, n_confidence=0)  # type: ignore[arg-type]
            return list(c.results)

        def ours() -> list[Any]:
            ref_set = ReferenceSet(refs)
            return run_test([ref_set.stats(h) for _, h in named])

        t_sb, sb = best(theirs, 2)
        t_us, us = best(ours, 3)

        # The test alone, without tokenizing and counting: sacrebleu's share is its total minus its own
        # statistics extraction (the references cached by BLEU() and both systems' statistics).
        def theirs_stats() -> None:
            metric = BLEU(references=refs)
            for _, h in named:
                metric._extract_corpus_statistics(h, None)

        ref_set = ReferenceSet(refs)
        mats = [ref_set.stats(h) for _, h in named]
        t_sb_stats, _ = best(theirs_stats, 2)
        t_us_test, _ = best(lambda mats=mats: run_test(mats), 3)
        t_sb_test = max(t_sb - t_sb_stats, 1e-9)
        rows.append(
            {
                "case": f"paired {test} {n} (1002 lines, 2 systems)",
                "ours_s": t_us,
                "sacrebleu_s": t_sb,
                "x_vs_sacrebleu": t_sb / t_us,
                "p_ours": us[-1].p_value,
                "p_sacrebleu": sb[1].p_value,
            }
        )
        rows.append(
            {
                "case": f"  the {test} test alone (stats given)",
                "ours_s": t_us_test,
                "sacrebleu_s": t_sb_test,
                "x_vs_sacrebleu": t_sb_test / t_us_test,
            }
        )
    return rows


def cli_row(tmp: Path, inp: dict[str, Any]) -> dict[str, Any]:
    ref, hyp = tmp / "small.ref", tmp / "small.hyp"
    ref.write_text("\n".join(inp["refs21"][0][:20]) + "\n", encoding="utf-8")
    hyp.write_text("\n".join(inp["outs21"][0][:20]) + "\n", encoding="utf-8")

    def run(cmd: list[str]) -> float:
        t = time.perf_counter()
        subprocess.run(cmd, check=True, capture_output=True)
        return time.perf_counter() - t

    ours_cmd = [str(VENV_BIN / "bleu-explorer"), "score", str(ref), "-i", str(hyp)]
    sb_cmd = [str(VENV_BIN / "sacrebleu"), str(ref), "-i", str(hyp), "-m", "bleu"]
    run(ours_cmd), run(sb_cmd)  # warm the page cache
    ours = statistics.median(run(ours_cmd) for _ in range(7))
    theirs = statistics.median(run(sb_cmd) for _ in range(7))
    return {
        "case": "CLI start-up (20 lines, median of 7)",
        "ours_s": ours,
        "sacrebleu_s": theirs,
        "x_vs_sacrebleu": theirs / ours,
    }


_MEM_SCRIPT = """
import resource, sys
tool, hyp, ref = sys.argv[1:4]
hyps = open(hyp, encoding="utf-8").read().split("\\n")[:-1]
refs = [open(ref, encoding="utf-8").read().split("\\n")[:-1]]
if tool == "sacrebleu":
    import sacrebleu; s = sacrebleu.corpus_bleu(hyps, refs).score
elif tool == "bleuscore":
    import bleuscore; s = 100 * bleuscore.compute([[r] for r in refs[0]], hyps, ref_len_method="sacrebleu")["bleu"]
elif tool == "ours":
    from bleu_core import corpus_bleu; s = corpus_bleu(hyps, refs).score
elif tool == "ours-streaming":
    del hyps, refs
    from bleu_core.data.files import corpus_bleu_files; s = corpus_bleu_files(hyp, [ref], chunk_lines=20000).score
else:
    import numpy; s = 0.0
# VmHWM: this process's own peak resident set (ru_maxrss would carry the parent's peak across exec)
hwm = next(line.split()[1] for line in open("/proc/self/status") if line.startswith("VmHWM:"))
print(s, hwm)
"""


def memory_row(tmp: Path, inp: dict[str, Any]) -> dict[str, Any]:
    hyp, ref = tmp / "100k.hyp", tmp / "100k.ref"
    hyp.write_text("\n".join(inp["hyp100k"]) + "\n", encoding="utf-8")
    ref.write_text("\n".join(inp["ref100k"]) + "\n", encoding="utf-8")
    out: dict[str, Any] = {"case": "peak RSS, 100k lines (MB, fresh process, VmHWM)"}
    for tool in ("baseline", "ours", "ours-streaming", "sacrebleu", "bleuscore"):
        proc = subprocess.run(
            [sys.executable, "-c", _MEM_SCRIPT, tool, str(hyp), str(ref)],
            check=True,
            capture_output=True,
            text=True,
            cwd=ROOT,
        )
        score, kb = proc.stdout.split()
        out[f"{tool}_mb"] = int(kb) / 1024
        out[f"{tool}_score"] = float(score)
    out["ratio_sacrebleu_over_ours"] = out["sacrebleu_mb"] / out["ours_mb"]
    return out


def main() -> int:
    assert DATA.is_dir(), f"real data not found at {DATA}"
    start = time.perf_counter()
    inp = build_inputs()
    rows = [
        corpus_row("3000 lines x 1 ref", inp["hyp3k"], inp["refs3k"][:1], 5),
        corpus_row("3000 lines x 4 refs", inp["hyp3k"], inp["refs3k"], 5),
        corpus_row("100000 lines x 1 ref", inp["hyp100k"], [inp["ref100k"]], 1),
        systems_row(inp),
        *paired_rows(inp),
    ]
    with tempfile.TemporaryDirectory() as d:
        rows.append(cli_row(Path(d), inp))
        mem = memory_row(Path(d), inp)
    print(f"{'case':<42} {'ours s':>8} {'sacrebleu s':>11} {'bleuscore s':>11} {'x sacre':>8} {'x bleusc':>8}  same")
    for r in rows:
        bs = f"{r['bleuscore_s']:>11.3f}" if "bleuscore_s" in r else f"{'-':>11}"
        xb = f"{r['x_vs_bleuscore']:>8.1f}" if "x_vs_bleuscore" in r else f"{'-':>8}"
        same = r.get("identical")
        if "p_ours" in r:
            same = f"p {r['p_ours']:.4f} vs {r['p_sacrebleu']:.4f}"
        print(
            f"{r['case']:<42} {r['ours_s']:>8.3f} {r['sacrebleu_s']:>11.3f} {bs} {r['x_vs_sacrebleu']:>8.1f} {xb}"
            f"  {'' if same is None else same}"
        )
    print(
        f"\n{mem['case']}: ours {mem['ours_mb']:.0f}, ours streaming {mem['ours-streaming_mb']:.0f}, "
        f"sacrebleu {mem['sacrebleu_mb']:.0f}, bleuscore {mem['bleuscore_mb']:.0f}, "
        f"bare interpreter + numpy {mem['baseline_mb']:.0f}; "
        f"sacrebleu / ours = {mem['ratio_sacrebleu_over_ours']:.1f}x"
    )
    scores = {k: round(v, 9) for k, v in mem.items() if k.endswith("_score") and not k.startswith("baseline")}
    print(f"100k scores: {scores}")
    elapsed = time.perf_counter() - start
    print(
        f"bench took {elapsed:.0f} s on {os.cpu_count()} CPUs, Python {platform.python_version()}, "
        f"numpy {np.__version__}, sacrebleu {sacrebleu.__version__}, bleuscore {bleuscore.__version__}"
    )
    out = ROOT / "artifacts" / "bench.json"
    out.parent.mkdir(exist_ok=True)
    out.write_text(
        json.dumps(
            {
                "rows": rows,
                "memory": mem,
                "seconds": elapsed,
                "cpus": os.cpu_count(),
                "maxrss_parent_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
            },
            indent=1,
        )
        + "\n",
        encoding="utf-8",
    )
    print(f"wrote {out.relative_to(ROOT)}")
    # A ranking a paper can print (issue 21): 20 systems x 3,000 lines, whole process, vs sacreBLEU per pair.
    from bench import ranking

    print("\nRanking (bench/ranking.py): ours in one process, sacreBLEU's paired bootstrap pair by pair", flush=True)
    ranking.main(["--repeat", "2"])
    # TER against sacrebleu -m ter: 3 systems x 3,000 lines, whole processes side by side.
    from bench import ter

    print("\nTER (bench/ter.py): ours and sacrebleu -m ter, whole processes side by side", flush=True)
    ter.main(["--runs", "3"])
    # chrF and chrF++ against `sacrebleu -m chrf`, whole processes on the same files, alternating runs.
    from bench import metrics

    print("\nchrF (bench/metrics.py): 16 systems x 3,000 lines, ours vs sacreBLEU's CLI, whole processes", flush=True)
    metrics.main(["--repeat", "3"])
    # Every pair of 16 systems on chrF (the policy's draws, Holm, clusters) against sacreBLEU's one pair.
    from bench import metric_pairs

    print("\nchrF, all pairs (bench/metric_pairs.py): ours for 120 pairs, sacreBLEU for one", flush=True)
    metric_pairs.main(["--repeat", "3"])
    # One 49 MB line on the Corpus page (issue 36, C1): this tree and the tree before the size-aware checks.
    from bench import bigline

    print("\nOne 49 MB line on the Corpus page (bench/bigline.py): before and after, one child each", flush=True)
    bigline.main([])
    # The app under load (issue 13): class sizes and the 50,000-line corpus, before and after, same run.
    from bench import load

    print("\nApp under load (bench/load.py): baseline and this tree, one server at a time", flush=True)
    load.main(["--table"])
    # What a browser pays on a first visit (issue 24): Chromium through nginx, static files proxied or served.
    from bench import serve_class

    print("\nFirst visits in Chromium through nginx, one app process (bench/serve_class.py --measure)", flush=True)
    serve_class.main(["--measure", "--visits", "5"])
    # A class on one process (issue 23): 100 students join, translate and rate within a minute.
    from bench import class_load

    print("\nA class of 100 (bench/class_load.py)", flush=True)
    class_load.main(["--students", "100"])
    # Phones in step (issue 34): 40 phones follow a lecture through nginx and two app processes, then answer a poll.
    from bench import follow

    print("\nA lecture followed on 40 phones (bench/follow.py)", flush=True)
    follow.main(["--phones", "40", "--processes", "2"])
    from bench import poll

    print("\nA poll of 40 phones drawn on the projector (bench/poll.py)", flush=True)
    poll.main(["--phones", "40", "--processes", "2", "--repeats", "5"])
    # What a person waits for (issue 24): the Learn page, and the corpus and compare pages after a 50,000-line x
    # 4-system upload, in Chromium, each on a fresh server; with what the first visit fetched and cost the server.
    from bench import browser

    print("\nUser-visible time in Chromium (bench/browser.py): first visits, each on a fresh server", flush=True)
    browser.main([])
    return 0


if __name__ == "__main__":
    sys.exit(main())
