"""One corpus under every BLEU: sacreBLEU's settings, the named misimplementations, NLTK's ``corpus_bleu``.

"Why does my number differ from the paper's?" On the user's own data, each row changes one thing from
sacreBLEU's default (13a, mixed case, exp smoothing) and says what, by how much, with which signature and
who computes BLEU that way. The misimplementation and NLTK rows are :mod:`bleu_core.teaching.variants` (its
texts say who does each); the sacreBLEU rows are :func:`bleu_core.metrics.bleu.corpus_score` under the setting.
"""

from __future__ import annotations

import math
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Final, Literal

from bleu_core._version import __version__
from bleu_core.config import BleuConfig
from bleu_core.engine.stats import check_streams
from bleu_core.engine.tokenizers import get_tokenizer
from bleu_core.errors import InputError
from bleu_core.metrics.bleu import BleuScore, corpus_score, make_signature, score_matrix

from .variants import VARIANTS, Tokenized

__all__ = ["EveryBleu", "EveryBleuRow", "every_bleu"]

Group = Literal["default", "tokenizer", "case", "smoothing", "misimplementation", "nltk"]

# Which sacreBLEU tokenizers always apply; zh and ja-mecab are added for Chinese and Japanese references.
BASE_TOKENIZERS: Final = ("13a", "intl", "char", "none")

# The misimplementations of bleu_core.teaching.variants shown as rows (double_count is Feng Li's article's own bug,
# with no implementation outside it to check the number against; nltk has its own rows, one per method).
MISIMPLEMENTATIONS: Final = (
    "shortest_ref",
    "average_ref",
    "no_clipping",
    "sum_clipping",
    "arithmetic_mean",
    "sentence_bp",
    "mean_sentence_bleu",
)
NLTK_METHODS: Final = (0, 1, 2, 3, 4)

# Who computes BLEU with each sacreBLEU setting (options of sacreBLEU 2.x's command line, and the tools
# whose behaviour the setting reproduces).
_TOKENIZER_WHO: Final[dict[str, str]] = {
    "13a": "the tokenization of NIST mteval-v13a.pl",
    "intl": "mteval-v14.pl's international tokenization: Unicode punctuation and symbols split off",
    "char": "every character a token (spaces dropped)",
    "none": "the text split on whitespace as it is, e.g. text tokenized beforehand",
    "zh": "each CJK character a token; sacreBLEU's default for a Chinese target (`-l xx-zh`)",
    "ja-mecab": "MeCab's words; sacreBLEU's default for a Japanese target (`-l xx-ja`)",
}
# The default row: sacreBLEU's own.
_DEFAULT_CHANGES: Final = "none: 13a, mixed case, exp smoothing"
_DEFAULT_WHO: Final = (
    "sacreBLEU 2.x with no options (`sacrebleu REF < HYP`, `corpus_bleu()`): 13a, mixed case, exp; the WMT standard."
)
_SMOOTH_WHO: Final[dict[str, str]] = {
    "exp": "sacreBLEU's default (`-s exp`): the NIST smoothing of mteval-v13a.pl (Chen & Cherry 2014, method 3).",
    "none": "sacreBLEU `-s none`: the paper's formula; a zero precision makes BLEU 0.",
    "floor": "sacreBLEU `-s floor` (0.1): a zero count becomes 0.1 (Chen & Cherry 2014, method 1).",
    "add-k": "sacreBLEU `-s add-k` (1): 1 added to matches and totals for n > 1 (Lin & Och 2004; Chen & Cherry "
    "2014, method 2).",
}
_NLTK_SMOOTHING: Final[dict[int, tuple[str, str]]] = {
    0: ("none", "no smoothing: a zero precision becomes 2.2e-308, not 0"),
    1: ("epsilon 0.1", "a zero count becomes 0.1"),
    2: ("add-one", "1 added to matches and totals for n > 1"),
    3: ("NIST", "NIST geometric smoothing"),
    4: (
        "length-dependent",
        "Chen & Cherry's method 4: a zero count becomes ln(len)/(5 · 2^k), method 3's 1/2^k times ln(len)/5: "
        "candidates under 148 tokens get smaller pseudo-counts than method 3 gives",
    ),
}


