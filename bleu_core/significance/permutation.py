"""Does metric B agree with human scores better than metric A over systems? A permutation test that swaps the
two metrics' segment scores, after mt-metrics-eval's ``stats.PermutationSigDiff`` (Deutsch et al., 2021).

The method, as mt-metrics-eval's ``PermutationSigDiff`` does it:

- each metric's scores are z-scored over all of its scores (the two metrics are on different scales, and a swap
  must not move a score onto the other's scale);
- the observed difference is ``delta = corr(B) - corr(A)``, each correlation taken against the gold;
- each of ``trials`` draws swaps the two metrics' scores where a fair coin says so, recomputes both
  correlations, and counts the draw when ``corr(B') - corr(A') >= delta``;
- p is that count over the draws: the p-value for "B correlates better than A" (1 minus the p-value for A
  better), a difference equal up to rounding counting as at least. Draws are not stopped early (mt-metrics-eval may stop
  at a block boundary once p is below 0.02 or above 0.5: with its default 1000-draw blocks, never within 1000).

What is swapped differs from mt-metrics-eval's system-level call, which swaps one z-scored system score per
system: here the coin is tossed per segment and swaps that segment's scores for every system at once (the
inputs-level permutation of Deutsch et al.), and a system's score is the mean of its segment scores. The gold is
a score per system; Kendall is tau-b, scipy's default, as mt-metrics-eval's ``scipy.stats.kendalltau``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Final, Literal

import numpy as np

__all__ = ["CORRELATIONS", "Correlation", "PermutationTest", "permutation_test", "swap_draws"]

Correlation = Literal["pearson", "kendall"]
CORRELATIONS: Final[tuple[Correlation, ...]] = ("pearson", "kendall")
_CHUNK_CELLS: Final = 4_000_000  # draws x systems x systems (Kendall's pairs) per chunk: a few tens of MB
# Kendall's differences are few distinct values, and (5 - 3) / D and (6 - 4) / D can differ in the last bit: a
# draw whose difference equals the observed one up to rounding counts as at least it (mt-metrics-eval compares
# with a bare >=, the one departure here)
_ROUNDING: Final = 1e-12


@dataclass(frozen=True, slots=True)
class PermutationTest:
    """One permutation test of two metrics' correlation with the gold.

    Attributes:
        correlation: "pearson" or "kendall" (tau-b).
        corr_a: metric A's correlation with the gold over systems (system score: mean segment score).
        corr_b: metric B's.
        delta: ``corr_b - corr_a``.
        p_value: the share of draws whose swapped difference is at least ``delta`` (B better than A).
        trials: draws.
        seed: the draws' seed.
    """

    correlation: Correlation
    corr_a: float
    corr_b: float
    delta: float
    p_value: float
    trials: int
    seed: int


def _zscore(x: np.ndarray) -> np.ndarray:
    sd = x.std()
    return (x - x.mean()) / sd if sd > 0 else np.zeros_like(x)


def _pearson_rows(gold: np.ndarray, sys: np.ndarray) -> np.ndarray:
    """Pearson's r of ``gold`` (n) with each row of ``sys`` (draws x n); nan for a constant row."""
    gc = gold - gold.mean()
    sc = sys - sys.mean(axis=1, keepdims=True)
    sxx, syy = float(gc @ gc), (sc * sc).sum(axis=1)
    ok = (syy > 1e-24) & (sxx > 1e-24)
    out = np.full(len(sys), math.nan)
    out[ok] = (sc @ gc)[ok] / np.sqrt(sxx * syy[ok])
    return np.asarray(np.clip(out, -1.0, 1.0), float)


def _kendall_rows(gold: np.ndarray, sys: np.ndarray) -> np.ndarray:
    """Kendall's tau-b of ``gold`` with each row of ``sys``; nan when either side is all ties."""
    i, j = np.triu_indices(len(gold), 1)
    sg = np.sign(gold[i] - gold[j])
    ss = np.sign(sys[:, i] - sys[:, j])
    denom = np.sqrt(float(np.count_nonzero(sg)) * np.count_nonzero(ss, axis=1).astype(float))
    out = np.full(len(sys), math.nan)
    ok = denom > 0
    out[ok] = (ss @ sg)[ok] / denom[ok]
    return out


def _corr(correlation: Correlation, gold: np.ndarray, sys: np.ndarray) -> np.ndarray:
    return _pearson_rows(gold, sys) if correlation == "pearson" else _kendall_rows(gold, sys)


def swap_draws(n_segments: int, *, trials: int, seed: int) -> np.ndarray:
    """The coins: ``trials`` x ``n_segments``, 1 where a draw swaps that segment's two scores."""
    return np.random.default_rng(seed).integers(0, 2, size=(trials, n_segments), dtype=np.int8)


def permutation_test(
    gold: np.ndarray,
    a: np.ndarray,
    b: np.ndarray,
    *,
    correlation: Correlation = "pearson",
    trials: int = 1000,
    seed: int = 12345,
) -> PermutationTest:
    """Whether B correlates with the gold better than A over systems, swapping segment scores (see the module).

    Args:
        gold: one human score per system (n).
        a: metric A's segment scores, systems x segments (n x m).
        b: metric B's, same shape.
        correlation: "pearson" or "kendall" (tau-b).
        trials: draws.
        seed: the draws' seed.

    Example:
        >>> rng = np.random.default_rng(0)
        >>> human_seg = rng.normal(size=(6, 40)) + np.arange(6)[:, None]
        >>> gold = human_seg.mean(axis=1)
        >>> good, bad = human_seg + rng.normal(size=(6, 40)), rng.normal(size=(6, 40))
        >>> t = permutation_test(gold, bad, good, trials=200, seed=1)
        >>> t.delta > 0.5, t.p_value < 0.05
        (True, True)
    """
    g, za, zb = np.asarray(gold, float), _zscore(np.asarray(a, float)), _zscore(np.asarray(b, float))
    if za.shape != zb.shape or za.ndim != 2 or za.shape[0] != len(g):
        raise ValueError(f"segment scores {za.shape} and {zb.shape} do not fit {len(g)} gold scores")
    n, m = za.shape
    ca = float(_corr(correlation, g, za.mean(axis=1)[None, :])[0])
    cb = float(_corr(correlation, g, zb.mean(axis=1)[None, :])[0])
    delta = cb - ca
    w = swap_draws(m, trials=trials, seed=seed)
    count = 0
    chunk = max(1, _CHUNK_CELLS // max(1, n * n + m))
    sum_a, sum_b, gap = za.sum(axis=1), zb.sum(axis=1), zb - za
    for start in range(0, trials, chunk):
        # a swapped system score is the mean of A's segments where the coin is 0 and B's where it is 1: A's sum
        # plus the swapped segments' B - A (one product for both sides)
        moved = w[start : start + chunk].astype(float) @ gap.T
        sys_a, sys_b = (sum_a + moved) / m, (sum_b - moved) / m
        d = _corr(correlation, g, sys_b) - _corr(correlation, g, sys_a)
        count += int(np.count_nonzero(d >= delta - _ROUNDING))
    return PermutationTest(correlation, ca, cb, delta, count / trials if trials else math.nan, trials, seed)
