"""Languages and scripts: which script a text is written in, sacreBLEU's tokenizer for a target language, and
the warning when references in Chinese, Japanese, Korean or Thai script are about to be split on spaces only.

A letter's script is read from its code point (the Unicode blocks below, no extra package). ``script_shares``
gives each script's share of the letters of some lines; ``dominant_script`` the most frequent one;
``cjk_language`` guesses which of Chinese, Japanese, Korean or Thai the lines are in (kana make Han text
Japanese). ``tokenizer_for`` is sacreBLEU's choice for ``-l SRC-TGT`` (``zh``, ``ja-mecab``, ``ko-mecab``,
otherwise ``13a``) and ``tokenizer_warning`` the one-line warning the CLI prints and the app shows.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from typing import Final

from bleu_core.errors import InputError

__all__ = [
    "CJK_SHARE",
    "SCRIPT_NAMES",
    "SPACE_TOKENIZERS",
    "ScriptShares",
    "cjk_language",
    "dominant_script",
    "line_script",
    "parse_language_pair",
    "script_of",
    "script_pattern",
    "script_shares",
    "suggestion",
    "tokenizer_for",
    "tokenizer_warning",
]

# (first code point, last code point, script); anything else that is a letter is "other", digits and
# punctuation are no script at all.
_BLOCKS: Final = (
    (0x0041, 0x005A, "latin"),
    (0x0061, 0x007A, "latin"),
    (0x00C0, 0x024F, "latin"),
    (0x1E00, 0x1EFF, "latin"),
    (0x0370, 0x03FF, "greek"),
    (0x1F00, 0x1FFF, "greek"),
    (0x0400, 0x052F, "cyrillic"),
    (0x0590, 0x05FF, "hebrew"),
    (0x0600, 0x06FF, "arabic"),
    (0x0750, 0x077F, "arabic"),
    (0x0900, 0x097F, "devanagari"),
    (0x0E00, 0x0E7F, "thai"),
    (0x1100, 0x11FF, "hangul"),
    (0x3040, 0x309F, "kana"),
    (0x30A0, 0x30FF, "kana"),
    (0x31F0, 0x31FF, "kana"),
    (0x3130, 0x318F, "hangul"),
    (0x3400, 0x4DBF, "han"),
    (0x4E00, 0x9FFF, "han"),
    (0xAC00, 0xD7AF, "hangul"),
    (0xF900, 0xFAFF, "han"),
    (0xFF66, 0xFF9F, "kana"),
    (0x20000, 0x2FA1F, "han"),
)
SCRIPT_NAMES: Final = {
    "latin": "Latin",
    "greek": "Greek",
    "cyrillic": "Cyrillic",
    "hebrew": "Hebrew",
    "arabic": "Arabic",
    "devanagari": "Devanagari",
    "thai": "Thai",
    "hangul": "Korean (Hangul)",
    "kana": "Japanese (kana)",
    "han": "Chinese (Han)",
    "other": "other",
}
CJK_SHARE: Final = 0.5
"""References are "mostly" Chinese, Japanese, Korean or Thai when at least this share of their letters is in
those scripts (Han, kana, Hangul, Thai)."""
_JA_KANA: Final = 0.1  # Han text with at least 10% kana among its CJK letters is Japanese
_CJK_SCRIPTS: Final = frozenset({"han", "kana", "hangul", "thai"})
SPACE_TOKENIZERS: Final = frozenset({"13a", "intl", "none", "paper"})
"""Tokenizers that split only on whitespace and punctuation: a Chinese sentence stays one token."""
_RIGHT: Final = {"zh": "zh", "ja": "ja-mecab", "ko": "ko-mecab", "th": "char"}
_LANGUAGE: Final = {"zh": "Chinese", "ja": "Japanese", "ko": "Korean", "th": "Thai"}


@lru_cache(maxsize=2**14)
def script_of(ch: str) -> str | None:
    """The script of one character, or None for what is no letter (digits, punctuation, spaces).

    Example:
        >>> [script_of(c) for c in "a中の한ไ1"]
        ['latin', 'han', 'kana', 'hangul', 'thai', None]
    """
    cp = ord(ch)
    if cp < 0x80 and not ch.isalpha():
        return None
    for lo, hi, script in _BLOCKS:
        if lo <= cp <= hi:
            return script if ch.isalpha() or script in _CJK_SCRIPTS else None
    return "other" if ch.isalpha() else None


@lru_cache(maxsize=64)
def script_pattern(*scripts: str) -> re.Pattern[str]:
    """A pattern that finds any character of the Unicode blocks of ``scripts`` (a superset of the letters
    ``script_of`` gives those scripts: it is for skipping lines that cannot have one).

    Example:
        >>> bool(script_pattern("han").search("Hello 世界")), bool(script_pattern("han", "kana").search("Hello"))
        (True, False)
    """
    ranges = "".join(f"\\U{lo:08x}-\\U{hi:08x}" for lo, hi, script in _BLOCKS if script in scripts)
    return re.compile(f"[{ranges}]") if ranges else re.compile(r"(?!x)x")


@dataclass(frozen=True)
class ScriptShares:
    """Letters counted by script.

    Attributes:
        counts: letters per script.
        letters: all letters counted.
    """

    counts: dict[str, int]
    letters: int

    def share(self, *scripts: str) -> float:
        """The share of the letters in any of ``scripts`` (0 when there are no letters)."""
        return sum(self.counts.get(s, 0) for s in scripts) / self.letters if self.letters else 0.0

    @property
    def dominant(self) -> str | None:
        """The most frequent script (Han and kana together count as Japanese when kana are frequent)."""
        if not self.letters:
            return None
        return max(sorted(self.counts), key=lambda s: self.counts[s])


def script_shares(lines: Iterable[str]) -> ScriptShares:
    """Count the letters of ``lines`` by script.

    Example:
        >>> s = script_shares(["Hello 世界"])
        >>> s.counts, round(s.share("han"), 2)
        ({'latin': 5, 'han': 2}, 0.29)
    """
    chars: Counter[str] = Counter()
    for line in lines:
        chars.update(line)  # counted in C; each distinct character's script is then read once
    counts: Counter[str] = Counter()
    for ch, k in chars.items():
        script = script_of(ch)
        if script is not None:
            counts[script] += k
    return ScriptShares(dict(counts), sum(counts.values()))


def line_script(line: str) -> str | None:
    """The most frequent script of one line's letters, or None when it has none."""
    return script_shares([line]).dominant


