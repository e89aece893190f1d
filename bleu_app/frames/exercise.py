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

from bleu_core.config import BleuConfig
from bleu_core.teaching.explain import SegmentExplanation, explain_segment
from bleu_core.teaching.paper import EXAMPLE_1

__all__ = ["CONFIG", "ITEMS", "Item", "Step", "Verdict", "check", "steps", "worked"]

CONFIG: Final = BleuConfig.paper()  # fixed answers: the paper's words, case folded, N = 4, no smoothing


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


def steps(item: Item) -> list[Step]:
    """The eight steps of an item, pooled over its sentences as BLEU does."""
    ex = explained(item)
    corpus = len(ex) > 1
    where = " of all the sentences together" if corpus else ""
    out = []
    for n in range(1, CONFIG.max_ngram_order + 1):
        m = sum(e.orders[n - 1].matches for e in ex)
        t = sum(e.orders[n - 1].total for e in ex)
        out.append(
            Step(
                f"p{n}",
                f"p{n} (clipped {n}-gram matches / candidate {n}-grams{where})",
                m / t if t else 0.0,
                f"{m}/{t}",
                f"List the candidate's {n}-grams; clip each one's count by its largest count in any single reference; "
                "add the clipped counts, and divide by the number of candidate n-grams (step 2 and 3 of the walk)."
                + (" Add the counts of every sentence first, then divide once (step 4)." if corpus else ""),
                m,
                t,
            )
        )
    c = sum(e.hyp_len for e in ex)
    r = sum(e.closest_ref_len for e in ex)
    bp = 1.0 if c > r else math.exp(1 - r / c)
    out.append(Step("c", f"c (candidate length in tokens{where})", c, str(c), "Count the candidate's words."))
    out.append(
        Step(
            "r",
            "r (best match length" + (", summed over the sentences)" if corpus else ")"),
            r,
            str(r),
            "For each sentence, the reference length closest to its candidate's (a tie: the shorter); step 9."
            + (" Then add them up." if corpus else ""),
        )
    )
    out.append(Step("bp", "BP (3 decimals)", bp, f"{bp:.3f}", "BP = 1 if c > r, else exp(1 − r/c) (step 9)."))
    ps = [s.value for s in out[:4]]
    bleu = bp * math.exp(sum(math.log(p) for p in ps) / len(ps)) if min(ps) > 0 else 0.0
    out.append(
        Step(
            "bleu",
            "BLEU (0-1 scale, 4 decimals)",
            bleu,
            f"{bleu:.4f}",
            "BLEU = BP × (p1 · p2 · p3 · p4)^(1/4): the geometric mean of the precisions times BP (steps 6 and 10).",
        )
    )
    return out


