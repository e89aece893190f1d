"""The Learn page's exercise (issue 20.6): items of growing difficulty, every one with a BLEU above 0 under the
paper's preset, and a two-sentence corpus item; each item is eight steps (p1..p4, c, r, BP, BLEU) answered one
at a time. Pure: the answers are computed with the core, and ``check`` says what a wrong answer's mistake is.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from fractions import Fraction
from typing import Final

from bleu_app import prose
from bleu_core.config import BleuConfig
from bleu_core.teaching.explain import SegmentExplanation, explain_segment
from bleu_core.teaching.paper import EXAMPLE_1

__all__ = ["CONFIG", "ITEMS", "Item", "Step", "Verdict", "check", "steps", "worked"]

CONFIG: Final = BleuConfig.paper()  # fixed answers: the paper's words, case folded, N = 4, no smoothing
TEXT: Final = prose.entries("exercise")


@dataclass(frozen=True, slots=True)
class Item:
    """One exercise item: one sentence, or several (a corpus), each with its references."""

    key: str
    label: str
    sentences: tuple[tuple[str, tuple[str, ...]], ...]


ITEMS: Final = {
    i.key: i
    for i in (
        Item("warmup", "1 · Warm-up: one reference", (("the cat sat on the mat", ("the cat sat on a mat",)),)),
        Item("clip", "2 · Clipping", (("the the cat sat on the mat", ("the cat sat on the mat",)),)),
        Item("short", "3 · Too short", (("the cat sat on the", ("the cat sat on the mat",)),)),
        Item(
            "tworefs",
            "4 · Two references",
            (("a cat is on the mat", ("the cat is on the mat", "there is a cat on the mat")),),
        ),
        Item("paper", "5 · The paper's Candidate 1", ((EXAMPLE_1.candidates[0], tuple(EXAMPLE_1.references)),)),
        Item(
            "corpus",
            "6 · A corpus of two sentences",
            (
                ("the cat sat on", ("the cat sat on the mat",)),
                ("it is raining hard today", ("it is raining today",)),
            ),
        ),
    )
}


@dataclass(frozen=True, slots=True)
class Step:
    """One answer: its key (p1..p4, c, r, bp, bleu), label, the right value and its exact text."""

    key: str
    label: str
    value: float
    text: str
    hint: str
    matches: int = 0
    total: int = 0


@dataclass(frozen=True, slots=True)
class Verdict:
    """A checked answer: right or not, and the message (the mistake it looks like, or a hint)."""

    right: bool
    message: str


def explained(item: Item) -> list[SegmentExplanation]:
    """Each sentence of the item under the paper's preset."""
    return [explain_segment(h, list(r), CONFIG) for h, r in item.sentences]


def _label(key: str, corpus: bool, **values: object) -> str:
    text = TEXT[key]
    return prose.fill(text["label, corpus"] if corpus and "label, corpus" in text else text["label"], **values)


def _hint(key: str, corpus: bool, **values: object) -> str:
    text = TEXT[key]
    hint = prose.fill(text["hint"], **values)
    return f"{hint} {text['hint, corpus']}" if corpus and "hint, corpus" in text else hint


def steps(item: Item) -> list[Step]:
    """The eight steps of an item, pooled over its sentences as BLEU does."""
    ex = explained(item)
    corpus = len(ex) > 1
    where = " " + TEXT["corpus"]["where"] if corpus else ""
    out = []
    for n in range(1, CONFIG.max_ngram_order + 1):
        m = sum(e.orders[n - 1].matches for e in ex)
        t = sum(e.orders[n - 1].total for e in ex)
        label = _label("p", corpus, n=n, where=where)
        out.append(Step(f"p{n}", label, m / t if t else 0.0, f"{m}/{t}", _hint("p", corpus, n=n), m, t))
    c = sum(e.hyp_len for e in ex)
    r = sum(e.closest_ref_len for e in ex)
    bp = 1.0 if c > r else math.exp(1 - r / c)
    out.append(Step("c", _label("c", corpus, where=where), c, str(c), _hint("c", corpus)))
    out.append(Step("r", _label("r", corpus), r, str(r), _hint("r", corpus)))
    out.append(Step("bp", _label("bp", corpus), bp, f"{bp:.3f}", _hint("bp", corpus)))
    ps = [s.value for s in out[:4]]
    bleu = bp * math.exp(sum(math.log(p) for p in ps) / len(ps)) if min(ps) > 0 else 0.0
    out.append(Step("bleu", _label("bleu", corpus), bleu, f"{bleu:.4f}", _hint("bleu", corpus)))
    return out


