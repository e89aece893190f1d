"""Golden tables: the paper's examples (Papineni et al. 2002), checked by hand, and explain_segment's views."""

from __future__ import annotations

import math
from fractions import Fraction

import pytest
from sacrebleu.metrics import BLEU

from bleu_core import BleuConfig, corpus_bleu, explain_segment, sentence_bleu
from bleu_core.engine.stats import closest_ref_len
from bleu_core.teaching.paper import BEST_MATCH_EXAMPLE, EXAMPLE_1, EXAMPLE_2, EXAMPLE_3, EXAMPLE_4, EXAMPLES
from tests.core.cases import assert_same_as_sacrebleu

PAPER = BleuConfig.paper()
CAND1, CAND2 = EXAMPLE_1.candidates
REFS1 = EXAMPLE_1.references


def fractions(hyp: str, refs: tuple[str, ...], orders: int = 4) -> list[tuple[int, int]]:
    s = corpus_bleu([hyp], [[r] for r in refs], tokenize="paper", lowercase=True, smooth_method="none")
    return list(zip(s.counts, s.totals, strict=True))[:orders]


# --- the paper's fractions ----------------------------------------------------------------------------


def test_example_1_candidate_1() -> None:
    assert fractions(CAND1, REFS1) == [(17, 18), (10, 17), (7, 16), (4, 15)]


def test_example_1_candidate_2() -> None:
    assert fractions(CAND2, REFS1, 2) == [(8, 14), (1, 13)]


def test_example_2_clipping() -> None:
    assert fractions(EXAMPLE_2.candidates[0], EXAMPLE_2.references, 2) == [(2, 7), (0, 6)]


def test_example_3_short_candidate() -> None:
    s = corpus_bleu(
        [EXAMPLE_3.candidates[0]], [[r] for r in REFS1], tokenize="paper", lowercase=True, smooth_method="none"
    )
    assert list(zip(s.counts, s.totals, strict=True))[:2] == [(2, 2), (1, 1)]
    # c = 2, r = 16 (closest of 16, 18, 16): BP = exp(1 - 16/2) = e^-7
    assert (s.sys_len, s.ref_len) == (2, 16)
    assert s.bp == pytest.approx(math.exp(-7), rel=1e-12)


@pytest.mark.parametrize("key", sorted(EXAMPLES))
def test_paper_module_expected_fractions_hold(key: str) -> None:
    ex = EXAMPLES[key]
    for cand, expected in zip(ex.candidates, ex.expected, strict=False):
        assert fractions(cand, ex.references, len(expected)) == list(expected)


def test_without_paper_tokenizer_the_fractions_change() -> None:
    # 13a keeps "." as a token and is case-sensitive: the paper's numbers need the paper tokenizer + lowercase
    s = corpus_bleu([CAND1], [[r] for r in REFS1])
    assert (s.counts[0], s.totals[0]) != (17, 18)


def test_example_1_score_is_the_geometric_mean() -> None:
    # c = 18 = r (reference 2 has 18 words): BP = 1, BLEU = (17/18 * 10/17 * 7/16 * 4/15) ** (1/4)
    s = corpus_bleu([CAND1], [[r] for r in REFS1], tokenize="paper", lowercase=True, smooth_method="none")
    expected = float(Fraction(17, 18) * Fraction(10, 17) * Fraction(7, 16) * Fraction(4, 15)) ** 0.25
    assert (s.sys_len, s.ref_len, s.bp) == (18, 18, 1.0)
    assert s.score / 100 == pytest.approx(expected, rel=1e-12)


def test_paper_numbers_equal_sacrebleu_on_the_same_tokens() -> None:
    # sacrebleu is the oracle for the arithmetic: feed it our paper tokens with tokenize="none"
    for ex in EXAMPLES.values():
        for cand in ex.candidates:
            e = explain_segment(cand, ex.references, PAPER)
            want = BLEU(tokenize="none", smooth_method="none").corpus_score(
                [" ".join(e.hyp_tokens)], [[" ".join(r)] for r in e.ref_tokens]
            )
            got = corpus_bleu(
                [cand], [[r] for r in ex.references], tokenize="paper", lowercase=True, smooth_method="none"
            )
            assert_same_as_sacrebleu(got, want, cand)


# --- the clipping table, rows checked by hand -----------------------------------------------------------


def row(e, n: int, *ngram: str):  # type: ignore[no-untyped-def]
    return next(r for r in e.orders[n - 1].rows if r.ngram == ngram)


