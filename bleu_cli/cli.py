"""``bleu-explorer`` / ``python -m bleu_cli``: score, explain, compare, variants, report, diagnose, app (DESIGN.md
section 3).

Input errors print one line on stderr naming the file and line and exit with status 2; never a traceback.
This module imports nothing heavy at start-up (no Streamlit, no pandas), so ``score`` starts fast.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence
from typing import Any, NoReturn

from bleu_core import __version__
from bleu_core.errors import InputError

from . import files

__all__ = ["main"]

EXIT_INPUT = 2


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:  # one line, not usage + error
        raise InputError(message, self.prog)


# What each --preset sets when the option itself is not given. "paper" is the app's preset (the Learn page's
# numbers); "sacrebleu" is sacreBLEU's defaults: corpus_bleu for score/compare, sentence_bleu (effective order)
# for explain. Without --preset a command uses sacreBLEU's (as before).
PRESETS = ("paper", "sacrebleu")


def _preset_values(preset: str, *, sentence: bool) -> dict[str, Any]:
    if preset == "paper":
        return {"tokenize": "paper", "lowercase": True, "smooth_method": "none", "effective_order": False}
    return {"tokenize": "13a", "lowercase": False, "smooth_method": "exp", "effective_order": sentence}


def _add_bleu_options(p: argparse.ArgumentParser, *, sentence: bool = False) -> None:
    from bleu_core.engine.tokenizers import TOKENIZERS

    p.add_argument(
        "--preset",
        choices=PRESETS,
        default="sacrebleu",
        help="paper: the app's paper preset (paper tokens, case folded, no smoothing, N = 4); sacrebleu: "
        "sacreBLEU's defaults (default). Options given explicitly override the preset",
    )
    p.set_defaults(sentence_defaults=sentence)
    p.add_argument(
        "--tokenize",
        "-tok",
        default=None,
        metavar="T",
        help=f"tokenizer: {', '.join(TOKENIZERS)}, spm (with --spm-model) (default 13a)",
    )
    p.add_argument(
        "--spm-model",
        default=None,
        metavar="FILE",
        help="the SentencePiece model file for --tokenize spm (needs the optional spm extra); the signature "
        "names it tok:spm- and the first 12 hex digits of its SHA-256",
    )
    p.add_argument(
        "-l",
        "--language-pair",
        default=None,
        metavar="SRC-TGT",
        help="the languages (as en-zh): without --tokenize, sacreBLEU's tokenizer for the target "
        "(zh, ja-mecab, ko-mecab, otherwise 13a)",
    )
    p.add_argument("--lowercase", "-lc", action="store_true", default=None, help="case-fold before tokenizing")
    p.add_argument("--smooth-method", "-s", default=None, metavar="M", help="none, floor, add-k or exp (default exp)")
    p.add_argument(
        "--smooth-value", "-sv", type=float, default=None, metavar="V", help="value for floor (0.1) or add-k (1)"
    )
    p.add_argument("--max-order", type=int, default=4, metavar="N", help="max n-gram order, 1-9 (default 4)")
    p.add_argument(
        "--weights",
        default=None,
        metavar="W,W,...",
        help="comma-separated weights, one per order, summing to 1 (default uniform)",
    )
    if sentence:
        p.add_argument(
            "--no-effective-order",
            dest="effective_order",
            action="store_false",
            default=None,
            help="keep orders with no n-grams in the mean (default: effective order, as sentence BLEU)",
        )
    else:
        p.add_argument("--effective-order", action="store_true", default=None, help="leave out orders with no n-grams")


def _config(args: argparse.Namespace):  # type: ignore[no-untyped-def]
    from bleu_core.config import BleuConfig
    from bleu_core.engine.tokenizers import get_tokenizer

    preset = _preset_values(getattr(args, "preset", "sacrebleu"), sentence=getattr(args, "sentence_defaults", False))
    chosen = {k: (preset[k] if getattr(args, k, None) is None else getattr(args, k)) for k in preset}
    if getattr(args, "language_pair", None) and getattr(args, "tokenize", None) is None:
        from bleu_core.data.languages import parse_language_pair, tokenizer_for

        chosen["tokenize"] = tokenizer_for(parse_language_pair(args.language_pair)[1])
    spm_model = getattr(args, "spm_model", None)
    if chosen["tokenize"] == "spm" or spm_model:
        if chosen["tokenize"] != "spm":
            raise InputError("given without --tokenize spm", "--spm-model")
        if not spm_model:
            raise InputError("spm needs a model file: add --spm-model FILE", "--tokenize")
        from bleu_core.engine.tokenizers import register_spm

        chosen["tokenize"] = register_spm(spm_model)
    weights = None
    if args.weights:
        try:
            weights = tuple(float(w) for w in args.weights.split(","))
        except ValueError:
            raise InputError(f"not a comma-separated list of numbers: {args.weights!r}", "--weights") from None
    try:
        config = BleuConfig(
            tokenize=chosen["tokenize"],
            lowercase=bool(chosen["lowercase"]),
            smooth_method=chosen["smooth_method"],
            smooth_value=args.smooth_value,
            use_effective_order=bool(chosen["effective_order"]),
            max_ngram_order=args.max_order,
            weights=weights,
        )
        _ = get_tokenizer(config.tokenize).signature  # load it now: a missing optional package is an option error
        return config
    except InputError as exc:
        flag = {
            "max_ngram_order": "--max-order",
            "tokenize": "--tokenize",
            "smooth_method": "--smooth-method",
            "smooth_value": "--smooth-value",
            "weights": "--weights",
        }.get(exc.where, exc.where)
        raise InputError(exc.what, flag) from None


def _read_all(refs: Sequence[str], hyps: Sequence[str]):  # type: ignore[no-untyped-def]
    from bleu_core.data.corpus import check_parallel, check_unique_names
    from bleu_core.data.readers import read_text_file

    # the systems are labelled by base name: two with the same one are refused (as sacrebleu does)
    check_unique_names([os.path.basename(p) for p in hyps], hyps)
    ref_files = [read_text_file(p) for p in refs]
    hyp_files = [read_text_file(p) for p in hyps]
    check_parallel([*ref_files, *hyp_files])
    if not ref_files[0].lines:
        raise InputError("is empty: no segments to score", ref_files[0].name)
    return ref_files, hyp_files


def _cmd_score(args: argparse.Namespace) -> int:
    from bleu_core.metrics.bleu import corpus_score

    from .slicing import narrow

    config = _config(args)
    ref_files, hyp_files = _read_all(args.refs, args.input)
    narrowed = narrow(args, config, ref_files, hyp_files)
    ref_files, hyp_files, label = narrowed.references, narrowed.systems, narrowed.label()
    streams = [list(f.lines) for f in ref_files]
    results = []
    for hf in hyp_files:
        s = corpus_score(list(hf.lines), streams, config)
        results.append((hf.name, s))
    if args.json:  # sacreBLEU's score object, as documented (DESIGN.md section 3): no note
        objs = [s.to_dict() if label is None else {**s.to_dict(), "slice": label} for _, s in results]
        if len(results) > 1:
            objs = [{"system": os.path.basename(name), **o} for (name, _), o in zip(results, objs, strict=True)]
            print(json.dumps(objs, ensure_ascii=False, indent=1))
        else:
            print(json.dumps(objs[0], ensure_ascii=False, indent=1))
    else:
        width = max(len(os.path.basename(n)) for n, _ in results)
        for name, s in results:
            prefix = f"{os.path.basename(name):<{width}}  " if len(results) > 1 else ""
            print(f"{prefix}{s.format()}")
        if label is not None:
            print(f"slice: {label}")
        print(f"signature: {results[0][1].signature}")
        note = _size_note(streams, hyp_files, config)
        print(f"{note.text} (intervals: {note_signature(config, len(streams))})")
    return 0


def note_signature(config: Any, nrefs: int) -> str:
    """The signature of the intervals behind the small-test-set note: sacreBLEU's 1,000 resamples, seed 12345."""
    from bleu_core.metrics.bleu import make_signature

    return make_signature(config, nrefs, bs=1000, rs=12345)


