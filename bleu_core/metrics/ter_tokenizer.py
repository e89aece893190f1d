"""Tercom's normalisation as sacreBLEU 2.6.0 does it (``sacrebleu/tokenizers/tokenizer_ter.py``), step by step.

The regular expressions are sacreBLEU's, character for character (including its odd ones: the Hiragana and
Katakana rules can only ever match a whole line, because of the ``^`` inside their groups), so the tokens are
the same for every input; tests/core/test_ter_parity.py holds them equal on fuzzed text. sacreBLEU right-strips a
line before the tokenizer (``TER._preprocess_segment``) and, for references, runs that preprocessing twice (once
in ``Metric._cache_references``, again in ``TER._extract_reference_info``); :func:`tercom_steps` keeps every
step's text, so the edit script can show what the normalisation did.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final

__all__ = ["TercomOptions", "tercom_steps", "tercom_tokenize"]

_ASIAN_PUNCT: Final = r"([\u3001\u3002\u3008-\u3011\u3014-\u301f\uff61-\uff65\u30fb])"
_FULL_WIDTH_PUNCT: Final = r"([\uff0e\uff0c\uff1f\uff1a\uff1b\uff01\uff02\uff08\uff09])"

_GENERAL: Final = (
    (re.compile(r"\n-"), ""),  # end-of-line hyphenation
    (re.compile(r"\n"), " "),
    (re.compile(r"&quot;"), '"'),
    (re.compile(r"&amp;"), "&"),
    (re.compile(r"&lt;"), "<"),
    (re.compile(r"&gt;"), ">"),
)
_WESTERN: Final = (
    (re.compile(r"([{-~[-` -&(-+:-@/])"), r" \1 "),
    (re.compile(r"'s "), r" 's "),
    (re.compile(r"'s$"), r" 's"),
    (re.compile(r"([^0-9])([\.,])"), r"\1 \2 "),
    (re.compile(r"([\.,])([^0-9])"), r" \1 \2"),
    (re.compile(r"([0-9])(-)"), r"\1 \2 "),
)
_ASIAN: Final = (
    (re.compile(r"([\u4e00-\u9fff\u3400-\u4dbf])"), r" \1 "),
    (re.compile(r"([\u31c0-\u31ef\u2e80-\u2eff])"), r" \1 "),
    (re.compile(r"([\u3300-\u33ff\uf900-\ufaff\ufe30-\ufe4f])"), r" \1 "),
    (re.compile(r"([\u3200-\u3f22])"), r" \1 "),
    (re.compile(r"(^|^[\u3040-\u309f])([\u3040-\u309f]+)(?=$|^[\u3040-\u309f])"), r"\1 \2 "),
    (re.compile(r"(^|^[\u30a0-\u30ff])([\u30a0-\u30ff]+)(?=$|^[\u30a0-\u30ff])"), r"\1 \2 "),
    (re.compile(r"(^|^[\u31f0-\u31ff])([\u31f0-\u31ff]+)(?=$|^[\u31f0-\u31ff])"), r"\1 \2 "),
    (re.compile(_ASIAN_PUNCT), r" \1 "),
    (re.compile(_FULL_WIDTH_PUNCT), r" \1 "),
)
_PUNCT: Final = re.compile(r"[\.,\?:;!\"\(\)]")
_ASIAN_PUNCT_RE: Final = (re.compile(_ASIAN_PUNCT), re.compile(_FULL_WIDTH_PUNCT))


@dataclass(frozen=True, slots=True)
class TercomOptions:
    """sacreBLEU's four TER options (``sacrebleu.metrics.TER``'s names and defaults).

    Attributes:
        normalized: tercom's normalisation: XML entities, punctuation split off, possessives, numbers
            (and, with ``asian_support``, CJK split to characters).
        no_punct: remove ``.,?:;!"()`` (with ``asian_support``, CJK and full-width punctuation too).
        asian_support: the CJK rules of ``normalized`` and ``no_punct`` (no effect without either).
        case_sensitive: keep case (sacreBLEU lowercases by default).
    """

    normalized: bool = False
    no_punct: bool = False
    asian_support: bool = False
    case_sensitive: bool = False


def _apply(rules: tuple[tuple[re.Pattern[str], str], ...], text: str) -> str:
    for pattern, repl in rules:
        text = pattern.sub(repl, text)
    return text


def tercom_steps(text: str, options: TercomOptions) -> tuple[tuple[str, str], ...]:
    """Each step of sacreBLEU's TER preprocessing of one line that changed it, with the text after it.

    The steps, in sacreBLEU's order: ``rstrip``, ``lowercase``, ``normalize`` (tercom's general and Western
    rules), ``asian`` (its CJK rules), ``no_punct``, ``no_asian_punct``, ``whitespace`` (runs of white space to
    one space, none at the ends). The last text is :func:`tercom_tokenize`'s result.

    Example:
        >>> steps = tercom_steps("Jim's car.  ", TercomOptions(normalized=True))
        >>> [name for name, _ in steps], steps[-1][1]
        (['rstrip', 'lowercase', 'normalize', 'whitespace'], "jim 's car .")
    """
    steps: list[tuple[str, str]] = []

    def step(name: str, after: str) -> None:
        if after != (steps[-1][1] if steps else text):
            steps.append((name, after))

    sent = text.rstrip()
    step("rstrip", sent)
    if not sent:
        return tuple(steps)
    if not options.case_sensitive:
        sent = sent.lower()
        step("lowercase", sent)
    if options.normalized:
        sent = _apply(_WESTERN, f" {_apply(_GENERAL, sent)} ")
        step("normalize", sent)
        if options.asian_support:
            sent = _apply(_ASIAN, sent)
            step("asian", sent)
    if options.no_punct:
        sent = _PUNCT.sub("", sent)
        step("no_punct", sent)
        if options.asian_support:
            for pattern in _ASIAN_PUNCT_RE:
                sent = pattern.sub("", sent)
            step("no_asian_punct", sent)
    step("whitespace", " ".join(sent.split()))
    return tuple(steps)


def tercom_tokenize(text: str, options: TercomOptions) -> str:
    """sacreBLEU's TER preprocessing of one line (``TER._preprocess_segment``): right strip, then tercom's tokenizer.

    Example:
        >>> tercom_tokenize("A ; B ) C : D.", TercomOptions(no_punct=True))
        'a b c d'
        >>> tercom_tokenize("美众院", TercomOptions(normalized=True, asian_support=True))
        '美 众 院'
    """
    sent = text.rstrip()
    if not sent:
        return ""
    if not options.case_sensitive:
        sent = sent.lower()
    if options.normalized:
        sent = _apply(_WESTERN, f" {_apply(_GENERAL, sent)} ")
        if options.asian_support:
            sent = _apply(_ASIAN, sent)
    if options.no_punct:
        sent = _PUNCT.sub("", sent)
        if options.asian_support:
            for pattern in _ASIAN_PUNCT_RE:
                sent = pattern.sub("", sent)
    return " ".join(sent.split())
