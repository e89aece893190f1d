"""The misimplementation lab's corpora and its prediction game, as plain data (no Streamlit).

Each variant of ``bleu_core.teaching.variants`` gets a demonstration corpus on which it moves the score: the paper's six
candidates as one corpus where that shows it, a small built-in sample written for teaching where it does not (the
per-sentence brevity penalty: on the paper's six it *raises* the score, the opposite of the paper's warning). The
game asks "will this mistake raise, lower or not change BLEU on this corpus?" before the number is shown; the
answer it calls right is the sign of the difference as the lab prints it (2 decimals).
"""

from __future__ import annotations

import math
from collections.abc import Collection
from dataclasses import dataclass
from typing import Final

from bleu_app import prose, samples
from bleu_core.config import BleuConfig
from bleu_core.teaching.variants import VARIANTS, VariantResult, tokenize_corpus

__all__ = [
    "CHOICES",
    "CORPORA",
    "DEMO",
    "LabCorpus",
    "SentenceBP",
    "Verdict",
    "direction",
    "game_key",
    "mark",
    "sentence_bps",
    "short_bp_text",
    "verdict",
    "why",
]

Streams = tuple[tuple[str, ...], tuple[tuple[str | None, ...], ...]]


@dataclass(frozen=True, slots=True)
class LabCorpus:
    """A corpus the lab scores.

    Attributes:
        key: its id (``?corpus=KEY``).
        label: its name in the picker.
        hyps: the candidates, one per segment.
        refs: the reference streams (``refs[k][i]``: segment i's k-th reference, or None).
        built_in: a sample written for this lab, not from the paper.
        about: what it is, one sentence.
    """

    key: str
    label: str
    hyps: tuple[str, ...]
    refs: tuple[tuple[str | None, ...], ...]
    built_in: bool
    about: str


# The per-sentence brevity penalty's corpus (teaching-text defect 5): ten 2-word candidates, each one word short of
# its 3-word reference, and one candidate 10 words longer than its reference. Written for this lab.
SHORT_PAIRS: Final = (
    ("the cat sat", "the cat"),
    ("a dog barked", "a dog"),
    ("birds sing loudly", "birds sing"),
    ("she reads books", "she reads"),
    ("we ate lunch", "we ate"),
    ("rain fell hard", "rain fell"),
    ("he runs fast", "he runs"),
    ("the sun rose", "the sun"),
    ("trains run late", "trains run"),
    ("kids love games", "kids love"),
)
LONG_PAIR: Final = (
    "the committee approved the new budget after a long debate",
    "the committee approved the new budget after a long debate that lasted for many hours in the city hall today",
)


def _streams(pairs: tuple[tuple[str, str], ...]) -> Streams:
    return tuple(h for _, h in pairs), (tuple(r for r, _ in pairs),)


TEXT: Final = prose.entries("lab")


def _corpora() -> dict[str, LabCorpus]:
    paper, short = TEXT["corpus paper"], TEXT["corpus short_bp"]
    out = {
        "paper": LabCorpus(
            "paper", paper["label"], *samples.paper_corpus_streams(), built_in=False, about=paper["about"]
        )
    }
    for key, s in samples.SENTENCE_SAMPLES.items():
        out[key] = LabCorpus(key, s.label, *samples.paper_corpus_streams((s,)), built_in=False, about=s.label)
    out["short_bp"] = LabCorpus(
        "short_bp", short["label"], *_streams((*SHORT_PAIRS, LONG_PAIR)), built_in=True, about=short["about"]
    )
    return out


CORPORA: Final[dict[str, LabCorpus]] = _corpora()

# Each variant's demonstration corpus: where it moves the score, in the direction its text explains.
DEMO: Final[dict[str, str]] = dict.fromkeys(VARIANTS, "paper") | {"sentence_bp": "short_bp"}

# The game's answers: (key, what the radio says)
CHOICES: Final[dict[str, str]] = {"up": "raise BLEU", "down": "lower BLEU", "same": "not change BLEU"}


def direction(result: VariantResult) -> str:
    """``up``, ``down`` or ``same``: the variant's score against the correct one as the lab prints them (2 decimals).

    Example:
        >>> from bleu_core.teaching.variants import VARIANTS, VariantResult
        >>> direction(VariantResult(VARIANTS["nltk"], 21.704, 22.18, ""))
        'down'
        >>> direction(VariantResult(VARIANTS["nltk"], 0.001, 0.0, ""))
        'same'
    """
    if f"{result.score:.2f}" == f"{result.correct:.2f}":
        return "same"
    return "up" if result.score > result.correct else "down"


def mark(result: VariantResult) -> str:
    """The selector's note on a variant that cannot show itself on this corpus ("" when it can)."""
    return "no effect here" if direction(result) == "same" else ""