def _size_note(streams: Sequence[Sequence[str]], hyp_files: Sequence[Any], config: Any) -> Any:
    """The small-test-set note of ``score``: the segments and the widest of the systems' 95% intervals."""
    from bleu_core.engine import ReferenceSet
    from bleu_core.significance import bootstrap_cis
    from bleu_core.significance.testsize import size_note

    ref_set = ReferenceSet.from_config(streams, config)
    mats = [ref_set.stats(list(h.lines), config.max_ngram_order) for h in hyp_files]
    return size_note(len(streams[0]), [hi - lo for _, _, lo, hi in bootstrap_cis(mats, config)])


def _cmd_explain(args: argparse.Namespace) -> int:
    from bleu_core.teaching.explain import explain_segment

    config = _config(args)
    e = explain_segment(args.hyp, args.ref, config)
    if args.json:
        # the score object of `score --json` (score, bp, precisions, signature ...) at the top level, then the tables
        out = {
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
        print(json.dumps(out, ensure_ascii=False, indent=1))
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


def _cmd_handout(args: argparse.Namespace) -> int:
    from bleu_app.handout import handout_html

    page = handout_html()
    if args.output in (None, "-"):
        sys.stdout.write(page + "\n")
        return 0
    files.write_text(args.output, page)
    print(f"wrote {args.output} (the paper's Examples 1-4 and the toy corpus, under the paper's preset)")
    return 0


def _cmd_app(args: argparse.Namespace) -> int:
    import subprocess

    import bleu_app

    # app.py and pages/ sit beside the bleu_app package in the checkout (the design card's layout)
    app = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(bleu_app.__file__))), "app.py")
    if not os.path.exists(app):
        raise InputError("app.py not found beside the bleu_app package; run from a source checkout", app)
    cmd = [
        sys.executable,
        "-m",
        "streamlit",
        "run",
        app,
        "--server.address",
        args.address,
        "--server.port",
        str(args.port),
        "--server.headless",
        "true",
        "--browser.gatherUsageStats",
        "false",
    ]
    return subprocess.call(cmd)


