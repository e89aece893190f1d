"""``explain -m chrf`` and ``explain -m ter``: the per-order counts behind a sentence's chrF, the edits behind its
TER, as text or ``--json``."""

from __future__ import annotations

import argparse
import json
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from bleu_core.metrics.chrf import Chrf
    from bleu_core.metrics.ter_edits import EditOp, TerEdits
    from bleu_core.teaching.chrf_explain import ChrfExplanation

__all__ = ["chrf_json", "run_chrf", "run_ter", "ter_json"]


def run_chrf(args: argparse.Namespace, metric: Chrf) -> int:
    """Print the chrF explanation of ``--hyp`` against ``--ref``."""
    from bleu_core.teaching.chrf_explain import explain_chrf

    e = explain_chrf(args.hyp, args.ref, metric=metric)
    if args.json:
        print(json.dumps(chrf_json(e), ensure_ascii=False, indent=1))
        return 0
    for k, s in enumerate(e.ref_scores):
        mark = "  <- chosen (best sentence F, the first of equals)" if k == e.ref_index else ""
        print(f"reference {k + 1}: {metric.name} {s:.2f}{mark}")
    beta = metric.beta
    print(f"\n{'order':<8} {'hyp':>5} {'ref':>5} {'match':>5} {'prec':>7} {'recall':>7} {'F' + str(beta):>7}")
    for o in e.orders:
        label = f"{o.kind} {o.n}"
        print(f"{label:<8} {o.hyp:>5} {o.ref:>5} {o.matches:>5} {o.precision:>7.4f} {o.recall:>7.4f} {o.f(beta):>7.4f}")
    how = (
        "the mean of the orders' F (an empty order counts an epsilon)"
        if metric.eps_smoothing
        else "F of the precision and recall averaged over the orders both sides have (effective order)"
    )
    print(f"\n{metric.name} = {e.score:.2f}: {how}")
    print(f"signature: {metric.sacrebleu_signature(len(args.ref))}")
    return 0


def chrf_json(e: ChrfExplanation) -> dict[str, Any]:
    """The score, the chosen reference and its per-order counts (sacreBLEU's statistics), char orders first."""
    beta = e.metric.beta
    return {
        "metric": e.metric.name,
        "score": e.score,
        "signature": e.metric.sacrebleu_signature(len(e.ref_scores)),
        "ref_index": e.ref_index,
        "ref_scores": list(e.ref_scores),
        "effective_order": not e.metric.eps_smoothing,
        "orders": [
            {
                "n": o.n,
                "kind": o.kind,
                "hyp": o.hyp,
                "ref": o.ref,
                "matches": o.matches,
                "precision": o.precision,
                "recall": o.recall,
                "f": o.f(beta),
                "matched": [{"ngram": g, "count": c} for g, c in o.matched],
            }
            for o in e.orders
        ],
    }


def run_ter(args: argparse.Namespace) -> int:
    """Print TER's edit script of ``--hyp`` against ``--ref``."""
    from bleu_core.metrics.ter_edits import ter_edits

    e = ter_edits(
        args.hyp,
        args.ref,
        normalized=bool(args.ter_normalized),
        no_punct=bool(args.ter_no_punct),
        asian_support=bool(args.ter_asian_support),
        case_sensitive=bool(args.ter_case_sensitive),
    )
    if args.json:
        print(json.dumps(ter_json(e), ensure_ascii=False, indent=1))
        return 0
    for name, text in e.hypothesis.steps:
        print(f"hypothesis after {name}: {text}")
    for name, text in e.reference.steps:
        print(f"reference after {name}: {text}")
    print(f"reference {e.ref_index + 1} has the fewest edits; its script:")
    print(e.format())
    print(f"\nTER = {e.num_edits} edits / {e.ref_length:g} reference words = {e.score:.2f}")
    return 0


def _op(op: EditOp) -> dict[str, Any]:
    return {
        "op": op.kind,
        "hyp": list(op.hyp_words),
        "ref": list(op.ref_words),
        "hyp_pos": op.hyp_pos,
        "ref_pos": op.ref_pos,
        "to_pos": op.to_pos,
    }


def ter_json(e: TerEdits) -> dict[str, Any]:
    """The score, sacreBLEU's ``num_edits`` and ``ref_length``, and the edits whose non-matches they count."""
    return {
        "metric": "TER",
        "score": e.score,
        "num_edits": e.num_edits,
        "ref_length": e.ref_length,
        "ref_index": e.ref_index,
        "hyp_tokens": list(e.hypothesis.tokens),
        "ref_tokens": list(e.reference.tokens),
        "normalization": {
            "hypothesis": [list(s) for s in e.hypothesis.steps],
            "reference": [list(s) for s in e.reference.steps],
        },
        "edits": [_op(op) for op in e.ops],
    }
