"""Our re-implemented tokenizers (13a, intl, char, none) against sacrebleu's, line for line.

On every line of every real data file and on thousands of random strings; plus ``zh`` (sacrebleu's own,
loaded lazily) through our registry, and ``preprocess`` = sacrebleu's ``_preprocess_segment``.
"""

from __future__ import annotations

import random

import pytest
from sacrebleu.metrics import BLEU
from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a
from sacrebleu.tokenizers.tokenizer_char import TokenizerChar
from sacrebleu.tokenizers.tokenizer_intl import TokenizerV14International
from sacrebleu.tokenizers.tokenizer_none import NoneTokenizer
from sacrebleu.tokenizers.tokenizer_zh import TokenizerZh

from bleu_core.engine.tokenizers import get_tokenizer, preprocess, tokenize_line
from tests.core.cases import random_string, read_lines
from tests.core.conftest import RealSet

SACRE = {
    "13a": Tokenizer13a(),
    "intl": TokenizerV14International(),
    "char": TokenizerChar(),
    "none": NoneTokenizer(),
    "zh": TokenizerZh(),
}
OWN = ("13a", "intl", "char", "none")


def _all_files(real: dict[str, RealSet]) -> list:
    files = []
    for s in real.values():
        files.extend(s.ref_paths)
        files.extend(s.sys_paths)
    return sorted(set(files))


@pytest.mark.slow
@pytest.mark.parametrize("tok", OWN)
def test_tokenizers_on_all_real_files(real: dict[str, RealSet], tok: str) -> None:
    ours = get_tokenizer(tok)
    theirs = SACRE[tok]
    n = 0
    for path in _all_files(real):
        for i, line in enumerate(read_lines(path)):
            assert ours(line) == theirs(line), f"{path.name}:{i + 1}: {line!r}"
            n += 1
    assert n > 50_000
    print(f"\n[tokenizer parity] {tok}: {n} real lines")


@pytest.mark.parametrize("tok", OWN)
def test_tokenizers_on_random_strings(tok: str) -> None:
    rng = random.Random(4242 + OWN.index(tok))
    ours = get_tokenizer(tok)
    theirs = SACRE[tok]
    for i in range(3000):
        s = random_string(rng)
        assert ours(s) == theirs(s), f"string {i}: {s!r}"
        # lowercase + rstrip, as sacrebleu's BLEU._preprocess_segment
        low = tokenize_line(s, tok, lowercase=True)
        assert low == theirs(s.lower().rstrip()), f"string {i} (lowercased): {s!r}"
    print(f"\n[tokenizer parity] {tok}: 3000 random strings (x2 with lowercase)")


def test_zh_through_registry_matches_sacrebleu() -> None:
    rng = random.Random(7)
    zh = get_tokenizer("zh")
    for i in range(1000):
        s = random_string(rng)
        assert zh(s) == SACRE["zh"](s), f"string {i}: {s!r}"
    assert zh.signature == "zh"


@pytest.mark.parametrize("tok", [*OWN, "zh"])
@pytest.mark.parametrize("lowercase", [False, True])
def test_preprocess_is_sacrebleus_preprocess_segment(tok: str, lowercase: bool) -> None:
    bleu = BLEU(tokenize=tok, lowercase=lowercase)
    rng = random.Random(99)
    for _ in range(300):
        s = random_string(rng)
        assert " ".join(preprocess(s, tok, lowercase=lowercase)) == " ".join(bleu._preprocess_segment(s).split())
        assert tokenize_line(s, tok, lowercase=lowercase) == bleu._preprocess_segment(s)


@pytest.mark.parametrize(
    ("line", "tokens"),
    [
        ("Hello, world.", "Hello , world ."),
        ("It costs 3.14 or 1,000 dollars.", "It costs 3.14 or 1,000 dollars ."),
        ("AT&amp;T &lt;b&gt;", "AT & T < b >"),
        ("a<skipped>b", "ab"),
        ("10-15", "10 - 15"),
        ("e-mail", "e-mail"),
    ],
)
def test_13a_known_outputs(line: str, tokens: str) -> None:
    assert get_tokenizer("13a")(line) == tokens == SACRE["13a"](line)


def test_paper_tokenizer_drops_edge_punctuation_only() -> None:
    assert preprocess('It is a guide-book, isn\'t it? "Yes." , —', "paper") == (
        "It",
        "is",
        "a",
        "guide-book",
        "isn't",
        "it",
        "Yes",
    )
    assert preprocess("The Party.", "paper", lowercase=True) == ("the", "party")
