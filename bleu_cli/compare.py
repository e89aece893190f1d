"""``bleu-explorer compare``: systems against a baseline with paired significance tests, and every pair ranked
into significance clusters (Holm-corrected), as text, JSON or a LaTeX table.

One resampling pass gives both (``bleu_core.significance.compare_systems``); how many draws is the core's trial
policy (``options.paired_test``). Registering the command imports no numpy.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from bleu_core.errors import InputError

from . import options
from .files import read_inputs, write_text
from .slicing import Narrowed, narrow

if TYPE_CHECKING:
    from bleu_core.config import BleuConfig
    from bleu_core.metrics.signature import SacrebleuSignature
    from bleu_core.significance import SystemsComparison
    from bleu_core.significance.ranking import Ranking
    from bleu_core.significance.testsize import SizeNote
    from bleu_core.significance.trials import Method
    from bleu_core.teaching.decomposition import Decomposition

__all__ = ["add_parser"]


def add_parser(sub: Any) -> None:
    """Register ``bleu-explorer compare`` on the CLI's subparsers."""
    p = sub.add_parser("compare", help="systems against a baseline: BLEU, 95%% CI, paired p-values")
    p.add_argument("refs", nargs="+", metavar="REF", help="reference files, one segment per line")
    p.add_argument(
        "-i", "--input", nargs="+", required=True, metavar="HYP", help="system outputs; the first is the baseline"
    )
    options.add_paired_tests(p)
    options.add_seed(p)
    options.add_alpha(p)
    options.add_json(p)
    p.add_argument(
        "--latex",
        default=None,
        metavar="FILE",
        help="also write the ranking as a booktabs LaTeX table to FILE (- for standard output)",
    )
    options.add_bleu_options(p)
    options.add_where(p)
    p.set_defaults(func=run)


@dataclass(frozen=True)
class _Result:
    """Everything ``compare`` prints, computed once."""

    method: Method
    trials: int
    names: list[str]
    both: SystemsComparison
    ranking: Ranking
    differences: list[Decomposition]
    rows: list[dict[str, Any]]
    note: SizeNote
    sacre: SacrebleuSignature
    intervals: str
    warning: str | None


def run(args: argparse.Namespace) -> int:
    config = options.bleu_config(args)
    if len(args.input) < 2:
        raise InputError("give a baseline and at least one system to compare (-i BASE SYS [SYS ...])", "-i")
    options.check_alpha(args.alpha)
    method, trials, flag = options.paired_test(args, len(args.input), args.alpha)
    options.check_seed(args.seed)
    ref_files, hyp_files = read_inputs(args.refs, args.input)
    narrowed = narrow(args, config, ref_files, hyp_files)
    result = _compare(narrowed, config, args, (method, trials, flag))
    if result.warning:
        print(f"bleu-explorer: warning: {result.warning}", file=sys.stderr)
    if args.latex:
        _write_latex(args.latex, result)
    if args.json:
        if args.latex != "-":
            print(json.dumps(_json(result, args, narrowed), ensure_ascii=False, indent=1))
        return 0
    if args.latex == "-":
        return 0
    _print_text(result, args)
    if narrowed.slice is not None:
        print(f"slice: {narrowed.label()}")
    return 0


def _compare(
    narrowed: Narrowed, config: BleuConfig, args: argparse.Namespace, test: tuple[Method, int, str]
) -> _Result:
    from bleu_core.metrics.bleu import Bleu
    from bleu_core.metrics.signature import sacrebleu_signature
    from bleu_core.significance import compare_systems
    from bleu_core.significance.ranking import rank_pairwise
    from bleu_core.significance.testsize import size_note
    from bleu_core.significance.trials import check_resampling_fits, holm_warning
    from bleu_core.teaching.decomposition import decompose_matrices

    method, trials, flag = test
    bleu = Bleu(config)
    n_segments = len(narrowed.references[0].lines)
    columns = len(narrowed.systems) * bleu.width
    check_resampling_fits(method, trials, n_segments, flag, columns=columns)
    if method == "ar":  # and the baseline's interval: sacreBLEU's 1,000 bootstrap resamples
        check_resampling_fits("bs", 1000, n_segments, flag, columns=columns)
    refs = bleu.prepare([list(f.lines) for f in narrowed.references])
    mats = [refs.stats(list(h.lines)) for h in narrowed.systems]
    names = [os.path.basename(h.name) for h in narrowed.systems]
    both = compare_systems(mats, names, bleu, method=method, trials=trials, seed=args.seed, nrefs=refs.nrefs)
    ranking = rank_pairwise(both.pairwise, args.alpha)
    differences = [decompose_matrices(mats[0], m, config) for m in mats[1:]]  # BLEU on purpose: its own terms
    rows = _rows(names, both, differences, ranking)
    # what `sacrebleu --paired-bs/--paired-ar` prints: its CLI gives no interval in AR mode, so no bs: key (our
    # intervals' own 1,000 resamples are in our signature, researcher-walk W2)
    return _Result(
        method,
        trials,
        names,
        both,
        ranking,
        differences,
        rows,
        size_note(n_segments, [row["high"] - row["low"] for row in rows]),
        sacrebleu_signature(config, refs.nrefs, test=method, trials=trials, seed=args.seed),
        bleu.signature(refs.nrefs, bs=trials if method == "bs" else 1000, rs=args.seed),
        holm_warning(len(names), trials, args.alpha),
    )


