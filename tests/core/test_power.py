"""Statistical power of the paired test on a test set (issue 35): the MDE's standard error against sacreBLEU's own
resampling, the critical values against scipy, and a simulation on real WMT21 data that a planted difference of one
MDE is detected about 80% of the time, and that segments_needed gives 80% at the size it names."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from sacrebleu.metrics.bleu import BLEU
from scipy.stats import norm

from bleu_core.data.documents import Documents, document_sums
from bleu_core.engine import ReferenceSet
from bleu_core.errors import InputError
from bleu_core.metrics.bleu import score_many
from bleu_core.significance import paired_bootstrap
from bleu_core.significance.power import Power, critical_z, median_mde, power_analysis


def _read(p: Path) -> list[str]:
    return p.read_text(encoding="utf-8").split("\n")[:-1]


@pytest.fixture(scope="module")
def wmt21(data_dir: Path) -> tuple[list[str], dict[str, list[str]]]:
    d = data_dir / "wmt21-news-en-de"
    return _read(d / "reference.A.de"), {p.stem: _read(p) for p in sorted((d / "systems").glob("*.de"))}


@pytest.fixture(scope="module")
def matrices(wmt21: tuple[list[str], dict[str, list[str]]]) -> dict[str, np.ndarray]:
    ref, systems = wmt21
    refs = ReferenceSet([ref])
    return {name: refs.stats(hyp) for name, hyp in systems.items()}


def _bleu(m: np.ndarray) -> float:
    return float(score_many(m.sum(axis=0)[None, :])[0])


def test_critical_values_are_the_normal_quantiles() -> None:
    assert critical_z(0.05) == pytest.approx(norm.ppf(0.95), abs=1e-12)
    assert critical_z(0.01, "ar") == pytest.approx(norm.ppf(0.995), abs=1e-12)
    with pytest.raises(InputError, match=r"^alpha: must be between 0 and 1"):
        critical_z(1.5)


def test_the_standard_error_is_the_spread_of_sacrebleus_resampled_differences(
    wmt21: tuple[list[str], dict[str, list[str]]], matrices: dict[str, np.ndarray]
) -> None:
    """sacreBLEU's own draws (``rng.choice(n, (n_samples, n))`` with seed 12345) and its BLEU from statistics."""
    ref, systems = wmt21
    base, other = "Online-A", "UEdin"
    (p,) = power_analysis(matrices[base], [matrices[other]], n_samples=300, nrefs=1)
    metric = BLEU(references=[ref])
    stats = {n: np.array(metric._extract_corpus_statistics(systems[n], None), dtype=np.float64) for n in (base, other)}
    idxs = np.random.default_rng(12345).choice(len(ref), size=(300, len(ref)), replace=True)
    score = lambda st: metric._compute_score_from_stats(list(st)).score  # noqa: E731
    diffs = [score(stats[other][i].sum(axis=0)) - score(stats[base][i].sum(axis=0)) for i in idxs]
    assert p.se == pytest.approx(float(np.std(diffs, ddof=1)), rel=1e-9)
    assert p.difference == pytest.approx(score(stats[other].sum(0)) - score(stats[base].sum(0)), abs=1e-9)
    assert p.mde == pytest.approx((norm.ppf(0.95) + norm.ppf(0.8)) * p.se, rel=1e-12)
    (two_sided,) = power_analysis(matrices[base], [matrices[other]], n_samples=300, test="ar")
    assert two_sided.mde == pytest.approx((norm.ppf(0.975) + norm.ppf(0.8)) * p.se, rel=1e-12)
    assert p.n == 1002
    assert p.unit == "segment"
    assert p.signature.startswith("nrefs:1|bs:300|rs:12345|")
    assert p.needed(p.mde) == 1002
    assert p.needed(p.mde / 2) == 4008
    assert p.power_at(p.mde) == pytest.approx(0.8, abs=1e-9)


def test_document_blocks_resample_documents(matrices: dict[str, np.ndarray]) -> None:
    """The document-block version: the same corpus difference, its own spread, sizes in documents."""
    docs = Documents(tuple(f"d{i // 20}" for i in range(1002)), (None,) * 1002, (None,) * 1002)
    base, other = matrices["Online-A"], matrices["UEdin"]
    (seg,) = power_analysis(base, [other])
    (doc,) = power_analysis(document_sums(base, docs), [document_sums(other, docs)], unit="document")
    assert doc.n == 51
    assert doc.signature.split("|")[1:4] == ["bs:1000", "rs:12345", "block:doc"]
    assert doc.difference == pytest.approx(seg.difference, abs=1e-9)
    assert doc.se != seg.se
    assert doc.needed(doc.mde) == 51
    assert median_mde([seg, doc]) == pytest.approx((seg.mde + doc.mde) / 2)


