"""The compare page reads in one order with one set of names (issue 30, researcher walk C6): the block test best
first as the ranking above it, with the short names (full names in a column), and A and B starting at the
baseline and the best other system. WMT21 en-de files named as WMT names them (a shared prefix)."""

from __future__ import annotations

import json

import pyarrow as pa
import pytest
from streamlit.testing.v1 import AppTest

from bleu_app.frames.blocks import BLOCK_T, FULL_NAME
from bleu_app.ui import state
from bleu_core import corpus_bleu
from tests.ui.conftest import open_app, uploader

SYSTEMS = ("UF", "Online-A", "ICL", "Online-W")
PREFIX = "newstest2021.en-de."


@pytest.fixture(scope="module")
def page(wmt21) -> AppTest:
    files = [("w21/reference.A.de", wmt21.ref_paths[0].read_bytes(), "text/plain")]
    files += [(f"w21/systems/{PREFIX}{s}.de", wmt21.path(s).read_bytes(), "text/plain") for s in SYSTEMS]
    at = open_app("pages/compare.py")
    at.multiselect(key=state.METRICS_BOX).set_value(["bleu"]).run()
    uploader(at, "compare.in_folder").set_value(files).run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def _best_first(wmt21) -> list[str]:
    ref = wmt21.refs()[0]
    return sorted(SYSTEMS, key=lambda s: -corpus_bleu(wmt21.system(s), [ref]).score)


def test_the_block_test_is_best_first_with_the_short_names(page, wmt21):
    table = next(d.value for d in page.dataframe if BLOCK_T in d.value.columns)
    assert table["system"].tolist() == _best_first(wmt21)  # as the ranking above it, short as in its charts
    assert table[FULL_NAME].tolist() == [PREFIX + s for s in _best_first(wmt21)]


def test_a_and_b_start_at_the_baseline_and_the_best_other_system(page, wmt21):
    baseline = page.selectbox(key=state.BASELINE_BOX).value
    best_other = next(PREFIX + s for s in _best_first(wmt21) if PREFIX + s != baseline)
    assert best_other != sorted(PREFIX + s for s in SYSTEMS)[1]  # not the second by name, the old default
    assert page.selectbox(key=state.A_BOX).value == baseline
    assert page.selectbox(key=state.B_BOX).value == best_other


def _chart(at: AppTest, title: str):
    return next(c.proto for c in at.get("vega_lite_chart") if title in c.proto.spec)


def test_the_precision_legend_and_the_versus_baseline_axis_show_the_short_names(page):
    bars = json.loads(_chart(page, "Modified precisions p_n per system").spec)
    assert sorted(bars["encoding"]["color"]["scale"]["domain"]) == sorted(SYSTEMS)  # as the CI chart's axis
    versus = _chart(page, "Every system against")
    baseline = page.selectbox(key=state.BASELINE_BOX).value.removeprefix(PREFIX)
    assert json.loads(versus.spec)["title"][0] == f"Every system against {baseline}:"
    rows = [r for d in versus.datasets for r in pa.ipc.open_stream(d.data.data).read_all().to_pylist()]
    assert {r["shown"] for r in rows} <= set(SYSTEMS)
    assert {r["system"] for r in rows} <= {PREFIX + s for s in SYSTEMS}  # the full name, on hover
