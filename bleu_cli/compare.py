"""``bleu-explorer compare``: systems against a baseline with paired significance tests, and every pair ranked
into significance clusters (Holm-corrected), as text, JSON or a LaTeX table.

Registering the command imports no numpy.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from bleu_core.errors import InputError

from . import files

if TYPE_CHECKING:
    from bleu_core.config import BleuConfig
    from bleu_core.significance.ranking import Ranking
    from bleu_core.significance.trials import Method

__all__ = ["add_compare_parser"]

DEFAULT_SEED = 12345  # sacrebleu's


def add_compare_parser(
    sub: Any,
    add_bleu_options: Callable[..., None],
    make_config: Callable[[argparse.Namespace], BleuConfig],
    read_all: Callable[[Sequence[str], Sequence[str]], Any],
) -> None:
    """Register ``bleu-explorer compare`` on the CLI's subparsers (``cli.build_parser`` calls this)."""
    p = sub.add_parser("compare", help="systems against a baseline: BLEU, 95%% CI, paired p-values")
    p.add_argument("refs", nargs="+", metavar="REF", help="reference files, one segment per line")
    p.add_argument(
        "-i", "--input", nargs="+", required=True, metavar="HYP", help="system outputs; the first is the baseline"
    )
    group = p.add_mutually_exclusive_group()
    group.add_argument(
        "--paired-bs",
        type=int,
        nargs="?",
        const="policy",
        default=None,
        metavar="N",
        help="paired bootstrap with N resamples (the default; without N, or without this option, the number the "
        "trial policy picks: sacreBLEU's 1000, or more when Holm's correction over every pair needs it)",
    )
    group.add_argument(
        "--paired-ar",
        type=int,
        nargs="?",
        const=10000,
        default=None,
        metavar="N",
        help="paired approximate randomization with N trials (default N = 10000)",
    )
    p.add_argument("--seed", type=int, default=DEFAULT_SEED, help=f"random seed (default {DEFAULT_SEED})")
    p.add_argument(
        "--alpha", type=float, default=0.05, metavar="A", help="significance level of the clusters (default 0.05)"
    )
    p.add_argument("--json", action="store_true", help="print JSON")
    p.add_argument(
        "--latex",
        default=None,
        metavar="FILE",
        help="also write the ranking as a booktabs LaTeX table to FILE (- for standard output)",
    )
    add_bleu_options(p)
    from .slicing import add_where_options

    add_where_options(p)

    def run(args: argparse.Namespace) -> int:
        return _cmd_compare(args, make_config, read_all)

    p.set_defaults(func=run)


def _trials(args: argparse.Namespace, n_systems: int) -> tuple[Method, int, str]:
    """The test, its number of draws and the flag that names it: an explicit N is kept (sacreBLEU's draws);
    otherwise the trial policy shared with the app (``default_trials``)."""
    from bleu_core.significance.trials import check_trials, default_trials

    if args.paired_ar is not None:
        method: Method = "ar"
        trials, flag = args.paired_ar, "--paired-ar"
    else:
        method, flag = "bs", "--paired-bs"
        explicit = args.paired_bs not in (None, "policy")
        trials = args.paired_bs if explicit else default_trials(n_systems, args.alpha)
    check_trials(trials, flag)
    return method, trials, flag


