"""``bleu-explorer compare``: systems against a baseline with paired significance tests under one or more metrics
(``-m bleu chrf ter``), every pair ranked into significance clusters, as text, JSON (ours, or sacreBLEU's with
``-f json``) or a LaTeX table.

One run has one test behind its mark (``*``): each system's Holm-corrected p-value against the baseline,
corrected over every pair (the clusters' family, the default), over the N-1 comparisons with the baseline
(``--baseline-only``) or, for checkpoints, against the previous one over the N-1 consecutive comparisons
(``--consecutive``, in natural order: ``ckpt-2`` before ``ckpt-10``). Text, JSON and LaTeX mark the same test and
say which. How many draws is the CLI's trial policy for that family, uncapped (``options.paired_test``); one
resampling pass per metric gives both the tests and the matrix (``bleu_core.significance.compare_systems``), with
sacreBLEU's draws and arithmetic. Registering the command imports no numpy.
"""

from __future__ import annotations

import argparse
import dataclasses
import math
import os
import sys
from typing import TYPE_CHECKING, Any, Literal

from bleu_core.errors import InputError

from . import compare_out, metric_options, options, wmt_input
from .compare_run import MetricResult, Run
from .files import read_inputs
from .slicing import Narrowed, narrow

if TYPE_CHECKING:
    from bleu_core.data.corpus import TextFile
    from bleu_core.metrics.base import Metric
    from bleu_core.significance.families import Family
    from bleu_core.significance.trials import Method

__all__ = ["MetricResult", "Run", "add_parser"]


def add_parser(sub: Any) -> None:
    """Register ``bleu-explorer compare`` on the CLI's subparsers."""
    p = sub.add_parser("compare", help="systems against a baseline: scores, 95%% CI, paired p-values, clusters")
    options.add_inputs(p, hyp_help="system outputs; the first is the baseline (- for standard input)")
    options.add_paired_tests(p)
    family = p.add_mutually_exclusive_group()
    family.add_argument(
        "--baseline-only",
        action="store_true",
        help="test each system against the baseline only: Holm over the N-1 comparisons (fewer draws; no clusters)",
    )
    family.add_argument(
        "--consecutive",
        action="store_true",
        help="checkpoints: each system against the previous one in natural order (ckpt-2 before ckpt-10), Holm "
        "over the N-1 comparisons (no clusters)",
    )
    options.add_seed(p)
    options.add_alpha(p)
    options.add_json(p, "print our JSON: per metric the scores, intervals, p-values, ranks and the pairwise matrix")
    metric_options.add_sacrebleu_output(p, score_only=False)
    p.add_argument(
        "--latex",
        default=None,
        metavar="FILE",
        help="also write the ranking as a booktabs LaTeX table to FILE (- for standard output), one per metric",
    )
    p.add_argument(
        "--name",
        action="append",
        default=[],
        metavar="OLD=NEW",
        help="show system OLD (its file's base name) as NEW in the LaTeX table (repeatable); without it the names "
        "lose what they all share",
    )
    metric_options.add_metrics(p)
    options.add_bleu_options(p)
    options.add_where(p)
    wmt_input.add_options(p)
    p.add_argument(
        "--power",
        type=float,
        default=None,
        metavar="DELTA",
        help="also the segments (documents, with --doc-level) a test set needs to detect a true BLEU difference of "
        "DELTA points with 80%% power; the minimum detectable difference (MDE) is always shown",
    )
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    wmt = wmt_input.read_wmt(args)  # before the BLEU options: the file's target language picks the tokenizer
    config = options.bleu_config(args)
    metrics = metric_options.build_metrics(args, config)
    given = [f.name for f in wmt.systems] if wmt is not None else options.systems(args)
    if len(given) < 2:
        raise InputError("give a baseline and at least one system to compare (-i BASE SYS [SYS ...])", "-i")
    options.check_alpha(args.alpha)
    family: Family = "baseline" if args.baseline_only else "consecutive" if args.consecutive else "all"
    if args.format == "json" and family == "consecutive":
        raise InputError("sacreBLEU tests every system against the baseline; its JSON has no --consecutive", "-f")
    from bleu_core.significance.families import comparisons

    test = options.paired_test(args, len(given), args.alpha, comparisons=comparisons(len(given), family))
    options.check_seed(args.seed)
    if args.power is not None and not (math.isfinite(args.power) and args.power != 0):
        raise InputError(f"must be a BLEU difference other than 0, got {args.power}", "--power")
    if wmt is not None:
        wmt = dataclasses.replace(wmt, systems=_ordered(wmt.systems, family))
        shown = compare_out.display_names([os.path.basename(h.name) for h in wmt.systems], args.name)
        narrowed = wmt_input.narrow_wmt(args, config, wmt)
    else:
        ref_files, hyp_files = read_inputs(args.refs, given, test_set=args.test_set, langpair=args.language_pair)
        hyp_files = _ordered(hyp_files, family)
        shown = compare_out.display_names([os.path.basename(h.name) for h in hyp_files], args.name)
        narrowed = narrow(args, config, ref_files, hyp_files)
    result = _compare(narrowed, metrics, args, test, family)
    if result.warning:
        print(f"bleu-explorer: warning: {result.warning}", file=sys.stderr)
    if args.latex:
        compare_out.write_latex(args.latex, result, shown)
    if args.latex == "-":
        return 0
    if args.format == "json":
        print(compare_out.sacrebleu_json(result, given))
    elif args.json:
        print(compare_out.json_text(result))
    else:
        compare_out.print_text(result)
    return 0


