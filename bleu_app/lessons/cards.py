"""Misconception cards for the Learn page (issue 20.4): a wrong belief, what is true (with its source), the
numbers that show it — computed here with the paper's preset, never typed in — and the sentence that demonstrates
it on the Sentence page. The cards' words are ``docs/learn/lessons/cards.md``."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Final

from bleu_app import prose, samples
from bleu_core import sentence_chrf
from bleu_core.config import BleuConfig
from bleu_core.metrics import Chrf
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


TEXT: Final = prose.entries("cards")


def _bleu(hyp: str, refs: list[str], config: BleuConfig) -> str:
    return f"{explain_segment(hyp, refs, config).score.score:.2f}"


def _numbers(cfg: BleuConfig) -> dict[str, str]:
    """Every number the cards quote, computed under ``cfg``, by the name their texts use."""
    c1, refs = EXAMPLE_1.candidates[0], list(EXAMPLE_1.references)
    hyps = [s.hyp for s in samples.PAPER_CORPUS]
    ref_streams = [list(s.refs) for s in samples.PAPER_CORPUS]
    width = max(len(r) for r in ref_streams)
    streams = [[r[k] if k < len(r) else None for r in ref_streams] for k in range(width)]
    sentence = [explain_segment(h, list(r), cfg).score.score for h, r in zip(hyps, ref_streams, strict=True)]
    alone = [_bleu(c1, [r], cfg) for r in refs]
    para = explain_segment(PARAPHRASE[0], [PARAPHRASE[1]], cfg).score
    p = explain_segment(c1, refs, cfg).score
    return {
        "corpus": f"{explain_corpus(hyps, streams, cfg).score.score:.2f}",
        "mean": f"{sum(sentence) / len(sentence):.2f}",
        "nrefs": str(width if all(len(r) == width for r in ref_streams) else -1),  # -1: "var", as sacreBLEU
        "all3": _bleu(c1, refs, cfg),
        **{f"ref{k + 1}": score for k, score in enumerate(alone)},
        "tok13a": _bleu(c1, refs, replace(cfg, tokenize="13a")),
        "para_hyp": PARAPHRASE[0],
        "para_ref": PARAPHRASE[1],
        "para": f"{para.score:.2f}",
        "para_p2": f"{para.counts[1]}/{para.totals[1]}",
        "matched": str(p.counts[0]),
        "words": str(p.totals[0]),
        "fractions": ", ".join(f"{m}/{t}" for m, t in zip(p.counts, p.totals, strict=True)),
        "human": _bleu(refs[0], refs[1:], cfg),
        "chrf_c1": f"{sentence_chrf(c1, refs).score:.2f}",  # sacreBLEU's chrF: its own settings, not BLEU's
    }


# a card's numbers (as its text quotes them), demonstration (candidate, references, tokenizer) and signatures
_Made = dict[str, tuple[dict[str, str], str, tuple[str, ...], str, tuple[tuple[str, str], ...]]]


def cards(config: BleuConfig | None = None) -> tuple[Card, ...]:
    """The cards, every number computed under ``config`` (default: the paper's preset)."""
    cfg = config or BleuConfig.paper()
    n = _numbers(cfg)
    made = {**_paper_cards(cfg, n), **_after_cards(cfg, n)}
    return tuple(
        Card(key, TEXT[key]["myth"], prose.fill(TEXT[key]["truth"], **n), numbers, hyp, demo, tokenize, signatures)
        for key, (numbers, hyp, demo, tokenize, signatures) in made.items()
    )


def _paper_cards(cfg: BleuConfig, n: dict[str, str]) -> _Made:
    """The cards about the paper's own metric."""
    c1, refs = EXAMPLE_1.candidates[0], tuple(EXAMPLE_1.references)
    one, three = make_signature(cfg, 1), make_signature(cfg, len(refs))
    return {
        "mean": (
            {"corpus BLEU": n["corpus"], "mean of sentence BLEU": n["mean"]},
            "",
            (),
            "",
            (("", make_signature(cfg, int(n["nrefs"]))),),
        ),
        "references": (
            {"all three": n["all3"], **{f"Reference {k}": n[f"ref{k}"] for k in (1, 2, 3)}},
            c1,
            refs[:1],
            "",
            (("all three", three), ("one reference alone", one)),
        ),
        "tokenization": (
            {"paper's words": n["all3"], "13a": n["tok13a"]},
            c1,
            refs,
            "13a",
            (("the paper's words", three), ("13a", make_signature(replace(cfg, tokenize="13a"), len(refs)))),
        ),
        "paraphrase": ({"paraphrase": n["para"]}, PARAPHRASE[0], (PARAPHRASE[1],), "", (("", one),)),
        "half": ({"Candidate 1": n["all3"]}, c1, refs, "", (("", three),)),
        "human": (
            {"Reference 1 vs 2 and 3": n["human"]},
            refs[0],
            refs[1:],
            "",
            (("", make_signature(cfg, len(refs) - 1)),),
        ),
    }


def _after_cards(cfg: BleuConfig, n: dict[str, str]) -> _Made:
    """The cards students ask after the paper: what a score means, and whether BLEU is still used (issue 33)."""
    refs = tuple(EXAMPLE_1.references)
    one, three = make_signature(cfg, 1), make_signature(cfg, len(refs))
    return {
        "scale": (
            {"all three": n["all3"], "Reference 1 alone": n["ref1"], "13a": n["tok13a"]},
            "",  # no demo of its own: the references and tokenization cards open these two sentences
            (),
            "",
            (
                ("all three", three),
                ("Reference 1 alone", one),
                ("13a", make_signature(replace(cfg, tokenize="13a"), len(refs))),
            ),
        ),
        "still": (
            {"BLEU": n["all3"], "chrF": n["chrf_c1"]},
            "",  # the half card opens this sentence
            (),
            "",
            (("BLEU", three), ("chrF", Chrf().signature(len(refs)))),
        ),
    }
