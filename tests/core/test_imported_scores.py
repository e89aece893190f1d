"""Imported segment scores (issue 32): Google's expert MQM scores of WMT21 en-de, per segment, loaded as a metric.

The oracle is the definition: a system's score is the mean of its segments' scores, and the paired bootstrap is
sacreBLEU's (``_paired_bs_test``: its draws ``rng.choice(n, (trials, n))``, the score of each resample, the
p-value of the centred absolute differences), computed here with numpy on the file's numbers. Every bad file is one
``InputError`` naming the file and the line.
"""

from __future__ import annotations

import json
from decimal import Decimal
from pathlib import Path

import numpy as np
import pytest

from bleu_core.data.corpus import Corpus, System, TextFile
from bleu_core.data.scores import parse_segment_scores
from bleu_core.data.slices import slice_corpus
from bleu_core.errors import InputError
from bleu_core.metrics import Metric
from bleu_core.metrics.imported import EXACT_SUMS, Imported, SegmentScores, fixed_point
from bleu_core.significance import bootstrap_cis, pairwise_matrix

MQM_FILE = "wmt21-news-en-de/human_eval_original/mqm_newstest2021_ende.avg_seg_scores.tsv"
# the systems with expert MQM whose output is in the folder under the same name (Nemo is NVIDIA-NeMo there)
MQM_SYSTEMS = ("Facebook-AI", "HuaweiTSC", "Online-W", "UEdin", "VolcTrans-AT", "VolcTrans-GLAT", "eTranslation")


def mqm_rows(data_dir: Path) -> dict[str, dict[int, str]]:
    """The MQM file's ratings: system -> 1-based segment -> score text (``None``: not rated), as published."""
    out: dict[str, dict[int, str]] = {}
    lines = (data_dir / MQM_FILE).read_text(encoding="utf-8").splitlines()[1:]
    for line in lines:
        system, rest = line.split("\t")
        score, segment = rest.split(" ")
        out.setdefault(system, {})[int(segment)] = score
    return out


def mqm_case(data_dir: Path, wmt21) -> tuple[Corpus, bytes, dict[str, np.ndarray]]:
    """A corpus of the segments every one of ``MQM_SYSTEMS`` has rated (reference A), the scores file a user
    would write for it (system, segment, MQM; the segments in the corpus's numbering) and the scores as floats."""
    rows = mqm_rows(data_dir)
    rated = [i for i in range(1, 1003) if all(rows[s][i] != "None" for s in MQM_SYSTEMS)]
    ref = wmt21.refs()[0]
    corpus = Corpus(
        "wmt21 MQM",
        (TextFile("reference.A.de", tuple(ref[i - 1] for i in rated)),),
        tuple(System(s, tuple(wmt21.system(s)[i - 1] for i in rated), f"systems/{s}.de") for s in MQM_SYSTEMS),
    )
    lines = ["system\tsegment\tMQM"]
    lines += [f"{s}\t{k}\t{rows[s][i]}" for s in MQM_SYSTEMS for k, i in enumerate(rated, start=1)]
    floats = {s: np.array([float(rows[s][i]) for i in rated]) for s in MQM_SYSTEMS}
    return corpus, ("\n".join(lines) + "\n").encode(), floats


@pytest.fixture(scope="module")
def mqm(data_dir, wmt21):
    corpus, tsv, floats = mqm_case(data_dir, wmt21)
    (scores,) = parse_segment_scores(tsv, "mqm.tsv", corpus)
    return corpus, scores, floats


def test_the_metric_is_on_the_seam_and_means_are_the_files(mqm) -> None:
    corpus, scores, floats = mqm
    assert corpus.n_segments == 527  # the segments all seven systems have rated
    m = scores.metric
    assert isinstance(m, Metric)
    assert (m.name, m.width, m.sacrebleu_name, m.decimals) == ("MQM", 2, "", 6)
    means = scores.means()
    for s in MQM_SYSTEMS:
        assert means[s] == pytest.approx(float(floats[s].mean()), abs=1e-12)
    # the published table's order (lower error points is better: the scores are minus the points)
    assert max(means, key=means.__getitem__) == "VolcTrans-GLAT"
    assert m.signature(1).startswith(f"metric:MQM|file:mqm.tsv|sha:{m.digest}|mean:segments|version:")


