"""Spot the errors (issue 20.6, teaching review defect 9 and proposal E5): short excerpts of Feng Li's article
"Intuition Behind BLEU Score" (``../shared/seeds/002_*``), quoted word for word, each either correct or carrying
one of the article's genuine errors. The student names the kind; the paper's sentence (with its section) or the
code fact decides it, and a live number shows it where the app can compute one.

The article's mistakes are the article's: every excerpt is labelled as a quotation, and the article's code is run
as the article prints it (``run_article``), never as the app's own. Pure: numbers come from the core. The excerpts,
the paper's sentences that decide them and the texts of the live numbers are ``docs/learn/lessons/spot.md``; here
are the answers, the article's code as run and the numbers.
"""

from __future__ import annotations

import math
import sys
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

from bleu_app import prose, samples
from bleu_core.config import BleuConfig
from bleu_core.teaching.explain import explain_segment
from bleu_core.teaching.paper import EXAMPLE_1, EXAMPLE_2
from bleu_core.teaching.variants import run_variant

__all__ = [
    "ANSWERS",
    "ARTICLE",
    "CODE",
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


# The grader's part of each excerpt: its answer (a key of KINDS) and whether it is code. The excerpts themselves, in the
# order the exercise shows them, are docs/learn/lessons/spot.md's entries.
ANSWERS: Final = {
    "naive": "correct",
    "clip": "clipping",
    "order": "correct",
    "count": "code",
    "geomean": "reason",
    "logs": "reason",
    "short": "numbers",
    "scope": "scope",
    "refs": "code",
    "shortest": "reflen",
}
CODE: Final = frozenset({"count", "refs", "shortest"})
_TEXT: Final = prose.entries("spot")


def _spots() -> dict[str, Spot]:
    out = {}
    for key, f in _TEXT.items():
        if key in ANSWERS:
            paper = prose.quotes(f.get("paper", ""))
            out[key] = Spot(
                key, f["label"], f["where"], f["text"], key in CODE, ANSWERS[key], f["hint"], paper, f["fact"]
            )
    return out


SPOTS: Final = _spots()


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


def _naive() -> dict[str, object]:
    hyp, ref = "the the cat the the the the the", "the cat is on the mat"
    words = hyp.split()
    o = explain_segment(hyp, [ref], CONFIG).orders[0]
    return {"plain": f"{sum(w in ref.split() for w in words)}/{len(words)}", "clipped": f"{o.matches}/{o.total}"}


def _clip() -> dict[str, object]:
    hyp, refs = EXAMPLE_2.candidates[0], list(EXAMPLE_2.references)
    both = explain_segment(hyp, refs, CONFIG).orders[0]
    one = [explain_segment(hyp, [r], CONFIG).orders[0] for r in refs]
    (alone,) = prose.items(_TEXT["live"]["clip alone"])
    each = [prose.fill(alone, k=k + 1, fraction=f"{o.matches}/{o.total}") for k, o in enumerate(one)]
    return {"hyp": hyp, "both": f"{both.matches}/{both.total}", "alone": "; ".join(each)}


def _order() -> dict[str, object]:
    ref = "the cat is on the mat"
    return {"right": _fractions("the cat is on the mat", [ref]), "swapped": _fractions("the mat is on the cat", [ref])}


def _count() -> dict[str, object]:
    pred = ["the", "cat", "is", "on", "the", "mat"]
    ngram = ("the", "cat")
    return {"count": ngram.count(ngram), "result": run_article("ngram_modified_precision", pred, [pred], 4)}


def _geomean() -> dict[str, object]:
    return {"fractions": _fractions(EXAMPLE_1.candidates[0], list(EXAMPLE_1.references))}


def _logs() -> dict[str, object]:
    e = explain_segment(EXAMPLE_1.candidates[0], list(EXAMPLE_1.references), CONFIG)
    product = math.prod(o.matches / o.total for o in e.orders)
    return {"product": f"{product:.4f}", "smallest": f"{sys.float_info.min:.3g}", "tiny": f"{(1 / 1000) ** 4:.0e}"}


def _short() -> dict[str, object]:
    ref = "the cat is on the mat"
    return {"short": _fractions("the cat", [ref]), "full": _fractions(ref, [ref])}


def _variant(key: str) -> dict[str, object]:
    v = run_variant(key, *_corpus_streams(), CONFIG)
    return {"detail": v.detail, "score": f"{v.score:.2f}", "correct": f"{v.correct:.2f}"}


def _refs() -> dict[str, object]:
    return {"result": run_article("brevity_penalty", ["the", "cat"], ["the", "cat", "is"])}


def _shortest() -> dict[str, object]:
    e = explain_segment(EXAMPLE_1.candidates[0], list(EXAMPLE_1.references), CONFIG)
    return {**_variant("shortest_ref"), "c": e.hyp_len, "shortest": min(e.ref_lens), "closest": e.closest_ref_len}


_LIVE: Final[dict[str, Callable[[], dict[str, object]]]] = {
    "naive": _naive,
    "clip": _clip,
    "order": _order,
    "count": _count,
    "geomean": _geomean,
    "logs": _logs,
    "short": _short,
    "scope": lambda: _variant("sentence_bp"),
    "refs": _refs,
    "shortest": _shortest,
}


def live(key: str) -> list[str]:
    """The numbers that show an excerpt's point, computed now (paper's preset: its words, case folded, N = 4)."""
    values = _LIVE.get(key)
    if values is None:
        return []
    numbers = values()
    return [prose.fill(line, **numbers) for line in prose.items(_TEXT["live"][key])]