def dominant_script(lines: Iterable[str]) -> str | None:
    """The most frequent script of all the letters of ``lines``."""
    return script_shares(lines).dominant


def cjk_language(shares: ScriptShares) -> str | None:
    """``zh``, ``ja``, ``ko`` or ``th`` when at least ``CJK_SHARE`` of the letters are in those scripts, else None.

    Example:
        >>> cjk_language(script_shares(["これは日本語です"])), cjk_language(script_shares(["这是中文"]))
        ('ja', 'zh')
    """
    if shares.share(*_CJK_SCRIPTS) < CJK_SHARE:
        return None
    c = shares.counts
    han, kana, hangul, thai = (c.get(s, 0) for s in ("han", "kana", "hangul", "thai"))
    if thai >= max(han + kana, hangul):
        return "th"
    if hangul >= han + kana:
        return "ko"
    return "ja" if kana >= _JA_KANA * (han + kana) else "zh"


def parse_language_pair(pair: str, where: str = "--language-pair") -> tuple[str, str]:
    """``"en-zh"`` -> ``("en", "zh")``; anything else is an InputError naming ``where``."""
    parts = pair.strip().split("-")
    if len(parts) != 2 or not all(p.isalpha() and 2 <= len(p) <= 3 for p in parts):
        raise InputError(f"expected SRC-TGT with two- or three-letter language codes (as en-zh), got {pair!r}", where)
    return parts[0].lower(), parts[1].lower()


def tokenizer_for(target: str) -> str:
    """sacreBLEU's default tokenizer for a target language (``sacrebleu -l SRC-TGT``).

    Example:
        >>> [tokenizer_for(t) for t in ("zh", "ja", "ko", "de", "th")]
        ['zh', 'ja-mecab', 'ko-mecab', '13a', '13a']
    """
    return {"zh": "zh", "ja": "ja-mecab", "ko": "ko-mecab"}.get(target.lower(), "13a")


def suggestion(references: Iterable[str]) -> tuple[str, str, float] | None:
    """For references mostly in Chinese, Japanese, Korean or Thai script: (language name, the tokenizer to use,
    the share of letters in those scripts); else None.

    Example:
        >>> suggestion(["这是一个测试。"]), suggestion(["This is a test."])
        (('Chinese', 'zh', 1.0), None)
    """
    shares = script_shares(references)
    language = cjk_language(shares)
    if language is None:
        return None
    return _LANGUAGE[language], _RIGHT[language], shares.share(*_CJK_SCRIPTS)


def tokenizer_warning(references: Iterable[str], tokenize: str) -> str | None:
    """One line when the references are mostly Chinese, Japanese, Korean or Thai script and ``tokenize`` splits
    only on spaces and punctuation (its BLEU is then near word-level on whole clauses); otherwise None.

    Example:
        >>> tokenizer_warning(["这是一个测试。"], "13a")[:60]
        'the references are mostly Chinese script (100% of letters) b'
        >>> tokenizer_warning(["这是一个测试。"], "zh") is None
        True
    """
    if tokenize not in SPACE_TOKENIZERS:
        return None
    found = suggestion(references)
    if found is None:
        return None
    language, right, share = found
    code = {v: k for k, v in _LANGUAGE.items()}[language]
    pair = f" (-l xx-{code})" if code != "th" else " (sacreBLEU has no Thai word tokenizer)"
    return (
        f"the references are mostly {language} script ({share:.0%} of letters) but the {tokenize} "
        f"tokenizer splits only on spaces and punctuation: use --tokenize {right}{pair}"
    )
