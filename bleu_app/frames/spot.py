"""Spot the errors (issue 20.6, teaching review defect 9 and proposal E5): short excerpts of Feng Li's article
"Intuition Behind BLEU Score" (``../shared/seeds/002_*``), quoted word for word, each either correct or carrying
one of the article's genuine errors. The student names the kind; the paper's sentence (with its section) or the
code fact decides it, and a live number shows it where the app can compute one.

The article's mistakes are the article's: every excerpt is labelled as a quotation, and the article's code is run
as the article prints it (``run_article``), never as the app's own. Pure: numbers come from the core.
"""

from __future__ import annotations

import math
import sys
from collections import Counter
from dataclasses import dataclass
from typing import Final

from bleu_app import samples
from bleu_core.config import BleuConfig
from bleu_core.teaching.explain import explain_segment
from bleu_core.teaching.paper import EXAMPLE_1, EXAMPLE_2
from bleu_core.teaching.variants import run_variant

__all__ = [
    "ARTICLE",
    "KINDS",
    "SPOTS",
    "Spot",
    "article_code",
    "check",
    "live",
    "run_article",
]

ARTICLE: Final = "Feng Li, “Intuition Behind BLEU Score” (Apr 2023)"
CONFIG: Final = BleuConfig.paper()

# what the student can answer for an excerpt
KINDS: Final = {
    "correct": "Correct: it agrees with the paper",
    "clipping": "Clips by the wrong count",
    "reflen": "Wrong reference length r",
    "scope": "Brevity penalty of one sentence, not of the corpus",
    "reason": "Gives the paper a reason it does not give",
    "numbers": "A claim about the numbers that does not hold",
    "code": "The code fails or counts wrong as printed",
}


@dataclass(frozen=True, slots=True)
class Spot:
    """One excerpt of the article.

    Attributes:
        key: its id (a URL value: ``?tab=exercise&item=spot-KEY``).
        label: a short title for the picker.
        where: the article's section it is from.
        text: the article's words (or code), verbatim.
        code: whether ``text`` is code (shown as code) or prose (shown as text: the article's LaTeX stays source).
        answer: the right key of ``KINDS``.
        hint: shown after a wrong answer: where to look, without giving it away.
        paper: the paper's sentences that decide it, as (section, quotation) pairs, quoted verbatim.
        fact: what decides it in words (the code fact, or what the paper's sentences mean here).
    """

    key: str
    label: str
    where: str
    text: str
    code: bool
    answer: str
    hint: str
    paper: tuple[tuple[str, str], ...]
    fact: str