def _cmd_compare(
    args: argparse.Namespace,
    make_config: Callable[[argparse.Namespace], BleuConfig],
    read_all: Callable[[Sequence[str], Sequence[str]], Any],
) -> int:
    from bleu_core.engine import ReferenceSet
    from bleu_core.metrics.bleu import make_signature
    from bleu_core.metrics.signature import sacrebleu_signature
    from bleu_core.significance import compare, pairwise_matrix
    from bleu_core.significance.ranking import rank_pairwise
    from bleu_core.significance.testsize import size_note
    from bleu_core.significance.trials import check_resampling_fits, holm_warning
    from bleu_core.teaching.decomposition import decompose_matrices

    config = make_config(args)
    if len(args.input) < 2:
        raise InputError("give a baseline and at least one system to compare (-i BASE SYS [SYS ...])", "-i")
    if not 0 < args.alpha < 1:
        raise InputError(f"must be between 0 and 1, got {args.alpha}", "--alpha")
    method, trials, flag = _trials(args, len(args.input))
    if args.seed < 0:
        raise InputError(f"must be a whole number >= 0, got {args.seed}", "--seed")
    from .slicing import narrow

    ref_files, hyp_files = read_all(args.refs, args.input)
    narrowed = narrow(args, config, ref_files, hyp_files)
    ref_files, hyp_files = narrowed.references, narrowed.systems
    n_segments = len(ref_files[0].lines)
    columns = len(hyp_files) * (2 + 2 * config.max_ngram_order)
    check_resampling_fits(method, trials, n_segments, flag, columns=columns)
    if method == "ar":  # and the baseline's interval: sacrebleu's 1,000 bootstrap resamples
        check_resampling_fits("bs", 1000, n_segments, flag, columns=columns)
    streams = [list(f.lines) for f in ref_files]
    ref_set = ReferenceSet.from_config(streams, config)
    mats = [ref_set.stats(list(h.lines), config.max_ngram_order) for h in hyp_files]
    nrefs = ref_set.nrefs
    names = [os.path.basename(h.name) for h in hyp_files]
    comparison = compare(mats[0], mats[1:], config, method=method, trials=trials, seed=args.seed, nrefs=nrefs)
    pairwise = pairwise_matrix(mats, names, config, method=method, trials=trials, seed=args.seed, nrefs=nrefs)
    ranking = rank_pairwise(pairwise, args.alpha)
    warning = holm_warning(len(names), trials, args.alpha)
    differences = [decompose_matrices(mats[0], m, config) for m in mats[1:]]
    rows = _rows(names, comparison, differences, ranking)
    note = size_note(n_segments, [row["high"] - row["low"] for row in rows])
    # what `sacrebleu --paired-bs/--paired-ar` prints: its CLI gives no interval in AR mode, so no bs: key (our
    # intervals' own 1,000 resamples are in our signature, researcher-walk W2)
    sacre = sacrebleu_signature(config, nrefs, test=method, trials=trials, seed=args.seed)
    intervals = make_signature(config, nrefs, bs=trials if method == "bs" else 1000, rs=args.seed)
    if warning:
        print(f"bleu-explorer: warning: {warning}", file=sys.stderr)
    if args.latex:
        _write_latex(args.latex, ranking, rows, pairwise, comparison.signature)
    if args.json:
        out = {
            "method": method,
            "trials": trials,
            "seed": args.seed,
            "alpha": args.alpha,
            "signature": comparison.signature,
            "interval_signature": intervals,
            "sacrebleu_signature": {"long": sacre.long, "short": sacre.short, "none_because": sacre.why_none},
            "warning": warning,
            "slice": narrowed.label(),
            "test_set": {"segments": note.segments, "widest_interval": note.width, "small": note.small},
            "systems": rows,
            "pairwise": {
                "systems": names,
                "p_values": _nulls(pairwise.p_values),
                "holm": _nulls(pairwise.adjusted),
                "differences": [list(r) for r in pairwise.differences],
            },
        }
        if args.latex != "-":
            print(json.dumps(out, ensure_ascii=False, indent=1))
        return 0
    if args.latex == "-":
        return 0
    _print_text(
        rows,
        differences,
        ranking,
        (method, trials, args.seed, args.alpha),
        (comparison.signature, intervals, sacre),
        note.text,
    )
    if narrowed.slice is not None:
        print(f"slice: {narrowed.label()}")
    return 0


def _nulls(matrix: Sequence[Sequence[float]]) -> list[list[float | None]]:
    """JSON has no NaN: the diagonal (no test of a system with itself) is null."""
    return [[None if math.isnan(v) else v for v in row] for row in matrix]


def _rows(names: Sequence[str], comparison: Any, differences: Sequence[Any], ranking: Ranking) -> list[dict[str, Any]]:
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


def _write_latex(target: str, ranking: Ranking, rows: Sequence[dict[str, Any]], pairwise: Any, signature: str) -> None:
    from bleu_core.display.latex import ranking_table

    names = pairwise.names
    tex = ranking_table(
        ranking,
        intervals={row["system"]: (row["low"], row["high"]) for row in rows},
        baseline=rows[0]["system"],
        adjusted={(a, b): pairwise.adjusted[i][j] for i, a in enumerate(names) for j, b in enumerate(names) if i != j},
        signature=signature,
    )
    if target == "-":
        sys.stdout.write(tex)
        return
    files.write_text(target, tex)


def _print_text(
    rows: Sequence[dict[str, Any]],
    differences: Sequence[Any],
    ranking: Ranking,
    test: tuple[str, int, int, float],
    signatures: tuple[str, str, Any],
    note: str,
) -> None:
    method, trials, seed, alpha = test
    signature, intervals, sacre = signatures
    width = max(len("system"), *(len(str(r["system"])) for r in rows))
    print(f"{'system':<{width}}  {'BLEU':>6}  {'mean ± 95% CI':>16}  {'p-value':>9}")
    for row in rows:
        p = row["p_value"]
        p_text = "(baseline)" if p is None else f"{p:.4f}{'*' if p < 0.05 else ' '}"
        ci = f"{row['mean']:.2f} ± {row['ci']:.2f}"
        print(f"{row['system']!s:<{width}}  {row['score']:>6.2f}  {ci:>16}  {p_text:>9}")
    print(note)
    label = "paired bootstrap" if method == "bs" else "paired approximate randomization"
    print(
        f"\n{label}, {trials} {'resamples' if method == 'bs' else 'trials'}, seed {seed}; "
        "* p < 0.05 against the baseline"
    )
    print("\nwhy each system differs from the baseline (log BLEU split exactly; terms in BLEU points):")
    for row, d in zip(rows[1:], differences, strict=True):
        print(d.format(rows[0]["system"], row["system"]))
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
    print(f"\nsignature: {signature}")
    if method == "ar":  # sacreBLEU's CLI gives no interval in AR mode: ours come from their own resamples
        print(f"intervals (mean ± 95% CI): {intervals}")
    if sacre.long is not None:
        print(f"sacreBLEU signature: {sacre.long}")
        print(f"sacreBLEU signature (short): {sacre.short}")
    else:
        print(f"sacreBLEU signature: none ({sacre.why_none})")
