"""Conceptual questions for the Learn page's exercise (issue 20.6, teaching review proposal E6): multiple choice,
each option with why it is right or wrong, every number computed with the core under the paper's preset (its
words, case folded, N = 4, no smoothing) and every sentence about the paper quoted with its section. The questions'
words are ``docs/learn/lessons/quiz.md``."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Final

from bleu_app import prose, samples
from bleu_core.config import BleuConfig
from bleu_core.metrics.bleu import BleuScore
from bleu_core.teaching.explain import explain_corpus, explain_segment
from bleu_core.teaching.paper import EXAMPLE_1

__all__ = ["ADD_REF", "EDITS", "RIGHT", "Option", "Question", "questions"]

CONFIG: Final = BleuConfig.paper()

# "Can adding a reference lower BLEU?": Example 1's Candidate 1 (18 words), a 10-word reference, and a 19-word one
# that shares none of the candidate's words
ADD_REF: Final = (
    EXAMPLE_1.candidates[0],
    "It is a guide to action that ensures party rule.",
    "Soldiers must follow every order given by their leaders without question or delay during war and peace times "
    "alike.",
)
# "Which edit raises p4 but not p1?": a candidate, its reference, and four edits
EDITS: Final = (
    "the mat is on a cat",
    "the cat is on the mat",
    (
        ("replace", "Replace 'a' by 'the'", "the mat is on the cat"),
        ("delete", "Delete 'a'", "the mat is on cat"),
        ("swap", "Swap 'mat' and 'cat'", "the cat is on a mat"),
        ("both", "Replace 'a' by 'the' and swap 'mat' and 'cat'", "the cat is on the mat"),
    ),
)


@dataclass(frozen=True, slots=True)
class Option:
    """One answer: its text, whether it is right, and why (shown when it is picked; for a wrong one, its flaw)."""

    text: str
    right: bool
    why: str


@dataclass(frozen=True, slots=True)
class Question:
    """A question: its key (``?tab=exercise&item=quiz-KEY``), its text, its options, the paper's sentences it rests
    on as (section, quotation) pairs, and the numbers it quotes (name -> text, computed)."""

    key: str
    label: str
    prompt: str
    options: tuple[Option, ...]
    paper: tuple[tuple[str, str], ...]
    numbers: dict[str, str]
    signature: str


TEXT: Final = prose.entries("quiz")
# The right option of each question (1-based; the edit question's is computed): the grader's part.
RIGHT: Final = {"addref": 2, "corpus": 3, "geomean": 2}


def _p(score: BleuScore, n: int) -> str:
    return f"{int(score.counts[n - 1])}/{int(score.totals[n - 1])}"


def _question(key: str, numbers: dict[str, str], slots: Mapping[str, object], signature: str) -> Question:
    """A question of ``quiz.md`` with its ``{slots}`` filled; its right option from ``RIGHT``."""
    text = TEXT[key]
    count = sum(1 for field in text if field.startswith("option "))
    options = tuple(
        Option(
            prose.fill(text[f"option {k}"], **slots),
            k == RIGHT[key],
            prose.fill(text[f"why {k}"], **slots),
        )
        for k in range(1, count + 1)
    )
    prompt = prose.fill(text["prompt"], **slots)
    return Question(key, text["label"], prompt, options, prose.quotes(text["paper"]), numbers, signature)


def _add_ref() -> Question:
    hyp, short, long_ = ADD_REF
    one = explain_segment(hyp, [short], CONFIG)
    two = explain_segment(hyp, [short, long_], CONFIG)
    n = {
        "c": str(one.hyp_len),
        "short": str(len(one.ref_tokens[0])),
        "long": str(len(two.ref_tokens[1])),
        "bp one": f"{one.score.bp:.3f}",
        "bp two": f"{two.score.bp:.3f}",
        "bleu one": f"{one.score.score:.2f}",
        "bleu two": f"{two.score.score:.2f}",
    }
    slots: dict[str, object] = {k.replace(" ", "_"): v for k, v in n.items()}
    slots |= {"r1": one.closest_ref_len, "r2": two.closest_ref_len}
    slots |= {"p1_one": _p(one.score, 1), "p1_two": _p(two.score, 1)}
    slots["setup"] = prose.fill(TEXT["addref"]["setup"], **slots)
    return _question("addref", n, slots, two.score.signature)


def _edit_why(base: BleuScore, s: BleuScore, text: str) -> tuple[bool, str]:
    """Whether an edit raises p4 but not p1, and why (the change in numbers, then the reason)."""
    words = TEXT["edit"]
    up1 = s.counts[0] / s.totals[0] > base.counts[0] / base.totals[0]
    up4 = s.counts[3] / s.totals[3] > base.counts[3] / base.totals[3]
    change = prose.fill(words["change"], text=text, base_p1=_p(base, 1), p1=_p(s, 1), base_p4=_p(base, 4), p4=_p(s, 4))
    if up4 and not up1:
        reason = words["why p4 only"]
    elif up1 and up4:
        reason = words["why both"]
    elif up1 and s.totals[0] < base.totals[0]:
        reason = words["why p1 shorter"]
    elif up1:
        reason = words["why p1"]
    else:
        reason = words["why neither"]
    return up4 and not up1, f"{change} {reason}"


def _edits() -> Question:
    base, ref, edits = EDITS
    b = explain_segment(base, [ref], CONFIG).score
    numbers = {"base p1": _p(b, 1), "base p4": _p(b, 4)}
    options = []
    for key, label, text in edits:
        s = explain_segment(text, [ref], CONFIG).score
        numbers[f"{key} p1"], numbers[f"{key} p4"] = _p(s, 1), _p(s, 4)
        options.append(Option(label, *_edit_why(b, s, text)))
    words = TEXT["edit"]
    prompt = prose.fill(words["prompt"], base=base, ref=ref, base_p1=_p(b, 1), base_p4=_p(b, 4))
    return Question("edit", words["label"], prompt, tuple(options), prose.quotes(words["paper"]), numbers, b.signature)


def _corpus() -> Question:
    hyps = [s.hyp for s in samples.PAPER_CORPUS]
    refs = [list(s.refs) for s in samples.PAPER_CORPUS]
    width = max(len(r) for r in refs)
    streams = [[r[k] if k < len(r) else None for r in refs] for k in range(width)]
    corpus = explain_corpus(hyps, streams, CONFIG).score
    sentences = [explain_segment(h, r, CONFIG) for h, r in zip(hyps, refs, strict=True)]
    scores, lengths = [e.score.score for e in sentences], [e.hyp_len for e in sentences]
    median = sorted(scores)[len(scores) // 2 - 1 : len(scores) // 2 + 1]
    n = {
        "corpus": f"{corpus.score:.2f}",
        "mean": f"{sum(scores) / len(scores):.2f}",
        "weighted": f"{sum(s * k for s, k in zip(scores, lengths, strict=True)) / sum(lengths):.2f}",
        "median": f"{sum(median) / 2:.2f}",
        "zeros": str(sum(s == 0 for s in scores)),
    }
    return _question("corpus", n, {**n, "sentences": len(hyps)}, corpus.signature)


def _geomean() -> Question:
    e = explain_segment(EXAMPLE_1.candidates[0], list(EXAMPLE_1.references), CONFIG)
    ps = [o.matches / o.total for o in e.orders]
    fractions = ", ".join(f"{o.matches}/{o.total}" for o in e.orders)
    geo = math.exp(sum(math.log(p) for p in ps) / len(ps))
    n = {"fractions": fractions, "geometric": f"{geo:.4f}", "arithmetic": f"{sum(ps) / len(ps):.4f}"}
    return _question("geomean", n, n, e.score.signature)


def questions() -> dict[str, Question]:
    """The questions by key, every number computed now."""
    return {q.key: q for q in (_add_ref(), _edits(), _corpus(), _geomean())}
