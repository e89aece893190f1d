"""``bleu-explorer report``: one self-contained HTML file of a comparison.

The report draws the app's own charts (Altair, rendered to SVG by vl-convert) and sections, which live in
``bleu_app``: the CLI sits above both the core and the app, so it imports ``bleu_app.report`` itself (when the
command runs: registering it imports nothing heavy).
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import TYPE_CHECKING, Any

from bleu_core.errors import InputError

from . import metric_options, options, wmt_input
from .files import read_inputs, write_text
from .slicing import narrow

if TYPE_CHECKING:
    from bleu_core.config import BleuConfig
    from bleu_core.data.corpus import Corpus

__all__ = ["add_parser"]


def add_parser(sub: Any) -> None:
    """Register ``bleu-explorer report`` on the CLI's subparsers."""
    p = sub.add_parser("report", help="one self-contained HTML report of several systems (opens offline)")
    p.add_argument(
        "refs", nargs="+", metavar="REF", help="reference files, one segment per line (or one WMT XML/JSONL file)"
    )
    p.add_argument("-i", "--input", nargs="+", default=None, metavar="HYP", help="system outputs")
    p.add_argument("-o", "--output", required=True, metavar="FILE", help="the HTML file to write")
    p.add_argument("--baseline", default=None, metavar="NAME", help="baseline system (default: the first)")
    p.add_argument("--a", default=None, metavar="NAME", help="system A of the waterfall (default: the baseline)")
    p.add_argument("--b", default=None, metavar="NAME", help="system B (default: the best other system)")
    p.add_argument("--human", default=None, metavar="TSV", help="human scores: system<TAB>score (or a WMT table)")
    p.add_argument("--source", default=None, metavar="FILE", help="source file (optional)")
    options.add_paired_tests(p)
    options.add_seed(p)
    metric_options.add_metrics(p)
    options.add_bleu_options(p)
    options.add_where(p, source=False)
    wmt_input.add_options(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from bleu_app import report
    from bleu_core.significance.trials import holm_warning

    wmt = wmt_input.read_wmt(args)  # before the BLEU options: the file's target language picks the tokenizer
    config = options.bleu_config(args)
    metrics = metric_options.build_metrics(args, config)  # each name and option checked as score and compare do
    others = [m.name for m in metrics if m.sacrebleu_name != "bleu"]
    if others:
        # the report's sections and charts are the app's (bleu_app.report), which draws BLEU only for now
        raise InputError(
            f"the HTML report shows BLEU only for now ({', '.join(others)}: use score or compare, which take -m)", "-m"
        )
    n_systems = len(wmt.systems) if wmt is not None else len(options.systems(args))
    method, trials, _ = options.paired_test(args, n_systems)
    warning = holm_warning(n_systems, trials)
    corpus = _corpus(args, config) if wmt is None else _wmt_corpus(args, config, wmt)
    for flag, value in (("--baseline", args.baseline), ("--a", args.a), ("--b", args.b)):
        if value is not None and value not in corpus.names:
            raise InputError(f"no system named {value!r} (systems: {', '.join(corpus.names)})", flag)
    if warning:  # once the inputs are read: an input error stays the one line on stderr
        print(f"bleu-explorer: warning: {warning}", file=sys.stderr)
    html = report.build_report(
        corpus,
        config,
        report.ReportOptions(baseline=args.baseline, a=args.a, b=args.b, method=method, trials=trials, seed=args.seed),
    )
    write_text(args.output, html)
    print(f"wrote {args.output} ({len(html.encode('utf-8')) // 1024} KiB, {len(corpus.names)} systems)")
    return 0


def _corpus(args: argparse.Namespace, config: BleuConfig) -> Corpus:
    """The corpus of the report: the files read and narrowed to ``--where``, named after the references' folder
    (and the slice), with the human scores."""
    from bleu_core.data.corpus import build_corpus
    from bleu_core.data.readers import read_text_file

    ref_files, hyp_files = read_inputs(args.refs, args.input)
    label, human = _human(args.human)
    source = read_text_file(args.source) if args.source else None
    narrowed = narrow(args, config, ref_files, hyp_files, source)
    name = os.path.basename(os.path.dirname(os.path.abspath(args.refs[0]))) or "corpus"
    if narrowed.slice is not None:
        name = f"{name}, {narrowed.label()}"
    return build_corpus(
        name, narrowed.references, narrowed.systems, source=narrowed.source, human=human, human_label=label
    )


def _wmt_corpus(args: argparse.Namespace, config: BleuConfig, wmt: wmt_input.WmtInput) -> Corpus:
    """The report's corpus from a WMT file: named after it (and the slice, and the document level)."""
    from bleu_core.data.corpus import build_corpus

    label, human = _human(args.human)
    narrowed = wmt_input.narrow_wmt(args, config, wmt)
    name = os.path.basename(args.refs[0])
    if narrowed.slice is not None:
        name = f"{name}, {narrowed.label()}"
    if args.doc_level:
        name = f"{name}, {wmt_input.DOC_LEVEL}"
    return build_corpus(
        name, narrowed.references, narrowed.systems, source=narrowed.source, human=human, human_label=label
    )


def _human(path: str | None) -> tuple[str, tuple[tuple[str, float], ...]]:
    """``--human``'s label and (system, score) pairs; none without the option."""
    if not path:
        return "", ()
    from bleu_core.data.readers import parse_human_scores

    try:
        with open(path, "rb") as fh:
            data = fh.read()
    except OSError as exc:
        raise InputError(f"cannot read: {exc.strerror}", path) from None
    return parse_human_scores(data, path)
