"""The interval of each system's difference to the baseline (researcher walk, features 5 and 9: "The CI of each
difference should also appear in the ranking table").

The oracle is sacreBLEU's own paired bootstrap arithmetic written out: its draws (``default_rng(seed).choice`` over
the segments, as ``sacrebleu.significance._paired_bs_test``), its per-resample score
(``metric._compute_score_from_stats`` of the summed statistics sacreBLEU itself extracted) for the baseline and the
system on the same resample, the difference, and its ``estimate_ci`` order statistics."""

from __future__ import annotations

import numpy as np
import pytest
import sacrebleu
from sacrebleu.metrics import BLEU, CHRF

from bleu_core import BleuConfig
from bleu_core.engine import ReferenceSet
from bleu_core.errors import InputError
from bleu_core.metrics import Bleu, get_metric
from bleu_core.significance import bootstrap_cis, difference_cis


def _sacrebleu_differences(metric, hyps: list[list[str]], refs: list[list[str]], base: int, n: int, seed: int):
    """Per system, sacreBLEU's resampled score minus the baseline's on the same resample, and their 2.5% / 97.5%
    order statistics (``sacrebleu.significance.estimate_ci``'s)."""
    stats = [np.array(metric._extract_corpus_statistics(h, refs), dtype="float32") for h in hyps]  # as sacreBLEU
    idxs = np.random.default_rng(seed).choice(len(stats[0]), size=(n, len(stats[0])), replace=True)
    scores = np.array([[metric._compute_score_from_stats(s[i].sum(0)).score for s in stats] for i in idxs])
    out = []
    for j in range(len(hyps)):
        d = np.sort(scores[:, j] - scores[:, base])
        lower = len(d) // 40
        out.append((float(d.mean()), float(d[lower]), float(d[len(d) - lower - 1])))
    return out


@pytest.mark.slow  # sacreBLEU extracts chrF's statistics in Python: 7 s (make test runs it)
@pytest.mark.parametrize("name", ["bleu", "chrf"])
def test_each_difference_interval_is_sacrebleus_paired_bootstrap_arithmetic(wmt22, name):
    refs = wmt22.refs()
    hyps = [wmt22.system(p) for p in wmt22.sys_paths[:4]]
    n, seed, base = 300, 12345, 1
    if name == "bleu":
        metric, theirs = Bleu(BleuConfig()), BLEU()
        ref_set = ReferenceSet(refs)
        mats = [ref_set.stats(h) for h in hyps]
    else:
        metric, theirs = get_metric("chrf"), CHRF()
        prepared = metric.prepare(refs)
        mats = [prepared.stats(h) for h in hyps]
    ours = difference_cis(mats, base, metric, n_samples=n, seed=seed)
    oracle = _sacrebleu_differences(theirs, hyps, refs, base, n, seed)
    assert ours[base] == (0.0, 0.0, 0.0, 0.0)
    for (mean, half, low, high), (t_mean, t_low, t_high) in zip(ours, oracle, strict=True):
        # sacreBLEU sums and scores float32 statistics, in float32 on numpy 2 (NEP 50): to float32's precision
        # there (the README's claim), bit for bit on numpy 1.26
        rel, tol = (0, 1e-9) if np.__version__.startswith("1.") else (1e-7, 1e-6)
        assert mean == pytest.approx(t_mean, rel=rel, abs=tol)
        assert (low, high) == (pytest.approx(t_low, rel=rel, abs=tol), pytest.approx(t_high, rel=rel, abs=tol))
        assert half == pytest.approx((high - low) / 2, abs=1e-12)
    assert any(high < 0 or low > 0 for _, _, low, high in ours), "no difference excluded 0: the test shows nothing"
    assert sacrebleu.__version__ == "2.6.0"


def test_the_same_draws_as_the_intervals(wmt21):
    """A system's interval and its difference's come from one set of draws: the difference of the bootstrap means
    is the mean of the differences."""
    ref_set = ReferenceSet(wmt21.refs())
    mats = [ref_set.stats(wmt21.system(p)) for p in wmt21.sys_paths[:3]]
    cis = bootstrap_cis(mats, n_samples=200)
    diffs = difference_cis(mats, 0, n_samples=200)
    for (mean, *_), (d_mean, *_) in zip(cis, diffs, strict=True):
        assert d_mean == pytest.approx(mean - cis[0][0], abs=1e-9)


def test_a_baseline_that_is_not_there_is_one_line():
    m = np.array([[4, 4, 4, 3, 2, 1, 4, 3, 2, 1]] * 20)
    with pytest.raises(InputError, match="baseline: no system 2 among 2"):
        difference_cis([m, m], 2, n_samples=50)
