"""Clusters and rank ranges: the rule of issue 21 held against the pairwise matrix, on real data and at random."""

from __future__ import annotations

import itertools
import math

import numpy as np
from hypothesis import given, settings, strategies as st

from bleu_core.config import BleuConfig
from bleu_core.engine import ReferenceSet
from bleu_core.significance import pairwise_matrix
from bleu_core.significance.ranking import Ranking, rank_pairwise, rank_systems
from bleu_core.significance.trials import default_trials


def _better(scores, adjusted, alpha, i: int, j: int) -> bool:
    p = adjusted[i][j]
    return scores[i] > scores[j] and not math.isnan(p) and p < alpha


def _check_rule(r: Ranking, scores, adjusted, alpha: float) -> None:
    """Every claim of the ranking, checked straight from the matrix."""
    n = len(scores)
    idx = [s.index for s in r.systems]
    assert sorted(idx) == list(range(n))
    assert [s.rank for s in r.systems] == list(range(1, n + 1))
    assert all(a.score >= b.score for a, b in itertools.pairwise(r.systems))
    for k in range(1, n):
        separated = all(_better(scores, adjusted, alpha, i, j) for i in idx[:k] for j in idx[k:])
        assert (k in r.boundaries) == separated, k
    for s in r.systems:
        above = sum(_better(scores, adjusted, alpha, j, s.index) for j in range(n))
        below = sum(_better(scores, adjusted, alpha, s.index, j) for j in range(n))
        assert s.rank_range == (1 + above, n - below)
        assert s.rank_range[0] <= s.rank <= s.rank_range[1]
    assert [s for c in r.clusters for s in c] == list(r.systems)
    assert [s.cluster for s in r.systems] == [c for c, grp in enumerate(r.clusters, 1) for _ in grp]


def test_clusters_of_wmt22_zh_en_follow_the_rule(real) -> None:
    s = real["wmt22-general-zh-en"]
    refs = ReferenceSet(s.refs())
    names = [p.stem for p in s.sys_paths]
    mats = [refs.stats(s.system(p)) for p in s.sys_paths]
    trials = default_trials(len(names))
    pw = pairwise_matrix(mats, names, BleuConfig(), trials=trials, seed=12345, nrefs=2)
    r = rank_pairwise(pw)
    _check_rule(r, pw.scores, pw.adjusted, 0.05)
    # 12 real systems spread over ~10 BLEU: more than one cluster, and not every system alone
    assert 1 < len(r.clusters) < len(names)
    assert r.systems[0].score == max(pw.scores)


@settings(max_examples=200, deadline=None, derandomize=True)
@given(st.data())
def test_rule_holds_on_random_matrices(data) -> None:
    n = data.draw(st.integers(1, 7))
    scores = data.draw(st.lists(st.sampled_from([10.0, 20.0, 20.0, 30.0, 31.0, 45.0]), min_size=n, max_size=n))
    p = np.full((n, n), math.nan)
    for i in range(n):
        for j in range(i + 1, n):
            p[i, j] = p[j, i] = data.draw(st.sampled_from([0.001, 0.04, 0.05, 0.2, math.nan]))
    alpha = data.draw(st.sampled_from([0.01, 0.05]))
    r = rank_systems([f"s{i}" for i in range(n)], scores, p.tolist(), alpha)
    _check_rule(r, scores, p.tolist(), alpha)


def test_all_significant_gives_one_system_per_cluster_and_none_gives_one_cluster() -> None:
    n = 4
    sig = [[math.nan if i == j else 0.001 for j in range(n)] for i in range(n)]
    r = rank_systems(list("abcd"), [4.0, 3.0, 2.0, 1.0], sig)
    assert r.boundaries == (1, 2, 3)
    assert [s.rank_range for s in r.systems] == [(1, 1), (2, 2), (3, 3), (4, 4)]
    none = [[math.nan if i == j else 0.5 for j in range(n)] for i in range(n)]
    r = rank_systems(list("abcd"), [4.0, 3.0, 2.0, 1.0], none)
    assert r.boundaries == ()
    assert [s.rank_range for s in r.systems] == [(1, 4)] * 4
