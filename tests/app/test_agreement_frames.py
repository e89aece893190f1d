"""Where metrics part on a corpus (issue 33), on WMT21 en-de and WMT22 zh-en with an imported column made from the
human scores there: the corpus scores are sacreBLEU's, the ranks scipy's, Kendall's tau-b scipy's, and the share
of judges beside a difference the authors' mt-thresholds formula."""

from __future__ import annotations

import math

import mt_thresholds
import numpy as np
import pandas as pd
import pytest
import sacrebleu
from scipy import stats

from bleu_app.frames import agreement, corpus as f
from bleu_core.config import BleuConfig
from bleu_core.data.corpus import Corpus, System, TextFile
from bleu_core.data.scores import parse_segment_scores
from bleu_core.metrics import Bleu, Metric, get_metric
from tests.conftest import RealSet

LINES = 300


def _human(real: RealSet) -> dict[str, float]:
    table = pd.read_csv(real.folder / "human_scores.tsv", sep="\t")
    column = "da_z" if "da_z" in table else next(c for c in table.columns if c not in ("system", "kind", "file"))
    return {str(r["system"]): float(r[column]) for _, r in table.iterrows() if str(r["system"]) in real.names}


def _case(real: RealSet) -> tuple[list[Metric], list[dict[str, np.ndarray]], dict[str, list[str]], list[list[str]]]:
    """BLEU, chrF2, TER and the human score imported (each segment carries its system's score) on ``LINES``."""
    human = _human(real)
    names = [n for n in real.names if n in human]
    refs = [r[:LINES] for r in real.refs()]
    hyps = {n: real.system(n)[:LINES] for n in names}
    tok = "zh" if real.name.startswith("wmt22") else "13a"
    metrics: list[Metric] = [Bleu(BleuConfig(tokenize=tok)), get_metric("chrf"), get_metric("ter")]
    mats: list[dict[str, np.ndarray]] = []
    for m in metrics:
        prepared = m.prepare(refs)
        mats.append({n: prepared.stats(hyps[n]) for n in names})
    corpus = Corpus("c", (TextFile("ref", tuple(refs[0])),), tuple(System(n, tuple(hyps[n])) for n in names))
    tsv = "system\thuman\n" + "".join(f"{n}\t{human[n]}\n" * LINES for n in names)
    (imported,) = parse_segment_scores(tsv.encode(), "human.tsv", corpus)
    metrics.append(imported.metric)
    mats.append({n: imported.matrix(n) for n in names})
    return metrics, mats, hyps, refs


@pytest.fixture(scope="module", params=["wmt21", "wmt22"])
def case(request: pytest.FixtureRequest):
    real: RealSet = request.getfixturevalue(request.param)
    return (real, *_case(real))


@pytest.mark.slow  # 1.3 s or more: make test runs it, the one-minute loop leaves it out
def test_corpus_scores_are_sacrebleus_and_the_imported_means(case) -> None:
    real, metrics, mats, hyps, refs = case
    scores = agreement.corpus_scores(metrics, mats).set_index(f.SYSTEM)
    tok = "zh" if real.name.startswith("wmt22") else "13a"
    for n in list(hyps)[:2]:
        for name, oracle in (("BLEU", sacrebleu.BLEU(tokenize=tok)), ("chrF2", sacrebleu.CHRF())):
            assert scores.loc[n, name] == pytest.approx(oracle.corpus_score(hyps[n], refs).score, abs=1e-9)
        assert scores.loc[n, "human"] == pytest.approx(_human(real)[n], abs=1e-9)
    # sacreBLEU's TER takes seconds a system: its oracle reads the first lines of one system
    n, lines = next(iter(hyps)), 40
    ter = agreement.corpus_scores([metrics[2]], [{n: mats[2][n][:lines]}])["TER"].iloc[0]
    assert ter == pytest.approx(sacrebleu.TER().corpus_score(hyps[n][:lines], [r[:lines] for r in refs]).score)


def test_ranks_and_tau_are_scipys(case) -> None:
    _, metrics, mats, _, _ = case
    scores = agreement.corpus_scores(metrics, mats)
    table = agreement.rank_table(scores, metrics).set_index(f.SYSTEM)
    by = scores.set_index(f.SYSTEM)
    for m in metrics:
        turned = by[m.name] * (1 if m.higher_is_better else -1)
        expected = stats.rankdata(-turned.to_numpy(), method="min").astype(int)
        assert table.loc[by.index, agreement.rank_column(m.name)].tolist() == expected.tolist()
    first = agreement.rank_column(metrics[0].name)
    assert table[first].is_monotonic_increasing  # rows in the first metric's order
    moved = table[table[agreement.rank_column("human")] != table[first]]
    assert len(moved) > 0  # BLEU and the judges part on these systems: the highlight has something to show
    for system, row in moved.iterrows():
        up = int(row[first]) - int(row[agreement.rank_column("human")])
        assert f"human {'▲' if up > 0 else '▼'}{abs(up)}" in row[agreement.MOVE], system
    taus = agreement.tau_table(scores, metrics)
    assert len(taus) == len(metrics) * (len(metrics) - 1) // 2
    for _, row in taus.iterrows():
        a = next(m for m in metrics if m.name == row["metric A"])
        b = next(m for m in metrics if m.name == row["metric B"])
        x = by[a.name] * (1 if a.higher_is_better else -1)
        y = by[b.name] * (1 if b.higher_is_better else -1)
        theirs = stats.kendalltau(x, y, variant="b").statistic
        assert row[agreement.TAU] == pytest.approx(theirs, abs=1e-12)
        assert row["systems"] == len(by)


def test_judges_agreeing_beside_each_difference_is_mt_thresholds(case) -> None:
    _, metrics, mats, _, _ = case
    scores = agreement.corpus_scores(metrics, mats)
    base = scores[f.SYSTEM].iloc[0]
    table = scores[[f.SYSTEM]].copy()
    for m in metrics:
        table[f"{m.name} {f.VS_BASELINE}"] = scores[m.name] - scores[m.name].iloc[0]
    shown = agreement.with_human_accuracy(table, metrics)
    for name, fitted in (("BLEU", "bleu"), ("chrF2", "chrf")):
        column = list(shown.columns)
        assert column.index(agreement.accuracy_column(name)) == column.index(f"{name} {f.VS_BASELINE}") + 1
        for _, row in shown.iterrows():
            got = row[agreement.accuracy_column(name)]
            if row[f.SYSTEM] == base:
                assert got is pd.NA
            else:
                theirs = mt_thresholds.accuracy(abs(row[f"{name} {f.VS_BASELINE}"]), fitted)
                assert float(got) == pytest.approx(theirs, abs=1e-9)
    assert agreement.accuracy_column("TER") not in shown  # not fitted: no column
    assert agreement.accuracy_column("human") not in shown
    assert "Kocmi" in agreement.ACCURACY_CAVEAT
    assert "one campaign" in agreement.ACCURACY_CAVEAT


def test_fewer_than_three_systems_have_no_tau() -> None:
    s = pd.DataFrame({f.SYSTEM: ["a", "b"], "BLEU": [1.0, 2.0], "TER": [3.0, 4.0]})
    assert math.isnan(agreement.tau_table(s, [Bleu(), get_metric("ter")])[agreement.TAU].iloc[0])
