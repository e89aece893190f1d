"""Each sentence's share of a BLEU gap (bleu_core.teaching.shares): the shares add up to the gap, and each one is the
integral of log BLEU's gradient along the straight line from A's statistics to B's, checked against a quadrature
of finite differences of BLEU written from its definition."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from sacrebleu.metrics import BLEU

from bleu_core.config import BleuConfig
from bleu_core.engine.references import ReferenceSet
from bleu_core.teaching.decomposition import leave_one_out_difference
from bleu_core.teaching.shares import gap_shares, integrated_gradient
from tests.conftest import RealSet

N = 4
Pair = tuple[list[list[str]], list[str], list[str], np.ndarray, np.ndarray]


def _log_bleu(s: np.ndarray, config: BleuConfig) -> float:
    """log BLEU from summed statistics, from the definition (BP and the geometric mean of the precisions)."""
    c, r = s[0], s[1]
    k = config.effective_smooth_value if config.smooth_method == "add-k" else 0.0
    logs = []
    for n in range(1, N + 1):
        shift = k if n > 1 else 0.0
        m, t = s[1 + n] + shift, s[1 + N + n] + shift
        logs.append(math.log(m / t) if m > 0 else math.log(config.effective_smooth_value / t))
    return min(0.0, 1 - r / c) + sum(logs) / N


def _shares_by_quadrature(a: np.ndarray, b: np.ndarray, config: BleuConfig) -> np.ndarray:
    """Each sentence's integral of the directional derivative, by Gauss-Legendre on each side of BP's kink."""
    ta, tb = a.sum(axis=0).astype(float), b.sum(axis=0).astype(float)
    g0, g1 = ta[1] - ta[0], tb[1] - tb[0]  # r - c at both ends
    cuts = [0.0, *([g0 / (g0 - g1)] if g0 * g1 < 0 else []), 1.0]
    x, w = np.polynomial.legendre.leggauss(40)
    grad_integral = np.zeros(len(ta))
    h = 1e-6 * max(1.0, float(np.abs(ta).max()))
    for lo, hi in itertools.pairwise(cuts):
        for xi, wi in zip(x, w, strict=True):
            s = ta + (lo + (xi + 1) / 2 * (hi - lo)) * (tb - ta)
            grad = [(_log_bleu(s + h * e, config) - _log_bleu(s - h * e, config)) / (2 * h) for e in np.eye(len(ta))]
            grad_integral += wi * (hi - lo) / 2 * np.asarray(grad)
    result: np.ndarray = (b - a).astype(float) @ grad_integral
    return result


def _random_pair(rng: np.random.Generator, n: int, *, shorter: bool) -> tuple[np.ndarray, np.ndarray]:
    def one(extra: int) -> np.ndarray:
        t1 = rng.integers(3, 30, n) + extra
        r = np.maximum(1, rng.integers(3, 30, n))
        t = [np.maximum(t1 - k, 0) for k in range(N)]
        m = [np.minimum(tk, rng.integers(1, 30, n)) for tk in t]
        return np.column_stack([t1, r, *m, *t])

    a, b = one(0), one(3 if shorter else 0)
    b[:, 1] = a[:, 1]  # the same references
    b[:4] = a[:4]  # four sentences translated alike
    return a, b


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize(
    "config", [BleuConfig(), BleuConfig(smooth_method="add-k"), BleuConfig(smooth_method="floor")], ids=str
)
def test_each_share_is_the_integrated_gradient(seed: int, config: BleuConfig) -> None:
    rng = np.random.default_rng(seed)
    a, b = _random_pair(rng, 40, shorter=seed % 2 == 0)
    s = gap_shares(a, b, config)
    assert s.finite, s.note
    assert s.log_shares is not None
    assert s.points is not None
    np.testing.assert_allclose(s.log_shares, _shares_by_quadrature(a, b, config), atol=1e-7, rtol=1e-6)
    assert s.points.sum() == pytest.approx(s.gap, abs=1e-9)
    assert s.log_shares.sum() == pytest.approx(s.log_ratio, abs=1e-12)
    assert (s.log_shares[:4] == 0).all()  # a sentence both systems translate alike has no share


@pytest.fixture(scope="module")
def wmt21_pair(wmt21: RealSet) -> Pair:
    refs = wmt21.refs()[:1]
    ref_set = ReferenceSet(refs)
    a, b = (wmt21.system(n) for n in ("Online-A", "Facebook-AI"))
    return refs, a, b, ref_set.stats(a), ref_set.stats(b)


def test_on_wmt21_the_shares_add_up_to_sacrebleus_gap_and_the_leave_one_out_effects_do_not(wmt21_pair: Pair) -> None:
    refs, a, b, ma, mb = wmt21_pair
    bleu = BLEU(references=refs)
    gap = bleu.corpus_score(b, None).score - bleu.corpus_score(a, None).score
    s = gap_shares(ma, mb)
    assert s.points is not None
    assert s.gap == pytest.approx(gap, abs=1e-9)
    assert s.points.sum() == pytest.approx(gap, abs=1e-9)
    loo = leave_one_out_difference(ma, mb)
    assert abs(loo.sum() - gap) > 1.0  # why the page shows shares: the effects do not add up to the gap
    same = [i for i, (x, y) in enumerate(zip(a, b, strict=True)) if x == y]
    assert same
    assert all(s.points[i] == 0 for i in same)
    assert any(loo[i] != 0 for i in same)


def test_shares_do_not_depend_on_the_order_of_the_sentences(wmt21_pair: Pair) -> None:
    _, _, _, ma, mb = wmt21_pair
    perm = np.random.default_rng(7).permutation(len(ma))
    s, p = gap_shares(ma, mb), gap_shares(ma[perm], mb[perm])
    assert s.points is not None
    assert p.points is not None
    np.testing.assert_allclose(p.points, s.points[perm], rtol=1e-12, atol=1e-15)


def test_where_no_share_is_defined_the_note_says_why() -> None:
    a = np.array([[5, 5, 4, 2, 1, 0, 5, 4, 3, 2]])
    b = np.array([[5, 5, 5, 3, 2, 1, 5, 4, 3, 2]])
    s = gap_shares(a, b, BleuConfig(smooth_method="none"))
    assert not s.finite
    assert s.points is None
    assert "BLEU of 0" in s.note
    g, note = integrated_gradient(a[0].tolist(), b[0].tolist(), BleuConfig(smooth_method="exp"))
    assert g is None
    assert "4-gram match" in note
    g, note = integrated_gradient(a[0].tolist(), a[0].tolist(), BleuConfig(use_effective_order=True))
    assert g is None
    assert "effective order" in note
