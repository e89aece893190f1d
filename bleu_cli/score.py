"""``bleu-explorer score``: corpus scores of one or more systems under one or more metrics (``-m bleu chrf ter``),
with both signatures, where sacreBLEU's users find them: ``-b`` prints the scores alone, ``-f json`` sacreBLEU's
JSON, ``--json`` ours; ``-i -`` reads standard input, ``-t/-l`` a test set in sacreBLEU's cache, ``--echo`` its
text.

The widest 95% interval under the text is drawn only when it is asked for (``--confidence``, sacreBLEU's flag,
which also prints each score's interval) or cheap: a test set of fewer than ``testsize.MIN_SEGMENTS`` (500)
segments, where the small-test-set note matters most and 1,000 resamples cost little. Registering the command
imports nothing heavy.
"""

from __future__ import annotations

import argparse
import json
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from bleu_core.errors import InputError

from . import metric_options, options, wmt_input
from .files import read_inputs
from .sacrebleu_format import MetricScore, score_lines, single_json, systems_json
from .slicing import narrow

if TYPE_CHECKING:
    from bleu_core.config import BleuConfig
    from bleu_core.metrics.base import Metric

__all__ = ["add_parser", "note_signature"]


def add_parser(sub: Any) -> None:
    """Register ``bleu-explorer score`` on the CLI's subparsers."""
    p = sub.add_parser("score", help="corpus scores (BLEU, chrF, TER) of one or more systems")
    options.add_inputs(p)
    p.add_argument(
        "--echo",
        nargs="+",
        default=None,
        metavar="FIELD",
        help="with -t/-l: print the test set's src, ref (ref:A...), docid... from sacreBLEU's cache, "
        "tab-separated, and stop (sacreBLEU's --echo)",
    )
    p.add_argument(
        "--confidence", "-ci", action="store_true", help="each score's 95%% bootstrap interval (sacreBLEU's -ci)"
    )
    p.add_argument("--confidence-n", "-cin", type=int, default=1000, metavar="N", help="its resamples (1000)")
    options.add_json(p, "print our JSON: per system and metric the score, our signature and sacreBLEU's")
    metric_options.add_sacrebleu_output(p)
    metric_options.add_metrics(p)
    options.add_bleu_options(p)
    options.add_where(p)
    wmt_input.add_options(p)
    p.set_defaults(func=run)


@dataclass(frozen=True)
class _System:
    name: str  # as given (sacreBLEU's name)
    scores: list[Any]  # each metric's score object (BleuScore, TerScore...)
    intervals: list[tuple[float, float, float, float] | None]


def run(args: argparse.Namespace) -> int:
    from .testsets import echo

    if args.echo:
        if not args.test_set:
            raise InputError("needs a test set and a language pair (-t TESTSET -l SRC-TGT)", "--echo")
        for line in echo(args.test_set, args.language_pair, args.echo):
            print(line)
        return 0
    wmt = wmt_input.read_wmt(args)  # before the BLEU options: the file's target language picks the tokenizer
    config = options.bleu_config(args)
    metrics = metric_options.build_metrics(args, config)
    width = metric_options.width(args)
    if args.confidence and args.confidence_n < 1:
        raise InputError(f"must be a positive whole number, got {args.confidence_n}", "--confidence-n")
    if wmt is not None:
        narrowed = wmt_input.narrow_wmt(args, config, wmt)
    else:
        ref_files, hyp_files = read_inputs(
            args.refs, options.systems(args), test_set=args.test_set, langpair=args.language_pair
        )
        narrowed = narrow(args, config, ref_files, hyp_files)
    streams = [list(f.lines) for f in narrowed.references]
    systems, nrefs = _score(metrics, streams, narrowed.systems, config, args)
    if args.score_only:
        order = metric_options.sacrebleu_order(metrics)
        for system in systems:
            print("\n".join(score_lines(_sacrebleu(order, metrics, system, nrefs, args), width)))
        return 0
    if args.format == "json":
        _print_sacrebleu_json(metrics, systems, nrefs, args, width)
        return 0
    label = narrowed.label()
    if args.json:
        print(json.dumps(_json(metrics, systems, nrefs, label, args), ensure_ascii=False, indent=1))
        return 0
    _print_text(metrics, systems, nrefs, label, args)
    if wmt is not None:
        print(f"input: {wmt.described}")
    if args.doc_level:
        print(f"level: {wmt_input.DOC_LEVEL}; {len(streams[0])} documents")
    _print_note(metrics, systems, streams, config, args)
    return 0