def _json(result: _Result, args: argparse.Namespace, narrowed: Narrowed) -> dict[str, Any]:
    note, sacre, pairwise = result.note, result.sacre, result.both.pairwise
    return {
        "method": result.method,
        "trials": result.trials,
        "seed": args.seed,
        "alpha": args.alpha,
        "signature": result.both.against_baseline.signature,
        "interval_signature": result.intervals,
        "sacrebleu_signature": {"long": sacre.long, "short": sacre.short, "none_because": sacre.why_none},
        "warning": result.warning,
        "slice": narrowed.label(),
        "test_set": {"segments": note.segments, "widest_interval": note.width, "small": note.small},
        "systems": result.rows,
        "pairwise": {
            "systems": result.names,
            "p_values": _nulls(pairwise.p_values),
            "holm": _nulls(pairwise.adjusted),
            "differences": [list(r) for r in pairwise.differences],
        },
    }


def _nulls(matrix: Sequence[Sequence[float]]) -> list[list[float | None]]:
    """JSON has no NaN: the diagonal (no test of a system with itself) is null."""
    return [[None if math.isnan(v) else v for v in row] for row in matrix]


def _rows(
    names: Sequence[str], both: SystemsComparison, differences: Sequence[Decomposition], ranking: Ranking
) -> list[dict[str, Any]]:
    comparison = both.against_baseline
    base_ci = comparison.baseline_ci
    assert base_ci is not None  # n_confidence is 1000
    place = {s.index: s for s in ranking.systems}
    rows: list[dict[str, Any]] = [
        {
            "system": names[0],
            "baseline": True,
            "score": comparison.baseline_score,
            "mean": base_ci[0],
            "ci": base_ci[1],
            "low": base_ci[2],
            "high": base_ci[3],
            "p_value": None,
        }
    ]
    for name, r, d in zip(names[1:], comparison.results, differences, strict=True):
        rows.append(
            {
                "system": name,
                "baseline": False,
                "score": r.score,
                "mean": r.mean,
                "ci": r.half_width,
                "low": r.low,
                "high": r.high,
                "p_value": r.p_value,
                "difference": d.to_dict(),
            }
        )
    for i, row in enumerate(rows):
        row["rank"] = place[i].rank
        row["rank_range"] = list(place[i].rank_range)
        row["cluster"] = place[i].cluster
    return rows


def _write_latex(target: str, result: _Result) -> None:
    from bleu_core.display.latex import ranking_table

    pairwise, rows = result.both.pairwise, result.rows
    names = pairwise.names
    tex = ranking_table(
        result.ranking,
        intervals={row["system"]: (row["low"], row["high"]) for row in rows},
        baseline=rows[0]["system"],
        adjusted={(a, b): pairwise.adjusted[i][j] for i, a in enumerate(names) for j, b in enumerate(names) if i != j},
        signature=result.both.against_baseline.signature,
    )
    if target == "-":
        sys.stdout.write(tex)
        return
    write_text(target, tex)


def _print_text(result: _Result, args: argparse.Namespace) -> None:
    rows = result.rows
    width = max(len("system"), *(len(str(r["system"])) for r in rows))
    print(f"{'system':<{width}}  {'BLEU':>6}  {'mean ± 95% CI':>16}  {'p-value':>9}")
    for row in rows:
        p = row["p_value"]
        p_text = "(baseline)" if p is None else f"{p:.4f}{'*' if p < 0.05 else ' '}"
        ci = f"{row['mean']:.2f} ± {row['ci']:.2f}"
        print(f"{row['system']!s:<{width}}  {row['score']:>6.2f}  {ci:>16}  {p_text:>9}")
    print(result.note.text)
    bs = result.method == "bs"
    label = "paired bootstrap" if bs else "paired approximate randomization"
    print(
        f"\n{label}, {result.trials} {'resamples' if bs else 'trials'}, seed {args.seed}; "
        "* p < 0.05 against the baseline"
    )
    print("\nwhy each system differs from the baseline (log BLEU split exactly; terms in BLEU points):")
    for row, d in zip(rows[1:], result.differences, strict=True):
        print(d.format(rows[0]["system"], row["system"]))
    _print_ranking(result, width, args.alpha)
    _print_signatures(result)


def _print_ranking(result: _Result, width: int, alpha: float) -> None:
    rows, ranking = result.rows, result.ranking
    n = len(rows)
    print(
        f"\nranking: every pair of the {n} systems ({n * (n - 1) // 2} pairs), Holm-corrected, alpha {alpha:g}; "
        "a line between two clusters means every system above is significantly better than every system below"
    )
    print(f"{'rank':>5}  {'range':>7}  {'system':<{width}}  {'BLEU':>6}")
    by_index = dict(enumerate(rows))
    for pos, s in enumerate(ranking.systems, start=1):
        if pos > 1 and pos - 1 in ranking.boundaries:
            print("-" * (5 + 2 + 7 + 2 + width + 2 + 6))
        lo, hi = s.rank_range
        rng = str(lo) if lo == hi else f"{lo}-{hi}"
        print(f"{s.rank:>5}  {rng:>7}  {by_index[s.index]['system']!s:<{width}}  {s.score:>6.2f}")


def _print_signatures(result: _Result) -> None:
    sacre = result.sacre
    print(f"\nsignature: {result.both.against_baseline.signature}")
    if result.method == "ar":  # sacreBLEU's CLI gives no interval in AR mode: ours come from their own resamples
        print(f"intervals (mean ± 95% CI): {result.intervals}")
    if sacre.long is not None:
        print(f"sacreBLEU signature: {sacre.long}")
        print(f"sacreBLEU signature (short): {sacre.short}")
    else:
        print(f"sacreBLEU signature: none ({sacre.why_none})")
