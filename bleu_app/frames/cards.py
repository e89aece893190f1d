"""Misconception cards for the Learn page (issue 20.4): a wrong belief, what is true (with its source), the
numbers that show it — computed here with the paper's preset, never typed in — and the sentence that demonstrates
it on the Sentence page."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Final

from bleu_app import samples
from bleu_core.config import BleuConfig
from bleu_core.metrics.bleu import make_signature
from bleu_core.teaching.explain import explain_corpus, explain_segment
from bleu_core.teaching.paper import EXAMPLE_1

__all__ = ["PARAPHRASE", "Card", "cards"]

PARAPHRASE: Final = ("the East Asian economy grew quickly", "the economy of East Asia grew quickly")


@dataclass(frozen=True, slots=True)
class Card:
    """One misconception.

    Attributes:
        key: its id (a URL value: ``?tab=cards&item=KEY``).
        myth: the wrong belief, as a student says it.
        truth: what is true, in Markdown, with the computed numbers and the source.
        numbers: the computed numbers the text quotes (name -> BLEU 0-100, 2 decimals as shown).
        hyp: the demo's candidate for the Sentence page, or "" when the card has no sentence demo.
        refs: the demo's references.
        tokenize: the tokenizer the demo needs, or "" to keep the sidebar's.
        signatures: (what, signature) of the numbers the text quotes; ``what`` is "" when one signature holds
            for all of them.
    """

    key: str
    myth: str
    truth: str
    numbers: dict[str, str]
    hyp: str = ""
    refs: tuple[str, ...] = ()
    tokenize: str = ""
    signatures: tuple[tuple[str, str], ...] = ()


def _bleu(hyp: str, refs: list[str], config: BleuConfig) -> str:
    return f"{explain_segment(hyp, refs, config).score.score:.2f}"


def cards(config: BleuConfig | None = None) -> tuple[Card, ...]:
    """The cards, every number computed under ``config`` (default: the paper's preset)."""
    cfg = config or BleuConfig.paper()
    c1, refs = EXAMPLE_1.candidates[0], list(EXAMPLE_1.references)
    hyps = [s.hyp for s in samples.PAPER_CORPUS]
    ref_streams = [list(s.refs) for s in samples.PAPER_CORPUS]
    width = max(len(r) for r in ref_streams)
    streams = [[r[k] if k < len(r) else None for r in ref_streams] for k in range(width)]
    corpus = f"{explain_corpus(hyps, streams, cfg).score.score:.2f}"
    sentence = [explain_segment(h, list(r), cfg).score.score for h, r in zip(hyps, ref_streams, strict=True)]
    mean = f"{sum(sentence) / len(sentence):.2f}"
    all3, alone = _bleu(c1, refs, cfg), [_bleu(c1, [r], cfg) for r in refs]
    tok13a = _bleu(c1, refs, replace(cfg, tokenize="13a"))
    para = explain_segment(PARAPHRASE[0], [PARAPHRASE[1]], cfg).score
    human = _bleu(refs[0], refs[1:], cfg)
    p = explain_segment(c1, refs, cfg).score
    nrefs = width if all(len(r) == width for r in ref_streams) else -1  # -1: "var", as sacreBLEU
    one = make_signature(cfg, 1)
    three = make_signature(cfg, len(refs))
    fractions = ", ".join(f"{m}/{t}" for m, t in zip(p.counts, p.totals, strict=True))
    return (
        Card(
            "mean",
            "The average of the sentence scores is the corpus BLEU.",
            f"On the paper's six candidates as one corpus, BLEU is **{corpus}**; the mean of their six sentence "
            f"scores is **{mean}**. BLEU pools the n-gram counts and the lengths of the whole corpus first (section "
            "2.1.1: 'we add the clipped n-gram counts for all the candidate sentences'), and computes one brevity "
            "penalty (section 2.2.2).",
            {"corpus BLEU": corpus, "mean of sentence BLEU": mean},
            signatures=(("", make_signature(cfg, nrefs)),),
        ),
        Card(
            "references",
            "The number of references does not matter.",
            f"Candidate 1 scores **{all3}** against Example 1's three references, **{alone[0]}** against Reference "
            f"1 alone, and **{alone[1]}** / **{alone[2]}** against Reference 2 or 3 alone. Section 3: 'the more "
            "reference translations per sentence there are, the higher the score is'. The demo opens Reference 1 "
            "alone.",
            {"all three": all3, "Reference 1": alone[0], "Reference 2": alone[1], "Reference 3": alone[2]},
            c1,
            (refs[0],),
            signatures=(("all three", three), ("one reference alone", one)),
        ),
        Card(
            "tokenization",
            "A BLEU score is a BLEU score, whatever the tool.",
            f"The same Candidate 1 scores **{all3}** with the paper's words and **{tok13a}** with sacreBLEU's 13a "
            "tokenizer: 13a makes the full stop a token, and it matches. Numbers compare only with the same "
            "signature (tokenizer, case, smoothing, references). The demo opens it with 13a.",
            {"paper's words": all3, "13a": tok13a},
            c1,
            tuple(refs),
            "13a",
            signatures=(("the paper's words", three), ("13a", make_signature(replace(cfg, tokenize="13a"), len(refs)))),
        ),
        Card(
            "paraphrase",
            "A fluent, correct translation gets a good BLEU.",
            f"'{PARAPHRASE[0]}' against '{PARAPHRASE[1]}' scores **{para.score:.2f}**: "
            f"p₂ = {para.counts[1]}/{para.totals[1]}, no 3-gram matches. Footnote 4: 'a system which produces the "
            "fluent phrase “East Asian economy” is penalized heavily on the longer n-gram precisions'.",
            {"paraphrase": f"{para.score:.2f}"},
            PARAPHRASE[0],
            (PARAPHRASE[1],),
            signatures=(("", one),),
        ),
        Card(
            "half",
            "BLEU 50 means half of the translation is right.",
            f"Candidate 1 scores **{all3}**, yet {p.counts[0]} of its {p.totals[0]} words match. BLEU is the "
            f"geometric mean of four precisions ({fractions}) times the brevity penalty "
            "(section 2.3): not a share of anything.",
            {"Candidate 1": all3},
            c1,
            tuple(refs),
            signatures=(("", three),),
        ),
        Card(
            "human",
            "A human translation scores 100.",
            f"Example 1's Reference 1 — a human translation — scores **{human}** against the other two. Section 3: "
            "'even a human translator will not necessarily score 1'; the paper's human translator H2 scored 0.2571 "
            "against two references (Table 1).",
            {"Reference 1 vs 2 and 3": human},
            refs[0],
            tuple(refs[1:]),
            signatures=(("", make_signature(cfg, len(refs) - 1)),),
        ),
    )
