"""``bleu-explorer score``: corpus BLEU of one or more systems (sacreBLEU's JSON object with ``--json``), with the
small-test-set note under the text. Registering the command imports nothing heavy."""

from __future__ import annotations

import argparse
import json
import os
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from . import options
from .files import read_inputs
from .slicing import narrow

if TYPE_CHECKING:
    from bleu_core.config import BleuConfig
    from bleu_core.data.corpus import TextFile
    from bleu_core.metrics.bleu import BleuScore
    from bleu_core.significance.testsize import SizeNote

__all__ = ["add_parser", "note_signature"]


def add_parser(sub: Any) -> None:
    """Register ``bleu-explorer score`` on the CLI's subparsers."""
    p = sub.add_parser("score", help="corpus BLEU of one or more systems")
    p.add_argument("refs", nargs="+", metavar="REF", help="reference files, one segment per line")
    p.add_argument("-i", "--input", nargs="+", required=True, metavar="HYP", help="system output files")
    options.add_json(p)
    options.add_bleu_options(p)
    options.add_where(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from bleu_core.metrics.bleu import corpus_score

    config = options.bleu_config(args)
    ref_files, hyp_files = read_inputs(args.refs, args.input)
    narrowed = narrow(args, config, ref_files, hyp_files)
    hyp_files, label = narrowed.systems, narrowed.label()
    streams = [list(f.lines) for f in narrowed.references]
    results = [(hf.name, corpus_score(list(hf.lines), streams, config)) for hf in hyp_files]
    if args.json:  # sacreBLEU's score object, as documented (DESIGN.md section 3): no note
        objs = [s.to_dict() if label is None else {**s.to_dict(), "slice": label} for _, s in results]
        if len(results) > 1:
            objs = [{"system": os.path.basename(name), **o} for (name, _), o in zip(results, objs, strict=True)]
            print(json.dumps(objs, ensure_ascii=False, indent=1))
        else:
            print(json.dumps(objs[0], ensure_ascii=False, indent=1))
        return 0
    _print_text(results, label)
    note = _size_note(streams, hyp_files, config)
    print(f"{note.text} (intervals: {note_signature(config, len(streams))})")
    return 0


def _print_text(results: Sequence[tuple[str, BleuScore]], label: str | None) -> None:
    width = max(len(os.path.basename(n)) for n, _ in results)
    for name, s in results:
        prefix = f"{os.path.basename(name):<{width}}  " if len(results) > 1 else ""
        print(f"{prefix}{s.format()}")
    if label is not None:
        print(f"slice: {label}")
    print(f"signature: {results[0][1].signature}")


def note_signature(config: BleuConfig, nrefs: int) -> str:
    """The signature of the intervals behind the small-test-set note: sacreBLEU's 1,000 resamples, seed 12345."""
    from bleu_core.metrics.bleu import Bleu

    return Bleu(config).signature(nrefs, bs=1000, rs=options.DEFAULT_SEED)


def _size_note(streams: Sequence[Sequence[str]], hyp_files: Sequence[TextFile], config: BleuConfig) -> SizeNote:
    """The small-test-set note of ``score``: the segments and the widest of the systems' 95% intervals."""
    from bleu_core.metrics.bleu import Bleu
    from bleu_core.significance import bootstrap_cis
    from bleu_core.significance.testsize import size_note

    bleu = Bleu(config)
    refs = bleu.prepare(streams)
    mats = [refs.stats(list(h.lines)) for h in hyp_files]
    return size_note(len(streams[0]), [hi - lo for _, _, lo, hi in bootstrap_cis(mats, bleu)])
