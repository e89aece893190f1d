"""Teaching variants: hand-computed numbers on tiny examples, an exposing example each, and oracles where the
mistake cannot matter (then the variant must equal the correct score)."""

from __future__ import annotations

import math
import random
from dataclasses import replace
from fractions import Fraction

import numpy as np
import pytest

from bleu_core import VARIANTS, BleuConfig, InputError, explain_segment, run_variant, sentence_bleu
from bleu_core.metrics.bleu import corpus_score
from bleu_core.teaching.paper import EXAMPLE_1, EXAMPLE_2, EXAMPLE_3, EXAMPLE_4
from tests.core.cases import random_corpus

PAPER = BleuConfig.paper()
UNI = BleuConfig(tokenize="none", smooth_method="none", max_ngram_order=1)  # p_1 only: easy to do by hand
REFS1 = [[r] for r in EXAMPLE_1.references]
REFS2 = [[r] for r in EXAMPLE_2.references]
C1 = [EXAMPLE_1.candidates[0]]
C2 = [EXAMPLE_2.candidates[0]]

# --- hand-computed -------------------------------------------------------------------------------------


def test_shortest_reference_example_1() -> None:
    r = run_variant("shortest_ref", C1, REFS1, PAPER)
    assert r.detail == "r = 16 (sum of shortest) instead of 18 (closest)"
    # c = 18 > 16 and c = 18 = r: BP is 1 both ways here
    assert r.score == pytest.approx(r.correct, abs=1e-9)


def test_shortest_reference_exposed() -> None:
    # c = 10, references of 6 and 11 words: closest r = 11 (BP = e^-0.1), shortest r = 6 (BP = 1)
    hyp, refs = ["a b c d e f g h i j"], [["a b c d e f"], ["a b c d e f g h i j k"]]
    r = run_variant("shortest_ref", hyp, refs, UNI)
    assert r.correct == pytest.approx(100 * math.exp(1 - 11 / 10), abs=1e-9)
    assert r.score == pytest.approx(100.0, abs=1e-9)
    assert r.difference > 9


def test_average_reference_exposed() -> None:
    # c = 10, references of 9 and 14: closest 9 (BP 1), average 11.5 (BP = exp(1 - 1.15))
    hyp, refs = ["a b c d e f g h i j"], [["a b c d e f g h i"], ["a b c d e f g h i j k l m n"]]
    r = run_variant("average_ref", hyp, refs, UNI)
    assert r.correct == pytest.approx(100.0, abs=1e-9)
    assert r.score == pytest.approx(100 * math.exp(1 - 11.5 / 10), abs=1e-9)
    assert r.detail == "r = 11.5 (sum of averages) instead of 9 (closest)"


def test_no_clipping_example_2() -> None:
    r = run_variant("no_clipping", C2, REFS2, PAPER)
    assert r.detail == "p_1 = 7/7 unclipped instead of 2/7"
    r1 = run_variant(
        "no_clipping", C2, REFS2, BleuConfig(tokenize="paper", lowercase=True, smooth_method="none", max_ngram_order=1)
    )
    # c = 7, references of 6 and 7 words: r = 7, BP = 1; p_1 = 7/7 instead of 2/7
    assert r1.score == pytest.approx(100.0, abs=1e-9)
    assert r1.correct == pytest.approx(100 * 2 / 7, abs=1e-9)


def test_sum_clipping_example_2() -> None:
    # "the": 2 in reference 1, 1 in reference 2: max 2, sum 3
    cfg = BleuConfig(tokenize="paper", lowercase=True, smooth_method="none", max_ngram_order=1)
    r = run_variant("sum_clipping", C2, REFS2, cfg)
    assert r.detail == "p_1 = 3/7 clipped by the sum over references instead of 2/7 (max)"
    assert r.score == pytest.approx(100 * 3 / 7, abs=1e-9)
    assert r.correct == pytest.approx(100 * 2 / 7, abs=1e-9)


def test_arithmetic_mean_example_1() -> None:
    r = run_variant("arithmetic_mean", C1, REFS1, PAPER)
    ps = [Fraction(17, 18), Fraction(10, 17), Fraction(7, 16), Fraction(4, 15)]
    assert r.score == pytest.approx(float(100 * sum(ps) / 4), abs=1e-9)  # BP = 1 (c = r = 18)
    assert r.correct == pytest.approx(100 * math.prod(float(p) for p in ps) ** 0.25, abs=1e-9)
    assert r.score > r.correct  # the arithmetic mean is never below the geometric one


