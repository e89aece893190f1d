"""bleu_app.views: a section's numbers, frames and charts built once, read by the compare page and the report."""

from __future__ import annotations

import json
import math

import pytest
import vl_convert as vlc

from bleu_app.report import ReportOptions, build_report, corpus_matrices
from bleu_app.views.difference import difference_view, pick_pair
from bleu_core import BleuConfig, corpus_bleu
from bleu_core.data.corpus import Corpus, System, TextFile

NAMES = ("Online-A", "Facebook-AI", "UF")


@pytest.fixture(scope="module")
def wmt21_corpus(wmt21) -> Corpus:
    """Three WMT21 systems against reference A."""
    ref = wmt21.refs()[0]
    systems = tuple(System(n, tuple(wmt21.system(n))) for n in NAMES)
    return Corpus("wmt21", (TextFile("reference.A.de", tuple(ref)),), systems)


def test_the_view_is_exact_on_real_data(wmt21_corpus):
    config = BleuConfig()
    mats = corpus_matrices(wmt21_corpus, config)
    a, b = pick_pair(mats, config, "UF", None, None)
    scores = {
        n: corpus_bleu(list(wmt21_corpus.system(n).lines), [list(wmt21_corpus.references[0].lines)]).score
        for n in NAMES
    }
    assert a == "UF"
    assert b == max((n for n in NAMES if n != "UF"), key=scores.__getitem__)
    view = difference_view(wmt21_corpus, mats, config, baseline="UF", a=a, b=b, top=10)
    assert view.decomposition.bleu == pytest.approx(scores[b] - scores[a], abs=1e-9)
    assert [t for t, _ in view.terms] == ["BP", "p1", "p2", "p3", "p4"]
    assert math.fsum(v for _, v in view.terms) == pytest.approx(view.decomposition.bleu, abs=1e-9)
    assert len(view.gap) == 10
    assert "nrefs:1" in view.signature
    # the charts draw: every mark has data on real input
    for chart in (view.waterfall, view.versus):
        assert chart is not None
        svg = vlc.vegalite_to_svg(json.loads(chart.to_json()))
        assert svg.count("<path") + svg.count("<rect") > 5


@pytest.mark.slow  # over 1 s: make test runs it; test-core stays under a minute
def test_page_and_report_read_the_same_view(wmt21_corpus):
    config = BleuConfig()
    mats = corpus_matrices(wmt21_corpus, config)
    html = build_report(wmt21_corpus, config, ReportOptions(baseline="UF", a="UF", b="Online-A", trials=100, top=7))
    view = difference_view(wmt21_corpus, mats, config, baseline="UF", a="UF", b="Online-A", top=7)
    for seg in view.gap["segment"]:
        assert f'<td class="">{int(seg)}</td>' in html
    assert view.signature in html
    assert f"{view.decomposition.bleu:+.2f}" in html


def test_pick_pair_keeps_a_distinct_b(wmt21_corpus):
    mats = corpus_matrices(wmt21_corpus, BleuConfig())
    assert pick_pair(mats, BleuConfig(), "UF", "Online-A", "Online-A")[1] != "Online-A"
    assert pick_pair(mats, BleuConfig(), "UF", "nobody", "UF") == ("UF", pick_pair(mats, BleuConfig(), "UF", "", "")[1])


def test_ranking_view_orders_everything_by_score(wmt21_corpus):
    from bleu_app.frames import corpus as frames
    from bleu_app.views.ranking import ranking_view

    config = BleuConfig()
    mats = corpus_matrices(wmt21_corpus, config)
    names = list(wmt21_corpus.names)
    systems = frames.system_table(mats, config, nrefs=1, baseline="UF")
    p, ph, delta = frames.pairwise([mats[n] for n in names], config, method="bs", trials=200, seed=12345)
    view = ranking_view(systems, frames.significance_frame(names, p, ph, delta), names, "UF")
    scores = {
        n: corpus_bleu(list(wmt21_corpus.system(n).lines), [list(wmt21_corpus.references[0].lines)]).score
        for n in NAMES
    }
    assert list(view.order) == sorted(NAMES, key=scores.__getitem__, reverse=True)
    assert view.systems[frames.SYSTEM].tolist() == list(view.order)
    assert len(view.ranked) == len(NAMES)
    for chart in (view.ci_chart, view.heatmap):
        svg = vlc.vegalite_to_svg(json.loads(chart.to_json()))
        assert all(n in svg for n in NAMES)  # every system is drawn (WMT21 names share nothing to shorten)
