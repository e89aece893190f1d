"""Conceptual questions for the Learn page's exercise (issue 20.6, teaching review proposal E6): multiple choice,
each option with why it is right or wrong, every number computed with the core under the paper's preset (its
words, case folded, N = 4, no smoothing) and every sentence about the paper quoted with its section."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Final

from bleu_app import samples
from bleu_core.config import BleuConfig
from bleu_core.metrics.bleu import BleuScore
from bleu_core.teaching.explain import explain_corpus, explain_segment
from bleu_core.teaching.paper import EXAMPLE_1

__all__ = ["ADD_REF", "EDITS", "Option", "Question", "questions"]

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


def _p(score: BleuScore, n: int) -> str:
    return f"{int(score.counts[n - 1])}/{int(score.totals[n - 1])}"


def _add_ref() -> Question:
    hyp, short, long_ = ADD_REF
    one = explain_segment(hyp, [short], CONFIG)
    two = explain_segment(hyp, [short, long_], CONFIG)
    c, r1, r2 = one.hyp_len, one.closest_ref_len, two.closest_ref_len
    bp2 = two.score.bp
    n = {
        "c": str(c),
        "short": str(len(one.ref_tokens[0])),
        "long": str(len(two.ref_tokens[1])),
        "bp one": f"{one.score.bp:.3f}",
        "bp two": f"{bp2:.3f}",
        "bleu one": f"{one.score.score:.2f}",
        "bleu two": f"{two.score.score:.2f}",
    }
    setup = (
        f"Example 1's Candidate 1 (c = {c}) against a {n['short']}-word reference scores BLEU {n['bleu one']} "
        f"(BP {n['bp one']}: c > r = {r1}). A second, {n['long']}-word reference is added that shares none of the "
        f"candidate's words: r becomes {r2}, BP = exp(1 − {r2}/{c}) = {n['bp two']}, and BLEU falls to "
        f"{n['bleu two']}."
    )
    return Question(
        "addref",
        "Can adding a reference lower BLEU?",
        "Can adding a reference *lower* a candidate's BLEU?",
        (
            Option(
                "No: a reference can only add matches.",
                False,
                "The clipped counts can only rise or stay, that part is true; but r is the reference length closest "
                "to c, and a new reference can move it above c and switch the brevity penalty on. " + setup,
            ),
            Option(
                "Yes: it can change the best match length and switch the brevity penalty on.",
                True,
                setup + " Section 2.2.2: r is the closest reference length, whatever it adds to the matches.",
            ),
            Option(
                "Yes: more references put more n-grams in the precisions' denominators.",
                False,
                "The denominator is the number of the candidate's n-grams (section 2.1: 'divides by the total "
                "(unclipped) number of candidate words'); references never enter it. "
                f"Here p1 goes from {_p(one.score, 1)} to {_p(two.score, 1)}: same denominator.",
            ),
            Option(
                "No: the brevity penalty uses the shortest reference, which a longer one cannot change.",
                False,
                "The paper's r is the closest reference length, not the shortest (section 2.2.2, 'best match "
                "length'); the shortest is Feng Li's article's rule (see Spot the errors). " + setup,
            ),
        ),
        (
            ("2.2.2", 'We call the closest reference sentence length the "best match length."'),
            ("2.1", "divides by the total (unclipped) number of candidate words"),
        ),
        n,
        two.score.signature,
    )


def _edits() -> Question:
    base, ref, edits = EDITS
    b = explain_segment(base, [ref], CONFIG).score
    scored = {key: (label, explain_segment(text, [ref], CONFIG).score, text) for key, label, text in edits}
    numbers = {"base p1": _p(b, 1), "base p4": _p(b, 4)}
    options = []
    for key, (label, s, text) in scored.items():
        numbers[f"{key} p1"], numbers[f"{key} p4"] = _p(s, 1), _p(s, 4)
        up1 = s.counts[0] / s.totals[0] > b.counts[0] / b.totals[0]
        up4 = s.counts[3] / s.totals[3] > b.counts[3] / b.totals[3]
        change = f"'{text}': p1 {_p(b, 1)} → {_p(s, 1)}, p4 {_p(b, 4)} → {_p(s, 4)}."
        if up4 and not up1:
            why = change + " The same words, so the same unigram matches; in the reference's order, a 4-gram matches."
        elif up1 and up4:
            why = change + " It raises p1 too: 'the' replaces the unmatched 'a' and matches."
        elif up1 and s.totals[0] < b.totals[0]:
            why = change + " It raises p1: one unmatched word fewer in the denominator. No 4-gram matches yet."
        elif up1:
            why = change + " It raises p1: 'the' replaces the unmatched 'a' and matches. No 4-gram matches yet."
        else:
            why = change + " Neither goes up."
        options.append(Option(label, up4 and not up1, why))
    return Question(
        "edit",
        "Which edit raises p4 but not p1?",
        f"Candidate '{base}', reference '{ref}': p1 = {_p(b, 1)}, p4 = {_p(b, 4)}. Which edit raises p4 but not p1?",
        tuple(options),
        (("2.1", "The longer n-gram matches account for fluency."),),
        numbers,
        b.signature,
    )


def _corpus() -> Question:
    hyps = [s.hyp for s in samples.PAPER_CORPUS]
    refs = [list(s.refs) for s in samples.PAPER_CORPUS]
    width = max(len(r) for r in refs)
    streams = [[r[k] if k < len(r) else None for r in refs] for k in range(width)]
    corpus = explain_corpus(hyps, streams, CONFIG).score
    sentences = [explain_segment(h, r, CONFIG) for h, r in zip(hyps, refs, strict=True)]
    scores = [e.score.score for e in sentences]
    lengths = [e.hyp_len for e in sentences]
    mean = sum(scores) / len(scores)
    weighted = sum(s * n for s, n in zip(scores, lengths, strict=True)) / sum(lengths)
    zeros = sum(s == 0 for s in scores)
    median = sorted(scores)[len(scores) // 2 - 1 : len(scores) // 2 + 1]
    n = {
        "corpus": f"{corpus.score:.2f}",
        "mean": f"{mean:.2f}",
        "weighted": f"{weighted:.2f}",
        "median": f"{sum(median) / 2:.2f}",
        "zeros": str(zeros),
    }
    return Question(
        "corpus",
        "Corpus BLEU or the mean of sentence BLEU?",
        f"The paper's six candidates of Examples 1-4 are taken as one system's output, {len(hyps)} sentences. "
        "Which number is the paper's BLEU of this corpus?",
        (
            Option(
                n["mean"],
                False,
                f"{n['mean']} is the mean of the six sentence scores. {n['zeros']} of them are 0 (a zero or 0/0 "
                "precision makes a sentence's geometric mean 0), so the mean is dragged down. The paper's BLEU "
                "does not average sentence scores: it pools the counts (section 2.1.1).",
            ),
            Option(
                n["weighted"],
                False,
                f"{n['weighted']} weights each sentence score by its length. Pooling is not a weighted mean of "
                "sentence scores: it adds counts before taking the precisions, their geometric mean and BP.",
            ),
            Option(
                n["corpus"],
                True,
                f"BLEU {n['corpus']}: the clipped n-gram counts of all sentences are added before dividing (section "
                "2.1.1), the lengths are summed, and one brevity penalty is computed (section 2.2.2). A sentence "
                "whose own 4-gram precision is 0 still adds its matches to the pool.",
            ),
            Option(
                n["median"],
                False,
                f"{n['median']} is the median sentence score. BLEU is not a statistic of sentence scores at all.",
            ),
        ),
        (
            (
                "2.1.1",
                "we add the clipped n-gram counts for all the candidate sentences and divide by the number of "
                "candidate n-grams in the test corpus",
            ),
            ("2.2.2", "we compute the brevity penalty over the entire corpus"),
        ),
        n,
        corpus.signature,
    )


def _geomean() -> Question:
    e = explain_segment(EXAMPLE_1.candidates[0], list(EXAMPLE_1.references), CONFIG)
    ps = [o.matches / o.total for o in e.orders]
    fractions = ", ".join(f"{o.matches}/{o.total}" for o in e.orders)
    geo = math.exp(sum(math.log(p) for p in ps) / len(ps))
    n = {"fractions": fractions, "geometric": f"{geo:.4f}", "arithmetic": f"{sum(ps) / len(ps):.4f}"}
    return Question(
        "geomean",
        "Why the geometric mean?",
        "Why does BLEU combine p1..p4 with a geometric mean (an average of logarithms)?",
        (
            Option(
                "The precisions are correlated, because longer n-grams contain shorter ones.",
                False,
                "That is Feng Li's article's reason, not the paper's: the paper gives the exponential decay "
                "(section 2.1.3) and an empirical result (footnote 6).",
            ),
            Option(
                "The precisions decay roughly exponentially with n; an average of their logarithms takes that "
                "into account, and it correlated slightly better with human judgments.",
                True,
                f"Section 2.1.3 and footnote 6. On Candidate 1 ({fractions}) the geometric mean is {n['geometric']}, "
                f"the arithmetic mean {n['arithmetic']}: the large p1 dominates the arithmetic one.",
            ),
            Option(
                "Multiplying small precisions underflows; logarithms prevent it.",
                False,
                "The paper never mentions underflow; four precisions are nowhere near the smallest float. It uses "
                "logarithms because of the decay (2.1.3) and because rankings read better in the log domain (2.3).",
            ),
            Option(
                "So that BLEU is 0 whenever one precision is 0.",
                False,
                "That is a cost, not the aim: footnote 5 calls it harsh ('The geometric average is harsh if any of "
                "the modified precisions vanish') and expects it to be rare on test corpora of reasonable size.",
            ),
        ),
        (
            ("2.1.3", "the modified n-gram precision decays roughly exponentially with n"),
            (
                "footnote 6",
                "Using the geometric average also yields slightly stronger correlation with human judgments than "
                "our best results using an arithmetic average.",
            ),
            ("2.3", "The ranking behavior is more immediately apparent in the log domain"),
            ("footnote 5", "The geometric average is harsh if any of the modified precisions vanish"),
        ),
        n,
        e.score.signature,
    )


def questions() -> dict[str, Question]:
    """The questions by key, every number computed now."""
    return {q.key: q for q in (_add_ref(), _edits(), _corpus(), _geomean())}