SPOTS: Final = {
    s.key: s
    for s in (
        Spot(
            "naive",
            "Plain precision on 'the the cat …'",
            "section 3, Precision",
            "Machine Translation:\nthe the cat the the the the the\nHuman Translation:\nthe cat is on the mat\n\n"
            "Despite achieving a precision of $\\frac{8}{8} = 1 $, this machine translation is clearly inadequate.",
            False,
            "correct",
            "Count the candidate's words that appear in the human translation, without clipping.",
            (
                (
                    "2.1",
                    "the modified unigram precision in Example 2 is 2/7, even though its standard unigram precision "
                    "is 7/7",
                ),
            ),
            "Correct: every one of the 8 words occurs in the reference, so plain precision is 8/8, the same straw "
            "man as the paper's 7/7. The article then moves on to clipping, as the paper does.",
        ),
        Spot(
            "clip",
            "The modified precision formula",
            "section 4, Modified Precision",
            "where $Count(S_{pred},w)$ is the number of times the word $w$ appears in the machine translation "
            "where $Count(S_{ref},w)$ is the number of times the word $w$ appears in the human translation",
            False,
            "clipping",
            "By which reference's count is each word clipped when there are several references?",
            (
                (
                    "2.1",
                    "To compute this, one first counts the maximum number of times a word occurs in any single "
                    "reference translation. Next, one clips the total count of each candidate word by its maximum "
                    "reference count",
                ),
            ),
            "The formula clips by the count in one human translation, `Count(S_ref, w)`. The paper clips by the "
            "largest count in any single reference (Max_Ref_Count). The article's own code takes that maximum "
            "(`max(ref_dict[word] for ref_dict in refs_dict)`); its formula does not.",
        ),
        Spot(
            "order",
            "Word order and unigrams",
            "section 4, Modified Precision",
            "While the modified precision is an improvement over basic precision, it still disregards the word "
            "order in translations. For instance, consider two translations with the same modified precision:\n\n"
            "Machine Translation 1:\nthe cat is on the mat\nMachine Translation 2:\nthe mat is on the cat\n"
            "Human Translation\nthe cat is on the mat",
            False,
            "correct",
            "Compute the modified unigram precision of both translations.",
            (
                (
                    "2.1",
                    "A translation using the same words (1-grams) as in the references tends to satisfy adequacy. "
                    "The longer n-gram matches account for fluency.",
                ),
            ),
            "Correct: unigram precision ignores word order, and both translations score 6/6. The bigrams and "
            "longer n-grams tell them apart, which is the article's next step and the paper's.",
        ),
        Spot(
            "count",
            "Counting n-grams in the code",
            "section 5, Multi-gram Modified Precision",
            "        for ngram in pred_ngram:\n"
            "            correct += min(ngram.count(ngram), max(ref_ngram.count(ngram) for ref_ngram in refs_ngram))\n"
            "            total += ngram.count(ngram)\n"
            "        res += correct / total",
            True,
            "code",
            "What is `ngram` here (a tuple of words), and what does a tuple's `count()` count?",
            (),
            "`ngram` is a tuple of words, and `ngram.count(ngram)` counts the elements of that tuple equal to the "
            "whole tuple: always 0. So `total` stays 0 and `correct / total` raises `ZeroDivisionError`, on any "
            "input. (It meant the n-gram's count in `pred_ngram`.) The same two lines are in its `weighted_precision`.",
        ),
        Spot(
            "geomean",
            "Why the geometric mean",
            "section 6, Weighted Precision",
            "In the original paper on BLEU score, the authors proposed using the geometric mean of the n-gram "
            "modified precision. This choice stems from the correlation among the n-gram modified precision scores.",
            False,
            "reason",
            "Read section 2.1.3 of the paper: what does it say about how the precisions behave as n grows?",
            (
                (
                    "2.1.3",
                    "the modified n-gram precision decays roughly exponentially with n",
                ),
                (
                    "2.1.3",
                    "A reasonable averaging scheme must take this exponential decay into account; a weighted "
                    "average of the logarithm of modified precisions satisifies this requirement.",
                ),
                (
                    "footnote 6",
                    "Using the geometric average also yields slightly stronger correlation with human judgments "
                    "than our best results using an arithmetic average.",
                ),
            ),
            "The paper's reason is the exponential decay of p_n with n, and an empirical finding (footnote 6: "
            "correlation with human judgments, not among the precisions). The correlation among the precisions is "
            "the article's argument, not the paper's.",
        ),
        Spot(
            "logs",
            "Why logarithms",
            "section 6, Weighted Precision",
            "As the n increases, the n-gram modified precision can yield very small values, leading to potential "
            "floating-point underflow when multiplying these values together. To mitigate this issue, the authors "
            "suggest using the logarithm of the equation",
            False,
            "reason",
            "Search the paper for underflow. Where does it use logarithms, and why?",
            (
                (
                    "2.1.3",
                    "BLEU uses the average logarithm with uniform weights, which is equivalent to using the "
                    "geometric mean of the modified n-gram precisions.",
                ),
                ("2.3", "The ranking behavior is more immediately apparent in the log domain"),
            ),
            "The paper never mentions underflow: its logarithms come from averaging a decaying series (2.1.3) and "
            "from reading rankings (2.3). Underflow is no concern with four precisions (inferred: see the live "
            "number).",
        ),
        Spot(
            "short",
            "'the cat' and the same weighted precision",
            "section 6, Weighted Precision",
            "Consider the following two translations, both having the same weighted precision, yet the first one "
            "is evidently superior:\n\nMachine Translation 1:\nthe cat is on the mat\nMachine Translation 2:\nthe "
            "cat\nHuman Translation\nthe cat is on the mat",
            False,
            "numbers",
            "The article computes BLEU for 1-gram to 4-gram. How many 3-grams does 'the cat' have?",
            (
                ("2.3", "In our baseline, we use N = 4 and uniform weights"),
                ("footnote 5", "The geometric average is harsh if any of the modified precisions vanish"),
            ),
            "With N = 4, as the article itself says is typical, 'the cat' has no 3-grams and no 4-grams: p3 and p4 "
            "are 0/0, undefined, and the article's `weighted_precision` divides by zero. The two weighted precisions "
            "are equal (both 1) only for N ≤ 2.",
        ),
        Spot(
            "scope",
            "The brevity penalty's lengths",
            "section 7, Brevity Penalty",
            "Thus, the brevity penalty is defined as: $$ BP = \\begin{cases} 1 & \\text{if } Count(S_{pred}) > "
            "Count(S_{ref}) \\\\ \\exp(1- \\frac{Count(S_{ref})}{Count(S_{pred})}) & \\text{if } Count(S_{pred}) "
            "\\leq Count(S_{ref}) \\end{cases}$$",
            False,
            "scope",
            "The shape is the paper's. But whose lengths are `Count(S_pred)` and `Count(S_ref)`: one sentence's, or "
            "the test corpus'?",
            (
                (
                    "2.2.2",
                    "if we computed the brevity penalty sentence by sentence and averaged the penalties, then length "
                    "deviations on short sentences would be punished harshly. Instead, we compute the brevity "
                    "penalty over the entire corpus to allow some freedom at the sentence level.",
                ),
                ("2.2.2", "where c is the total length of the candidate translation corpus"),
            ),
            "The formula has the paper's shape (BP = 1 if c > r, else e^(1−r/c), section 2.3), but the article's "
            "lengths are one machine translation's and one human translation's, and its `brevity_penalty` takes one "
            "sentence. The paper's c and r are sums over the test corpus: one BP for the corpus.",
        ),
        Spot(
            "refs",
            "brevity_penalty's arguments",
            "section 7, Brevity Penalty",
            "def brevity_penalty(pred: List[str], ref: List[str]) -> float:\n"
            '        """\n'
            "        Calculate the brevity penalty of the machine translation\n"
            "        :param pred: List of words in the machine translation\n"
            "        :param ref: List of words in the reference translation\n"
            "        :return: brevity penalty\n"
            '        """\n'
            "        pred_len = len(pred)\n"
            "        refs_len = [len(r) for r in refs]",
            True,
            "code",
            "Compare the parameter names with the names the body reads.",
            (),
            "The parameter is `ref`, the body reads `refs`: a `NameError` when it runs (or, worse, a silent use of "
            "some global `refs`). With `ref` as documented (one list of words), `[len(r) for r in ref]` would be the "
            "lengths "
            "of its words, in characters.",
        ),
        Spot(
            "shortest",
            "Which reference length",
            "section 7, Brevity Penalty",
            "        ref_len = min(refs_len)\n"
            "        if pred_len > ref_len:\n"
            "            return 1\n"
            "        else:\n"
            "            return exp(1 - ref_len / pred_len)",
            True,
            "reflen",
            "The comparison and the exponent are the paper's. Which reference length does the paper compare c with?",
            (
                (
                    "2.2.2",
                    "We wish to make the brevity penalty 1.0 when the candidate's length is the same as any "
                    "reference translation's length.",
                ),
                ("2.2.2", 'We call the closest reference sentence length the "best match length."'),
            ),
            "`min(refs_len)` is the shortest reference. The paper's r is the best match length, the reference length "
            "closest to the candidate's (summed over the corpus). The shortest is never longer than the closest, so "
            "the article's BP is never lower than the paper's and can be 1 where the paper's is below 1: a candidate "
            "longer than the shortest reference but shorter than the closest one escapes the penalty.",
        ),
    )
}