def build_parser() -> argparse.ArgumentParser:
    """The argument parser (also used by the docs)."""
    parser = _Parser(prog="bleu-explorer", description="Exact, explainable BLEU (sacrebleu-compatible).")
    parser.add_argument("--version", action="version", version=f"bleu-explorer {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    p = sub.add_parser("score", help="corpus BLEU of one or more systems")
    p.add_argument("refs", nargs="+", metavar="REF", help="reference files, one segment per line")
    p.add_argument("-i", "--input", nargs="+", required=True, metavar="HYP", help="system output files")
    p.add_argument("--json", action="store_true", help="print JSON")
    _add_bleu_options(p)
    from .slicing import add_diagnose_parser, add_where_options

    add_where_options(p)
    p.set_defaults(func=_cmd_score)

    p = sub.add_parser("explain", help="clipping tables and matches for one sentence")
    p.add_argument("--hyp", required=True, help="the candidate")
    p.add_argument("--ref", required=True, action="append", help="a reference (repeat for more)")
    p.add_argument("--json", action="store_true", help="print JSON")
    _add_bleu_options(p, sentence=True)
    p.set_defaults(func=_cmd_explain)

    from .compare import add_compare_parser

    add_compare_parser(sub, _add_bleu_options, _config, _read_all)

    from .variants import add_variants_parser

    add_variants_parser(sub, _read_all)

    from .report import add_report_parser

    add_report_parser(sub, _add_bleu_options, _config, _read_all)

    add_diagnose_parser(sub, _add_bleu_options, _config, _read_all)

    p = sub.add_parser("handout", help="the paper's worked numbers (Examples 1-4) as a printable HTML page")
    p.add_argument("-o", "--output", metavar="FILE", help="the HTML file to write (default: standard output)")
    p.set_defaults(func=_cmd_handout)

    p = sub.add_parser("app", help="start the Streamlit app on 127.0.0.1")
    p.add_argument("--port", type=int, default=8501)
    p.add_argument("--address", default="127.0.0.1")
    p.set_defaults(func=_cmd_app)
    return parser


def _tolerant_output() -> None:
    """Print what the encoding cannot hold as escapes instead of failing: a file name that is not
    UTF-8 (kept by Python as lone surrogates) on a strict UTF-8 stdout, or any text on an ASCII one."""
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None and getattr(stream, "errors", "strict") == "strict":
            reconfigure(errors="backslashreplace")


def main(argv: Sequence[str] | None = None) -> int:
    """Run the CLI; return the exit status."""
    _tolerant_output()
    try:
        args = build_parser().parse_args(argv)
        return int(args.func(args))
    except InputError as exc:
        print(f"bleu-explorer: error: {exc}", file=sys.stderr)  # one line (InputError escapes line breaks)
        return EXIT_INPUT
    except BrokenPipeError:
        return 0
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
