"""BLEU against human scores at system level: each statistic equals scipy's, on WMT22 zh-en and at random."""

from __future__ import annotations

import csv
import math

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from scipy import stats as sp

from bleu_core.config import BleuConfig
from bleu_core.engine import ReferenceSet
from bleu_core.metrics.bleu import score_many
from bleu_core.significance.agreement import (
    agreement,
    kendall_tau_b,
    kendall_tau_c,
    pairwise_accuracy,
    pearson,
    spearman,
)


def _scipy(x, y) -> dict[str, float]:
    return {
        "pearson": sp.pearsonr(x, y).statistic,
        "spearman": sp.spearmanr(x, y).statistic,
        "kendall_tau_b": sp.kendalltau(x, y, variant="b").statistic,
        "kendall_tau_c": sp.kendalltau(x, y, variant="c").statistic,
    }


def _ours(x, y) -> dict[str, float]:
    return {
        "pearson": pearson(x, y),
        "spearman": spearman(x, y),
        "kendall_tau_b": kendall_tau_b(x, y),
        "kendall_tau_c": kendall_tau_c(x, y),
    }


def _wmt22(real):
    s = real["wmt22-general-zh-en"]
    root = s.ref_paths[0].parent
    with (root / "human_scores.tsv").open(encoding="utf-8") as f:
        human = {row["system"]: float(row["da_z"]) for row in csv.DictReader(f, delimiter="\t") if row["kind"] == "mt"}
    refs = ReferenceSet(s.refs())
    names = [p.stem for p in s.sys_paths if p.stem in human]
    paths = [p for p in s.sys_paths if p.stem in human]
    bleu = [float(score_many(refs.stats(s.system(p)).sum(axis=0)[None, :], BleuConfig())[0]) for p in paths]
    return names, bleu, [human[n] for n in names]


def test_wmt22_equals_scipy_and_interval_contains_value(real) -> None:
    names, bleu, human = _wmt22(real)
    assert len(names) >= 10
    ours, ref = _ours(bleu, human), _scipy(bleu, human)
    for k in ref:
        assert ours[k] == pytest.approx(ref[k], abs=1e-12), k
    a = agreement(bleu, human, trials=500, seed=7)
    assert a.n == len(names)
    assert a.note == ""
    for k, (lo, hi) in a.intervals.items():
        assert lo <= a.values[k] <= hi, k
        assert hi - lo > 0.01, k  # a dozen systems: never a point
    assert agreement(bleu, human, trials=500, seed=7) == a  # the draws follow the seed


@settings(max_examples=150, deadline=None, derandomize=True)
@given(
    st.lists(
        st.tuples(st.sampled_from([1.0, 2.0, 2.0, 3.5, 7.0]), st.sampled_from([0.1, 0.2, 0.2, 0.9])),
        min_size=3,
        max_size=9,
    )
)
def test_random_with_ties_equal_scipy(pairs) -> None:
    x, y = [p[0] for p in pairs], [p[1] for p in pairs]
    ours, ref = _ours(x, y), _scipy(x, y) if len(set(x)) > 1 and len(set(y)) > 1 else {}
    for k, v in ref.items():
        if math.isnan(v):
            assert math.isnan(ours[k]), k
        else:
            assert ours[k] == pytest.approx(v, abs=1e-12), k
    i, j = np.triu_indices(len(x), 1)
    agree = [np.sign(x[a] - x[b]) == np.sign(y[a] - y[b]) for a, b in zip(i, j)]
    assert pairwise_accuracy(x, y) == pytest.approx(sum(agree) / len(agree))


def test_two_systems_say_what_two_points_mean() -> None:
    a = agreement([30.0, 20.0], [0.5, 0.1])
    assert all(math.isnan(v) for v in a.values.values())
    assert "+1 or -1 by construction" in a.note
    assert a.note.endswith("the same way.")
    assert agreement([], []).note.startswith("No system")


def test_vectorised_bootstrap_equals_the_scalar_statistics_on_every_draw(real) -> None:
    from bleu_core.significance.agreement import _FUNCS, _bootstrap

    _, bleu, human = _wmt22(real)
    m, h = np.asarray(bleu), np.asarray(human)
    draws = np.random.default_rng(3).integers(0, len(m), size=(300, len(m)))
    draws[0] = 0  # one draw of a single system repeated: every statistic undefined
    boot = _bootstrap(m, h, draws)
    for k, f in _FUNCS.items():
        scalar = np.array([f(m[d], h[d]) for d in draws])
        assert np.allclose(boot[k], scalar, equal_nan=True, atol=1e-12), k
    assert math.isnan(boot["pearson"][0])
