"""``bleu-explorer explain``: one sentence's clipping tables and matches (the JSON of DESIGN.md section 3 with
``--json``); with ``-m chrf`` its chrF's per-order counts, with ``-m ter`` its TER edits (:mod:`.explain_metrics`).
Registering the command imports nothing heavy."""

from __future__ import annotations

import argparse
import json
from typing import TYPE_CHECKING, Any

from bleu_core.errors import InputError

from . import explain_metrics, metric_options, options

if TYPE_CHECKING:
    from bleu_core.teaching.explain import SegmentExplanation

__all__ = ["add_parser"]


def add_parser(sub: Any) -> None:
    """Register ``bleu-explorer explain`` on the CLI's subparsers."""
    p = sub.add_parser("explain", help="clipping tables and matches for one sentence (chrF's orders, TER's edits)")
    p.add_argument("--hyp", required=True, help="the candidate")
    p.add_argument("--ref", required=True, action="append", help="a reference (repeat for more)")
    options.add_json(p)
    options.add_bleu_options(p, sentence=True)
    metric_options.add_metrics(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from bleu_core.teaching.explain import explain_segment

    config = options.bleu_config(args)
    metrics = metric_options.build_metrics(args, config)
    if len(metrics) != 1:
        raise InputError(f"explain explains one metric at a time, got {len(metrics)}", "-m")
    metric = metrics[0]
    if metric.sacrebleu_name == "chrf":
        from bleu_core.metrics.chrf import Chrf

        assert isinstance(metric, Chrf)
        return explain_metrics.run_chrf(args, metric)
    if metric.sacrebleu_name == "ter":
        return explain_metrics.run_ter(args)
    e = explain_segment(args.hyp, args.ref, config)
    if args.json:
        print(json.dumps(_json(e), ensure_ascii=False, indent=1))
        return 0
    print(f"candidate ({e.hyp_len} tokens): {' '.join(e.hyp_tokens)}")
    for k, toks in enumerate(e.ref_tokens):
        mark = "  <- best match length" if k == e.best_ref else ""
        print(f"reference {k + 1} ({len(toks)} tokens): {' '.join(toks)}{mark}")
    for o in e.orders:
        print(f"\n{o.n}-grams: p_{o.n} = {o.matches}/{o.total}")
        w = max([len(" ".join(r.ngram)) for r in o.rows] + [6])
        refs_hdr = " ".join(f"ref{k + 1}" for k in range(len(e.ref_tokens)))
        print(f"  {'n-gram':<{w}}  count  {refs_hdr}  max  clip")
        for r in o.rows:
            rc = " ".join(f"{c:>4}" for c in r.ref_counts)
            print(f"  {' '.join(r.ngram):<{w}}  {r.count:>5}  {rc}  {r.max_ref_count:>3}  {r.clipped:>4}")
    s = e.score
    print(f"\nc = {e.hyp_len}, r = {e.closest_ref_len}, BP = {s.bp:.4f}")
    print(f"{s.format()}\nsignature: {s.signature}")
    return 0


def _json(e: SegmentExplanation) -> dict[str, object]:
    """The score object of ``score --json`` (score, bp, precisions, signature ...) at the top level, then the
    tables."""
    return {
        **e.score.to_dict(),
        "hyp_len": e.hyp_len,
        "ref_lens": list(e.ref_lens),
        "closest_ref_len": e.closest_ref_len,
        "orders": [
            {
                "n": o.n,
                "matches": o.matches,
                "total": o.total,
                "rows": [
                    {
                        "ngram": list(r.ngram),
                        "count": r.count,
                        "ref_counts": list(r.ref_counts),
                        "max_ref_count": r.max_ref_count,
                        "clipped": r.clipped,
                    }
                    for r in o.rows
                ],
            }
            for o in e.orders
        ],
    }
