"""The browser bench (bench/browser.py) times pages drawn, never an error page.

Its measuring function, on a small corpus (500 lines x 2 systems), reaches the drawn state on the corpus and compare
pages with the BLEU that sacreBLEU computes (an oracle independent of the app and of the bench's own bleu_core
figures); its drawn check waits for every condition and stops at an exception element.
"""

from __future__ import annotations

import pytest
import sacrebleu

from bench import browser as bench
from bench.load import make_corpus


def _oracle(items: list[tuple[str, bytes]]) -> list[float]:
    rows = {name: data.decode("utf-8").split("\n")[:-1] for name, data in items}
    ref = next(r for name, r in rows.items() if "/reference." in name)
    return [sacrebleu.corpus_bleu(r, [ref]).score for name, r in rows.items() if "/systems/" in name]


@pytest.fixture(scope="module")
def small(tmp_path_factory, data_dir):  # data_dir: the shared data must be there (make_corpus reads it)
    folder = tmp_path_factory.mktemp("bench") / "wmt21x500"
    items = make_corpus(folder, 500, systems=2)
    return folder, items, _oracle(items)


def test_compare_page_is_timed_drawn_with_every_bleu(browser, small):
    folder, items, bleu = small
    visit = bench.measure(browser, "compare", folder, items)
    assert "2 systems · 500 segments" in visit.found
    for b in bleu:
        assert f"{b:.2f}" in visit.found.split(", "), (b, visit.found)
    assert visit.charts >= bench.CHARTS["compare"]
    assert 0 < visit.seconds < 120
    assert visit.upload_s > 0
    assert visit.static_files > 10, "a fresh context fetches Streamlit's frontend"
    assert visit.static_bytes > 1_000_000
    assert visit.draw_cpu > 0
    assert visit.visit_cpu >= visit.upload_cpu + visit.draw_cpu
    assert visit.browser_cpu["renderer"] > 0


def test_corpus_page_is_timed_drawn_with_a_systems_bleu(browser, small):
    folder, items, bleu = small
    visit = bench.measure(browser, "corpus", folder, items)
    assert visit.found in {f"({b / 100:.4f})" for b in bleu}
    assert visit.charts >= bench.CHARTS["corpus"]
    assert 0 < visit.seconds < 120


PAGE = """<div data-testid="stApp" data-test-script-state="{state}"><div data-testid="stMain">
<p>Corpus BLEU 12.34</p><div data-testid="stVegaLiteChart"><svg class="marks">{mark}</svg></div>{extra}</div></div>"""
MARK = '<g class="role-mark"><path d="M0,0L1,1"></path></g>'


def _page(new_page, state: str = "notRunning", mark: str = MARK, extra: str = ""):
    p = new_page()
    p.set_content(PAGE.format(state=state, mark=mark, extra=extra))
    return p


def test_drawn_check_accepts_a_drawn_page(new_page):
    done = bench.wait_drawn(_page(new_page), ["12.34"], [], charts=1, timeout=60_000)
    assert done["charts"] == 1
    assert done["t"] > 0


@pytest.mark.parametrize(
    ("kwargs", "expect"),
    [
        pytest.param({"state": "running"}, ["12.34"], id="the script still runs"),
        pytest.param({"mark": ""}, ["12.34"], id="a chart without marks"),
        pytest.param({"extra": '<div data-stale="true">old</div>'}, ["12.34"], id="a stale element"),
        pytest.param({}, ["12.35"], id="the wrong BLEU"),
    ],
)
def test_drawn_check_waits(new_page, kwargs, expect):
    with pytest.raises(bench.NotDrawnError, match="not drawn within"):
        bench.wait_drawn(_page(new_page, **kwargs), expect, [], charts=1, timeout=1500)


CANVAS = '<div data-testid="stVegaLiteChart"><canvas width="200" height="100"></canvas></div>'


def test_drawn_check_waits_for_a_canvas_chart_to_be_inked(new_page):
    p = _page(new_page, extra=CANVAS)  # Vega draws a big scatter on a canvas
    with pytest.raises(bench.NotDrawnError, match="not drawn within"):
        bench.wait_drawn(p, ["12.34"], [], charts=2, timeout=1500)
    p.evaluate("() => document.querySelector('canvas').getContext('2d').fillRect(150, 80, 3, 3)")
    assert bench.wait_drawn(p, ["12.34"], [], charts=2, timeout=60_000)["charts"] == 2


def test_drawn_check_stops_at_an_exception(new_page):
    p = _page(new_page, extra='<div data-testid="stException">KeyError: boom</div>')
    with pytest.raises(bench.NotDrawnError, match="exception: KeyError: boom"):
        bench.wait_drawn(p, ["12.34"], [], charts=1, timeout=60_000)


def test_the_corpus_page_is_awaited_without_its_bucket_charts_above_their_limit():
    # above 5,000 lines the corpus page's two bucket charts wait for a toggle (bleu_app.ui.corpus.buckets): the drawn
    # check must not wait for charts that never come, nor accept fewer below the limit
    from bleu_app.ui.corpus.difference import BUCKETS_AUTO_SEGMENTS

    assert bench.BUCKETS_ON_REQUEST == BUCKETS_AUTO_SEGMENTS
    assert bench.charts_after_upload("corpus", BUCKETS_AUTO_SEGMENTS) == bench.CHARTS["corpus"]
    assert bench.charts_after_upload("corpus", BUCKETS_AUTO_SEGMENTS + 1) == bench.CHARTS["corpus"] - 2
    assert bench.charts_after_upload("compare", 50_000) == bench.CHARTS["compare"]
