"""The options every command shares, in sacreBLEU's spelling where sacreBLEU has them: the BLEU options and
``--preset``, ``--where`` (and ``--source``), the paired tests, ``--seed``, ``--alpha`` and ``--json``.

Each is added to a command's parser by one function here, and read back by one (:func:`bleu_config`,
:func:`paired_test`), so a flag is spelled, documented and checked once. Registering imports nothing heavy.
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any, Final

from bleu_core.errors import InputError

if TYPE_CHECKING:
    from bleu_core.config import BleuConfig
    from bleu_core.significance.trials import Method

__all__ = [
    "DEFAULT_SEED",
    "PRESETS",
    "add_alpha",
    "add_bleu_options",
    "add_inputs",
    "add_json",
    "add_paired_tests",
    "add_seed",
    "add_where",
    "bleu_config",
    "paired_test",
    "systems",
]

_POLICY: Final = object()  # --paired-ar without N (argparse gives a non-string const as it is, unconverted)

DEFAULT_SEED: Final = 12345
"""sacreBLEU's seed (``SACREBLEU_SEED``), as ``bleu_core.significance.resample.DEFAULT_SEED``; written here so that
building the parser imports no numpy (a test holds the two equal)."""

PRESETS: Final = ("paper", "sacrebleu")
"""What each ``--preset`` sets when the option itself is not given. ``paper`` is the app's preset (the Learn page's
numbers); ``sacrebleu`` is sacreBLEU's defaults: corpus_bleu for score/compare, sentence_bleu (effective order) for
explain. Without ``--preset`` a command uses sacreBLEU's."""


def _preset_values(preset: str, *, sentence: bool) -> dict[str, Any]:
    if preset == "paper":
        return {"tokenize": "paper", "lowercase": True, "smooth_method": "none", "effective_order": False}
    return {"tokenize": "13a", "lowercase": False, "smooth_method": "exp", "effective_order": sentence}


def add_bleu_options(p: argparse.ArgumentParser, *, sentence: bool = False) -> None:
    """``--preset``, the tokenizer (``--tokenize``, ``--spm-model``, ``-l``), ``--lowercase``, the smoothing, the
    order and weights, and effective order (on by default for sentence BLEU: ``sentence``)."""
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


# the option that sets each BleuConfig field, to name in a message about it
_FLAGS: Final = {
    "max_ngram_order": "--max-order",
    "tokenize": "--tokenize",
    "smooth_method": "--smooth-method",
    "smooth_value": "--smooth-value",
    "weights": "--weights",
}


def bleu_config(args: argparse.Namespace) -> BleuConfig:
    """The :class:`~bleu_core.config.BleuConfig` the BLEU options (:func:`add_bleu_options`) ask for.

    Raises:
        InputError: naming the option that is wrong.
    """
    from bleu_core.config import BleuConfig
    from bleu_core.engine.tokenizers import get_tokenizer

    preset = _preset_values(getattr(args, "preset", "sacrebleu"), sentence=getattr(args, "sentence_defaults", False))
    chosen = {k: (preset[k] if getattr(args, k, None) is None else getattr(args, k)) for k in preset}
    chosen["tokenize"] = _tokenizer(args, chosen["tokenize"])
    try:
        config = BleuConfig(
            tokenize=chosen["tokenize"],
            lowercase=bool(chosen["lowercase"]),
            smooth_method=chosen["smooth_method"],
            smooth_value=args.smooth_value,
            use_effective_order=bool(chosen["effective_order"]),
            max_ngram_order=args.max_order,
            weights=_weights(args.weights),
        )
        _ = get_tokenizer(config.tokenize).signature  # load it now: a missing optional package is an option error
    except InputError as exc:
        raise InputError(exc.what, _FLAGS.get(exc.where, exc.where)) from None
    return config


def _tokenizer(args: argparse.Namespace, chosen: str) -> str:
    """The tokenizer's name: ``-l``'s target language decides when ``--tokenize`` is not given; ``spm`` is
    registered from ``--spm-model``."""
    if getattr(args, "language_pair", None) and getattr(args, "tokenize", None) is None:
        from bleu_core.data.languages import parse_language_pair, tokenizer_for

        chosen = tokenizer_for(parse_language_pair(args.language_pair)[1])
    spm_model = getattr(args, "spm_model", None)
    if chosen == "spm" or spm_model:
        if chosen != "spm":
            raise InputError("given without --tokenize spm", "--spm-model")
        if not spm_model:
            raise InputError("spm needs a model file: add --spm-model FILE", "--tokenize")
        from bleu_core.engine.tokenizers import register_spm

        chosen = register_spm(spm_model)
    return chosen


def _weights(text: str | None) -> tuple[float, ...] | None:
    if not text:
        return None
    try:
        return tuple(float(w) for w in text.split(","))
    except ValueError:
        raise InputError(f"not a comma-separated list of numbers: {text!r}", "--weights") from None


def add_inputs(p: argparse.ArgumentParser, *, hyp_help: str = "system output files (- for standard input)") -> None:
    """The references (files, or ``-t TESTSET`` with ``-l``: sacreBLEU's cache) and ``-i`` (``-`` for standard
    input), in sacreBLEU's spelling; ``-l`` itself is a BLEU option (:func:`add_bleu_options`)."""
    p.add_argument("refs", nargs="*", metavar="REF", help="reference files, one segment per line")
    p.add_argument("-i", "--input", nargs="+", default=None, metavar="HYP", help=hyp_help)
    p.add_argument(
        "-t",
        "--test-set",
        default=None,
        metavar="TESTSET",
        help="the references of a sacreBLEU test set (with -l SRC-TGT), read from sacreBLEU's local cache "
        "($SACREBLEU or ~/.sacrebleu); nothing is downloaded",
    )