def check(spot: Spot, kind: str) -> tuple[bool, str]:
    """Whether ``kind`` is the right answer for ``spot``, and what to say."""
    if kind == spot.answer:
        return True, "Right."
    return False, f"Not “{KINDS.get(kind, kind)}”. {spot.hint}"


# --- the article's code, run as printed ----------------------------------------------------------------------------

_BLOCKS: Final = {
    "get_ngram": (
        "def get_ngram(sentence: List[str], n: int) -> List[Tuple[str]]:\n"
        "    return [tuple(sentence[i:i+n]) for i in range(len(sentence)-n+1)]\n"
    ),
    "ngram_modified_precision": (
        "def ngram_modified_precision(pred: List[str], refs: List[List[str]], n: int) -> float:\n"
        "    res = 0\n"
        "    for i in range(1, n+1):\n"
        "        pred_ngram = get_ngram(pred, i)\n"
        "        refs_ngram = [get_ngram(ref, i) for ref in refs]\n"
        "        correct = 0\n"
        "        total = 0\n"
        "        for ngram in pred_ngram:\n"
        "            correct += min(ngram.count(ngram), max(ref_ngram.count(ngram) for ref_ngram in refs_ngram))\n"
        "            total += ngram.count(ngram)\n"
        "        res += correct / total\n"
        "    return res / n\n"
    ),
    "brevity_penalty": (
        "def brevity_penalty(pred: List[str], ref: List[str]) -> float:\n"
        "        pred_len = len(pred)\n"
        "        refs_len = [len(r) for r in refs]\n"
        "        ref_len = min(refs_len)\n"
        "        if pred_len > ref_len:\n"
        "            return 1\n"
        "        else:\n"
        "            return exp(1 - ref_len / pred_len)\n"
    ),
}


