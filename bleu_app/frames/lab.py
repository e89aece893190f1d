"""The misimplementation lab's corpora and its prediction game, as plain data (no Streamlit).

Each variant of ``bleu_core.teaching.variants`` gets a demonstration corpus on which it moves the score: the paper's six
candidates as one corpus where that shows it, a small built-in sample written for teaching where it does not (the
per-sentence brevity penalty: on the paper's six it *raises* the score, the opposite of the paper's warning). The
game asks "will this mistake raise, lower or not change BLEU on this corpus?" before the number is shown; the
answer it calls right is the sign of the difference as the lab prints it (2 decimals).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Final

from bleu_app import samples
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


def _corpora() -> dict[str, LabCorpus]:
    out = {
        "paper": LabCorpus(
            "paper",
            "All six candidates of Examples 1-4 as one corpus",
            *samples.paper_corpus_streams(),
            built_in=False,
            about="The paper's Examples 1-4 (section 2), every candidate one segment.",
        )
    }
    for key, s in samples.SENTENCE_SAMPLES.items():
        out[key] = LabCorpus(key, s.label, *samples.paper_corpus_streams((s,)), built_in=False, about=s.label)
    out["short_bp"] = LabCorpus(
        "short_bp",
        "Built-in sample: ten short sentences and one long one",
        *_streams((*SHORT_PAIRS, LONG_PAIR)),
        built_in=True,
        about=(
            "A built-in sample written for this lab (not from the paper): ten 2-word candidates, each one word "
            "short of its 3-word reference, and one candidate 10 words longer than its reference."
        ),
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


# Why a variant moves the score the way it does (by direction); {n} is filled by `verdict`. Sentences about the paper
# quote it with its section.
_WHY: Final[dict[str, dict[str, str]]] = {
    "shortest_ref": {
        "up": "The shortest reference is never longer than the closest one, so r shrinks, the brevity penalty moves "
        "towards 1 and the score rises.",
        "same": "The brevity penalty does not move: each sentence's closest reference is also its shortest, or the "
        "candidates are long enough that BP is 1 either way.",
    },
    "average_ref": {
        "up": "Here the average reference lengths add up to less than the closest ones: r is smaller, the brevity "
        "penalty nearer 1, the score higher.",
        "down": "Here the average reference lengths add up to more than the closest ones: r is larger, the brevity "
        "penalty smaller, the score lower.",
        "same": "The brevity penalty does not move: the average lengths add up to the closest ones, or the "
        "candidates are long enough that BP is 1 either way.",
    },
    "no_clipping": {
        "up": "Without clipping a repeated word counts every time it appears in some reference (Example 2's seven "
        "'the' count 7, not 2), so the matches can only grow, and the score with them.",
        "same": "No candidate n-gram occurs more often than its largest count in a reference: clipping removes "
        "nothing here.",
    },
    "sum_clipping": {
        "up": "The sum over references allows a word as often as all references together have it, more than its "
        "largest count in any one: the matches can only grow, and the score with them.",
        "same": "No clipped count changes here: no candidate n-gram occurs more often than its largest count in one "
        "reference.",
    },
    "arithmetic_mean": {
        "up": "An arithmetic mean is never below the geometric mean of the same numbers (equal only when every p_n "
        "is the same), and a p_n of 0 no longer makes the product 0.",
        "same": "Every p_n is the same here, and then both means agree.",
    },
    "sentence_bp": {
        "up": "Averaging lets a very short sentence count no more than any other: its tiny sentence BP is one of "
        "{n} in the mean, where the corpus's c and r count all its missing words. The mean of the sentence BPs is "
        "above the corpus BP.",
        "down": "Each short sentence is punished on its own, and a long sentence's extra words cannot make up for "
        "it as they do in the corpus's c and r: the mean of the sentence BPs is below the corpus BP. This is the "
        "paper's warning (section 2.2.2): \"if we computed the brevity penalty sentence by sentence and averaged "
        'the penalties, then length deviations on short sentences would be punished harshly".',
        "same": "The mean of the sentence BPs gives the same score as the corpus BP here.",
    },
    "mean_sentence_bleu": {
        "up": "Here the mean of the sentence scores is above the corpus score: a sentence scored alone (effective "
        "order drops the n-gram orders a short sentence does not have) can score high where the pooled counts "
        "do not.",
        "down": "Here the mean of the sentence scores is below the corpus score: a sentence scored alone loses "
        "everything to one zero precision or its own brevity penalty, where pooled counts let the other "
        "sentences make up for it.",
        "same": "The mean of the sentence scores equals the corpus score here.",
    },
    "double_count": {
        "up": "A word seen c times weighs c×c instead of c: here the repeated words match the references more "
        "often than the others, so the precisions rise.",
        "down": "A word seen c times weighs c×c instead of c: here the repeated words match the references less "
        "often than the others (Example 2's seven 'the' match only twice), so the precisions fall.",
        "same": "Weighing a word c×c instead of c changes nothing here: no n-gram repeats within a candidate, or the "
        "repeats match as often as the rest.",
    },
    "nltk": {
        "up": "NLTK's smoothing replaces a zero precision with a small positive one (and method 2 adds 1 to the "
        "counts of every order above 1), so its score is above sacreBLEU's.",
        "down": "NLTK counts a sentence with no n-grams of an order (a 2-word candidate has no 3-grams) as 1 in "
        "that order's denominator: the pooled precisions are lower, and so is the score.",
        "same": "No sentence lacks an n-gram order and no precision is zero (or the smoothing leaves it so): NLTK "
        "and sacreBLEU agree here.",
    },
}

_ZERO: Final = (
    "The correct score is 0 here (a precision is 0/k or 0/0, step 11), and this mistake keeps it at 0: the "
    "geometric mean of anything with a 0 is 0."
)


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
        return _ZERO
    text = _WHY[result.variant.key].get(way)
    if text is None:  # a direction this mistake cannot take in general: say what happened, no reason invented
        return f"On this corpus it {CHOICES[way].replace('BLEU', 'the score')}."
    return text.format(n=len(corpus.hyps))


def verdict(guess: str, result: VariantResult, corpus: LabCorpus) -> Verdict:
    """The game's answer to ``guess`` (a key of ``CHOICES``) for this result on this corpus."""
    way = direction(result)
    said = {"up": "raises", "down": "lowers", "same": "does not change"}[way]
    numbers = f"{result.score:.2f} against the correct {result.correct:.2f}"
    right = guess == way
    headline = f"{'Right' if right else 'Not quite'}: on this corpus it {said} BLEU ({numbers})."
    return Verdict(right, headline, why(result, corpus))


def short_bp_text(bp: SentenceBP) -> str:
    """The built-in short-sentence corpus's brevity penalties, computed: each sentence's and the corpus's."""
    short = [(c, r, b) for (c, r), b in zip(bp.lengths, bp.bps, strict=True) if c < r]
    long_ = [(c, r) for c, r in bp.lengths if c > r]
    parts = []
    if short:
        c, r, b = short[0]
        parts.append(f"{len(short)} sentences of {c} words against {r}: each sentence BP e^(1−{r}/{c}) = {b:.2f}")
    if long_:
        c, r = long_[0]
        parts.append(f"one of {c} words against {r} ({c - r} too long): BP 1")
    return (
        "; ".join(parts)
        + f". Over the corpus c = {bp.c}, r = {bp.r}: BP = {bp.corpus_bp:.2f}. The mean of the {len(bp.bps)} "
        f"sentence BPs is {bp.mean_bp:.2f}."
    )