@pytest.mark.parametrize(
    ("word", "count", "ref_counts", "max_ref", "clipped"),
    [
        ("the", 3, (1, 4, 4), 4, 3),  # "the military" / "the guiding ... military ... command ... party" / ...
        ("that", 1, (2, 0, 0), 2, 1),  # "action that ensures that the"
        ("obeys", 1, (0, 0, 0), 0, 0),  # the only unmatched unigram: 17/18
        ("which", 1, (0, 1, 0), 1, 1),
        ("always", 1, (0, 1, 1), 1, 1),
        ("commands", 1, (1, 0, 0), 1, 1),  # reference 2 says "command"
        ("guide", 1, (1, 0, 1), 1, 1),  # reference 2 says "guiding"
        ("party", 1, (1, 1, 1), 1, 1),  # lowercase folds "Party"
        ("military", 1, (1, 1, 0), 1, 1),  # reference 3 says "army"
    ],
)
def test_clipping_table_rows_example_1(word: str, count: int, ref_counts: tuple, max_ref: int, clipped: int) -> None:
    e = explain_segment(CAND1, REFS1, PAPER)
    r = row(e, 1, word)
    assert (r.count, r.ref_counts, r.max_ref_count, r.clipped) == (count, ref_counts, max_ref, clipped)


def test_clipping_table_bigrams_example_1() -> None:
    e = explain_segment(CAND1, REFS1, PAPER)
    matched = sorted(" ".join(r.ngram) for r in e.orders[1].rows if r.clipped)
    assert matched == sorted(
        [
            "it is",
            "is a",
            "a guide",
            "guide to",
            "to action",
            "ensures that",
            "that the",
            "the military",
            "of the",
            "the party",
        ]
    )
    assert row(e, 2, "of", "the").ref_counts == (0, 1, 1)


def test_clipping_table_example_2() -> None:
    e = explain_segment(EXAMPLE_2.candidates[0], EXAMPLE_2.references, PAPER)
    (r1,) = e.orders[0].rows
    assert (r1.ngram, r1.count, r1.ref_counts, r1.max_ref_count, r1.clipped) == (("the",), 7, (2, 1), 2, 2)
    (r2,) = e.orders[1].rows
    assert (r2.ngram, r2.count, r2.ref_counts, r2.max_ref_count, r2.clipped) == (("the", "the"), 6, (0, 0), 0, 0)


def test_table_sums_are_matches_and_totals() -> None:
    for ex in EXAMPLES.values():
        for cand in ex.candidates:
            e = explain_segment(cand, ex.references, PAPER)
            for o in e.orders:
                assert sum(r.clipped for r in o.rows) == o.matches
                assert sum(r.count for r in o.rows) == o.total
                assert all(r.clipped == min(r.count, r.max_ref_count) for r in o.rows)
                assert all(r.max_ref_count == max(r.ref_counts) for r in o.rows)
            assert tuple(o.matches for o in e.orders) == e.stats.matches
            assert tuple(o.total for o in e.orders) == e.stats.totals


# --- best match length -------------------------------------------------------------------------------------


def test_best_match_length_12_15_17() -> None:
    c, lens = BEST_MATCH_EXAMPLE
    assert (c, lens) == (12, (12, 15, 17))
    assert closest_ref_len(c, lens) == 12
    hyp = " ".join(f"w{i}" for i in range(12))
    refs = [" ".join(f"w{i}" for i in range(n)) for n in lens]
    s = sentence_bleu(hyp, refs, smooth_method="none")
    assert (s.sys_len, s.ref_len, s.bp) == (12, 12, 1.0)


@pytest.mark.parametrize(
    ("c", "lens", "r"),
    [
        (14, (12, 16), 12),  # a tie goes to the shorter reference
        (16, (17, 15), 15),
        (13, (12, 15, 17), 12),
        (14, (12, 15, 17), 15),
        (16, (12, 15, 17), 15),
        (17, (17, 17), 17),
        (0, (3, 1), 1),
        (5, (), 0),
    ],
)
def test_closest_ref_len(c: int, lens: tuple[int, ...], r: int) -> None:
    assert closest_ref_len(c, lens) == r
    if lens:  # and as sacrebleu's own helper
        assert BLEU()._get_closest_ref_len(c, list(lens)) == r


def test_best_ref_and_lengths_example_1() -> None:
    e = explain_segment(CAND1, REFS1, PAPER)
    assert (e.hyp_len, e.ref_lens, e.closest_ref_len, e.best_ref) == (18, (16, 18, 16), 18, 1)
    e3 = explain_segment(EXAMPLE_3.candidates[0], REFS1, PAPER)
    assert (e3.closest_ref_len, e3.best_ref) == (16, 0)  # tie 16/16: the first reference of that length


# --- occurrences: matched, clipped, unmatched, and who licensed them ---------------------------------------


def test_occurrences_example_2() -> None:
    e = explain_segment(EXAMPLE_2.candidates[0], EXAMPLE_2.references, PAPER)
    uni = e.orders[0].occurrences
    assert [o.status for o in uni] == ["matched"] * 2 + ["clipped"] * 5
    assert all(o.refs == (0, 1) for o in uni)
    assert uni[0].ref_positions == ((0, 4), (5,))
    assert [o.status for o in e.orders[1].occurrences] == ["unmatched"] * 6
    assert all(o.refs == () for o in e.orders[1].occurrences)


