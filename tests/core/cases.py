"""Seeded generators of awkward MT-like text for the parity tests (not a test module).

The vocabulary is small on purpose, so that candidates and references share many n-grams (clipping,
repeated n-grams and high orders all get exercised), and nasty on purpose: Unicode letters, CJK, mixed
scripts, punctuation, numbers with ``.``/``,``/``-``, HTML entities, ``<skipped>``, tabs, trailing
spaces, empty lines.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ASCII = ["the", "The", "cat", "sat", "on", "mat", "a", "A", "is", "of", "party", "Party", "it", "It"]
UNICODE = ["café", "Straße", "ΩMEGA", "ωmega", "naïve", "Привет", "мир", "İstanbul", "ǅemal", "ﬁne", "Ünïcödé"]
CJK = ["中国", "的", "人", "我们", "北京大学", "こんにちは", "カタカナ", "한국어", "中", "国", "。", "，", "「引用」"]
PUNCT = [
    ".",
    ",",
    "!",
    "?",
    ";",
    ":",
    '"',
    "'",
    "(",
    ")",
    "-",
    "--",
    "—",
    "…",
    "«",
    "»",
    "¿",
    "/",
    "\\",
    "%",
    "$",
    "€",
    "@",
    "#",
    "&",
    "*",
    "+",
    "=",
    "[",
    "]",
    "{",
    "}",
    "~",
    "`",
    "^",
    "|",
    "<",
    ">",
    "_",
]
NUMBERS = ["3.14", "1,000", "2-3", "10-", "-5", "1.000,50", "0.5.", "1,", ".5", "42", "2021-10-03", "9.", ",7"]
ENTITIES = ["&amp;", "&lt;", "&gt;", "&quot;", "&amp;amp;", "AT&amp;T", "&#39;", "&nbsp;"]
SPECIAL = ["<skipped>", "word<skipped>", "don't", "U.S.", "e-mail", "http://x.org/a?b=c", "ab-\ncd"]
GLUED = ["end.", "end,", "(aside)", '"quoted"', "x/y", "1.5%", "cat's", "Mr.", "9,5.", "a-b-c"]

# str.split() (sacrebleu's token split) also splits on these; a byte-level or regex split might not
EXOTIC = [
    "a\xa0b",
    "x\u3000y",
    "p\u2028q",
    "m\x1cn",
    "u\x85v",
    "zero\u200bwidth",
    "\ufeffbom",
    "v\x0bt",
    "f\x0cf",
    "cr\rlf",
    "nul\x00x",
    "\u2003em",
    " ogham",
]

FAMILIES = {
    "ascii": ASCII,
    "unicode": UNICODE,
    "cjk": CJK,
    "punct": PUNCT,
    "numbers": NUMBERS,
    "entities": ENTITIES,
    "special": SPECIAL,
    "glued": GLUED,
}
ALL_WORDS = [w for ws in FAMILIES.values() for w in ws]
# opt-in (``exotic=True``): NUL and line breaks inside a line, which every engine must take as they are
ALL_FAMILIES = {**FAMILIES, "exotic": EXOTIC}

TOKENIZERS = ("13a", "intl", "zh", "char", "none")
SMOOTH = ("none", "floor", "add-k", "exp")


def random_line(rng: random.Random, vocab: list[str], max_len: int = 14) -> str:
    """A line of words joined by assorted whitespace (or none), sometimes empty or with trailing spaces."""
    if rng.random() < 0.07:
        return rng.choice(["", " ", "\t", "  \t "])
    n = rng.randint(1, max_len)
    out = []
    for i in range(n):
        if i:
            out.append(rng.choices([" ", "", "\t", "  "], weights=[80, 8, 6, 6])[0])
        out.append(rng.choice(vocab))
    line = "".join(out)
    if rng.random() < 0.15:
        line += rng.choice([" ", "  ", "\t", " \t"])
    if rng.random() < 0.05:
        line = rng.choice([" ", "\t"]) + line
    return line


def mutate(rng: random.Random, line: str, vocab: list[str]) -> str:
    """A reference-like variant of a line: some words dropped, replaced, duplicated or swapped."""
    words = line.split(" ")
    out: list[str] = []
    for w in words:
        r = rng.random()
        if r < 0.12:
            continue
        if r < 0.25:
            out.append(rng.choice(vocab))
        elif r < 0.30:
            out.extend([w, w])
        else:
            out.append(w)
    if len(out) > 1 and rng.random() < 0.3:
        i = rng.randrange(len(out) - 1)
        out[i], out[i + 1] = out[i + 1], out[i]
    if rng.random() < 0.2:
        out.insert(rng.randint(0, len(out)), rng.choice(vocab))
    return " ".join(out)


def random_vocab(rng: random.Random, *, exotic: bool = False) -> list[str]:
    families = ALL_FAMILIES if exotic else FAMILIES
    fams = rng.sample(list(families), k=rng.randint(1, 4))
    words = [w for f in fams for w in families[f]]
    if rng.random() < 0.5:  # small vocabularies give long shared n-grams
        words = rng.sample(words, k=min(len(words), rng.randint(2, 8)))
    return words


@dataclass
class Case:
    """One generated corpus with its options (sacrebleu's argument names)."""

    hyps: list[str]
    refs: list[list[str | None]]
    tokenize: str
    smooth_method: str
    smooth_value: float | None
    use_effective_order: bool
    lowercase: bool
    max_ngram_order: int = 4
    info: dict[str, object] = field(default_factory=dict)

    def our_kwargs(self) -> dict[str, object]:
        return {
            "tokenize": self.tokenize,
            "smooth_method": self.smooth_method,
            "smooth_value": self.smooth_value,
            "use_effective_order": self.use_effective_order,
            "lowercase": self.lowercase,
            "max_ngram_order": self.max_ngram_order,
        }

    def sacre_kwargs(self) -> dict[str, object]:
        return {
            "tokenize": self.tokenize,
            "smooth_method": self.smooth_method,
            "smooth_value": self.smooth_value,
            "effective_order": self.use_effective_order,
            "lowercase": self.lowercase,
            "max_ngram_order": self.max_ngram_order,
        }


def random_corpus(
    rng: random.Random, *, max_segments: int = 6, max_refs: int = 4, allow_none: bool = True, exotic: bool = False
) -> tuple[list[str], list[list[str | None]]]:
    """Candidates and reference streams; some references ``None`` (never all of one segment's)."""
    vocab = random_vocab(rng, exotic=exotic)
    nseg = rng.randint(1, max_segments)
    nrefs = rng.randint(1, max_refs)
    hyps: list[str] = []
    refs: list[list[str | None]] = [[] for _ in range(nrefs)]
    for _ in range(nseg):
        hyp = random_line(rng, vocab)
        hyps.append(hyp)
        for k in range(nrefs):
            ref = mutate(rng, hyp, vocab) if rng.random() < 0.8 else random_line(rng, vocab)
            refs[k].append(ref)
        if allow_none and nrefs > 1 and rng.random() < 0.25:
            keep = rng.randrange(nrefs)
            for k in range(nrefs):
                if k != keep and rng.random() < 0.5:
                    refs[k][-1] = None
    if rng.random() < 0.1:  # a candidate identical to a reference
        i = rng.randrange(nseg)
        hyps[i] = refs[0][i] if refs[0][i] is not None else hyps[i]
    return hyps, refs


def random_case(rng: random.Random, *, max_order: int | None = None) -> Case:
    hyps, refs = random_corpus(rng, exotic=True)
    method = rng.choice(SMOOTH)
    value: float | None = None
    if rng.random() < 0.5:
        value = rng.choice([0.0, 0.01, 0.1, 0.5, 1.0, 2.0, 3.7, round(rng.uniform(0, 5), 3)])
    return Case(
        hyps,
        refs,
        tokenize=rng.choice(TOKENIZERS),
        smooth_method=method,
        smooth_value=value,
        use_effective_order=rng.random() < 0.5,
        lowercase=rng.random() < 0.4,
        max_ngram_order=max_order if max_order is not None else 4,
    )


def random_string(rng: random.Random, max_len: int = 60) -> str:
    """Arbitrary text for tokenizer parity: words, single code points from many blocks, control chars."""
    parts = []
    for _ in range(rng.randint(0, max_len // 4)):
        r = rng.random()
        if r < 0.5:
            parts.append(rng.choice(ALL_WORDS))
        elif r < 0.8:
            parts.append(
                chr(
                    rng.choice(
                        [
                            rng.randint(0x20, 0x7E),
                            rng.randint(0xA0, 0x2FF),
                            rng.randint(0x370, 0x52F),
                            rng.randint(0x2000, 0x206F),
                            rng.randint(0x3000, 0x30FF),
                            rng.randint(0x4E00, 0x9FFF),
                            rng.randint(0xFF00, 0xFFEF),
                            rng.randint(0x1F300, 0x1F64F),
                            rng.randint(0x20A0, 0x20CF),
                        ]
                    )
                )
            )
        else:
            parts.append(rng.choice([" ", "  ", "\t", "\n", "\r", "\u00a0", "\u3000", "\u200b", "\x0b", "\x0c"]))
        if rng.random() < 0.6:
            parts.append(" ")
    return "".join(parts)


def read_lines(path: Path) -> list[str]:
    """Lines as the CLI reads them: UTF-8, split on ``\\n`` only, no final empty line."""
    lines = path.read_bytes().decode("utf-8").split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return lines


def strip_signature(sig: str) -> str:
    """Our signature without the parts sacrebleu does not have (``order:``, ``w:``, ``version:``)."""
    return "|".join(p for p in sig.split("|") if not p.startswith(("order:", "version:", "w:")))


def sacre_signature(sig: str) -> str:
    return "|".join(p for p in sig.split("|") if not p.startswith("version:"))


def assert_same_as_sacrebleu(got: Any, want: Any, where: object = "", *, metric: Any = None, tol: float = 1e-9) -> None:
    """Our score equals sacrebleu's: counts, totals and lengths exactly, the score within ``tol``, and,
    given the sacrebleu metric, the signature (less the parts sacrebleu does not have)."""
    assert (got.counts, got.totals, got.sys_len, got.ref_len) == (
        want.counts,
        want.totals,
        want.sys_len,
        want.ref_len,
    ), where
    assert abs(got.score - want.score) <= tol, where
    if metric is not None:
        assert strip_signature(got.signature) == sacre_signature(metric.get_signature().format()), where