def _score(
    metrics: Sequence[Metric], streams: list[list[str]], hyp_files: Sequence[Any], config: BleuConfig, args: Any
) -> tuple[list[_System], int]:
    """Every system under every metric: its score object (BLEU's keeps its statistics) and (``--confidence``)
    interval."""
    out = [_System(h.name, [], []) for h in hyp_files]
    nrefs = len(streams)
    for metric in metrics:
        if metric.sacrebleu_name == "bleu" and not args.confidence:
            for system, h in zip(out, hyp_files, strict=True):
                score, nrefs = _bleu_line_by_line(list(h.lines), streams, config)
                system.scores.append(score)
                system.intervals.append(None)
            continue
        prepared = metric.prepare(streams)
        nrefs = prepared.nrefs
        mats = [prepared.stats(list(h.lines)) for h in hyp_files]
        cis: list[Any] = [None] * len(mats)
        if args.confidence:
            from bleu_core.significance import bootstrap_cis

            cis = bootstrap_cis(mats, metric, n_samples=args.confidence_n, seed=options.DEFAULT_SEED, nrefs=nrefs)
        for system, h, m, ci in zip(out, hyp_files, mats, cis, strict=True):
            system.scores.append(_score_object(metric, prepared, list(h.lines), config, m))
            system.intervals.append(ci)
    return out, nrefs


def _bleu_line_by_line(hyps: list[str], streams: list[list[str]], config: BleuConfig) -> tuple[Any, int]:
    """One system's BLEU as ``corpus_score`` counts it: line by line without numpy on a small corpus (the CLI
    starts as fast as sacreBLEU's), in C on a large one; and the references per segment."""
    from bleu_core.engine.counting import count
    from bleu_core.engine.stats import check_streams
    from bleu_core.metrics.bleu import score_matrix

    checked_hyps, checked = check_streams(hyps, streams)
    matrix, nrefs = count(checked_hyps, checked, config)
    return score_matrix(matrix, config, nrefs), nrefs


def _score_object(metric: Metric, prepared: Any, hyps: list[str], config: BleuConfig, matrix: Any) -> Any:
    """The metric's own score object (sacreBLEU's corpus score, bit for bit): BLEU's, TER's, chrF's."""
    if metric.sacrebleu_name == "bleu":
        from bleu_core.metrics.bleu import score_matrix

        return score_matrix(matrix, config, prepared.nrefs)
    if hasattr(prepared, "corpus_score"):
        return prepared.corpus_score(hyps)
    return metric.score_matrix(matrix, prepared.nrefs)  # type: ignore[attr-defined]


def _sacre_signature(metric: Metric, nrefs: int, args: argparse.Namespace) -> tuple[str | None, str]:
    """sacreBLEU's signature of the setting (with ``--confidence``'s ``bs``/``seed``), and why there is none."""
    sign: Callable[..., str | None] = metric.sacrebleu_signature
    extra = {"confidence_trials": args.confidence_n, "seed": options.DEFAULT_SEED} if args.confidence else {}
    sig = sign(nrefs, **extra)
    why = ""
    if sig is None and metric.sacrebleu_name == "bleu":
        from bleu_core.metrics.signature import sacrebleu_signature

        why = str(sacrebleu_signature(metric.config, nrefs).why_none)  # type: ignore[attr-defined]
    return sig, why


def _sacrebleu(
    order: Sequence[Metric], metrics: Sequence[Metric], system: _System, nrefs: int, args: argparse.Namespace
) -> list[MetricScore]:
    out = []
    for metric in order:
        k = list(metrics).index(metric)
        score, ci = system.scores[k], system.intervals[k]
        sig, why = _sacre_signature(metric, nrefs, args)
        verbose = score.format().split(" ", 3)[3] if metric.sacrebleu_name == "bleu" else ""
        interval = None if ci is None else (ci[0], ci[1])
        out.append(MetricScore(metric.name, score.score, sig, verbose, interval, why))
    return out


def _print_sacrebleu_json(
    metrics: Sequence[Metric], systems: Sequence[_System], nrefs: int, args: argparse.Namespace, width: int
) -> None:
    if len(systems) == 1:
        order = metric_options.sacrebleu_order(list(metrics))
        print(single_json(_sacrebleu(order, metrics, systems[0], nrefs, args), width))
        return
    if args.confidence:
        raise InputError(
            "sacreBLEU's JSON has no intervals for several systems (it asks for a paired test): use --json", "--format"
        )
    order = metric_options.sacrebleu_order(list(metrics))
    print(systems_json([(s.name, _sacrebleu(order, metrics, s, nrefs, args)) for s in systems], width))