@dataclass(frozen=True, slots=True)
class EveryBleuRow:
    """The corpus score under one BLEU.

    Attributes:
        key: its id (``default``, ``tok:intl``, ``tok:intl+lc``, ``smooth:none``, ``variant:shortest_ref``,
            ``nltk:method0``).
        group: ``default``, ``tokenizer``, ``case``, ``smoothing``, ``misimplementation`` or ``nltk``.
        label: a short name.
        score: BLEU, 0-100.
        difference: ``score`` minus sacreBLEU's default on the same corpus, in BLEU points.
        signature: what produced the number.
        changes: what differs from sacreBLEU's default, in one line.
        who: who computes BLEU this way, in one line.
        detail: the numbers behind the difference (variants), or ``""``.
    """

    key: str
    group: Group
    label: str
    score: float
    difference: float
    signature: str
    changes: str
    who: str
    detail: str = ""

    def to_dict(self) -> dict[str, object]:
        """The row as JSON (``bleu-explorer variants --json``)."""
        return {
            "key": self.key,
            "group": self.group,
            "label": self.label,
            "score": self.score,
            "difference": self.difference,
            "signature": self.signature,
            "changes": self.changes,
            "who": self.who,
            "detail": self.detail,
        }


@dataclass(frozen=True, slots=True)
class EveryBleu:
    """One corpus under every BLEU.

    Attributes:
        rows: every row, sacreBLEU's default first.
        skipped: (row key, why) for the tokenizers that apply but cannot run here (ja-mecab without its extra).
        n_segments: segments in the corpus.
        nrefs: references per segment (``-1`` when it varies).
    """

    rows: tuple[EveryBleuRow, ...]
    skipped: tuple[tuple[str, str], ...]
    n_segments: int
    nrefs: int

    @property
    def default(self) -> EveryBleuRow:
        """sacreBLEU's default row."""
        return self.rows[0]

    @property
    def lowest(self) -> EveryBleuRow:
        """The row with the lowest score."""
        return min(self.rows, key=lambda r: r.score)

    @property
    def highest(self) -> EveryBleuRow:
        """The row with the highest score."""
        return max(self.rows, key=lambda r: r.score)

    @property
    def spread(self) -> float:
        """Highest minus lowest score, in BLEU points."""
        return self.highest.score - self.lowest.score

    def row(self, key: str) -> EveryBleuRow:
        """The row with this key."""
        for r in self.rows:
            if r.key == key:
                return r
        raise InputError(f"no row {key!r} (rows: {', '.join(r.key for r in self.rows)})", "key")

    def to_dict(self) -> dict[str, object]:
        """The JSON object of ``bleu-explorer variants --json``."""
        return {
            "n_segments": self.n_segments,
            "nrefs": "var" if self.nrefs == -1 else self.nrefs,
            "default": self.default.to_dict(),
            "spread": {"lowest": self.lowest.score, "highest": self.highest.score, "range": self.spread},
            "rows": [r.to_dict() for r in self.rows],
            "skipped": [{"key": k, "reason": why} for k, why in self.skipped],
        }

    def _repr_html_(self) -> str:
        from bleu_core.rendering import to_html

        return to_html(self)


def _han_share(lines: Sequence[str]) -> tuple[float, float]:
    """The share of Han characters and of kana among the letters of ``lines`` (up to 2000 lines)."""
    han = kana = letters = 0
    for line in lines[:2000]:
        for ch in line:
            if not ch.isalpha():
                continue
            letters += 1
            name = unicodedata.name(ch, "")
            if name.startswith("CJK UNIFIED IDEOGRAPH"):
                han += 1
            elif name.startswith(("HIRAGANA", "KATAKANA")):
                kana += 1
    return (han / letters, kana / letters) if letters else (0.0, 0.0)