def worked(item: Item, step: Step) -> str:
    """The step worked out (shown after two wrong tries)."""
    all_steps = {s.key: s for s in steps(item)}
    if step.key.startswith("p"):
        return (
            f"{step.matches} of the candidate's {step.total} {step.key[1:]}-grams match after clipping: "
            f"{step.key} = {step.text}."
        )
    if step.key == "c":
        lens = [len(e.hyp_tokens) for e in explained(item)]
        return f"c = {' + '.join(map(str, lens))} = {step.text} tokens."
    if step.key == "r":
        ex = explained(item)
        parts = [f"closest to {e.hyp_len} among {list(e.ref_lens)} is {e.closest_ref_len}" for e in ex]
        return "; ".join(parts) + f": r = {step.text}."
    c, r = all_steps["c"].text, all_steps["r"].text
    if step.key == "bp":
        return f"c = {c}, r = {r}: " + (
            f"c > r, so BP = {step.text}." if float(c) > float(r) else f"BP = exp(1 − {r}/{c}) = {step.text}."
        )
    ps = " · ".join(all_steps[f"p{n}"].text for n in range(1, 5))
    return f"BLEU = {all_steps['bp'].text} × ({ps})^(1/4) = {step.text}."


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
        return Verdict(False, "Type an answer first.")
    if step.key.startswith("p"):
        return _check_fraction(item, step, text)
    value = _number(text)
    if value is None:
        return Verdict(False, f"“{text}” is not a number.")
    all_steps = {s.key: s for s in steps(item)}
    ex = explained(item)
    if step.key in ("c", "r"):
        if value == step.value:
            return Verdict(True, "Right.")
        if step.key == "r":
            shortest = sum(min(e.ref_lens) for e in ex)
            average = sum(sum(e.ref_lens) / len(e.ref_lens) for e in ex)
            if value == shortest and shortest != step.value:
                return Verdict(False, f"{text} takes the shortest reference; r is the reference length closest to c.")
            if abs(value - average) < 0.01 and average != step.value:
                return Verdict(False, f"{text} averages the reference lengths; r is the one closest to c.")
        if len(ex) > 1 and any(value == (e.hyp_len if step.key == "c" else e.closest_ref_len) for e in ex):
            return Verdict(False, f"{text} is one sentence's length: over a corpus, {step.key} is the sum.")
        return Verdict(False, f"Not {text}. {step.hint}")
    c, r = all_steps["c"].value, all_steps["r"].value
    if step.key == "bp":
        if abs(value - step.value) <= 0.0015:
            return Verdict(True, "Right.")
        if value > 1:
            return Verdict(False, f"BP above 1 ({text}): the ratio is upside down. BP never exceeds 1: exp(1 − r/c).")
        return Verdict(False, f"Not {text}. {step.hint}")
    # BLEU
    if abs(value - step.value) <= 0.00015:
        return Verdict(True, "Right.")
    if abs(value / 100 - step.value) <= 0.00015 and step.value > 0:
        return Verdict(False, f"{text} is on sacreBLEU's 0-100 scale; give it on the paper's 0-1 scale.")
    ps = [all_steps[f"p{n}"].value for n in range(1, 5)]
    bp = all_steps["bp"].value
    arith = bp * sum(ps) / len(ps)
    if abs(value - arith) <= 0.00015:
        return Verdict(False, f"{text} averages the precisions arithmetically; BLEU takes their geometric mean.")
    if min(ps) > 0 and bp < 1 and abs(value - step.value / bp) <= 0.00015:
        return Verdict(False, f"{text} leaves out the brevity penalty: multiply by BP.")
    if len(ex) > 1:
        sentence = [e.score.score / 100 for e in ex]
        if abs(value - sum(sentence) / len(sentence)) <= 0.00015:
            return Verdict(False, f"{text} is the mean of the sentence scores; BLEU pools the counts of the corpus.")
    del c, r
    return Verdict(False, f"Not {text}. {step.hint}")


def _check_fraction(item: Item, step: Step, text: str) -> Verdict:
    if step.total == 0 and text.lower() in ("0", "undefined", "none", "nan"):
        return Verdict(False, f"There are no {step.key[1:]}-grams at all: write it as 0/0 (nothing over nothing).")
    m = _FRACTION.match(text)
    if m is None:
        return Verdict(False, f"Write {step.key} as a fraction: clipped matches / candidate n-grams, e.g. 3/7.")
    num, den = int(m.group(1)), int(m.group(2))
    if (num, den) == (step.matches, step.total):
        return Verdict(True, "Right.")
    if den and step.total and Fraction(num, den) == Fraction(step.matches, step.total):
        return Verdict(
            False,
            f"{text} has the right value but not the counts: write it unreduced, clipped matches over the number "
            "of candidate n-grams.",
        )
    n = int(step.key[1:])
    ex = explained(item)
    plain = sum(sum(row.count for row in e.orders[n - 1].rows if any(row.ref_counts)) for e in ex)
    summed = sum(sum(min(row.count, sum(row.ref_counts)) for row in e.orders[n - 1].rows) for e in ex)
    if (num, den) == (plain, step.total) and plain != step.matches:
        return Verdict(False, f"{text} counts every candidate {n}-gram found in a reference, without clipping.")
    if (num, den) == (summed, step.total) and summed != step.matches:
        return Verdict(False, f"{text} clips by the sum over the references; clip by the largest count in any one.")
    if den != step.total:
        return Verdict(False, f"The denominator is wrong: it is the number of the candidate's {n}-grams.")
    return Verdict(False, f"The denominator is right; recount the clipped matches. {step.hint}")
