"""The sacreBLEU signature of a setting, in sacreBLEU's own format, or why there is none.

Our own signature (:func:`bleu_core.metrics.bleu.make_signature`) always states the order and our version, so it
cannot be pasted where a sacreBLEU signature is expected. Our numbers equal sacreBLEU 2.6.0's for every
setting sacreBLEU has (tested), so for those settings we also print the signature sacreBLEU itself prints:
the same keys in the same order, long (``nrefs:1|case:mixed|...``) or short (``#:1|c:mixed|...``), with
``version:2.6.0``. A setting sacreBLEU cannot express (the paper's tokenizer, custom weights, an order
other than 4, which sacreBLEU computes but its signature does not state) has none, and :func:`sacrebleu_signature`
says why instead.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final, Literal

from bleu_core.config import SMOOTH_DEFAULTS, BleuConfig
from bleu_core.engine.tokenizers import get_tokenizer

__all__ = ["SACREBLEU_VERSION", "SacrebleuSignature", "sacrebleu_signature"]

SACREBLEU_VERSION: Final = "2.6.0"
"""The sacreBLEU release our numbers are tested equal to (pyproject pins it for the parity tests)."""

_SACREBLEU_TOKENIZERS: Final = frozenset({"13a", "intl", "zh", "char", "none", "ja-mecab", "ko-mecab"})
# sacreBLEU's Signature: global keys, then BLEU's; None values are left out; version moves to the end
_SHORT: Final = {
    "nrefs": "#",
    "bs": "bs",
    "ar": "ar",
    "seed": "rs",
    "case": "c",
    "eff": "e",
    "tok": "tok",
    "smooth": "s",
    "version": "v",
}


@dataclass(frozen=True, slots=True)
class SacrebleuSignature:
    """sacreBLEU's signature of a setting (``long``, ``short``), or the reason it has none (``why_none``).

    Example:
        >>> sig = sacrebleu_signature(BleuConfig(), 1)
        >>> sig.long
        'nrefs:1|case:mixed|eff:no|tok:13a|smooth:exp|version:2.6.0'
        >>> sig.short
        '#:1|c:mixed|e:no|tok:13a|s:exp|v:2.6.0'
        >>> sacrebleu_signature(BleuConfig.paper(), 4).why_none
        "sacreBLEU has no 'paper' tokenizer (the paper's words are this app's own)"
    """

    long: str | None
    short: str | None
    why_none: str | None = None

    def __str__(self) -> str:
        return self.long if self.long is not None else f"(no sacreBLEU signature: {self.why_none})"


def _why_none(config: BleuConfig) -> str | None:
    if config.tokenize not in _SACREBLEU_TOKENIZERS:
        return f"sacreBLEU has no {config.tokenize!r} tokenizer (the paper's words are this app's own)"
    if config.weights is not None:
        return "sacreBLEU weighs every order equally; custom weights have no sacreBLEU setting"
    if config.max_ngram_order != 4:
        return (
            f"sacreBLEU computes order {config.max_ngram_order} (max_ngram_order) but its signature does not "
            "state the order, so a pasted signature would read as order 4"
        )
    return None


def sacrebleu_signature(
    config: BleuConfig,
    nrefs: int | str,
    *,
    test: Literal["bs", "ar"] | None = None,
    trials: int | None = None,
    seed: int | None = None,
    confidence_trials: int | None = None,
) -> SacrebleuSignature:
    """The signature sacreBLEU 2.6.0 prints for ``config`` with ``nrefs`` references.

    ``test``/``trials``/``seed`` describe a paired test as ``sacrebleu --paired-bs/--paired-ar`` signs it
    (``seed`` None is sacreBLEU's unseeded ``none``); ``confidence_trials`` the bootstrap resamples of the
    intervals (``--paired-ar`` adds them as ``bs:``; ``--confidence`` alone as well).

    Example:
        >>> sacrebleu_signature(BleuConfig(), 2, test="bs", trials=1000, seed=12345).long
        'nrefs:2|bs:1000|seed:12345|case:mixed|eff:no|tok:13a|smooth:exp|version:2.6.0'
        >>> sacrebleu_signature(BleuConfig(), 1, test="ar", trials=10000, seed=12345, confidence_trials=1000).short
        '#:1|bs:1000|ar:10000|rs:12345|c:mixed|e:no|tok:13a|s:exp|v:2.6.0'
        >>> sacrebleu_signature(BleuConfig(), 1, seed=12345, confidence_trials=1000).long  # sacrebleu --confidence
        'nrefs:1|bs:1000|seed:12345|case:mixed|eff:no|tok:13a|smooth:exp|version:2.6.0'
    """
    why = _why_none(config)
    if why is not None:
        return SacrebleuSignature(None, None, why)
    smooth: str = config.smooth_method
    if SMOOTH_DEFAULTS[smooth] is not None:
        smooth += f"[{config.effective_smooth_value:.2f}]"
    bs = trials if test == "bs" else confidence_trials
    info: dict[str, object] = {
        "nrefs": "var" if nrefs == -1 else nrefs,
        "bs": bs,
        "ar": trials if test == "ar" else None,
        "seed": str(seed).lower() if test is not None or confidence_trials is not None else None,
        "case": "lc" if config.lowercase else "mixed",
        "eff": "yes" if config.use_effective_order else "no",
        "tok": get_tokenizer(config.tokenize).signature,
        "smooth": smooth,
        "version": SACREBLEU_VERSION,
    }
    kept = [(k, v) for k, v in info.items() if v is not None]
    return SacrebleuSignature(
        "|".join(f"{k}:{v}" for k, v in kept),
        "|".join(f"{_SHORT[k]}:{v}" for k, v in kept),
    )
