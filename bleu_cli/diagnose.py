"""``bleu-explorer diagnose``: each system's degenerate lines (empty, repetition, length outliers, copies of the
source, untranslated), as text or JSON. Registering the command imports nothing heavy."""

from __future__ import annotations

import argparse
import json
import os
from typing import Any

from . import options
from .files import read_inputs
from .slicing import narrow

__all__ = ["add_parser"]


def add_parser(sub: Any) -> None:
    """Register ``bleu-explorer diagnose`` on the CLI's subparsers."""
    p = sub.add_parser(
        "diagnose", help="flag degenerate lines: empty, repetition, length outliers, copies of the source, untranslated"
    )
    p.add_argument("refs", nargs="+", metavar="REF", help="reference files, one segment per line")
    p.add_argument("-i", "--input", nargs="+", required=True, metavar="HYP", help="system output files")
    p.add_argument("--source", default=None, metavar="FILE", help="source file (for copy and untranslated)")
    options.add_json(p, "print JSON: per system its flags, each [{line, reason}]")
    options.add_bleu_options(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from bleu_core.data.diagnostics import FLAGS, diagnose
    from bleu_core.data.slices import line_tokens

    config = options.bleu_config(args)
    ref_files, hyp_files = read_inputs(args.refs, args.input)
    narrowed = narrow(args, config, ref_files, hyp_files)
    systems = {os.path.basename(f.name): f.lines for f in narrowed.systems}
    source = list(narrowed.source.lines) if narrowed.source is not None else None
    d = diagnose(systems, [list(f.lines) for f in narrowed.references], source, line_tokens(config.tokenize))
    if args.json:
        out = {
            "tokenize": config.tokenize,
            "source": narrowed.source is not None,
            "source_script": d.source_script,
            "reference_script": d.reference_script,
            "systems": {
                name: {"lines": s.n_lines, "counts": s.counts(), "flags": s.to_dict()} for name, s in d.systems.items()
            },
        }
        print(json.dumps(out, ensure_ascii=False, indent=1))
        return 0
    if narrowed.source is None:
        print("no --source: copy and untranslated are not checked")
    for name, s in d.systems.items():
        counts = ", ".join(f"{kind} {n}" for kind, n in s.counts().items())
        print(f"{name}: {len(s.flagged())} of {s.n_lines} lines flagged ({s.rate:.1%}): {counts}")
        for kind in FLAGS:
            for line, reason in s.flags[kind]:
                print(f"  line {line:>5}  {kind:<12}  {reason}")
    return 0
