"""Named tokenizers: sacrebleu's (13a, intl, zh, char, ja-mecab, ko-mecab) and our own ``none`` and ``paper``.

A tokenizer maps one line to one line whose whitespace-separated pieces are the tokens, exactly as
sacrebleu does, so n-grams and lengths agree with it token for token. ``13a``, ``intl``, ``char`` and
``none`` are re-implemented here (so scoring does not import sacrebleu's whole package at start-up) and
tested against sacrebleu's own; ``zh``, ``ja-mecab`` and ``ko-mecab`` are sacrebleu's, loaded on first use.
"""

from __future__ import annotations

import os
import re
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from importlib import import_module
from typing import Final

from bleu_core.errors import InputError

__all__ = [
    "TOKENIZERS",
    "Preprocessor",
    "Tokenizer",
    "get_tokenizer",
    "preprocess",
    "preprocessor",
    "register_spm",
    "tokenize_line",
]

# --- 13a: mteval-v13a.pl as sacrebleu implements it (tokenizer_13a.py + tokenizer_re.py) -------------
_13A_RULES: Final = (
    # language-dependent part (assuming Western languages)
    (re.compile(r"([\{-\~\[-\` -\&\(-\+\:-\@\/])"), r" \1 "),
    # period and comma unless preceded by a digit
    (re.compile(r"([^0-9])([\.,])"), r"\1 \2 "),
    # period and comma unless followed by a digit
    (re.compile(r"([\.,])([^0-9])"), r" \1 \2"),
    # dash when preceded by a digit
    (re.compile(r"([0-9])(-)"), r"\1 \2 "),
)


@lru_cache(maxsize=2**16)
def _tok_13a(line: str) -> str:
    line = line.replace("<skipped>", "").replace("-\n", "").replace("\n", " ")
    if "&" in line:
        line = line.replace("&quot;", '"').replace("&amp;", "&").replace("&lt;", "<").replace("&gt;", ">")
    line = f" {line} "
    for pattern, repl in _13A_RULES:
        line = pattern.sub(repl, line)
    return " ".join(line.split())


# --- intl: mteval-v14 international tokenization (tokenizer_intl.py), needs the `regex` module --------
@lru_cache(maxsize=1)
def _intl_rules() -> tuple[tuple[object, str], ...]:
    import regex  # sacrebleu's own dependency; only needed for this tokenizer

    return (
        (regex.compile(r"(\P{N})(\p{P})"), r"\1 \2 "),
        (regex.compile(r"(\p{P})(\P{N})"), r" \1 \2"),
        (regex.compile(r"(\p{S})"), r" \1 "),
    )


@lru_cache(maxsize=2**16)
def _tok_intl(line: str) -> str:
    for pattern, repl in _intl_rules():
        line = pattern.sub(repl, line)  # type: ignore[attr-defined]
    return " ".join(line.split())


@lru_cache(maxsize=2**16)
def _tok_char(line: str) -> str:
    return " ".join(line)


def _tok_none(line: str) -> str:
    return line


def _is_punct(ch: str) -> bool:
    return unicodedata.category(ch).startswith("P")


@lru_cache(maxsize=2**16)
def _tok_paper(line: str) -> str:
    # The paper counts words: "party." is "party", and a lone "," is no word at all. Punctuation is
    # stripped from both ends of each whitespace-separated word; inner punctuation ("guide-book",
    # "don't") stays, so a word is never split in two.
    words = []
    for word in line.split():
        start, end = 0, len(word)
        while start < end and _is_punct(word[start]):
            start += 1
        while end > start and _is_punct(word[end - 1]):
            end -= 1
        if start < end:
            words.append(word[start:end])
    return " ".join(words)


def _sacrebleu_tokenizer(module: str, cls: str, name: str) -> Callable[[], Callable[[str], str]]:
    def load() -> Callable[[str], str]:
        try:
            tok = getattr(import_module(f"sacrebleu.tokenizers.{module}"), cls)()
        except (ImportError, RuntimeError) as exc:
            # ja-mecab needs the optional mecab-python3 + ipadic packages; without them sacrebleu raises a
            # RuntimeError with a multi-line message from the constructor, so we say it in one line.
            raise InputError(
                f"the {name} tokenizer needs optional packages that are not installed "
                f"(pip install 'bleu-explorer[{name[:2]}]')",
                "tokenize",
            ) from exc
        return tok  # type: ignore[no-any-return]

    return load


