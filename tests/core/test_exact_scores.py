"""The corpus scores a comparison reports are sacreBLEU's to the last bit, and its AR ties break as sacreBLEU's.

BLEU's vectorised score (numpy's SIMD ``log`` and ``exp``) can differ from sacreBLEU's scalar ``compute_bleu`` in the
last bits. The scores users read come from the scalar arithmetic; an AR trial's difference is compared with the
real one in the trials' own arithmetic, since a trial that swaps only segments of equal statistics reproduces it.
Oracle: sacreBLEU 2.6.0 (``corpus_bleu`` and ``PairedTest``) on slices of WMT21 en-de.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import sacrebleu
from sacrebleu.metrics import BLEU
from sacrebleu.significance import PairedTest

from bleu_core.metrics import Bleu
from bleu_core.significance import compare, compare_systems, pairwise_matrix
from bleu_core.significance.estimates import drawn_score, matrix_score
from bleu_core.significance.paired import paired_ar, paired_bootstrap


def _lines(path: Path, n: int) -> list[str]:
    return path.read_text(encoding="utf-8").split("\n")[:-1][:n]


@pytest.fixture(scope="module")
def slices(data_dir: Path) -> tuple[list[str], dict[str, list[str]]]:
    """WMT21 en-de's reference A and five systems, 300 lines: slices where the two arithmetics differ."""
    d = data_dir / "wmt21-news-en-de"
    names = ("UEdin", "UF", "nuclear_trans", "ICL", "Online-A")
    return _lines(d / "reference.A.de", 300), {n: _lines(d / "systems" / f"{n}.de", 300) for n in names}


def test_reported_scores_are_sacrebleus_bit_for_bit(slices) -> None:
    ref, systems = slices
    bleu = Bleu()
    prepared = bleu.prepare([ref])
    mats = [prepared.stats(h) for h in systems.values()]
    theirs = [sacrebleu.corpus_bleu(h, [ref]).score for h in systems.values()]
    # the slice is one where the vectorised arithmetic misses sacreBLEU's last bits, so the test can fail
    assert any(drawn_score(m, bleu) != t for m, t in zip(mats, theirs, strict=True))
    assert [matrix_score(m, bleu) for m in mats] == theirs
    for method in ("bs", "ar"):
        both = compare_systems(mats, list(systems), bleu, method=method, trials=200, n_confidence=50)
        assert list(both.pairwise.scores) == theirs
        assert [both.against_baseline.baseline_score] + [r.score for r in both.against_baseline.results] == theirs
        assert [both.pairwise.differences[0][j] for j in range(len(theirs))] == [t - theirs[0] for t in theirs]
        single = compare(mats[0], mats[1:], bleu, method=method, trials=200, n_confidence=50)
        assert [single.baseline_score] + [r.score for r in single.results] == theirs
    assert list(pairwise_matrix(mats, list(systems), bleu, trials=200).scores) == theirs
    assert [r.score for r in paired_bootstrap(mats[0], mats[1:], bleu, n_samples=100)] == theirs[1:]
    assert [r.score for r in paired_ar(mats[0], mats[1:], bleu, n_trials=100, n_confidence=0)] == theirs[1:]


def test_ar_ties_break_as_sacrebleus(slices) -> None:
    """Two systems that differ in three segments: three in four trials swap nothing that matters or everything,
    and reproduce the real difference. sacreBLEU counts none of them as greater; neither may we, although the
    scalar real difference is an ulp below the vectorised one here."""
    ref, systems = slices
    a = systems["UEdin"][:100]
    b = list(a)
    b[:3] = systems["Online-A"][:3]
    bleu = Bleu()
    prepared = bleu.prepare([ref[:100]])
    ma, mb = prepared.stats(a), prepared.stats(b)
    exact = abs(matrix_score(ma, bleu) - matrix_score(mb, bleu))
    assert exact < abs(drawn_score(ma, bleu) - drawn_score(mb, bleu))  # the case where a mixed arithmetic miscounts
    _, scores = PairedTest([("a", a), ("b", b)], {"BLEU": BLEU()}, [ref[:100]], test_type="ar", n_samples=1000)()
    theirs = scores["BLEU"][1].p_value
    both = compare_systems([ma, mb], ["a", "b"], bleu, method="ar", trials=1000, n_confidence=0)
    assert both.pairwise.p_values[0][1] == theirs
    assert both.against_baseline.results[0].p_value == theirs
    assert paired_ar(ma, [mb], bleu, n_trials=1000, n_confidence=0)[0].p_value == theirs
