"""``-m bleu chrf ter`` and each metric's options in sacreBLEU's spelling (``--chrf-*``, ``--ter-*``), and the
output options sacreBLEU's users type: ``-b/--score-only``, ``-f/--format json``, ``-w/--width``.

:func:`build_metrics` turns them into the core's metrics (``bleu_core.metrics``' registry, by sacreBLEU's names):
BLEU takes the BLEU options (``options.bleu_config``), chrF and TER their own. An unknown metric is one line
naming it (exit 2). Registering imports nothing heavy.
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any, Final

from bleu_core.errors import InputError

from .slicing import warn

if TYPE_CHECKING:
    from bleu_core.config import BleuConfig
    from bleu_core.metrics.base import Metric

__all__ = ["SACREBLEU_WIDTH", "add_metrics", "add_sacrebleu_output", "build_metrics", "sacrebleu_order", "width"]

SACREBLEU_WIDTH: Final = 1
"""sacreBLEU's ``--width`` default: the decimals of ``-b`` and ``--format json``."""

_CHRF: Final = {  # sacreBLEU's flag -> (Chrf's option, what the flag means when it is not given)
    "chrf_char_order": ("char_order", 6),
    "chrf_word_order": ("word_order", 0),
    "chrf_beta": ("beta", 2),
    "chrf_whitespace": ("whitespace", False),
    "chrf_lowercase": ("lowercase", False),
    "chrf_eps_smoothing": ("eps_smoothing", False),
}
_TER: Final = ("normalized", "no_punct", "asian_support", "case_sensitive")


def add_metrics(p: argparse.ArgumentParser) -> None:
    """``-m/--metrics`` and the chrF and TER options, as sacreBLEU spells them."""
    p.add_argument(
        "-m",
        "--metrics",
        nargs="+",
        default=["bleu"],
        metavar="NAME",
        help="metrics to compute, as sacreBLEU's -m: bleu (default), chrf, ter; several at once",
    )
    chrf = p.add_argument_group("chrF (with -m chrf)")
    chrf.add_argument("--chrf-char-order", "-cc", type=int, default=None, metavar="N", help="character order (6)")
    chrf.add_argument("--chrf-word-order", "-cw", type=int, default=None, metavar="N", help="word order (0; 2: chrF++)")
    chrf.add_argument("--chrf-beta", type=int, default=None, metavar="B", help="recall's weight (2)")
    chrf.add_argument("--chrf-whitespace", action="store_true", default=None, help="keep whitespace in n-grams")
    chrf.add_argument("--chrf-lowercase", action="store_true", default=None, help="case-insensitive")
    chrf.add_argument("--chrf-eps-smoothing", action="store_true", default=None, help="chrF++.py's epsilon smoothing")
    ter = p.add_argument_group("TER (with -m ter)")
    ter.add_argument("--ter-normalized", action="store_true", help="tercom's normalisation and tokenization")
    ter.add_argument("--ter-no-punct", action="store_true", help="remove punctuation")
    ter.add_argument("--ter-asian-support", action="store_true", help="Asian characters split (with the above)")
    ter.add_argument("--ter-case-sensitive", action="store_true", help="keep case (TER lowercases by default)")


def add_sacrebleu_output(p: argparse.ArgumentParser, *, score_only: bool = True) -> None:
    """``-f/--format json`` (sacreBLEU's JSON for the same call), ``-w/--width`` and (``score_only``) ``-b``."""
    if score_only:
        p.add_argument(
            "-b",
            "--score-only",
            action="store_true",
            help="print only the scores, one line per system and metric (sacreBLEU's -b)",
        )
    p.add_argument(
        "-f",
        "--format",
        choices=("text", "json"),
        default="text",
        help="text: ours (default); json: what sacreBLEU prints with -f json for the same call (--json is ours)",
    )
    p.add_argument(
        "-w",
        "--width",
        type=int,
        default=None,
        metavar="N",
        help=f"decimals of -b and --format json (sacreBLEU's default {SACREBLEU_WIDTH})",
    )


def width(args: argparse.Namespace) -> int:
    """The decimals of the sacreBLEU forms (``-w``; sacreBLEU's 1 by default)."""
    w = getattr(args, "width", None)
    if w is None:
        return SACREBLEU_WIDTH
    if not 0 <= w <= 15:
        raise InputError(f"must be a whole number from 0 to 15, got {w}", "--width")
    return int(w)


def build_metrics(args: argparse.Namespace, config: BleuConfig) -> list[Metric]:
    """The metrics ``-m`` names, in its order (each once), with their options.

    Raises:
        InputError: an unknown metric, or an option value the metric refuses, naming the flag.
    """
    from bleu_core.metrics import METRICS, Bleu, get_metric

    names = list(dict.fromkeys(n.lower() for n in getattr(args, "metrics", None) or ["bleu"]))
    unknown = [n for n in names if n not in METRICS]
    if unknown:
        raise InputError(f"unknown metric {unknown[0]!r} (known: {', '.join(METRICS)})", "-m")
    chrf = {opt: getattr(args, flag) for flag, (opt, _) in _CHRF.items() if getattr(args, flag, None) is not None}
    ter = {opt: True for opt in _TER if getattr(args, f"ter_{opt}", False)}
    for given, metric in ((chrf, "chrf"), (ter, "ter")):
        if given and metric not in names:
            flags = ", ".join(f"--{metric}-{k.replace('_', '-')}" for k in given)
            warn(f"{flags} given without -m {metric}: ignored")
    out: list[Metric] = []
    for name in names:
        options: dict[str, Any] = chrf if name == "chrf" else ter if name == "ter" else {}
        try:
            out.append(Bleu(config) if name == "bleu" else get_metric(name, **options))
        except InputError as exc:
            raise InputError(exc.what, f"--{name}-{exc.where.replace('_', '-')}") from None
    return out


def sacrebleu_order(metrics: list[Metric]) -> list[Metric]:
    """sacreBLEU's order of a single system's scores: by its upper-case metric name (``sorted(metrics)``)."""
    return sorted(metrics, key=lambda m: m.sacrebleu_name.upper())
