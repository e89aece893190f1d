"""``bleu-explorer report``: one self-contained HTML file of a comparison.

The report draws the app's own charts (Altair, rendered to SVG by vl-convert) and sections, which live in
``bleu_app``: the CLI sits above both the core and the app, so it imports ``bleu_app.report`` itself (when the
command runs: registering it imports nothing heavy).
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from bleu_core.errors import InputError

from . import files

if TYPE_CHECKING:
    from bleu_core.config import BleuConfig

__all__ = ["add_report_parser"]

DEFAULT_SEED = 12345


def add_report_parser(
    sub: Any,
    add_bleu_options: Callable[..., None],
    make_config: Callable[[argparse.Namespace], BleuConfig],
    read_all: Callable[[Sequence[str], Sequence[str]], Any],
) -> None:
    """Register ``bleu-explorer report`` on the CLI's subparsers (``cli.build_parser`` calls this)."""
    p = sub.add_parser("report", help="one self-contained HTML report of several systems (opens offline)")
    p.add_argument("refs", nargs="+", metavar="REF", help="reference files, one segment per line")
    p.add_argument("-i", "--input", nargs="+", required=True, metavar="HYP", help="system outputs")
    p.add_argument("-o", "--output", required=True, metavar="FILE", help="the HTML file to write")
    p.add_argument("--baseline", default=None, metavar="NAME", help="baseline system (default: the first)")
    p.add_argument("--a", default=None, metavar="NAME", help="system A of the waterfall (default: the baseline)")
    p.add_argument("--b", default=None, metavar="NAME", help="system B (default: the best other system)")
    p.add_argument("--human", default=None, metavar="TSV", help="human scores: system<TAB>score (or a WMT table)")
    p.add_argument("--source", default=None, metavar="FILE", help="source file (optional)")
    group = p.add_mutually_exclusive_group()
    group.add_argument(
        "--paired-bs",
        type=int,
        nargs="?",
        const="policy",
        default=None,
        metavar="N",
        help="paired bootstrap with N resamples (default: the trial policy, as compare)",
    )
    group.add_argument("--paired-ar", type=int, nargs="?", const=10000, default=None, metavar="N")
    p.add_argument("--seed", type=int, default=DEFAULT_SEED, help=f"random seed (default {DEFAULT_SEED})")
    add_bleu_options(p)
    from .slicing import add_where_options

    add_where_options(p, source=False)

    def run(args: argparse.Namespace) -> int:
        return _cmd_report(args, make_config, read_all)

    p.set_defaults(func=run)


def _cmd_report(
    args: argparse.Namespace,
    make_config: Callable[[argparse.Namespace], BleuConfig],
    read_all: Callable[[Sequence[str], Sequence[str]], Any],
) -> int:
    from bleu_core.data.corpus import build_corpus
    from bleu_core.data.readers import parse_human_scores, read_text_file
    from bleu_core.significance.trials import check_trials, default_trials, holm_warning

    config = make_config(args)
    method = "ar" if args.paired_ar is not None else "bs"
    if method == "ar":
        trials = args.paired_ar
    else:
        policy = args.paired_bs in (None, "policy")
        trials = default_trials(len(args.input)) if policy else args.paired_bs
    check_trials(trials, "--paired-ar" if method == "ar" else "--paired-bs")
    warning = holm_warning(len(args.input), trials)
    ref_files, hyp_files = read_all(args.refs, args.input)
    human: tuple[tuple[str, float], ...] = ()
    label = ""
    if args.human:
        try:
            with open(args.human, "rb") as fh:
                data = fh.read()
        except OSError as exc:
            raise InputError(f"cannot read: {exc.strerror}", args.human) from None
        label, human = parse_human_scores(data, args.human)
    source = read_text_file(args.source) if args.source else None
    from .slicing import narrow

    narrowed = narrow(args, config, ref_files, hyp_files, source)
    ref_files, hyp_files, source = narrowed.references, narrowed.systems, narrowed.source
    name = os.path.basename(os.path.dirname(os.path.abspath(args.refs[0]))) or "corpus"
    if narrowed.slice is not None:
        name = f"{name}, {narrowed.label()}"
    corpus = build_corpus(name, ref_files, hyp_files, source=source, human=human, human_label=label)
    for flag, value in (("--baseline", args.baseline), ("--a", args.a), ("--b", args.b)):
        if value is not None and value not in corpus.names:
            raise InputError(f"no system named {value!r} (systems: {', '.join(corpus.names)})", flag)
    from bleu_app import report

    if warning:  # once the inputs are read: an input error stays the one line on stderr
        print(f"bleu-explorer: warning: {warning}", file=sys.stderr)

    html = report.build_report(
        corpus,
        config,
        report.ReportOptions(baseline=args.baseline, a=args.a, b=args.b, method=method, trials=trials, seed=args.seed),
    )
    files.write_text(args.output, html)
    print(f"wrote {args.output} ({len(html.encode('utf-8')) // 1024} KiB, {len(corpus.names)} systems)")
    return 0