def game_key(variant: str, corpus: str, nltk_smoothing: int) -> str:
    """Where an answer is kept: per (variant, corpus); NLTK's per smoothing method too (each is its own round)."""
    return f"{variant}:{nltk_smoothing}|{corpus}" if variant == "nltk" else f"{variant}|{corpus}"


def answered(answers: Collection[str], corpus: str, nltk_smoothing: int) -> list[int]:
    """The rows (``VARIANTS`` order) of the "every variant" table whose round on ``corpus`` is answered: the table
    shows no number of a round still to play (issue 34: it gave the next rounds away).

    Example:
        >>> answered({game_key("no_clipping", "paper", 0), game_key("nltk", "paper", 2)}, "paper", 2)
        [2, 8]
        >>> answered({game_key("nltk", "paper", 1)}, "paper", 2)  # another smoothing method is another round
        []
    """
    return [i for i, k in enumerate(VARIANTS) if game_key(k, corpus, nltk_smoothing) in answers]


@dataclass(frozen=True, slots=True)
class SentenceBP:
    """The brevity penalty sentence by sentence and over the corpus.

    Attributes:
        lengths: each sentence's (c, r): candidate length and closest reference length.
        bps: each sentence's BP.
        c: corpus candidate length.
        r: corpus effective reference length.
        corpus_bp: BP from c and r.
        mean_bp: the mean of the sentence BPs.
    """

    lengths: tuple[tuple[int, int], ...]
    bps: tuple[float, ...]
    c: int
    r: int
    corpus_bp: float
    mean_bp: float


def _bp(c: int, r: int) -> float:
    return 1.0 if c > r else (math.exp(1 - r / c) if c else 0.0)


def sentence_bps(corpus: LabCorpus, config: BleuConfig) -> SentenceBP:
    """Every sentence's BP, the corpus BP and their mean, on ``corpus`` tokenized under ``config``."""
    data = tokenize_corpus(list(corpus.hyps), [list(s) for s in corpus.refs], config)
    lengths = []
    for hyp, refs in zip(data.hyps, data.refs, strict=True):
        c = len(hyp)
        # the closest reference length, ties to the shorter (as sacreBLEU and the paper's "best match length")
        r = min((len(x) for x in refs), key=lambda n: (abs(n - c), n)) if refs else 0
        lengths.append((c, r))
    bps = tuple(_bp(c, r) for c, r in lengths)
    c, r = sum(c for c, _ in lengths), sum(r for _, r in lengths)
    return SentenceBP(tuple(lengths), bps, c, r, _bp(c, r), sum(bps) / len(bps) if bps else 0.0)


@dataclass(frozen=True, slots=True)
class Verdict:
    """The game's answer to a prediction.

    Attributes:
        right: the prediction was right.
        headline: "Right: ..." or "Not quite: ...", with both numbers.
        why: why the mistake moves the score that way here.
    """

    right: bool
    headline: str
    why: str


def why(result: VariantResult, corpus: LabCorpus) -> str:
    """Why this variant moves (or does not move) the score on this corpus, in the direction it does."""
    way = direction(result)
    if way == "same" and f"{result.correct:.2f}" == "0.00":
        return TEXT["zero"]["why"]
    text = TEXT[result.variant.key].get(way)
    if text is None:  # a direction this mistake cannot take in general: say what happened, no reason invented
        return f"On this corpus it {CHOICES[way].replace('BLEU', 'the score')}."
    return prose.fill(text, n=len(corpus.hyps))


def verdict(guess: str, result: VariantResult, corpus: LabCorpus) -> Verdict:
    """The game's answer to ``guess`` (a key of ``CHOICES``) for this result on this corpus."""
    way = direction(result)
    said = {"up": "raises", "down": "lowers", "same": "does not change"}[way]
    right = guess == way
    headline = prose.fill(
        TEXT["verdict"]["right" if right else "wrong"],
        said=said,
        score=f"{result.score:.2f}",
        correct=f"{result.correct:.2f}",
    )
    return Verdict(right, headline, why(result, corpus))


def short_bp_text(bp: SentenceBP) -> str:
    """The built-in short-sentence corpus's brevity penalties, computed: each sentence's and the corpus's."""
    text = TEXT["short_bp"]
    short = [(c, r, b) for (c, r), b in zip(bp.lengths, bp.bps, strict=True) if c < r]
    long_ = [(c, r) for c, r in bp.lengths if c > r]
    parts = []
    if short:
        c, r, b = short[0]
        parts.append(prose.fill(text["short"], n=len(short), c=c, r=r, bp=f"{b:.2f}"))
    if long_:
        c, r = long_[0]
        parts.append(prose.fill(text["long"], c=c, r=r, extra=c - r))
    total = prose.fill(
        text["corpus"], c=bp.c, r=bp.r, bp=f"{bp.corpus_bp:.2f}", n=len(bp.bps), mean=f"{bp.mean_bp:.2f}"
    )
    return "; ".join(parts) + ". " + total