def systems(args: argparse.Namespace) -> list[str]:
    """``-i``'s files, which every scoring command needs.

    Raises:
        InputError: no ``-i``.
    """
    if not args.input:
        raise InputError("give the system outputs with -i FILE... (- reads standard input)", "-i")
    return list(args.input)


def add_where(p: argparse.ArgumentParser, *, source: bool = True) -> None:
    """``--where EXPR`` (and ``--source FILE`` unless the command has its own)."""
    p.add_argument(
        "--where",
        default=None,
        metavar="EXPR",
        help="score only the lines EXPR chooses: src_len/ref_len/hyp_len[NAME] comparisons, line A..B, "
        'src ~ "re", ref ~ "re", hyp[NAME] ~ "re", flag KIND[NAME] (empty, repetition, length, copy, '
        'untranslated), and with a WMT file doc ~ "re", origlang == "xx", domain == "news" (== != ~), '
        "combined with and/or/not; every number is recomputed on those lines",
    )
    if source:
        p.add_argument("--source", default=None, metavar="FILE", help="source file (for src ~ and src_len)")


def add_paired_tests(p: argparse.ArgumentParser) -> None:
    """``--paired-bs [N]`` or ``--paired-ar [N]`` (sacreBLEU's), one of them: :func:`paired_test` reads them."""
    group = p.add_mutually_exclusive_group()
    group.add_argument(
        "--paired-bs",
        "-pbs",  # sacreBLEU's short spellings (without them, argparse would read -pbs as -pbsn)
        type=int,
        nargs="?",
        const=None,  # without N, as without the option: the policy (a string const would go through int())
        default=None,
        metavar="N",
        help="paired bootstrap with N resamples (the default; without N, or without this option, the number the "
        "trial policy picks: sacreBLEU's 1000, or more when Holm's correction over every pair needs it)",
    )
    group.add_argument(
        "--paired-ar",
        "-par",
        type=int,
        nargs="?",
        const=_POLICY,  # without N: the policy
        default=None,
        metavar="N",
        help="paired approximate randomization with N trials (without N: sacreBLEU's 10000, or more when Holm's "
        "correction needs it)",
    )
    p.add_argument("--paired-bs-n", "-pbsn", type=int, default=None, metavar="N", help="sacreBLEU's spelling of N")
    p.add_argument("--paired-ar-n", "-parn", type=int, default=None, metavar="N", help="sacreBLEU's spelling of N")


def paired_test(
    args: argparse.Namespace, n_systems: int, alpha: float = 0.05, *, comparisons: int | None = None
) -> tuple[Method, int, str]:
    """The test, its number of draws and the flag that names it: an explicit N is kept (sacreBLEU's draws);
    otherwise the CLI's trial policy (``bleu_core.significance.trials.policy_trials``) for ``comparisons`` tests
    corrected together (default: every pair of ``n_systems``), uncapped.

    Raises:
        InputError: a number of draws that is not a positive whole number, naming the flag.
    """
    from bleu_core.significance.trials import check_trials, policy_trials

    method: Method = "ar" if args.paired_ar is not None or getattr(args, "paired_ar_n", None) else "bs"
    flag = f"--paired-{method}"
    asked = args.paired_ar if method == "ar" else args.paired_bs
    if asked is _POLICY:  # --paired-ar without N
        asked = None
    n_flag = getattr(args, f"paired_{method}_n", None)
    asked, flag = (n_flag, f"--paired-{method}-n") if n_flag is not None else (asked, flag)
    if asked is not None:
        check_trials(asked, flag)
    tests = n_systems * (n_systems - 1) // 2 if comparisons is None else comparisons
    trials = policy_trials(method, tests, asked, alpha=alpha)
    check_trials(trials, flag)
    return method, trials, flag


def add_seed(p: argparse.ArgumentParser) -> None:
    """``--seed S``: the generator's seed (sacreBLEU's 12345 by default)."""
    p.add_argument("--seed", type=int, default=DEFAULT_SEED, help=f"random seed (default {DEFAULT_SEED})")


def check_seed(seed: int) -> None:
    """A seed numpy takes: a whole number >= 0.

    Raises:
        InputError: naming ``--seed``.
    """
    if seed < 0:
        raise InputError(f"must be a whole number >= 0, got {seed}", "--seed")


def add_alpha(p: argparse.ArgumentParser) -> None:
    """``--alpha A``: the significance level of the clusters and the trial policy (0.05 by default)."""
    p.add_argument(
        "--alpha", type=float, default=0.05, metavar="A", help="significance level of the clusters (default 0.05)"
    )


def check_alpha(alpha: float) -> None:
    """A significance level strictly between 0 and 1.

    Raises:
        InputError: naming ``--alpha``.
    """
    if not 0 < alpha < 1:
        raise InputError(f"must be between 0 and 1, got {alpha}", "--alpha")


def add_json(p: argparse.ArgumentParser, what: str = "print JSON") -> None:
    """``--json``."""
    p.add_argument("--json", action="store_true", help=what)