def _json(
    metrics: Sequence[Metric], systems: Sequence[_System], nrefs: int, label: str | None, args: argparse.Namespace
) -> Any:
    """Ours: with one metric its score object (BLEU's counts and precisions too) as before; with several, per
    system ``{"system", "metrics": {NAME: ...}}``. Every score has our signature and sacreBLEU's."""

    def one(k: int, system: _System) -> dict[str, Any]:
        metric, score, ci = metrics[k], system.scores[k], system.intervals[k]
        sig, why = _sacre_signature(metric, nrefs, args)
        d: dict[str, Any] = score.to_dict() if hasattr(score, "to_dict") else {}
        d.update({"name": metric.name, "score": score.score, "signature": score.signature})
        d.update({"sacrebleu_signature": sig, "sacrebleu_signature_none_because": why or None})
        d["higher_is_better"] = metric.higher_is_better
        if ci is not None:
            d["interval"] = {"mean": ci[0], "ci": ci[1], "low": ci[2], "high": ci[3], "resamples": args.confidence_n}
        if label is not None:
            d["slice"] = label
        if args.doc_level:
            d["level"] = "document"
        return d

    if len(metrics) == 1:
        objs = [one(0, s) for s in systems]
        if len(objs) == 1:
            return objs[0]
        return [{"system": os.path.basename(s.name), **o} for s, o in zip(systems, objs, strict=True)]
    return [
        {"system": os.path.basename(s.name), "metrics": {m.name: one(k, s) for k, m in enumerate(metrics)}}
        for s in systems
    ]


def _print_text(
    metrics: Sequence[Metric], systems: Sequence[_System], nrefs: int, label: str | None, args: argparse.Namespace
) -> None:
    width = max(len(os.path.basename(s.name)) for s in systems)
    for system in systems:
        prefix = f"{os.path.basename(system.name):<{width}}  " if len(systems) > 1 else ""
        for score, ci in zip(system.scores, system.intervals, strict=True):
            interval = "" if ci is None else f" (μ = {ci[0]:.2f} ± {ci[1]:.2f}, 95% CI [{ci[2]:.2f}, {ci[3]:.2f}])"
            print(f"{prefix}{score.format()}{interval}")
    if label is not None:
        print(f"slice: {label}")
    for k, metric in enumerate(metrics):
        sig, why = _sacre_signature(metric, nrefs, args)
        print(f"signature: {systems[0].scores[k].signature}")
        print(f"sacreBLEU signature: {sig}" if sig is not None else f"sacreBLEU signature: none ({why})")


def _print_note(
    metrics: Sequence[Metric],
    systems: Sequence[_System],
    streams: Sequence[Sequence[str]],
    config: BleuConfig,
    args: Any,
) -> None:
    """The small-test-set note (BLEU points): with the widest interval when it was drawn or is cheap."""
    from bleu_core.significance.testsize import MIN_SEGMENTS, size_note

    n = len(streams[0])
    unit: Literal["segment", "document"] = "document" if getattr(args, "doc_level", False) else "segment"
    bleu = [k for k, m in enumerate(metrics) if m.sacrebleu_name == "bleu"]
    if not bleu:
        return
    k = bleu[0]
    cis: Sequence[tuple[float, float, float, float] | None] = [s.intervals[k] for s in systems]
    if cis[0] is None and n < MIN_SEGMENTS:
        from bleu_core.significance import bootstrap_cis

        mats = [s.scores[k].segment_matrix for s in systems]  # BLEU's score keeps what it was summed from
        cis = bootstrap_cis(mats, metrics[k], n_samples=1000, seed=options.DEFAULT_SEED)
    if cis[0] is None:
        print(f"{size_note(n, unit=unit).text} (no interval drawn: --confidence draws them)")
        return
    resamples = args.confidence_n if args.confidence else 1000
    note = size_note(n, [ci[3] - ci[2] for ci in cis if ci is not None], unit=unit)
    print(f"{note.text} (intervals: {note_signature(config, len(streams), resamples)})")


def note_signature(config: BleuConfig, nrefs: int, resamples: int = 1000) -> str:
    """The signature of the intervals behind the small-test-set note: ``resamples`` resamples, seed 12345."""
    from bleu_core.metrics.bleu import Bleu

    return Bleu(config).signature(nrefs, bs=resamples, rs=options.DEFAULT_SEED)
