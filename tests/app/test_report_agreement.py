"""The report's "Do the metrics rank the systems alike?" (issue 33), on WMT21 en-de's MQM-rated segments with the
MQM scores imported: each metric's ranks from sacreBLEU's corpus scores (the file's means for MQM), a rank another
metric gives differently marked, and Kendall's tau-b as scipy computes it."""

from __future__ import annotations

import re

import pytest
import sacrebleu
from scipy import stats

from bleu_app.report import ReportOptions, build_report
from bleu_core.config import BleuConfig
from bleu_core.data.scores import parse_segment_scores
from bleu_core.data.slices import slice_corpus
from bleu_core.metrics import get_metric
from tests.app.test_report import assert_self_contained
from tests.core.test_imported_scores import mqm_case


def _rows(table: str) -> list[list[str]]:
    rows = [re.findall(r"<td[^>]*>(.*?)</td>", tr) for tr in re.findall(r"<tr>(.*?)</tr>", table)]
    return [r for r in rows if r]  # not the header's


@pytest.mark.slow  # 1.3 s or more: make test runs it, the one-minute loop leaves it out
def test_the_report_ranks_the_systems_by_each_metric_and_gives_tau(data_dir, wmt21) -> None:
    corpus, tsv, floats = mqm_case(data_dir, wmt21)
    corpus = corpus.with_scores(parse_segment_scores(tsv, "mqm.tsv", corpus))
    corpus = slice_corpus(corpus, "line 1..200", "13a").corpus
    chrf, mqm = get_metric("chrf"), corpus.scores[0].metric
    html = build_report(corpus, BleuConfig(), ReportOptions(trials=100, metrics=(chrf, mqm)))
    assert_self_contained(html)
    section = html.split("<h2>Do the metrics rank the systems alike?</h2>")[1].split("<h2>")[0]
    ranks_html, tau_html = re.findall(r"<table>.*?</table>", section)
    refs = [list(corpus.references[0].lines)]
    scores = {
        "BLEU": {s.name: sacrebleu.BLEU().corpus_score(list(s.lines), refs).score for s in corpus.systems},
        "chrF2": {s.name: sacrebleu.CHRF().corpus_score(list(s.lines), refs).score for s in corpus.systems},
        "MQM": {s.name: float(floats[s.name][:200].mean()) for s in corpus.systems},
    }
    rows = _rows(ranks_html)
    names = [r[0] for r in rows]
    assert sorted(names) == sorted(corpus.names)
    marked = 0
    for k, metric in enumerate(("BLEU", "chrF2", "MQM"), start=1):
        expected = stats.rankdata([-scores[metric][n] for n in names], method="min").astype(int).tolist()
        cells = [r[k] for r in rows]
        assert [int(re.sub(r"</?mark>", "", c)) for c in cells] == expected, metric
        for row, cell in zip(rows, cells, strict=True):
            assert cell.startswith("<mark>") == (re.sub(r"</?mark>", "", cell) != row[1])  # differs from BLEU's
            marked += cell.startswith("<mark>")
    assert marked > 0  # MQM parts from BLEU on these systems: something is marked
    taus = {(r[0], r[1]): float(r[2]) for r in _rows(tau_html)}
    assert len(taus) == 3
    for (a, b), tau in taus.items():
        theirs = stats.kendalltau([scores[a][n] for n in names], [scores[b][n] for n in names], variant="b")
        assert tau == pytest.approx(theirs.statistic, abs=5e-4)  # shown to three decimals
