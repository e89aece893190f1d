"""Every chart the pages draw, rendered through vl-convert as the browser's Vega would: any spec that fails to
render fails the test.

The specs are taken from what the pages send (AppTest's element tree: the spec plus its Arrow datasets), not
rebuilt here, so a chart a page adds is covered without touching this file. Data: the paper's examples (Learn
page and every example on the sentence page), the demo corpus, and each data set of ../shared/data uploaded as
a whole folder, on the corpus and compare pages, with the settings each page opens on and the paper's preset.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
import vl_convert as vlc
from streamlit.dataframe_util import convert_arrow_bytes_to_pandas_df
from streamlit.testing.v1 import AppTest

from bleu_app import samples
from bleu_app.ui import state
from tests.ui.conftest import folder_files, open_app, uploader

ROOT = Path(__file__).resolve().parents[2]
FOLDERS = ["wmt22-general-zh-en", "wmt21-news-en-de", "compare-mt-ted-sk-en"]
MARK = re.compile(r'class="mark-(?:rect|symbol|line|rule|text|area)[^"]*role-mark')


def vega_specs(at: AppTest) -> list[dict[str, Any]]:
    """The Vega-Lite specs of every chart on the page, with their data put back inline."""
    out = []
    for el in at.get("vega_lite_chart"):
        proto = el.proto
        spec = json.loads(proto.spec)
        named = {
            d.name: json.loads(convert_arrow_bytes_to_pandas_df(d.data.data).to_json(orient="records"))
            for d in proto.datasets
        }
        if named:
            spec["datasets"] = {**spec.get("datasets", {}), **named}
        if proto.data.data:
            spec["data"] = {
                "values": json.loads(convert_arrow_bytes_to_pandas_df(proto.data.data).to_json(orient="records"))
            }
        out.append(spec)
    return out


def _title(spec: dict[str, Any]) -> str:
    title = spec.get("title") or next((layer.get("title") for layer in spec.get("layer", []) if "title" in layer), "")
    if isinstance(title, dict):
        title = title.get("text", "")
    return title if isinstance(title, str) else " ".join(title)  # a list: its lines


def assert_all_render(at: AppTest, where: str, at_least: int) -> list[str]:
    """Render every chart on the page; each must produce an SVG with drawn marks and a real height."""
    assert not at.exception, [e.value for e in at.exception]
    specs = vega_specs(at)
    assert len(specs) >= at_least, (where, [_title(s) for s in specs])
    for spec in specs:
        name = f"{where}: {_title(spec)!r}"
        try:
            svg = vlc.vegalite_to_svg(spec)
        except Exception as exc:  # vl-convert raises ValueError with Vega's message
            pytest.fail(f"{name} does not render: {str(exc)[:400]}")
        height = float(re.search(r'<svg[^>]* height="([\d.]+)"', svg).group(1))  # type: ignore[union-attr]
        assert height >= 100, f"{name} is {height:.0f} px tall"
        assert MARK.search(svg), f"{name} draws no marks"
    return [_title(s) for s in specs]


def test_learn_and_every_paper_example_render():
    at = open_app()
    assert_all_render(at, "learn", at_least=3)
    for key in samples.SENTENCE_SAMPLES:
        at = open_app("pages/sentence.py", query={state.URL_EXAMPLE: key})
        assert_all_render(at, f"sentence {key}", at_least=2)


def _corpus_and_compare(at: AppTest, where: str) -> None:
    at.switch_page("pages/corpus.py").run()
    corpus_titles = assert_all_render(at, f"corpus page, {where}", at_least=4)
    at.switch_page("pages/compare.py").run()
    compare_titles = assert_all_render(at, f"compare page, {where}", at_least=4)
    assert any("n-gram" in t for t in compare_titles), compare_titles  # the chart that broke on WMT22
    assert corpus_titles


def test_demo_corpus_renders_on_both_presets():
    at = open_app()
    _corpus_and_compare(at, "demo, sacreBLEU default")
    at.sidebar.selectbox(key=state.PRESET).select("paper").run()
    _corpus_and_compare(at, "demo, paper preset")


@pytest.mark.slow
@pytest.mark.parametrize("folder", FOLDERS)
def test_shared_data_folder_renders(data_dir, folder):
    at = open_app()
    at.switch_page("pages/corpus.py").run()
    uploader(at, "corpus.in_folder").set_value(folder_files(data_dir / folder)).run()
    assert not at.exception, [e.value for e in at.exception]
    assert at.session_state[state.CORPUS].name == folder, [e.value for e in at.error]
    _corpus_and_compare(at, f"{folder}, sacreBLEU default")
    # the paper's tokenizer and case folding give other n-grams: on WMT22 one of them broke the n-gram chart
    at.sidebar.selectbox(key=state.PRESET).select("paper").run()
    _corpus_and_compare(at, f"{folder}, paper preset")


def test_every_registered_metric_and_imported_scores_render_on_real_data(data_dir, wmt21):
    """Compare with every registered metric and imported MQM scores (WMT21, the segments its expert MQM rated):
    every chart of both pages renders, each metric's interval chart and matrix among them."""
    from bleu_core.metrics import METRICS
    from tests.ui.test_metrics_pages import _folder, _scores_tsv

    at = open_app("pages/compare.py")
    uploader(at, "compare.in_folder").set_value(_folder(data_dir, wmt21)).run()
    tsv, _ = _scores_tsv(data_dir)
    uploader(at, "compare.in_scores").set_value(("mqm.tsv", tsv, "text/plain")).run()
    at.multiselect(key=state.METRICS_BOX).set_value([*METRICS, "scores:MQM"]).run()
    titles = assert_all_render(at, "compare page, every metric", at_least=4 + 2 * (len(METRICS) + 1))
    for name in ("TER", "MQM", *(["chrF2"] if "chrf" in METRICS else [])):
        assert any(t.startswith(f"Corpus {name} per system") for t in titles), (name, titles)
        assert any(t.startswith(f"Pairwise significance, {name}") for t in titles), (name, titles)
    at.switch_page("pages/corpus.py").run()
    assert_all_render(at, "corpus page, every metric", at_least=4)
