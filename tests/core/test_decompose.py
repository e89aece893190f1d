"""The exact decomposition of a BLEU difference (bleu_core.teaching.decomposition) and its place in ``compare --json``.

The identity is checked against sacreBLEU's own scores on every ordered pair of the 20 WMT21 systems;
leave-one-out against sacreBLEU rescoring the corpus with the line removed.
"""

from __future__ import annotations

import itertools
import json
import logging
import math
from pathlib import Path

import numpy as np
import pytest
from sacrebleu.metrics import BLEU

from bleu_cli.cli import main
from bleu_core import BleuConfig
from bleu_core.engine import ReferenceSet
from bleu_core.teaching.decomposition import decompose, decompose_matrices, leave_one_out_difference, side_terms
from tests.core.conftest import RealSet

logging.getLogger("sacrebleu").setLevel(logging.ERROR)
TOL = 1e-9


@pytest.fixture(scope="module")
def wmt21(real: dict[str, RealSet]) -> tuple[RealSet, ReferenceSet, dict[str, np.ndarray]]:
    s = real["wmt21-news-en-de"]
    ref_set = ReferenceSet(s.refs())
    return s, ref_set, {p.stem: ref_set.stats(s.system(p)) for p in s.sys_paths}


def _sacre_score(matrix: np.ndarray, config: BleuConfig):  # sacreBLEU's own arithmetic on the summed counts
    t = matrix.sum(axis=0).tolist()
    n = config.max_ngram_order
    return BLEU.compute_bleu(
        t[2 : 2 + n], t[2 + n :], t[0], t[1], config.smooth_method, config.smooth_value, max_ngram_order=n
    )


@pytest.mark.parametrize(
    "config",
    [BleuConfig(), BleuConfig(smooth_method="none"), BleuConfig(smooth_method="floor", max_ngram_order=6)],
    ids=["exp", "none", "floor-order6"],
)
def test_identity_on_every_pair_of_wmt21_systems(wmt21, config: BleuConfig) -> None:
    s, ref_set, mats = wmt21
    if config.max_ngram_order != 4:
        mats = {p.stem: ref_set.stats(s.system(p), config.max_ngram_order) for p in s.sys_paths}
    sacre = {k: _sacre_score(m, config) for k, m in mats.items()}
    assert len(sacre) == 20
    pairs = 0
    for a, b in itertools.permutations(sorted(mats), 2):
        d = decompose_matrices(mats[a], mats[b], config)
        want = math.log(sacre[b].score / sacre[a].score)
        assert d.finite
        assert abs(d.log_ratio - want) < TOL, (a, b)
        assert abs(d.log_bp + sum(d.log_precision_terms) - want) < TOL, (a, b)
        assert abs(d.log_bp - (math.log(sacre[b].bp) - math.log(sacre[a].bp))) < TOL
        assert abs(d.bleu - (sacre[b].score - sacre[a].score)) < TOL
        assert abs(d.points_bp + sum(d.points_precision_terms) - d.bleu) < TOL
        # each order's term is sacreBLEU's own precision, weighted 1/N
        for n, term in enumerate(d.log_precision_terms):
            expect = (math.log(sacre[b].precisions[n]) - math.log(sacre[a].precisions[n])) / config.max_ngram_order
            assert abs(term - expect) < TOL
        pairs += 1
    assert pairs == 380


def test_a_shorter_system_loses_through_bp(wmt21) -> None:
    _, _, mats = wmt21
    # the shortest output against the longest: BP must carry a visible share of the gap
    ratio = {k: m[:, 0].sum() / m[:, 1].sum() for k, m in mats.items()}
    short = min(ratio, key=ratio.__getitem__)
    assert ratio[short] < 1
    d = decompose_matrices(mats[short], mats[max(ratio, key=ratio.__getitem__)])
    assert d.log_bp == pytest.approx(-math.log(side_terms(mats[short].sum(axis=0).tolist()).bp))
    assert d.points_bp > 0