def test_arithmetic_mean_with_zero_weights_on_the_effective_orders() -> None:
    # "a b c": effective order keeps orders 1-3, whose weights are all 0: they count alike (as score_from_stats)
    config = BleuConfig(tokenize="none", use_effective_order=True, weights=(0.0, 0.0, 0.0, 1.0))
    r = run_variant("arithmetic_mean", ["a b c"], [["a b x"]], config)
    assert r.score == pytest.approx((100 * 2 / 3 + 100 * 1 / 2 + 100 * 0.5 / 1) / 3, abs=1e-9)  # exp-smoothed p_3


def test_sentence_bp_exposed() -> None:
    # segment 1: c = 4 against r = 8, BP = e^-1; segment 2: c = 12 against r = 4, BP = 1;
    # corpus: c = 16 >= r = 12, BP = 1. p_1 = (4 + 4) / 16 = 1/2.
    hyps = ["a b c d", "a b c d e f g h i j k l"]
    refs = [["a b c d e f g h", "a b c d"]]
    r = run_variant("sentence_bp", hyps, refs, UNI)
    assert r.correct == pytest.approx(50.0, abs=1e-9)
    assert r.score == pytest.approx(50 * (math.exp(-1) + 1) / 2, abs=1e-9)
    assert r.detail.startswith(f"BP = {(math.exp(-1) + 1) / 2:.4f} (mean of sentence BPs) instead of 1.0000")


def test_mean_sentence_bleu_is_the_mean_of_sentence_bleu() -> None:
    rng = random.Random(5)
    for _ in range(60):
        hyps, refs = random_corpus(rng, max_refs=3, exotic=True)
        tok = rng.choice(["13a", "none", "char"])
        method = rng.choice(["exp", "floor", "add-k", "none"])
        eff = rng.random() < 0.5
        config = BleuConfig(tokenize=tok, smooth_method=method, use_effective_order=eff)  # type: ignore[arg-type]
        r = run_variant("mean_sentence_bleu", hyps, refs, config)
        sent = [
            sentence_bleu(
                h, [s[i] for s in refs if s[i] is not None], tokenize=tok, smooth_method=method, use_effective_order=eff
            ).score
            for i, h in enumerate(hyps)
        ]
        assert r.score == pytest.approx(float(np.mean(sent)), abs=1e-9)


def test_mean_sentence_bleu_changes_one_thing_and_names_the_other_mean() -> None:
    # issue 34: the lab's variant also turned on effective order, so on the paper's six candidates it said 25.09
    # (above corpus BLEU) where the lecture, the card and the handout say 8.41 (below it)
    six = [(c, e.references) for e in (EXAMPLE_1, EXAMPLE_2, EXAMPLE_3, EXAMPLE_4) for c in e.candidates]
    assert len(six) == 6
    hyps = [h for h, _ in six]
    refs = [[r[k] if k < len(r) else None for _, r in six] for k in range(max(len(r) for _, r in six))]
    r = run_variant("mean_sentence_bleu", hyps, refs, PAPER)
    alone = [explain_segment(h, list(rs), PAPER).score.score for h, rs in six]
    assert r.score == pytest.approx(sum(alone) / len(alone), abs=1e-9)
    assert f"{r.score:.2f}" == "8.41"
    assert r.score < r.correct
    eff = replace(PAPER, use_effective_order=True)
    with_eff = [explain_segment(h, list(rs), eff).score.score for h, rs in six]
    assert "with effective order, as sacreBLEU's sentence_bleu scores a sentence, the mean is " in r.detail
    assert r.detail.endswith(f"{sum(with_eff) / len(with_eff):.2f}")
    assert f"{sum(with_eff) / len(with_eff):.2f}" != "8.41"


def test_mean_sentence_bleu_exposed() -> None:
    # a perfect long segment and a wrong short one: corpus BLEU pools the counts, the mean does not
    hyps = ["a b c d e f g h i j k l", "x y z w"]
    refs = [["a b c d e f g h i j k l", "p q r s"]]
    r = run_variant("mean_sentence_bleu", hyps, refs, BleuConfig())
    assert r.score == pytest.approx(50.0, abs=1e-9)  # (100 + 0) / 2
    assert abs(r.difference) > 1


def test_double_count_formula() -> None:
    # "a a b" vs "a b": types a (c = 2, m = 1) and b (c = 1, m = 1): c*min(c, m) = 2 + 1 over c*c = 4 + 1
    r = run_variant("double_count", ["a a b"], [["a b"]], UNI)
    # review item 15: the 5 is derivable from the text: a twice (2×2) + b once (1×1); the right one is 3 words
    assert (
        r.detail
        == "p_1 = 3/5 (5 = the sum of c×c over each candidate's word types; the right denominator is its 3 words)"
    )
    assert "c×c to the denominator" in VARIANTS["double_count"].mistake
    assert r.score == pytest.approx(60.0, abs=1e-9)
    assert r.correct == pytest.approx(100 * 2 / 3, abs=1e-9)