def test_occurrences_example_1() -> None:
    e = explain_segment(CAND1, REFS1, PAPER)
    by_word = {}
    for o in e.orders[0].occurrences:
        by_word.setdefault(o.ngram[0], []).append(o)
    (obeys,) = by_word["obeys"]
    assert (obeys.start, obeys.status, obeys.refs) == (12, "unmatched", ())
    (that,) = by_word["that"]
    assert (that.status, that.refs, that.ref_positions) == ("matched", (0,), ((6, 8), (), ()))
    (which,) = by_word["which"]
    assert (which.status, which.refs) == ("matched", (1,))
    assert [o.start for o in by_word["the"]] == [9, 13, 16]
    assert all(o.status == "matched" and o.refs == (0, 1, 2) for o in by_word["the"])
    statuses = [o.status for o in e.orders[0].occurrences]
    assert statuses.count("matched") == 17
    assert statuses.count("unmatched") == 1


def test_occurrence_counts_agree_with_the_table() -> None:
    for ex in EXAMPLES.values():
        for cand in ex.candidates:
            e = explain_segment(cand, ex.references, PAPER)
            for o in e.orders:
                for r in o.rows:
                    occ = [x for x in o.occurrences if x.ngram == r.ngram]
                    assert len(occ) == r.count
                    assert sum(x.status == "matched" for x in occ) == r.clipped
                    if r.max_ref_count == 0:
                        assert all(x.status == "unmatched" for x in occ)
                    else:
                        assert {x.refs for x in occ} == {tuple(k for k, c in enumerate(r.ref_counts) if c)}


# --- recall view, token_max_order, log terms ----------------------------------------------------------------


def test_missed_ngrams_example_1() -> None:
    e = explain_segment(CAND1, REFS1, PAPER)
    missed = {m.ngram: m.ref_counts for m in e.orders[0].missed}
    assert missed[("heed",)] == (1, 0, 1)
    assert missed[("forever",)] == (1, 0, 0)
    assert missed[("command",)] == (0, 1, 0)
    assert missed[("army",)] == (0, 0, 1)
    assert ("the",) not in missed
    cand = set(e.hyp_tokens)
    every_ref_word = {w for r in e.ref_tokens for w in r}
    assert {g[0] for g in missed} == every_ref_word - cand


def test_missed_ngrams_example_4() -> None:
    # "I always do." against "I invariably do." ... misses "invariably" and "perpetually": the recall problem
    e = explain_segment(EXAMPLE_4.candidates[1], EXAMPLE_4.references, PAPER)
    assert {m.ngram for m in e.orders[0].missed} == {("invariably",), ("perpetually",)}
    assert e.orders[0].matches == e.orders[0].total == 3


def test_token_max_order_example_1() -> None:
    e = explain_segment(CAND1, REFS1, PAPER)
    # it is a guide to action | which | ensures that the military | always | obeys | the commands | of the party
    assert e.token_max_order() == (4, 4, 4, 4, 4, 4, 1, 4, 4, 4, 4, 1, 0, 1, 1, 3, 3, 3)


def test_token_max_order_examples_2_and_3() -> None:
    e2 = explain_segment(EXAMPLE_2.candidates[0], EXAMPLE_2.references, PAPER)
    assert e2.token_max_order() == (1, 1, 0, 0, 0, 0, 0)
    e3 = explain_segment(EXAMPLE_3.candidates[0], REFS1, PAPER)
    assert e3.token_max_order() == (2, 2)


@pytest.mark.parametrize(
    "config",
    [
        PAPER,
        BleuConfig.sentence(),
        BleuConfig(tokenize="paper", lowercase=True, smooth_method="floor", max_ngram_order=6),
        BleuConfig(tokenize="paper", smooth_method="add-k", weights=(0.4, 0.3, 0.2, 0.1)),
        BleuConfig(tokenize="13a", smooth_method="exp", use_effective_order=True, weights=(0.1, 0.2, 0.3, 0.4)),
        # Example 3 is 2 words: effective order keeps orders 1-2, whose weights are 0 here
        BleuConfig(tokenize="paper", lowercase=True, use_effective_order=True, weights=(0.0, 0.0, 0.5, 0.5)),
        BleuConfig(tokenize="paper", lowercase=True, use_effective_order=True, weights=(0.0, 0.0, 0.0, 1.0)),
    ],
)
def test_log_terms_sum_to_log_bleu(config: BleuConfig) -> None:
    for ex in EXAMPLES.values():
        for cand in ex.candidates:
            e = explain_segment(cand, ex.references, config)
            terms, log_bp = e.log_terms()
            if e.score.score > 0:
                assert math.fsum(terms) + log_bp == pytest.approx(math.log(e.score.score / 100), abs=1e-12)
            else:
                assert math.fsum(terms) + log_bp == -math.inf or e.score.score == 0


def test_log_terms_example_3_shows_the_brevity_penalty() -> None:
    e = explain_segment(EXAMPLE_3.candidates[0], REFS1, BleuConfig(tokenize="paper", lowercase=True, max_ngram_order=2))
    terms, log_bp = e.log_terms()
    assert terms == pytest.approx((0.0, 0.0))  # log(2/2) and log(1/1)
    assert log_bp == pytest.approx(1 - 16 / 2)