def worked(item: Item, step: Step) -> str:
    """The step worked out (shown after two wrong tries)."""
    all_steps = {s.key: s for s in steps(item)}
    if step.key.startswith("p"):
        text = TEXT["p"]["worked"]
        return prose.fill(text, matches=step.matches, total=step.total, n=step.key[1:], key=step.key, text=step.text)
    if step.key == "c":
        lens = [len(e.hyp_tokens) for e in explained(item)]
        return prose.fill(TEXT["c"]["worked"], lengths=" + ".join(map(str, lens)), text=step.text)
    if step.key == "r":
        each = TEXT["r"]["worked sentence"]
        parts = [prose.fill(each, c=e.hyp_len, lengths=list(e.ref_lens), r=e.closest_ref_len) for e in explained(item)]
        return prose.fill(TEXT["r"]["worked"], sentences="; ".join(parts), text=step.text)
    c, r = all_steps["c"].text, all_steps["r"].text
    if step.key == "bp":
        return prose.fill(
            TEXT["bp"]["worked, longer" if float(c) > float(r) else "worked, shorter"], c=c, r=r, text=step.text
        )
    ps = " · ".join(all_steps[f"p{n}"].text for n in range(1, 5))
    return prose.fill(TEXT["bleu"]["worked"], bp=all_steps["bp"].text, precisions=ps, text=step.text)


def _say(message: str, **values: object) -> str:
    """One of the grader's messages, filled."""
    return prose.fill(TEXT["messages"][message], **values)


_FRACTION = re.compile(r"^\s*(\d+)\s*/\s*(\d+)\s*$")


def _number(text: str) -> float | None:
    try:
        return float(text.strip().replace(",", "."))
    except ValueError:
        return None


def check(item: Item, step: Step, answer: str) -> Verdict:
    """Whether ``answer`` is right for ``step``; if not, the mistake it looks like (the traps), or a hint."""
    text = answer.strip()
    if not text:
        return Verdict(False, _say("empty"))
    if step.key.startswith("p"):
        return _check_fraction(item, step, text)
    value = _number(text)
    if value is None:
        return Verdict(False, _say("not a number", text=text))
    all_steps = {s.key: s for s in steps(item)}
    ex = explained(item)
    if step.key in ("c", "r"):
        if value == step.value:
            return Verdict(True, _say("right"))
        if step.key == "r":
            shortest = sum(min(e.ref_lens) for e in ex)
            average = sum(sum(e.ref_lens) / len(e.ref_lens) for e in ex)
            if value == shortest and shortest != step.value:
                return Verdict(False, _say("shortest", text=text))
            if abs(value - average) < 0.01 and average != step.value:
                return Verdict(False, _say("average", text=text))
        if len(ex) > 1 and any(value == (e.hyp_len if step.key == "c" else e.closest_ref_len) for e in ex):
            return Verdict(False, _say("one sentence", text=text, key=step.key))
        return Verdict(False, _say("not", text=text, hint=step.hint))
    c, r = all_steps["c"].value, all_steps["r"].value
    if step.key == "bp":
        if _right_to(value, text, step.value, asked=3):
            return Verdict(True, _say("right"))
        if value > 1:
            return Verdict(False, _say("bp above 1", text=text))
        return _fewer_decimals(step, text, value, asked=3) or Verdict(False, _say("not", text=text, hint=step.hint))
    # BLEU: from the exact BP, or from the BP as the step before shows it (3 decimals)
    geomean = step.value / all_steps["bp"].value if all_steps["bp"].value else 0.0
    if any(_right_to(value, text, v, asked=4) for v in (step.value, float(all_steps["bp"].text) * geomean)):
        return Verdict(True, _say("right"))
    if abs(value / 100 - step.value) <= 0.00015 and step.value > 0:
        return Verdict(False, _say("scale", text=text))
    ps = [all_steps[f"p{n}"].value for n in range(1, 5)]
    bp = all_steps["bp"].value
    arith = bp * sum(ps) / len(ps)
    if abs(value - arith) <= 0.00015:
        return Verdict(False, _say("arithmetic", text=text))
    if min(ps) > 0 and bp < 1 and abs(value - step.value / bp) <= 0.00015:
        return Verdict(False, _say("no bp", text=text))
    if len(ex) > 1:
        sentence = [e.score.score / 100 for e in ex]
        if abs(value - sum(sentence) / len(sentence)) <= 0.00015:
            return Verdict(False, _say("sentence mean", text=text))
    del c, r
    return _fewer_decimals(step, text, value, asked=4) or Verdict(False, _say("not", text=text, hint=step.hint))


