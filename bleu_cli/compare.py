"""``bleu-explorer compare``: systems against a baseline with paired significance tests.

Kept apart from :mod:`bleu_core.significance` so that registering the command imports no numpy.
"""

from __future__ import annotations

import argparse
import json
import os
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from bleu_core.errors import InputError

if TYPE_CHECKING:
    from bleu_core.config import BleuConfig
    from bleu_core.significance import Method

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
        const=1000,
        default=None,
        metavar="N",
        help="paired bootstrap with N resamples (the default, N = 1000)",
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
    p.add_argument("--json", action="store_true", help="print JSON")
    add_bleu_options(p)

    def run(args: argparse.Namespace) -> int:
        return _cmd_compare(args, make_config, read_all)

    p.set_defaults(func=run)


def _cmd_compare(
    args: argparse.Namespace,
    make_config: Callable[[argparse.Namespace], BleuConfig],
    read_all: Callable[[Sequence[str], Sequence[str]], Any],
) -> int:
    from bleu_core.decomposition import decompose_matrices
    from bleu_core.engine import ReferenceSet
    from bleu_core.significance import check_resampling_fits, check_trials, compare

    config = make_config(args)
    if len(args.input) < 2:
        raise InputError("give a baseline and at least one system to compare (-i BASE SYS [SYS ...])", "-i")
    method: Method = "ar" if args.paired_ar is not None else "bs"
    trials = args.paired_ar if method == "ar" else (args.paired_bs if args.paired_bs is not None else 1000)
    flag = "--paired-ar" if method == "ar" else "--paired-bs"
    check_trials(trials, flag)
    if args.seed < 0:
        raise InputError(f"must be a whole number >= 0, got {args.seed}", "--seed")
    ref_files, hyp_files = read_all(args.refs, args.input)
    n_segments = len(ref_files[0].lines)
    columns = len(hyp_files) * (2 + 2 * config.max_ngram_order)
    check_resampling_fits(method, trials, n_segments, flag, columns=columns)
    if method == "ar":  # and the baseline's interval: sacrebleu's 1,000 bootstrap resamples
        check_resampling_fits("bs", 1000, n_segments, flag, columns=columns)
    streams = [list(f.lines) for f in ref_files]
    ref_set = ReferenceSet.from_config(streams, config)
    mats = [ref_set.stats(list(h.lines), config.max_ngram_order) for h in hyp_files]
    nrefs = ref_set.nrefs
    comparison = compare(mats[0], mats[1:], config, method=method, trials=trials, seed=args.seed, nrefs=nrefs)
    results, base_ci = comparison.results, comparison.baseline_ci
    assert base_ci is not None  # n_confidence is 1000
    names = [os.path.basename(h.name) for h in hyp_files]
    base_score = comparison.baseline_score
    rows: list[dict[str, object]] = [
        {
            "system": names[0],
            "baseline": True,
            "score": base_score,
            "mean": base_ci[0],
            "ci": base_ci[1],
            "low": base_ci[2],
            "high": base_ci[3],
            "p_value": None,
        }
    ]
    differences = [decompose_matrices(mats[0], m, config) for m in mats[1:]]
    for name, r, d in zip(names[1:], results, differences, strict=True):
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
    signature = comparison.signature
    if args.json:
        print(
            json.dumps(
                {"method": method, "trials": trials, "seed": args.seed, "signature": signature, "systems": rows},
                ensure_ascii=False,
                indent=1,
            )
        )
        return 0
    width = max(len("system"), *(len(n) for n in names))
    print(f"{'system':<{width}}  {'BLEU':>6}  {'mean ± 95% CI':>16}  {'p-value':>9}")
    for row in rows:
        p = row["p_value"]
        p_text = "(baseline)" if p is None else f"{p:.4f}{'*' if p < 0.05 else ' '}"  # type: ignore[operator]
        ci = f"{row['mean']:.2f} ± {row['ci']:.2f}"
        print(f"{row['system']!s:<{width}}  {row['score']:>6.2f}  {ci:>16}  {p_text:>9}")
    label = "paired bootstrap" if method == "bs" else "paired approximate randomization"
    print(
        f"\n{label}, {trials} {'resamples' if method == 'bs' else 'trials'}, seed {args.seed}; "
        "* p < 0.05 against the baseline"
    )
    print("\nwhy each system differs from the baseline (log BLEU split exactly; terms in BLEU points):")
    for name, d in zip(names[1:], differences, strict=True):
        print(d.format(names[0], name))
    print(f"signature: {signature}")
    return 0