def test_zero_precision_unsmoothed_is_infinite_and_said() -> None:
    a = [10, 10, 6, 3, 1, 0, 10, 9, 8, 7]  # no 4-gram matches
    b = [10, 10, 7, 4, 2, 1, 10, 9, 8, 7]
    d = decompose(a, b, BleuConfig(smooth_method="none"))
    assert not d.finite
    assert d.log_ratio == math.inf
    assert d.log_precision_terms[3] == math.inf
    assert "A has p4 = 0 under none smoothing" in d.note
    assert d.bleu == d.score > 0
    obj = d.to_dict()
    assert obj["log_ratio"] is None
    assert obj["log_precision_terms"][3] is None
    assert obj["finite"] is False
    json.dumps(obj, allow_nan=False)  # valid JSON: no Infinity/NaN tokens
    # the same statistics under exp smoothing are finite and the identity holds
    e = decompose(a, b, BleuConfig())
    assert e.finite
    assert e.log_ratio == pytest.approx(e.log_bp + sum(e.log_precision_terms), abs=TOL)
    assert e.smoothing == "exp"
    assert decompose(a, b, BleuConfig(smooth_method="floor")).smoothing == "floor[0.10]"


def test_both_zero_is_undefined_not_zero() -> None:
    a = [10, 10, 6, 3, 0, 0, 10, 9, 8, 7]
    d = decompose(a, a, BleuConfig(smooth_method="none"))
    assert math.isnan(d.log_ratio)
    assert math.isnan(d.log_precision_terms[2])
    assert "A has p3, p4 = 0" in d.note
    assert "B has p3, p4 = 0" in d.note


def test_effective_order_keeps_each_sides_own_weights() -> None:
    a = [3, 3, 3, 2, 1, 0, 3, 2, 1, 0]  # 3 tokens: no 4-grams, effective order 3
    b = [5, 5, 4, 3, 2, 1, 5, 4, 3, 2]
    config = BleuConfig(use_effective_order=True)
    d = decompose(a, b, config)
    assert d.a.weights == (1 / 3, 1 / 3, 1 / 3, 0.0)
    assert d.b.weights == (0.25,) * 4
    assert d.log_ratio == pytest.approx(d.log_bp + sum(d.log_precision_terms), abs=TOL)


def test_custom_weights() -> None:
    a = [20, 22, 15, 9, 5, 2, 20, 19, 18, 17]
    b = [21, 22, 16, 11, 6, 4, 21, 20, 19, 18]
    config = BleuConfig(weights=(0.4, 0.3, 0.2, 0.1))
    d = decompose(a, b, config)
    assert d.b.weights == pytest.approx((0.4, 0.3, 0.2, 0.1), abs=1e-15)
    assert d.log_ratio == pytest.approx(d.log_bp + sum(d.log_precision_terms), abs=TOL)


def test_leave_one_out_equals_rescoring_without_the_line(real: dict[str, RealSet]) -> None:
    s = real["wmt21-news-en-de"]
    refs = s.refs()[:1]
    hyp_a, hyp_b = (s.system(p) for p in s.sys_paths if p.stem in ("Online-A", "Facebook-AI"))
    ref_set = ReferenceSet(refs)
    effect = leave_one_out_difference(ref_set.stats(hyp_a), ref_set.stats(hyp_b))
    full = BLEU(references=refs).corpus_score(hyp_b, None).score - BLEU(references=refs).corpus_score(hyp_a, None).score
    order = np.argsort(-np.abs(effect))
    for i in (int(order[0]), int(order[-1]), len(effect) - 1):
        refs_i = [r[:i] + r[i + 1 :] for r in refs]
        bleu = BLEU(references=refs_i)
        without = (
            bleu.corpus_score(hyp_b[:i] + hyp_b[i + 1 :], None).score
            - bleu.corpus_score(hyp_a[:i] + hyp_a[i + 1 :], None).score
        )
        assert abs(effect[i] - (full - without)) < TOL, i
    # the sentences carrying the gap matter: the largest moves the difference by more than a hundredth
    assert abs(effect[order[0]]) > 0.01