@dataclass(frozen=True, slots=True)
class Tokenizer:
    """A named tokenizer.

    Attributes:
        name: the registry name (``13a``, ``paper``, ...).
        description: one sentence for users.
        loader: returns the line -> line function (loaded lazily, once).
    """

    name: str
    description: str
    loader: Callable[[], Callable[[str], str]]

    def __call__(self, line: str) -> str:
        return _loaded(self.name)(line)

    @property
    def signature(self) -> str:
        """The ``tok:`` value of the signature (sacrebleu's, e.g. ``ja-mecab-0.996-IPA``)."""
        fn = _loaded(self.name)
        sig = getattr(fn, "signature", None)
        return str(sig()) if callable(sig) else self.name


TOKENIZERS: Final[dict[str, Tokenizer]] = {
    t.name: t
    for t in (
        Tokenizer(
            "13a",
            "mteval-v13a: splits ASCII punctuation except ' and - (and . , between digits) (the WMT standard).",
            lambda: _tok_13a,
        ),
        Tokenizer("intl", "mteval-v14 international: splits Unicode punctuation and symbols.", lambda: _tok_intl),
        Tokenizer(
            "zh",
            "Chinese: each CJK character is a token, other text as 13a.",
            _sacrebleu_tokenizer("tokenizer_zh", "TokenizerZh", "zh"),
        ),
        Tokenizer("char", "Every character is a token (spaces dropped).", lambda: _tok_char),
        Tokenizer("none", "No tokenization: the text is split on whitespace as it is.", lambda: _tok_none),
        Tokenizer(
            "paper", "The paper's words: split on whitespace, punctuation at word edges dropped.", lambda: _tok_paper
        ),
        Tokenizer(
            "ja-mecab",
            "Japanese with MeCab (needs the optional ja extra).",
            _sacrebleu_tokenizer("tokenizer_ja_mecab", "TokenizerJaMecab", "ja-mecab"),
        ),
        Tokenizer(
            "ko-mecab",
            "Korean with MeCab-ko (needs the optional ko extra).",
            _sacrebleu_tokenizer("tokenizer_ko_mecab", "TokenizerKoMecab", "ko-mecab"),
        ),
    )
}

_LOADED: dict[str, Callable[[str], str]] = {}
_SPM: dict[str, Tokenizer] = {}  # SentencePiece models registered by register_spm (not offered in menus)


def _spm_loader(model: bytes, name: str) -> Callable[[], Callable[[str], str]]:
    def load() -> Callable[[str], str]:
        try:
            import sentencepiece as spm  # type: ignore[import-not-found, import-untyped, unused-ignore]
        except ImportError as exc:
            raise InputError(
                "the spm tokenizer needs the optional sentencepiece package (pip install 'bleu-explorer[spm]')",
                "tokenize",
            ) from exc
        try:
            sp = spm.SentencePieceProcessor(model_proto=model)
        except (RuntimeError, OSError, TypeError) as exc:
            raise InputError(f"not a SentencePiece model ({exc})", name) from None

        def encode(line: str) -> str:  # sacreBLEU's TokenizerSPM: the pieces joined by single spaces
            return " ".join(sp.EncodeAsPieces(line))

        return encode

    return load


def register_spm(path: str) -> str:
    """Register SentencePiece tokenization with the model file at ``path`` and return its tokenizer name,
    ``spm-`` and the first 12 hex digits of the file's SHA-256 (the signature's ``tok:``: a model is named by
    its content, so two files with the same model share a name and the caches). The model is read now and kept
    in memory; sentencepiece (the optional ``spm`` extra) is loaded on first use.

    sacreBLEU's ``flores101``/``flores200`` names are not given: they name sacreBLEU's downloaded models, whose
    digests are not known here (no download at run time), so a file is named by its own digest.

    Raises:
        InputError: a file that cannot be read (named).
    """
    import hashlib

    try:
        with open(path, "rb") as fh:
            model = fh.read()
    except OSError as exc:
        raise InputError(f"cannot read the SentencePiece model ({exc.strerror or exc})", path) from None
    name = f"spm-{hashlib.sha256(model).hexdigest()[:12]}"
    if name not in _SPM:
        description = f"SentencePiece with the model {os.path.basename(path)} (sha256 {name[4:]}...)."
        _SPM[name] = Tokenizer(name, description, _spm_loader(model, path))
    return name


