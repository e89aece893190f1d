"""NIST mteval-v13a's sentence rule (bleu_core.teaching.mteval), on counts whose answer can be worked by hand."""

import math

import pytest

from bleu_core.engine.stats import SegmentStats
from bleu_core.teaching.mteval import mteval_v13a_score


def test_zero_over_zero_orders_count_as_one():
    # "of the" against a reference holding it: 2/2, 1/1, then no trigram or 4-gram; c = r = 2
    assert mteval_v13a_score(SegmentStats(2, 2, (2, 1, 0, 0), (2, 1, 0, 0))) == pytest.approx(100.0)


def test_unmatched_orders_halve_one_match_each_time():
    stats = SegmentStats(5, 6, (5, 3, 0, 0), (5, 4, 3, 2))
    expected = math.exp((math.log(1) + math.log(3 / 4) + math.log(1 / 6) + math.log(1 / 8)) / 4) * math.exp(1 - 6 / 5)
    assert mteval_v13a_score(stats) == pytest.approx(100 * expected)


def test_longer_than_reference_has_no_penalty_and_empty_scores_zero():
    assert mteval_v13a_score(SegmentStats(4, 3, (4, 3, 2, 1), (4, 3, 2, 1))) == pytest.approx(100.0)
    assert mteval_v13a_score(SegmentStats(0, 3, (0, 0, 0, 0), (0, 0, 0, 0))) == 0.0


def test_fewer_than_four_orders_has_no_mteval_score():
    assert mteval_v13a_score(SegmentStats(2, 2, (2, 1), (2, 1))) is None


def test_zero_over_zero_beside_an_imperfect_order_differs_from_effective_order():
    # two words both matched, their bigram not, no trigram: mteval divides the logs by 4
    stats = SegmentStats(2, 2, (2, 0, 0, 0), (2, 1, 0, 0))
    mteval = mteval_v13a_score(stats)
    effective = 100 * math.exp((math.log(1) + math.log(1 / 2)) / 2)  # sacreBLEU exp + effective order: 2 orders
    assert mteval == pytest.approx(100 * math.exp(math.log(1 / 2) / 4))
    assert mteval != pytest.approx(effective)
