"""The share of human judges expected to agree with a difference (Kocmi et al., ACL 2024), held against the
authors' own package, mt-thresholds."""

from __future__ import annotations

import math

import mt_thresholds
import pytest

from bleu_core.significance.thresholds import HUMAN_ACCURACY, delta_for_accuracy, human_accuracy


@pytest.mark.parametrize("metric", sorted(HUMAN_ACCURACY))
def test_the_curve_is_the_authors(metric: str) -> None:
    for delta in (0.05, 0.3, 1.0, 1.6, 2.0, 3.7, 10.0):
        ours = human_accuracy(delta, metric)
        assert ours == pytest.approx(mt_thresholds.accuracy(delta, metric), abs=1e-12)
        assert human_accuracy(-delta, metric) == ours  # the size of a difference, whichever system leads
    for accuracy in (0.55, 0.64, 0.8):
        theirs = mt_thresholds.delta(accuracy, metric)
        mine = delta_for_accuracy(accuracy * 100, metric)
        assert mine is not None
        assert mine == pytest.approx(theirs, abs=1e-9)


def test_what_the_issue_quotes_of_the_paper() -> None:
    assert round(human_accuracy(1.0) or 0) == 64
    assert round(human_accuracy(2.0) or 0) == 77
    assert human_accuracy(1e6) == pytest.approx(88.33, abs=0.01)  # BLEU never above 88%
    assert delta_for_accuracy(88.5) is None
    chrf_80 = delta_for_accuracy(80.0, "chrf")
    assert chrf_80 is not None
    assert 1.5 < chrf_80 < 1.8
    assert human_accuracy(1.0, "ter") is None  # not fitted
    assert human_accuracy(math.nan) is None