def _ordered(hyp_files: list[TextFile], family: Family) -> list[TextFile]:
    """The systems in display order: as given (the baseline first, sacreBLEU's order), and for ``--consecutive``
    in natural order of their base names (``ckpt-2`` before ``ckpt-10``, whatever order a shell's glob gave)."""
    if family != "consecutive":
        return list(hyp_files)
    from bleu_core.display.names import natural_key

    return sorted(hyp_files, key=lambda f: natural_key(os.path.basename(f.name)))


def _compare(
    narrowed: Narrowed, metrics: list[Metric], args: argparse.Namespace, test: tuple[Method, int, str], family: Family
) -> Run:
    from bleu_core.significance.families import comparisons
    from bleu_core.significance.trials import holm_warning

    method, trials, _ = test
    names = [os.path.basename(h.name) for h in narrowed.systems]
    streams = [list(f.lines) for f in narrowed.references]
    results = [_one_metric(m, streams, narrowed, names, args, test, family) for m in metrics]
    warning = holm_warning(len(names), trials, args.alpha, comparisons=comparisons(len(names), family))
    return Run(
        method,
        trials,
        args.seed,
        args.alpha,
        family,
        [h.name for h in narrowed.systems],
        names,
        results,
        len(streams[0]),
        warning,
        narrowed.label(),
        "document" if args.doc_level else "segment",
        args.power,
    )


def _one_metric(
    metric: Metric,
    streams: list[list[str]],
    narrowed: Narrowed,
    names: list[str],
    args: argparse.Namespace,
    test: tuple[Method, int, str],
    family: Family,
) -> MetricResult:
    from bleu_core.significance import compare_systems
    from bleu_core.significance.families import family_test
    from bleu_core.significance.ranking import rank_pairwise
    from bleu_core.significance.trials import check_resampling_fits

    method, trials, flag = test
    n_segments, columns = len(streams[0]), len(names) * metric.width
    check_resampling_fits(method, trials, n_segments, flag, columns=columns)
    if method == "ar":  # and the baseline's interval: sacreBLEU's 1,000 bootstrap resamples
        check_resampling_fits("bs", 1000, n_segments, flag, columns=columns)
    refs = metric.prepare(streams)
    mats = [refs.stats(list(h.lines)) for h in narrowed.systems]
    both = compare_systems(mats, names, metric, method=method, trials=trials, seed=args.seed, nrefs=refs.nrefs)
    tested = family_test(both.pairwise.p_values, both.pairwise.adjusted, family, args.alpha)
    ranking = rank_pairwise(both.pairwise, args.alpha)
    differences: list[Any] = []
    if metric.sacrebleu_name == "bleu":  # BLEU on purpose: its own terms
        from bleu_core.teaching.decomposition import decompose_matrices

        config = metric.config  # type: ignore[attr-defined]
        differences = [
            decompose_matrices(mats[a], mats[j], config) for j, a in enumerate(tested.against) if a is not None
        ]
    if args.doc_level:  # the rows are documents: the paired test resampled documents, and the signature says so
        sig = metric.signature(refs.nrefs, **{method: trials, "rs": args.seed, "block": "doc"})
        both = dataclasses.replace(both, against_baseline=dataclasses.replace(both.against_baseline, signature=sig))
    rows = compare_out.rows(names, both, tested, ranking, differences, clusters=family == "all")
    power = _power(metric, mats, refs.nrefs, args, method) if metric.sacrebleu_name == "bleu" else ()
    return MetricResult(metric, both, tested, ranking, rows, refs.nrefs, differences, power)


def _power(metric: Metric, mats: list[Any], nrefs: int, args: argparse.Namespace, method: Method) -> tuple[Any, ...]:
    """Each system's minimum detectable difference against the first (80% power, the run's alpha and test),
    from 1,000 of sacreBLEU's bootstrap resamples (Card et al. 2020)."""
    from bleu_core.significance.power import power_analysis

    unit: Literal["segment", "document"] = "document" if args.doc_level else "segment"
    return power_analysis(
        mats[0], mats[1:], metric, alpha=args.alpha, test=method, seed=args.seed, nrefs=nrefs, unit=unit
    )