def test_bad_settings_are_refused(matrices: dict[str, np.ndarray]) -> None:
    m = matrices["ICL"]
    with pytest.raises(InputError, match=r"^power: must be between 0 and 1"):
        power_analysis(m, [m], power=1.0)
    with pytest.raises(InputError, match=r"^matrix: matrix 2 has shape \(3, 10\)"):
        power_analysis(m, [m[:3]])
    with pytest.raises(InputError, match=r"^delta: must be a difference other than 0"):
        Power(10, "segment", 0.0, 1.0, 0.05, 0.8, "bs", 2.5, 100, 1, "").needed(0)


def _plant(base: np.ndarray, better: np.ndarray, target: float, order: np.ndarray) -> np.ndarray:
    """``base`` with its first k segments (in ``order``) replaced by ``better``'s, k the smallest for which the
    difference reaches ``target`` times the pair's own MDE (bisection: the difference grows about linearly in k,
    the MDE about as its square root)."""

    def planted(k: int) -> np.ndarray:
        m = base.copy()
        m[order[:k]] = better[order[:k]]
        return m

    lo, hi = 0, len(base)
    while hi - lo > 1:
        k = (lo + hi) // 2
        m = planted(k)
        (p,) = power_analysis(base, [m], n_samples=1000)
        lo, hi = (k, hi) if p.difference < target * p.mde else (lo, k)
    return planted(hi)


def _detection_rate(base: np.ndarray, system: np.ndarray, size: int, runs: int, seed: int) -> float:
    """How often sacreBLEU's paired bootstrap (500 resamples, p < 0.05) finds a difference on ``runs`` test sets of
    ``size`` segments drawn with replacement from this one (the population the MDE speaks of)."""
    rng = np.random.default_rng(seed)
    hits = 0
    for r in range(runs):
        idx = rng.integers(0, len(base), size)
        hits += paired_bootstrap(base[idx], [system[idx]], n_samples=500, seed=r)[0].p_value < 0.05
    return hits / runs


@pytest.mark.slow  # 800 paired bootstraps of 1,000 and 1,900 segments: 15 s of CPU
def test_a_planted_difference_of_one_mde_is_detected_80_percent_of_the_time(matrices: dict[str, np.ndarray]) -> None:
    """Plant a known difference into a real system (a random share of Online-A's segments replaced by
    Facebook-AI's, the share chosen so that the difference is the pair's MDE at 80% power), then run sacreBLEU's
    paired bootstrap on 400 test sets of the same size drawn from this one: it should say "significant" about 80%
    of the time. Second, plant a difference of MDE / sqrt(2) and check that on test sets of ``needed(difference)``
    segments (about twice as many) the rate is again about 80%: the 1 / sqrt(n) scaling behind segments_needed.

    Tolerance: 400 runs estimate a rate of 0.8 with a standard error of sqrt(0.8 * 0.2 / 400) = 0.02; the test
    allows 0.06 (three standard errors). The textbook two-sided MDE, (1.96 + 0.84) se, would plant a larger
    difference, which the same runs detect 89.5% of the time: outside the tolerance, so the test tells the
    two critical values apart."""
    base, better = matrices["Online-A"], matrices["Facebook-AI"]
    order = np.random.default_rng(7).permutation(len(base))
    planted = _plant(base, better, 1.0, order)
    (p,) = power_analysis(base, [planted])
    assert p.difference == pytest.approx(p.mde, rel=0.05)
    rate = _detection_rate(base, planted, len(base), 400, seed=1)
    assert abs(rate - 0.8) <= 0.06, (rate, p)

    smaller = _plant(base, better, 1 / np.sqrt(2), order)
    (q,) = power_analysis(base, [smaller])
    n = q.needed(q.difference)
    assert 1.7 * len(base) < n < 2.3 * len(base)
    rate = _detection_rate(base, smaller, n, 400, seed=2)
    assert abs(rate - 0.8) <= 0.06, (rate, q, n)
