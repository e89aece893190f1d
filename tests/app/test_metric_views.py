"""Every registered metric through the compare page's frames, ranking and charts, on real data (WMT22 zh-en, four
systems, reference A, the first 200 segments): the systems table's scores are sacreBLEU's, the ranking and the
matrix follow the metric's direction (TER: lower is better), and each chart renders in vl-convert with its metric
named. Parametrised over ``bleu_core.metrics.METRICS``: a metric registered there is checked here with no change."""

from __future__ import annotations

import re

import numpy as np
import pytest
import sacrebleu
import vl_convert as vlc

from bleu_app.frames import corpus as f, metrics as mf
from bleu_app.markup import ranking_html
from bleu_app.views.ranking import ranking_view
from bleu_core.config import BleuConfig
from bleu_core.metrics import METRICS
from bleu_core.metrics.imported import SegmentScores

N = 200
SYSTEMS = 4
MARKS = re.compile(r'class="mark-(?:rect|symbol|rule|text)[^"]*role-mark')


def oracle(key: str):
    """sacreBLEU's metric of the same name with its defaults (BLEU: the sidebar's sacreBLEU preset)."""
    return {"bleu": sacrebleu.metrics.BLEU, "chrf": sacrebleu.metrics.CHRF, "ter": sacrebleu.metrics.TER}[key]()


@pytest.fixture(scope="module")
def data(wmt22):
    refs = [wmt22.refs()[0][:N]]
    systems = {p.stem: wmt22.system(p)[:N] for p in wmt22.sys_paths[:SYSTEMS]}
    return refs, systems


_TABLES: dict[str, tuple] = {}


def _tables(key: str, refs, systems):
    if key not in _TABLES:
        _TABLES[key] = _count(key, refs, systems)
    return _TABLES[key]


def _count(key: str, refs, systems):
    (shown,) = mf.resolve([key], BleuConfig())
    prepared = shown.metric.prepare(refs)
    mats = {name: prepared.stats(lines) for name, lines in systems.items()}
    table = f.system_table(mats, shown.metric, nrefs=1, baseline=next(iter(mats)))
    p, ph, delta = f.pairwise(list(mats.values()), shown.metric, trials=300, seed=12345)
    return shown, mats, table, f.significance_frame(list(mats), p, ph, delta)


def _keys() -> list:
    """Every registered metric; sacreBLEU's TER takes about a minute on these lines: ``slow`` (``make test``)."""
    return [pytest.param(k, marks=pytest.mark.slow) if k == "ter" else k for k in sorted(METRICS)]


@pytest.mark.parametrize("key", _keys())
def test_scores_are_sacrebleus_and_the_ranking_follows_the_metrics_direction(key: str, data) -> None:
    refs, systems = data
    shown, _, table, sig = _tables(key, refs, systems)
    name = shown.name
    expected = {s: oracle(key).corpus_score(lines, refs).score for s, lines in systems.items()}
    shown_scores = dict(zip(table[f.SYSTEM], table[name], strict=True))
    for s, score in expected.items():
        assert shown_scores[s] == pytest.approx(score, abs=1e-9), (key, s)
    assert (table[f.CI_LOW] <= table[name]).all()
    assert (table[name] <= table[f.CI_HIGH]).all()
    view = ranking_view(table, sig, list(systems), next(iter(systems)), metric=shown.metric)
    best_first = sorted(expected, key=expected.__getitem__, reverse=shown.metric.higher_is_better)
    assert list(view.order) == best_first
    assert view.ranked[name].tolist() == [expected[s] for s in best_first]
    html = ranking_html(view.ranked, view.labels, best_first[0], score=view.score, digits=view.digits)
    assert f"<th>{name}</th>" in html
    assert f"{expected[best_first[0]]:.2f}" in html


@pytest.mark.parametrize("key", sorted(METRICS))
def test_the_charts_render_and_name_their_metric(key: str, data) -> None:
    refs, systems = data
    shown, _, table, sig = _tables(key, refs, systems)
    view = ranking_view(table, sig, list(systems), next(iter(systems)), metric=shown.metric)
    for chart in (view.ci_chart, view.heatmap):
        svg = vlc.vegalite_to_svg(chart.to_json())
        assert len(MARKS.findall(svg)) >= 2  # drawn: the intervals and points, the cells and their numbers
        assert shown.name in svg  # the title or the axis names the metric
    if not shown.metric.higher_is_better:
        assert "lower is better" in vlc.vegalite_to_svg(view.ci_chart.to_json())


def test_an_error_rates_matrix_calls_the_lower_score_better() -> None:
    # TER: the row system's lower score is the better one, so a significant negative difference is "row better"
    sig = f.significance_frame(
        ["a", "b"], np.full((2, 2), 0.001), np.full((2, 2), 0.001), np.array([[0.0, -5.0], [5.0, 0.0]])
    )
    from bleu_app.charts.corpus import _verdicts

    ter = _verdicts(sig, higher_is_better=False)
    bleu = _verdicts(sig, higher_is_better=True)
    cell = (sig[f.ROW] == "a") & (sig[f.COL] == "b")
    assert ter.loc[cell, "verdict"].item() == "row better"
    assert bleu.loc[cell, "verdict"].item() == "row worse"


def test_imported_scores_rank_by_their_mean_with_four_decimals(data) -> None:
    _, systems = data
    rng = np.random.default_rng(7)
    scores = SegmentScores.from_decimals(
        "COMET", "comet.tsv", {s: [f"{v:.4f}" for v in rng.random(N) * (0.5 + k / 10)] for k, s in enumerate(systems)}
    )
    mats = {s: scores.matrix(s) for s in systems}
    table = f.system_table(mats, scores.metric, nrefs=1)
    p, ph, delta = f.pairwise(list(mats.values()), scores.metric, trials=300)
    view = ranking_view(table, f.significance_frame(list(mats), p, ph, delta), list(systems), "", metric=scores.metric)
    assert view.digits == 4
    assert list(view.order) == sorted(systems, key=lambda s: -scores.means()[s])
    svg = vlc.vegalite_to_svg(view.ci_chart.to_json())
    assert "Corpus COMET per system" in svg