def test_paired_bootstrap_and_intervals_are_sacrebleus_on_the_means(mqm) -> None:
    corpus, scores, floats = mqm
    mats = [scores.matrix(s) for s in MQM_SYSTEMS]
    n, trials, seed = corpus.n_segments, 1000, 12345
    idxs = np.random.default_rng(seed).choice(n, size=(trials, n), replace=True)
    # the oracle's means in the same exact arithmetic sacreBLEU's scores would use on integers: the file's numbers
    # have 6 decimals, so their sums are exact in micro-units
    micro = {s: np.array([round(v * 10**6) for v in floats[s]], dtype=np.int64) for s in MQM_SYSTEMS}
    draws = {s: micro[s][idxs].sum(axis=1) / (n * 10**6) for s in MQM_SYSTEMS}
    cis = bootstrap_cis(mats, scores.metric, n_samples=trials, seed=seed)
    for s, (_, _, low, high) in zip(MQM_SYSTEMS, cis, strict=True):
        ordered = np.sort(draws[s])
        assert (low, high) == (ordered[25], ordered[974])
    result = pairwise_matrix(mats, list(MQM_SYSTEMS), scores.metric, method="bs", trials=trials, seed=seed)
    real = {s: micro[s].sum() / (n * 10**6) for s in MQM_SYSTEMS}
    for i, a in enumerate(MQM_SYSTEMS):
        for j, b in enumerate(MQM_SYSTEMS):
            if i == j:
                continue
            sample = np.abs(draws[b] - draws[a])
            stats = sample - sample.mean()
            expected = (int(np.sum(stats > abs(real[b] - real[a]))) + 1) / (trials + 1)
            assert result.p_values[i][j] == expected, (a, b)


def test_approximate_randomization_runs_on_the_means(mqm) -> None:
    _corpus, scores, _ = mqm
    mats = [scores.matrix(s) for s in ("VolcTrans-GLAT", "VolcTrans-AT")]
    r = pairwise_matrix(mats, ["GLAT", "AT"], scores.metric, method="ar", trials=500, seed=1)
    assert 0 < r.p_values[0][1] <= 1
    assert r.scores == tuple(scores.means()[s] for s in ("VolcTrans-GLAT", "VolcTrans-AT"))


def test_a_slice_cuts_the_scores_with_the_lines(mqm) -> None:
    corpus, scores, floats = mqm
    sliced = slice_corpus(corpus.with_scores([scores]), "line 1..100 or ref_len > 40", "13a")
    (cut,) = sliced.corpus.scores
    lines = list(sliced.chosen.lines)
    assert 100 < len(lines) < 527
    for s in MQM_SYSTEMS:
        assert cut.means()[s] == pytest.approx(float(floats[s][lines].mean()), abs=1e-12)
    assert cut.metric.digest != scores.metric.digest  # nothing cached for the whole set is read for the slice
    assert corpus.with_scores([scores]).digest == corpus.digest  # BLEU's cached numbers stay


def test_renaming_a_system_keeps_its_scores(mqm) -> None:
    corpus, scores, _ = mqm
    renamed = corpus.with_scores([scores]).renamed(["FB", *MQM_SYSTEMS[1:]])
    assert renamed.scores[0].means()["FB"] == scores.means()["Facebook-AI"]


def test_jsonl_like_comets_output_and_names_by_file(mqm) -> None:
    corpus, _, floats = mqm
    rows = [
        json.dumps({"src": "x", "mt": "y", "ref": "z", "system": f"{s}.de", "COMET": float(v)})
        for s in MQM_SYSTEMS
        for v in floats[s]
    ]
    (comet,) = parse_segment_scores("\n".join(rows).encode(), "comet.jsonl", corpus)
    assert comet.metric.name == "COMET"
    assert comet.means()["UEdin"] == pytest.approx(float(floats["UEdin"].mean()), abs=1e-12)


TINY = Corpus(
    "t", (TextFile("ref", ("a", "b", "c")),), (System("A", ("a", "b", "c"), "sys/A.en"), System("B", ("a",) * 3))
)


