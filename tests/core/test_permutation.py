"""The segment-swapping permutation test of two metrics' correlation with human scores (issue 30): the vectorised
test against a port of mt-metrics-eval's ``stats.PermutationSigDiff`` loop on the same coins, and its properties."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.stats

from bleu_core.significance.permutation import permutation_test, swap_draws


def _port(gold, s1, s2, coins, corr_fcn) -> tuple[float, float]:
    """mt-metrics-eval's PermutationSigDiff (stats.py), line for line, with two changes the test of segment swaps
    needs: its coin per element is tossed per segment for every system (``w1`` keeps, so ``1 - coin``), and a
    system's score is the mean of its segment scores; and equal differences up to rounding count as at least."""
    m1 = scipy.stats.zscore(s1.ravel()).reshape(s1.shape)
    m2 = scipy.stats.zscore(s2.ravel()).reshape(s2.shape)

    def corr(ms):
        return corr_fcn(gold, ms.mean(axis=1))[0]

    delta = corr(m2) - corr(m1)
    large_delta_count = 0
    for coin in coins:
        w1 = 1 - coin.astype(float)
        w2 = 1 - w1
        c1, c2 = corr(w1 * m1 + w2 * m2), corr(w2 * m1 + w1 * m2)
        if c2 - c1 >= delta - 1e-12:
            large_delta_count += 1
    return large_delta_count / len(coins), delta


def _case(seed: int, n: int = 8, m: int = 60, noise: float = 1.5):
    rng = np.random.default_rng(seed)
    human = rng.normal(size=(n, m)) + np.linspace(0, 1, n)[:, None]
    a = 3 * human + rng.normal(scale=noise, size=(n, m)) + 10  # another scale: the z-scoring must take it out
    b = human + rng.normal(scale=noise * 1.3, size=(n, m))
    return human.mean(axis=1), a, b


@pytest.mark.parametrize(
    ("correlation", "fcn"), [("pearson", scipy.stats.pearsonr), ("kendall", scipy.stats.kendalltau)]
)
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_matches_the_port_of_mt_metrics_eval_on_the_same_coins(correlation, fcn, seed) -> None:
    gold, a, b = _case(seed)
    t = permutation_test(gold, a, b, correlation=correlation, trials=300, seed=seed)
    p, delta = _port(gold, a, b, swap_draws(a.shape[1], trials=300, seed=seed), fcn)
    assert t.p_value == p
    assert t.delta == pytest.approx(delta, abs=1e-12)
    assert t.corr_a == pytest.approx(fcn(gold, a.mean(axis=1))[0], abs=1e-12)
    assert t.corr_b == pytest.approx(fcn(gold, b.mean(axis=1))[0], abs=1e-12)
    assert 0 < t.p_value < 1  # a case where draws fall on both sides, so the count is tested


@pytest.mark.parametrize("correlation", ["pearson", "kendall"])
def test_identical_metrics_give_p_one(correlation) -> None:
    gold, a, _ = _case(4)
    t = permutation_test(gold, a, a.copy(), correlation=correlation, trials=200, seed=5)
    assert t.delta == 0
    assert t.p_value == 1.0


@pytest.mark.parametrize("correlation", ["pearson", "kendall"])
def test_the_human_score_plus_noise_beats_noise(correlation) -> None:
    rng = np.random.default_rng(6)
    human = rng.normal(size=(10, 80)) + np.linspace(0, 2, 10)[:, None]
    good, bad = human + rng.normal(scale=0.3, size=human.shape), rng.normal(size=human.shape)
    t = permutation_test(human.mean(axis=1), bad, good, correlation=correlation, trials=500, seed=7)
    assert t.corr_b > 0.9
    assert t.p_value < 0.01
    back = permutation_test(human.mean(axis=1), good, bad, correlation=correlation, trials=500, seed=7)
    assert back.p_value > 0.99  # the other direction: A is the better one


def test_seeded_and_shape_checked() -> None:
    gold, a, b = _case(8)
    assert permutation_test(gold, a, b, seed=3) == permutation_test(gold, a, b, seed=3)
    with pytest.raises(ValueError, match="do not fit 7 gold scores"):
        permutation_test(gold[:7], a, b)