def test_leave_one_out_rejects_mismatched_systems() -> None:
    from bleu_core import InputError

    a = np.zeros((3, 10), dtype=np.int64)
    with pytest.raises(InputError, match="A has 3 segments, B has 2"):
        leave_one_out_difference(a, a[:2])


# --- bleu-explorer compare ---------------------------------------------------------------------------------


def _wmt21_args(data_dir: Path, *systems: str) -> list[str]:
    d = data_dir / "wmt21-news-en-de"
    return ["compare", str(d / "reference.A.de"), "-i", *(str(d / "systems" / f"{s}.de") for s in systems)]


def test_compare_json_difference_contract(data_dir, capsys) -> None:
    systems = ("Online-A", "Facebook-AI", "happypoet", "UF")
    assert main([*_wmt21_args(data_dir, *systems), "--paired-bs", "50", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    base, *others = out["systems"]
    assert "difference" not in base
    assert len(others) == 3
    for row in others:
        diff = row["difference"]
        assert {"bleu", "log_ratio", "log_bp", "log_precision_terms"} <= set(diff)
        assert len(diff["log_precision_terms"]) == 4
        assert abs(diff["log_ratio"] - (diff["log_bp"] + sum(diff["log_precision_terms"]))) < TOL
        assert abs(diff["log_ratio"] - math.log(row["score"] / base["score"])) < TOL
        assert abs(diff["bleu"] - (row["score"] - base["score"])) < TOL
        points = diff["points"]
        assert abs(points["bp"] + sum(points["precision_terms"]) - diff["bleu"]) < TOL
        assert diff["smoothing"] == "exp"
        assert diff["finite"] is True


def test_compare_json_says_when_infinite(tmp_path, capsys) -> None:
    ref = tmp_path / "ref.txt"
    ref.write_text("a b c d e f\ng h i j k l\n", encoding="utf-8")
    a = tmp_path / "a.txt"
    a.write_text("a b x d y f\ng z i q k l\n", encoding="utf-8")  # no 3-gram or 4-gram match
    b = tmp_path / "b.txt"
    b.write_text("a b c d e f\ng h i j k l\n", encoding="utf-8")
    assert main(["compare", str(ref), "-i", str(a), str(b), "--smooth-method", "none", "--json"]) == 0
    raw = capsys.readouterr().out
    assert "Infinity" not in raw
    assert "NaN" not in raw
    diff = json.loads(raw)["systems"][1]["difference"]
    assert diff["finite"] is False
    assert diff["log_ratio"] is None
    assert "A has p3, p4 = 0 under none smoothing" in diff["note"]


def test_compare_text_one_line_per_system(data_dir, capsys) -> None:
    systems = ("Online-A", "Facebook-AI", "happypoet")
    assert main([*_wmt21_args(data_dir, *systems), "--paired-bs", "50"]) == 0
    out = capsys.readouterr().out
    lines = [line for line in out.splitlines() if " - Online-A.de = " in line]
    assert len(lines) == 2
    assert lines[0].startswith("Facebook-AI.de - Online-A.de = +2.23 BLEU = BP +0.00, p1 +0.25")
    assert lines[1].startswith("happypoet.de - Online-A.de = -1.46 BLEU")
    assert "exp smoothing" in lines[0]


def test_readme_example_line_is_the_cli_output(data_dir, capsys) -> None:
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
    start = readme.index("`Facebook-AI.de - Online-A.de")
    example = " ".join(readme[start + 1 : readme.index("`", start + 1)].split())
    assert main([*_wmt21_args(data_dir, "Online-A", "Facebook-AI"), "--paired-bs", "50"]) == 0
    assert example in capsys.readouterr().out.splitlines()