def _decimals(text: str) -> int:
    """How many decimals an answer was typed with ("0.537": 3; "1": 0)."""
    _, dot, after = text.strip().replace(",", ".").partition(".")
    return len(after) if dot else 0


def _right_to(value: float, text: str, target: float, *, asked: int) -> bool:
    """Right to the ``asked`` decimals the question shows: within one and a half units of the last (a rounded or
    a cut answer), typed with that many decimals, or fewer when the rest are zeros ("1" for a BP of 1.000).

    Example:
        >>> _right_to(0.5373, "0.5373", 0.537285, asked=4), _right_to(0.537, "0.537", 0.537285, asked=4)
        (True, False)
        >>> _right_to(1.0, "1", 1.0, asked=3)
        True
    """
    if abs(value - target) > 1.5 * 10**-asked:
        return False
    return _decimals(text) >= asked or round(value, asked) == round(target, asked)


def _fewer_decimals(step: Step, text: str, value: float, *, asked: int) -> Verdict | None:
    """An answer right to fewer decimals than the question asks (0.537 for 0.5373, rounded or cut): said so,
    rather than "Not 0.537" with the formula."""
    typed = _decimals(text)
    if not 1 <= typed < asked:
        return None
    unit = 10**typed
    if value in (round(step.value, typed), math.floor(step.value * unit) / unit):
        return Verdict(False, _say("decimals", text=text, typed=typed, asked=asked))
    return None


def _check_fraction(item: Item, step: Step, text: str) -> Verdict:
    if step.total == 0 and text.lower() in ("0", "undefined", "none", "nan"):
        return Verdict(False, _say("no n-grams", n=step.key[1:]))
    m = _FRACTION.match(text)
    if m is None:
        return Verdict(False, _say("fraction", key=step.key))
    num, den = int(m.group(1)), int(m.group(2))
    if (num, den) == (step.matches, step.total):
        return Verdict(True, _say("right"))
    if den and step.total and Fraction(num, den) == Fraction(step.matches, step.total):
        return Verdict(False, _say("unreduced", text=text))
    n = int(step.key[1:])
    ex = explained(item)
    plain = sum(sum(row.count for row in e.orders[n - 1].rows if any(row.ref_counts)) for e in ex)
    summed = sum(sum(min(row.count, sum(row.ref_counts)) for row in e.orders[n - 1].rows) for e in ex)
    if (num, den) == (plain, step.total) and plain != step.matches:
        return Verdict(False, _say("unclipped", text=text, n=n))
    if (num, den) == (summed, step.total) and summed != step.matches:
        return Verdict(False, _say("summed", text=text))
    if den != step.total:
        return Verdict(False, _say("denominator", n=n))
    return Verdict(False, _say("numerator", hint=step.hint))