def _loaded(name: str) -> Callable[[str], str]:
    fn = _LOADED.get(name)
    if fn is None:
        fn = _LOADED[name] = (TOKENIZERS.get(name) or _SPM[name]).loader()
    return fn


def get_tokenizer(name: str) -> Tokenizer:
    """Look a tokenizer up by name.

    Args:
        name: one of ``TOKENIZERS``.

    Returns:
        The tokenizer.

    Raises:
        InputError: for an unknown name (the message lists the known ones).

    Example:
        >>> get_tokenizer("13a")("Hello, world.")
        'Hello , world .'
        >>> get_tokenizer("paper")("the party.")
        'the party'
    """
    try:
        return TOKENIZERS[name] if name in TOKENIZERS or not isinstance(name, str) else _SPM[name]
    except (KeyError, TypeError):
        known = ", ".join(TOKENIZERS)
        raise InputError(f"unknown tokenizer {name!r} (known: {known})", "tokenize") from None


@dataclass(frozen=True, slots=True)
class Preprocessor:
    """sacrebleu's preprocessing of a segment, with the tokenizer resolved once: lowercase (optional), strip the
    right end, tokenize, split. Built by :func:`preprocessor`; the engines hold one and call it per line.

    Attributes:
        tokenizer: the tokenizer (its ``name`` is what the kernel and the signature read).
        lowercase: whether lines are lowercased first.
        fn: the tokenizer's line -> line function, loaded.
    """

    tokenizer: Tokenizer
    lowercase: bool
    fn: Callable[[str], str]

    @property
    def name(self) -> str:
        """The tokenizer's name (``13a``, ``paper``, ...)."""
        return self.tokenizer.name

    def line(self, line: str) -> str:
        """The tokenized line (tokens separated by single spaces)."""
        if self.lowercase:
            line = line.lower()
        return self.fn(line.rstrip())

    def __call__(self, line: str) -> tuple[str, ...]:
        """The tokens BLEU counts for one segment."""
        return tuple(self.line(line).split())


def preprocessor(tokenize: str = "13a", *, lowercase: bool = False) -> Preprocessor:
    """The tokenizer called ``tokenize``, looked up and loaded once, as a :class:`Preprocessor`.

    Raises:
        InputError: for an unknown name, or a tokenizer whose optional packages are missing.

    Example:
        >>> prep = preprocessor("paper", lowercase=True)
        >>> prep("It is a guide to action."), prep.name
        (('it', 'is', 'a', 'guide', 'to', 'action'), 'paper')
    """
    tokenizer = get_tokenizer(tokenize)
    return Preprocessor(tokenizer, lowercase, _loaded(tokenizer.name))


def tokenize_line(line: str, tokenize: str = "13a", *, lowercase: bool = False) -> str:
    """sacrebleu's preprocessing of one segment: lowercase (optional), strip the right end, tokenize. For many
    lines, resolve the tokenizer once with :func:`preprocessor`.

    Example:
        >>> tokenize_line("It is a guide.  ", "13a", lowercase=True)
        'it is a guide .'
    """
    return preprocessor(tokenize, lowercase=lowercase).line(line)


def preprocess(line: str, tokenize: str = "13a", *, lowercase: bool = False) -> tuple[str, ...]:
    """The tokens BLEU counts for one segment (for many, :func:`preprocessor` once and call it per line).

    Example:
        >>> preprocess("It is a guide to action.", "paper", lowercase=True)
        ('it', 'is', 'a', 'guide', 'to', 'action')
    """
    return preprocessor(tokenize, lowercase=lowercase)(line)
