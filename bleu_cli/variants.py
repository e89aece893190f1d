"""``bleu-explorer variants``: one system's corpus under every BLEU (:func:`bleu_core.teaching.every.every_bleu`).

Kept apart from :mod:`bleu_cli.cli` so that registering the command imports nothing heavy.
"""

from __future__ import annotations

import argparse
import json
import os
from typing import Any

from bleu_core.errors import InputError

from . import options
from .files import read_inputs

__all__ = ["add_parser"]


def add_parser(sub: Any) -> None:
    """Register ``bleu-explorer variants`` on the CLI's subparsers."""
    p = sub.add_parser(
        "variants",
        help="one system under every BLEU: tokenizers, case, smoothing, misimplementations, NLTK",
        description="Score one system under sacreBLEU's tokenizers, case and smoothing, the named "
        "misimplementations and NLTK's corpus_bleu (methods 0-4), each against sacreBLEU's default.",
    )
    p.add_argument("refs", nargs="+", metavar="REF", help="reference files, one segment per line")
    p.add_argument("-i", "--input", required=True, metavar="HYP", help="the system output file")
    options.add_json(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from bleu_core.teaching.every import every_bleu

    ref_files, hyp_files = read_inputs(args.refs, [args.input])
    if not hyp_files[0].lines:
        raise InputError("no segments to score", hyp_files[0].name)
    result = every_bleu(list(hyp_files[0].lines), [list(f.lines) for f in ref_files])
    if args.json:
        print(json.dumps({"system": os.path.basename(args.input), **result.to_dict()}, ensure_ascii=False, indent=1))
        return 0
    d = result.default
    print(
        f"{os.path.basename(args.input)}: {result.n_segments} segments; sacreBLEU default {d.score:.2f}; "
        f"{len(result.rows)} BLEUs from {result.lowest.score:.2f} to {result.highest.score:.2f} "
        f"(spread {result.spread:.2f})"
    )
    width = max(len(r.label) for r in result.rows)
    print(f"\n{'BLEU':>6}  {'vs default':>10}  {'':<{width}}  signature")
    for r in result.rows:
        print(f"{r.score:>6.2f}  {r.difference:>+10.2f}  {r.label:<{width}}  {r.signature}")
    print("\nwho computes it this way:")
    for r in result.rows:
        print(f"  {r.label}: {r.who}")
    for key, why in result.skipped:
        print(f"not shown: {key}: {why}")
    return 0
