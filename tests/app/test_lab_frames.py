"""The lab's corpora and its prediction game (teaching-text defect 5, item 26 and proposal G; teacher-walk 18-19):
each variant's demonstration corpus moves the score, the game calls right the sign the numbers show, and the
built-in short-sentence corpus has the brevity penalties the review describes, computed here from its words."""

from __future__ import annotations

import math
import re
from pathlib import Path

import pytest

from bleu_app.frames import lab
from bleu_core.config import BleuConfig
from bleu_core.teaching.variants import VARIANTS, VariantResult, run_variant
from tests.app.test_paper_quotes import PAPER, normalise, quotes

CONFIGS = {"paper": BleuConfig.paper(), "sacrebleu": BleuConfig()}


def _run(variant: str, corpus: lab.LabCorpus, config: BleuConfig, nltk: int = 0) -> VariantResult:
    return run_variant(variant, list(corpus.hyps), [list(r) for r in corpus.refs], config, nltk_smoothing=nltk)


def _sign(r: VariantResult) -> str:
    # independent of frames.lab: compare the two numbers as the lab prints them
    a, b = round(r.score, 2), round(r.correct, 2)
    return "up" if a > b else "down" if a < b else "same"


@pytest.mark.parametrize("preset", list(CONFIGS))
@pytest.mark.parametrize("variant", list(VARIANTS))
def test_every_variant_moves_the_score_on_its_demonstration_corpus(variant, preset):
    corpus = lab.CORPORA[lab.DEMO[variant]]
    result = _run(variant, corpus, CONFIGS[preset])
    assert round(result.difference, 2) != 0, (variant, corpus.key, result.score, result.correct)
    # the game calls right exactly the sign of the difference, and only that answer
    for guess in lab.CHOICES:
        assert lab.verdict(guess, result, corpus).right == (guess == _sign(result))
    # and explains it with the variant's own reason for that direction, not the fallback
    assert not lab.why(result, corpus).startswith("On this corpus it")


@pytest.mark.parametrize("nltk", [0, 2])
@pytest.mark.parametrize("corpus", list(lab.CORPORA))
def test_the_game_and_the_marks_agree_with_the_numbers_on_every_corpus(corpus, nltk):
    c = lab.CORPORA[corpus]
    for variant in VARIANTS:
        result = _run(variant, c, BleuConfig.paper(), nltk)
        sign = _sign(result)
        assert lab.direction(result) == sign
        assert (lab.mark(result) == "no effect here") == (sign == "same")
        v = lab.verdict(sign, result, c)
        assert v.right
        said = {"up": "raises", "down": "lowers", "same": "does not change"}[sign]
        assert v.headline == f"Right: on this corpus it {said} BLEU ({result.score:.2f} against the correct " + (
            f"{result.correct:.2f})."
        )
        wrong = next(g for g in lab.CHOICES if g != sign)
        assert lab.verdict(wrong, result, c).headline.startswith("Not quite:")


def test_the_short_sentence_corpus_is_the_reviews_case():
    corpus = lab.CORPORA["short_bp"]
    assert corpus.built_in
    assert "written for this lab" in corpus.about
    assert "not from the paper" in corpus.about
    lengths = []
    for hyp, ref in zip(corpus.hyps, corpus.refs[0], strict=True):
        assert ref is not None
        lengths.append((len(hyp.split()), len(ref.split())))  # no punctuation, no capitals: words are the tokens
    short = [(c, r) for c, r in lengths if c < r]
    assert short == [(2, 3)] * 10  # ten 2-word candidates against 3-word references
    long_ = [(c, r) for c, r in lengths if c > r]
    assert len(long_) == 1
    assert long_[0][0] - long_[0][1] == 10  # one candidate 10 words too long
    c, r = sum(x for x, _ in lengths), sum(y for _, y in lengths)
    assert c == r  # corpus BP = 1
    bps = [1.0 if ci > ri else math.exp(1 - ri / ci) for ci, ri in lengths]
    assert round(bps[0], 2) == 0.61
    mean = sum(bps) / len(bps)
    assert round(mean, 2) == 0.64  # (10 · e^(-1/2) + 1) / 11
    for preset, config in CONFIGS.items():
        got = lab.sentence_bps(corpus, config)
        assert (got.c, got.r, got.corpus_bp) == (c, r, 1.0), preset
        assert got.mean_bp == pytest.approx(mean, abs=1e-12)
        # the variant multiplies the corpus's geometric mean (BP 1) by the mean of the sentence BPs
        result = _run("sentence_bp", corpus, config)
        assert result.score == pytest.approx(result.correct * mean, rel=1e-9)
        assert f"BP = {mean:.4f} (mean of sentence BPs) instead of 1.0000" in result.detail
        text = lab.short_bp_text(got)
        assert f"each sentence BP e^(1−3/2) = {bps[0]:.2f}" in text
        assert f"c = {c}, r = {r}: BP = 1.00" in text
        assert text.endswith(f"The mean of the 11 sentence BPs is {mean:.2f}.")


def test_the_paper_corpus_shows_the_other_direction_of_averaging():
    # teaching-text defect 5: on the paper's six candidates the averaged BP is above the corpus BP; the text says so
    corpus = lab.CORPORA["paper"]
    result = _run("sentence_bp", corpus, BleuConfig.paper())
    bp = lab.sentence_bps(corpus, BleuConfig.paper())
    assert bp.mean_bp > bp.corpus_bp
    assert (bp.c, bp.r) == (49, 63)
    assert lab.direction(result) == "up"
    assert "count no more than any other" in lab.why(result, corpus)
    assert "punished harshly" not in lab.why(result, corpus)  # the warning goes with the corpus that lowers BLEU
    low = _run("sentence_bp", lab.CORPORA["short_bp"], BleuConfig.paper())
    assert "punished harshly" in lab.why(low, lab.CORPORA["short_bp"])


def test_a_zero_score_kept_at_zero_says_why():
    corpus = lab.CORPORA["ex3"]
    result = _run("shortest_ref", corpus, BleuConfig.paper())
    assert result.correct == 0
    assert lab.why(result, corpus).startswith("The correct score is 0 here")


def test_nltk_rounds_are_kept_per_smoothing_method():
    keys = {lab.game_key("nltk", "paper", m) for m in range(5)}
    assert len(keys) == 5
    assert lab.game_key("shortest_ref", "paper", 0) == lab.game_key("shortest_ref", "paper", 3)
    assert lab.game_key("shortest_ref", "paper", 0) != lab.game_key("shortest_ref", "ex1", 0)


def _texts() -> list[str]:
    return [t for way in lab._WHY.values() for t in way.values()] + [c.about for c in lab.CORPORA.values()]


def test_every_sentence_about_the_paper_quotes_its_section_or_says_inferred():
    docs = Path(__file__).resolve().parents[2] / "docs" / "learn"
    lab_md = [" ".join((docs / name).read_text(encoding="utf-8").split()) for name in ("lab.md", "lab_how.md")]
    for text in [*_texts(), *lab_md]:
        for sentence in re.split(r"(?<=[.:])\s+(?=[A-Z])", text):
            about = sentence.lower().replace("not from the paper", "").replace("the paper's preset", "")
            if "paper" in about:
                assert "section" in sentence or "inferred" in sentence, sentence
        for q in quotes(text):
            assert normalise(q.strip(" .")) in PAPER, q


def test_the_quote_check_can_fail():
    assert normalise("sentence brevity penalties are averaged harshly") not in PAPER
    assert any("punished harshly" in q for t in _texts() for q in quotes(t))  # the check reads the module's quotes