@pytest.mark.parametrize(
    ("name", "text", "message"),
    [
        ("s.tsv", "", "s.tsv: the file is empty; expected a header naming the metric column(s)"),
        ("s.tsv", "system\tsegment\nA\t1\n", "s.tsv: no metric column: the header names only system, segment"),
        ("s.tsv", "system\tX\tx\nA\t1\t2\n", "s.tsv:1: the column 'X' is named twice"),
        ("s.tsv", "system\tX\nA\t0.5\nC\t0.1\n", "s.tsv:3: system 'C' is not in the corpus (it has A, B)"),
        ("s.tsv", "system\tX\nA\t0.5\nA\tgood\n", "s.tsv:3: X: 'good' is not a number"),
        ("s.tsv", "system\tX\nA\t0.5\nA\tnan\n", "s.tsv:3: X: 'nan' is not a finite number"),
        ("s.tsv", "system\tX\nA\t0.5\t1\n", "s.tsv:2: has 3 cells but the header has 2 (tab-separated)"),
        ("s.tsv", "system\tX\n" + "A\t1\n" * 4, "s.tsv:5: a row too many for system A: the corpus has 3 segments"),
        ("s.tsv", "system\tX\n" + "A\t1\n" * 3 + "B\t1\n" * 2, "s.tsv:6: system B has 2 rows, the corpus 3 segments"),
        ("s.tsv", "system\tX\n" + "A\t1\n" * 3, "s.tsv: no rows for system B (every system of the corpus needs"),
        ("s.tsv", "X\n1\n2\n3\n", "s.tsv: no system column, and the corpus has 2 systems"),
        ("s.tsv", "system\tsegment\tX\nA\t2\t1\nA\t2\t1\n", "s.tsv:3: segment 2 of system A is given twice (first on"),
        ("s.tsv", "system\tsegment\tX\nA\t4\t1\n", "s.tsv:2: segment 4 is outside the corpus's segments 1 to 3"),
        ("s.tsv", "system\tsegment\tX\nA\t1.5\t1\n", "s.tsv:2: segment '1.5' is not a whole number"),
        ("s.jsonl", '{"system": "A", "X": 1}\n{"system": "A"}\n', "s.jsonl:2: has keys ['system'] but the first line"),
        ("s.jsonl", '{"system": "A", "X": true}\n', "s.jsonl:1: X: True is not a number"),
        ("s.jsonl", '{"system": "A", "X": NaN}\n', "s.jsonl:1: X: nan is not a number"),
        ("s.jsonl", "[1, 2]\n", "s.jsonl:1: expected a JSON object per line"),
        ("s.jsonl", '{"system": "A", "X": 1}\n{"system"\n', "s.jsonl:2: not JSON"),
    ],
)
def test_a_file_that_does_not_fit_is_one_line_naming_file_and_line(name: str, text: str, message: str) -> None:
    with pytest.raises(InputError) as err:
        parse_segment_scores(text.encode(), name, TINY)
    assert str(err.value).startswith(message), str(err.value)
    assert "\n" not in str(err.value)


def test_the_published_mqm_file_as_it_is_is_refused_at_its_first_row(data_dir, mqm) -> None:
    # its header is space-separated and its rows tab-then-space separated: not a scores table as such
    corpus, _, _ = mqm
    data = (data_dir / MQM_FILE).read_bytes()
    with pytest.raises(InputError, match=r"^mqm_newstest2021_ende\.avg_seg_scores\.tsv:2: has 2 cells but the header"):
        parse_segment_scores(data, "mqm_newstest2021_ende.avg_seg_scores.tsv", corpus)


def test_not_utf8_and_too_large_files() -> None:
    with pytest.raises(InputError, match=r"^s\.tsv:2: not UTF-8"):
        parse_segment_scores(b"system\tX\n\xff\t1\n", "s.tsv", TINY)
    with pytest.raises(InputError, match=r"^s\.tsv: "):
        parse_segment_scores(b"x" * 2_000_000, "s.tsv", TINY, limit_mb=1)


def test_fixed_point_keeps_the_files_decimals_and_rounds_only_to_stay_exact() -> None:
    assert fixed_point([[Decimal("0.84343"), Decimal("-1")]]) == (5, [[84343, -100000]], False)
    n = 50_000
    big = [[Decimal("99.123456789")] * n]
    decimals, ints, rounded = fixed_point(big)
    assert rounded
    assert decimals < 9
    assert 2 * n * abs(ints[0][0]) < EXACT_SUMS  # every sum of a resample or a shuffle is exact in float64
    s = SegmentScores.from_decimals("H", "h.tsv", {"A": ["0.1", "0.2", "0.3"]})
    assert s.means()["A"] == pytest.approx(0.2, abs=0)  # 0.6 / 3: one correctly rounded division
    assert Imported("H", "h.tsv", "x", 1).score_many(np.array([[6, 3]])).tolist() == [0.2]