def article_code() -> dict[str, str]:
    """The article's functions as it prints them, docstrings left out (a test finds each line in the article)."""
    return dict(_BLOCKS)


def run_article(function: str, *args: object) -> str:
    """Call one of the article's functions on ``args``; return its result or the exception it raises, as text."""
    namespace: dict[str, object] = {
        "List": list,
        "Tuple": tuple,
        "Counter": Counter,
        "exp": math.exp,
        "log": math.log,
    }
    exec(_BLOCKS["get_ngram"], namespace)  # the article's printed code, a constant
    exec(_BLOCKS[function], namespace)
    try:
        result = namespace[function](*args)  # type: ignore[operator]
    except Exception as exc:  # what the article's code raises is the point
        return f"{type(exc).__name__}: {exc}"
    return repr(result)


# --- the live numbers ---------------------------------------------------------------------------------------------


def _fractions(hyp: str, refs: list[str]) -> str:
    e = explain_segment(hyp, refs, CONFIG)
    return ", ".join(f"p{o.n} = {o.matches}/{o.total}" for o in e.orders)


def _corpus_streams() -> tuple[list[str], list[list[str | None]]]:
    hyps = [s.hyp for s in samples.PAPER_CORPUS]
    refs = [list(s.refs) for s in samples.PAPER_CORPUS]
    width = max(len(r) for r in refs)
    return hyps, [[r[k] if k < len(r) else None for r in refs] for k in range(width)]