def applicable_tokenizers(references: Sequence[Sequence[str | None]]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """sacreBLEU's tokenizers that apply to these references, and those that apply but are not installed.

    ``zh`` applies when Han characters are at least a fifth of the references' letters and there is
    (almost) no kana; ``ja-mecab`` when kana is at least a twentieth (Japanese mixes kana into Han).

    Example:
        >>> applicable_tokenizers([["今天天气很好。", "我们去公园。"]])
        (('13a', 'intl', 'char', 'none', 'zh'), ())
        >>> applicable_tokenizers([["The cat sat."]])
        (('13a', 'intl', 'char', 'none'), ())
    """
    first = [r for r in references[0] if r is not None] if references else []
    han, kana = _han_share(first)
    names = list(BASE_TOKENIZERS)
    missing: list[str] = []
    if kana >= 0.05:
        try:
            _ = get_tokenizer("ja-mecab").signature
            names.append("ja-mecab")
        except InputError:
            missing.append("ja-mecab")
    elif han >= 0.2:
        names.append("zh")
    return tuple(names), tuple(missing)


def _nrefs(streams: Sequence[Sequence[str | None]]) -> int:
    counts = {sum(r is not None for r in seg) for seg in zip(*streams, strict=True)}
    if not counts:
        return len(streams)
    return counts.pop() if len(counts) == 1 else -1


def _tokenized(hyps: list[str], streams: list[list[str | None]], config: BleuConfig) -> Tokenized:
    from bleu_core.engine.counting import tokenize_corpus

    def tok(lines: Sequence[str]) -> list[list[str]]:
        return tokenize_corpus(lines, config.tokenize, lowercase=config.lowercase)

    ref_tokens = []
    for stream in streams:
        present = [r for r in stream if r is not None]
        it = iter(tok(present))
        ref_tokens.append([None if r is None else tuple(next(it)) for r in stream])
    return Tokenized(
        tuple(tuple(t) for t in tok(hyps)),
        tuple(tuple(r for r in seg if r is not None) for seg in zip(*ref_tokens, strict=True)),
    )


def _sacrebleu_row(
    key: str, group: Group, label: str, s: BleuScore, default: float, changes: str, who: str
) -> EveryBleuRow:
    return EveryBleuRow(key, group, label, s.score, s.score - default, s.signature, changes, who)


def nltk_signature(nrefs: int, method: int, config: BleuConfig) -> str:
    """The signature of an NLTK row: NLTK's ``corpus_bleu`` with a smoothing method, on our tokens.

    Example:
        >>> nltk_signature(1, 2, BleuConfig())  # doctest: +ELLIPSIS
        'nrefs:1|impl:nltk.corpus_bleu|case:mixed|tok:13a|smooth:method2|order:4|version:bleu-explorer-...'
    """
    return "|".join(
        (
            f"nrefs:{'var' if nrefs == -1 else nrefs}",
            "impl:nltk.corpus_bleu",
            f"case:{'lc' if config.lowercase else 'mixed'}",
            f"tok:{get_tokenizer(config.tokenize).signature}",
            f"smooth:method{method}",
            f"order:{config.max_ngram_order}",
            f"version:bleu-explorer-{__version__}",
        )
    )


def every_bleu(hypotheses: Sequence[str], references: Sequence[Sequence[str | None]]) -> EveryBleu:
    """Score one corpus under every BLEU: sacreBLEU's tokenizers, case and smoothing, the misimplementations
    of :mod:`bleu_core.teaching.variants`, and NLTK's ``corpus_bleu`` with smoothing methods 0-4 on 13a tokens.

    Every row but the default changes one thing from sacreBLEU's default (the tokenizer rows in lower case
    change two: tokenizer and case).

    Args:
        hypotheses: one candidate per segment.
        references: reference streams (as ``corpus_bleu``).

    Returns:
        The rows, sacreBLEU's default first, each with its signature and its difference from the default.

    Raises:
        InputError: bad streams (as ``corpus_bleu``).

    Example:
        >>> e = every_bleu(["the cat sat on the mat ."], [["the cat is on a mat ."]])  # no 4-gram matches
        >>> e.default.signature.startswith("nrefs:1|case:mixed|eff:no|tok:13a|smooth:exp|order:4")
        True
        >>> round(e.default.score, 2), e.row("smooth:none").score, e.row("nltk:method0").score > 0
        (19.64, 0.0, True)
    """
    hyps, streams = check_streams(hypotheses, references)
    nrefs = _nrefs(streams)
    base = BleuConfig()
    default = corpus_score(hyps, streams, base)
    names, missing = applicable_tokenizers(streams)
    data = _tokenized(hyps, streams, base)
    rows = [
        _sacrebleu_row(
            "default", "default", "sacreBLEU default", default, default.score, _DEFAULT_CHANGES, _DEFAULT_WHO
        ),
        *_tokenizer_rows(hyps, streams, default, names),
        *_smoothing_rows(default, nrefs),
        *_variant_rows(data, default.score, nrefs),
        *_nltk_rows(data, default.score, nrefs),
    ]
    for r in rows:
        if not math.isfinite(r.score):  # pragma: no cover - every formula here is bounded
            raise InputError(f"row {r.key} is not a finite number", "every_bleu")
    skipped = tuple(
        (f"tok:{t}", f"the {t} tokenizer needs the optional extra (pip install 'bleu-explorer[ja]')") for t in missing
    )
    return EveryBleu(tuple(rows), skipped, len(hyps), nrefs)


def _tokenizer_rows(
    hyps: list[str], streams: list[list[str | None]], default: BleuScore, names: Sequence[str]
) -> list[EveryBleuRow]:
    """sacreBLEU's tokenizers that apply, in mixed and lower case (13a in mixed case is the default row)."""
    rows = []
    for lc in (False, True):
        for tok in names:
            if tok == "13a" and not lc:
                continue
            config = BleuConfig(tokenize=tok, lowercase=lc)
            s = default if config == BleuConfig() else corpus_score(hyps, streams, config)
            tok_label = f"tok {tok}" if tok != "13a" else ""
            label = " + ".join(x for x in (tok_label, "lowercase" if lc else "") if x)
            changes = "; ".join(
                x
                for x in (
                    f"tokenizer {tok} instead of 13a" if tok != "13a" else "",
                    "case-folded instead of mixed case" if lc else "",
                )
                if x
            )
            flags = " ".join(x for x in ("" if tok == "13a" else f"-tok {tok}", "-lc" if lc else "") if x)
            who = f"sacreBLEU `{flags}`: " + (_TOKENIZER_WHO[tok] if tok != "13a" else "case-folded, then 13a") + "."
            key = f"tok:{tok}+lc" if lc and tok != "13a" else ("case:lc" if lc else f"tok:{tok}")
            group: Group = "case" if tok == "13a" else "tokenizer"
            rows.append(_sacrebleu_row(key, group, label, s, default.score, changes, who))
    return rows


def _smoothing_rows(default: BleuScore, nrefs: int) -> list[EveryBleuRow]:
    """sacreBLEU's other smoothing methods, rescored from the default's statistics (no new counting)."""
    matrix = default.segment_matrix
    rows = []
    for method in ("none", "floor", "add-k"):
        config = BleuConfig(smooth_method=method)
        s = score_matrix(matrix if matrix is not None else [], config, nrefs)
        value = config.effective_smooth_value
        shown = f"{method} ({value:g})" if value is not None else method
        changes = f"smoothing {shown} instead of exp"
        rows.append(
            _sacrebleu_row(
                f"smooth:{method}", "smoothing", f"smoothing {shown}", s, default.score, changes, _SMOOTH_WHO[method]
            )
        )
    return rows


def _variant_rows(data: Tokenized, d: float, nrefs: int) -> list[EveryBleuRow]:
    """The labelled misimplementations, each on 13a tokens under sacreBLEU's default."""
    base = BleuConfig()
    rows = []
    for key in MISIMPLEMENTATIONS:
        v = VARIANTS[key]
        # the mean of sentence BLEU as the scripts that loop sacreBLEU's sentence_bleu report it: effective order on
        config = replace(base, use_effective_order=True) if key == "mean_sentence_bleu" else base
        score, detail = v.compute(data, config, 0)
        signature = make_signature(config, nrefs, variant=key)
        rows.append(
            EveryBleuRow(
                f"variant:{key}",
                "misimplementation",
                v.label,
                float(score),
                float(score) - d,
                signature,
                v.mistake,
                v.who,
                detail,
            )
        )
    return rows


def _nltk_rows(data: Tokenized, d: float, nrefs: int) -> list[EveryBleuRow]:
    """NLTK's ``corpus_bleu`` with smoothing methods 0-4, on 13a tokens."""
    base = BleuConfig()
    nltk = VARIANTS["nltk"]
    rows = []
    for method in NLTK_METHODS:
        score, detail = nltk.compute(data, base, method)
        name, what = _NLTK_SMOOTHING[method]
        rows.append(
            EveryBleuRow(
                f"nltk:method{method}",
                "nltk",
                f"NLTK corpus_bleu, method{method} ({name})",
                float(score),
                float(score) - d,
                nltk_signature(nrefs, method, base),
                f"{what}. {nltk.mistake}",
                f"{nltk.who.rstrip('.')}, `SmoothingFunction().method{method}`.",
                detail,
            )
        )
    return rows