def test_nltk_exposed_by_an_empty_order() -> None:
    # segment 1 has no 3- or 4-grams: NLTK still counts 1 in those denominators: p_3 = 3/4, p_4 = 2/3
    hyps, refs = ["a b", "c d e f g"], [["a b", "c d e f g"]]
    r = run_variant("nltk", hyps, refs, BleuConfig(tokenize="none"))
    assert r.correct == pytest.approx(100.0, abs=1e-9)
    assert r.score == pytest.approx(100 * (3 / 4 * 2 / 3) ** 0.25, abs=1e-9)


# --- every variant is exposed by its own example ---------------------------------------------------------

EXPOSING = {
    "shortest_ref": (["a b c d e f g h i j"], [["a b c d e f"], ["a b c d e f g h i j k"]], UNI),
    "average_ref": (["a b c d e f g h i j"], [["a b c d e f g h i"], ["a b c d e f g h i j k l m n"]], UNI),
    "no_clipping": (C2, REFS2, BleuConfig(tokenize="paper", lowercase=True, max_ngram_order=1)),
    "sum_clipping": (C2, REFS2, BleuConfig(tokenize="paper", lowercase=True, max_ngram_order=1)),
    "arithmetic_mean": (C1, REFS1, PAPER),
    "sentence_bp": (["a b c d", "a b c d e f g h i j k l"], [["a b c d e f g h", "a b c d"]], UNI),
    "mean_sentence_bleu": (
        ["a b c d e f g h i j k l", "x y z w"],
        [["a b c d e f g h i j k l", "p q r s"]],
        BleuConfig(),
    ),
    "double_count": (["a a b"], [["a b"]], UNI),
    "nltk": (["a b", "c d e f g"], [["a b", "c d e f g"]], BleuConfig(tokenize="none")),
}


def test_every_variant_has_an_exposing_example() -> None:
    assert set(EXPOSING) == set(VARIANTS)


@pytest.mark.parametrize("key", sorted(VARIANTS))
def test_variant_differs_from_correct_on_its_example(key: str) -> None:
    hyps, refs, config = EXPOSING[key]
    r = run_variant(key, hyps, refs, config)
    assert r.correct == pytest.approx(corpus_score(hyps, refs, config).score, abs=1e-12)
    assert abs(r.difference) > 1e-3, (key, r.score, r.correct, r.detail)
    assert 0.0 <= r.score <= 100.0 + 1e-9


@pytest.mark.parametrize("key", sorted(VARIANTS))
def test_variant_is_labelled(key: str) -> None:
    v = VARIANTS[key]
    assert v.key == key
    assert v.label
    assert v.mistake.endswith(".")
    assert v.who


def test_unknown_variant() -> None:
    with pytest.raises(InputError, match="unknown variant"):
        run_variant("nope", ["a"], [["a"]])


# --- where the mistake cannot matter, the variant must be exactly right ------------------------------------


def _no_repeats(tokens_line: str) -> str:
    return " ".join(dict.fromkeys(tokens_line.split()))


def test_variants_equal_correct_where_the_mistake_does_not_apply() -> None:
    rng = random.Random(2024)
    checked = 0
    for _ in range(200):
        hyps, refs = random_corpus(rng, max_refs=1, allow_none=False)
        # tokenize "none" and candidates without repeated words: clipping is never needed
        hyps = [_no_repeats(h) for h in hyps]
        method = rng.choice(["exp", "floor", "add-k", "none"])
        config = BleuConfig(tokenize="none", smooth_method=method, max_ngram_order=rng.randint(1, 5))  # type: ignore[arg-type]
        # one reference: shortest = average = closest, sum over references = max
        for key in ("shortest_ref", "average_ref", "sum_clipping", "no_clipping", "double_count"):
            r = run_variant(key, hyps, refs, config)
            assert r.score == pytest.approx(r.correct, abs=1e-9), (key, hyps, refs, config)
        # one segment: the mean of sentence BPs is the corpus BP; mean sentence BLEU is sentence BLEU
        one_h, one_r = hyps[:1], [s[:1] for s in refs]
        r = run_variant("sentence_bp", one_h, one_r, config)
        assert r.score == pytest.approx(r.correct, rel=1e-9, abs=1e-9)
        eff = BleuConfig(tokenize="none", smooth_method=method, use_effective_order=True)  # type: ignore[arg-type]
        r = run_variant("mean_sentence_bleu", one_h, one_r, eff)
        assert r.score == pytest.approx(r.correct, abs=1e-9)
        checked += 1
    assert checked == 200