def live(key: str) -> list[str]:
    """The numbers that show an excerpt's point, computed now (paper's preset: its words, case folded, N = 4)."""
    if key == "naive":
        hyp, ref = "the the cat the the the the the", "the cat is on the mat"
        words = hyp.split()
        plain = sum(w in ref.split() for w in words)
        e = explain_segment(hyp, [ref], CONFIG)
        return [
            f"Plain precision: {plain}/{len(words)}; modified (clipped) unigram precision: "
            f"{e.orders[0].matches}/{e.orders[0].total}."
        ]
    if key == "clip":
        hyp, refs = EXAMPLE_2.candidates[0], list(EXAMPLE_2.references)
        both = explain_segment(hyp, refs, CONFIG).orders[0]
        one = [explain_segment(hyp, [r], CONFIG).orders[0] for r in refs]
        return [
            f"Example 2 ('{hyp}'): clipped by the largest count in any reference, p1 = {both.matches}/{both.total}; "
            + "; ".join(f"by Reference {k + 1}'s count alone, {o.matches}/{o.total}" for k, o in enumerate(one))
            + "."
        ]
    if key == "order":
        ref = "the cat is on the mat"
        return [
            f"'the cat is on the mat': {_fractions('the cat is on the mat', [ref])}.",
            f"'the mat is on the cat': {_fractions('the mat is on the cat', [ref])}.",
        ]
    if key == "count":
        pred = ["the", "cat", "is", "on", "the", "mat"]
        ngram = ("the", "cat")
        return [
            f"('the', 'cat').count(('the', 'cat')) = {ngram.count(ngram)}.",
            "The article's ngram_modified_precision on 'the cat is on the mat' against itself, n = 4: "
            f"{run_article('ngram_modified_precision', pred, [pred], 4)}.",
        ]
    if key == "geomean":
        hyp, refs = EXAMPLE_1.candidates[0], list(EXAMPLE_1.references)
        return [f"Example 1, Candidate 1: {_fractions(hyp, refs)}: each order well below the one before."]
    if key == "logs":
        e = explain_segment(EXAMPLE_1.candidates[0], list(EXAMPLE_1.references), CONFIG)
        product = math.prod(o.matches / o.total for o in e.orders)
        return [
            f"Candidate 1's p1 · p2 · p3 · p4 = {product:.4f}; the smallest positive normal float is "
            f"{sys.float_info.min:.3g}. Even four precisions of 1/1000 multiply to {(1 / 1000) ** 4:.0e}."
        ]
    if key == "short":
        ref = "the cat is on the mat"
        return [
            f"'the cat': {_fractions('the cat', [ref])} (0/0: no 3-grams, no 4-grams).",
            f"'the cat is on the mat': {_fractions(ref, [ref])}.",
        ]
    if key == "scope":
        hyps, streams = _corpus_streams()
        v = run_variant("sentence_bp", hyps, streams, CONFIG)
        return [
            f"The six candidates of Examples 1-4 as one corpus: {v.detail}; BLEU {v.score:.2f} with sentence BPs "
            f"averaged instead of {v.correct:.2f}."
        ]
    if key == "refs":
        return [
            "The article's brevity_penalty(['the', 'cat'], ['the', 'cat', 'is']): "
            f"{run_article('brevity_penalty', ['the', 'cat'], ['the', 'cat', 'is'])}."
        ]
    if key == "shortest":
        hyps, streams = _corpus_streams()
        v = run_variant("shortest_ref", hyps, streams, CONFIG)
        e = explain_segment(EXAMPLE_1.candidates[0], list(EXAMPLE_1.references), CONFIG)
        return [
            f"The six candidates of Examples 1-4 as one corpus: {v.detail}; BLEU {v.score:.2f} instead of "
            f"{v.correct:.2f}.",
            f"On Example 1's Candidate 1 alone they agree: c = {e.hyp_len}, shortest reference "
            f"{min(e.ref_lens)}, closest {e.closest_ref_len}: BP 1 either way.",
        ]
    return []
