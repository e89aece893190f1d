"""One set of names on the Compare and Corpus pages (issue 30, researcher walk B3): every table, legend, chart title,
line of text and export names a system as the charts do, with what the WMT file names share stripped
(``bleu_core.display.names.short_names``), and keeps the file's own name in a column (tables and CSVs) or on hover
(charts). WMT21 en-de files named as WMT names them (a shared prefix)."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Callable
from typing import Any

import pandas as pd
import pyarrow as pa
import pytest
from streamlit.testing.v1 import AppTest

from bleu_app.frames.names import FULL_NAME
from bleu_app.ui import state
from tests.ui.conftest import downloaded, open_app, page_elements, recorded_downloads, uploader

SYSTEMS = ("UF", "Online-A", "ICL", "Online-W")
PREFIX = "newstest2021.en-de."
FULL = {PREFIX + s: s for s in SYSTEMS}


def _load(wmt21: Any, page: str, key: str) -> tuple[AppTest, dict[str, Callable[[], Any]]]:
    files = [("w21/reference.A.de", wmt21.ref_paths[0].read_bytes(), "text/plain")]
    files += [(f"w21/systems/{PREFIX}{s}.de", wmt21.path(s).read_bytes(), "text/plain") for s in SYSTEMS]
    with recorded_downloads() as made:
        at = open_app(page)
        at.multiselect(key=state.METRICS_BOX).set_value(["bleu"]).run()
        uploader(at, key).set_value(files).run()
    assert not at.exception, [e.value for e in at.exception]
    return at, made


@pytest.fixture(scope="module")
def compare(wmt21: Any) -> tuple[AppTest, dict[str, Callable[[], Any]]]:
    return _load(wmt21, "pages/compare.py", "compare.in_folder")


@pytest.fixture(scope="module")
def corpus(wmt21: Any) -> AppTest:
    return _load(wmt21, "pages/corpus.py", "corpus.in_folder")[0]


def _table(at: AppTest, column: str) -> Any:
    return next(d.value for d in at.dataframe if column in d.value.columns)


def _chart(at: AppTest, found: Callable[[Any], bool]) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The first chart whose title ``found`` accepts: its spec and the rows of its datasets."""
    for c in at.get("vega_lite_chart"):
        spec = json.loads(c.proto.spec)
        title = spec.get("title")
        if found(title["text"] if isinstance(title, dict) else title):
            rows = [r for d in c.proto.datasets for r in pa.ipc.open_stream(d.data.data).read_all().to_pylist()]
            return spec, rows
    raise AssertionError("no such chart")


def _short_with_full(table: Any, column: str = "system", full: str = FULL_NAME) -> None:
    # every system (the decomposition's rows: every one but the baseline)
    assert set(SYSTEMS) >= set(table[column]), table[column].tolist()
    assert len(set(table[column])) >= len(SYSTEMS) - 1
    assert [FULL[f] for f in table[full]] == table[column].tolist()  # the file's own name, row by row


def _download(page: tuple[AppTest, dict[str, Callable[[], Any]]], label: str) -> str:
    at, made = page
    return downloaded(at, label, made)


def _csv(page: tuple[AppTest, dict[str, Callable[[], Any]]], label: str) -> pd.DataFrame:
    return pd.DataFrame(list(csv.DictReader(io.StringIO(_download(page, label)))))


def test_the_systems_table_shows_the_short_names_with_the_full_ones_beside(compare):
    _short_with_full(_table(compare[0], "BLEU CI low"))


def test_the_system_pickers_show_the_short_names_and_hold_the_full_ones(compare, corpus):
    boxes = [compare[0].selectbox(key=k) for k in (state.BASELINE_BOX, state.A_BOX, state.B_BOX)]
    boxes += [corpus.selectbox(key=state.SYSTEM_BOX)]
    for box in boxes:
        assert sorted(box.options) == sorted(SYSTEMS), box.label  # what the list shows
        assert box.value in FULL  # what the page reads


def test_the_degenerate_outputs_counts_show_the_short_names(compare, corpus):
    for at in (compare[0], corpus):
        _short_with_full(_table(at, "lines flagged"))


def test_the_scatter_and_the_waterfall_name_a_and_b_as_the_tables_do(compare):
    at = compare[0]
    a, b = (FULL[at.selectbox(key=k).value] for k in (state.A_BOX, state.B_BOX))
    scatter, _ = _chart(at, lambda t: isinstance(t, list) and t[0] == "Sentence BLEU")
    assert scatter["title"]["text"][1] == f"{a} (A) vs {b} (B)"
    waterfall, steps = _chart(at, lambda t: isinstance(t, list) and "→" in t[0])
    assert waterfall["title"][0] == f"{a} (A) → {b} (B)"
    assert PREFIX not in json.dumps(steps)  # the bars' labels and tooltips
    assert {r["step"] for r in steps} >= {f"A: {a}", f"B: {b}"}


def test_the_bucket_legends_name_a_and_b_as_the_tables_do(compare):
    at = compare[0]
    a, b = (FULL[at.selectbox(key=k).value] for k in (state.A_BOX, state.B_BOX))
    for title in ("BLEU by reference length", "F-measure by word frequency"):
        spec, rows = _chart(at, lambda t, title=title: isinstance(t, list) and t[0].startswith(title[:20]))
        assert PREFIX not in json.dumps(spec) + json.dumps(rows)
        assert {r["system"] for r in rows} == {f"A: {a}", f"B: {b}"}


def test_no_line_of_text_names_a_system_by_its_file_name(compare):
    texts = [str(e.value) for e in page_elements(compare[0].main) if getattr(e, "type", "") in ("markdown", "caption")]
    assert any("Online" in t for t in texts)  # the check can fail: the systems are named in the text
    assert not [t for t in texts if "newstest2021" in t]


@pytest.mark.parametrize(
    ("label", "columns"),
    [
        ("CSV: systems", [("system", FULL_NAME)]),
        ("CSV: significance", [("row system", "row system full name"), ("column system", "column system full name")]),
        ("Report: decomposition CSV", [("system", FULL_NAME)]),
    ],
)
def test_each_csv_has_the_short_name_and_the_full_one(compare, label, columns):
    table = _csv(compare, label)
    for column, full in columns:
        _short_with_full(table, column, full)


def test_the_latex_comparison_table_uses_the_short_names(compare):
    tex = _download(compare, "LaTeX: table")
    assert "newstest2021" not in tex
    assert all(f"\n{s} & " in tex for s in SYSTEMS)


def test_the_corpus_pages_precision_decay_legend_shows_the_short_name(corpus):
    system = corpus.selectbox(key=state.SYSTEM_BOX).value
    _, rows = _chart(corpus, lambda t: t == "Precision decay")
    assert {r["system"] for r in rows} == {FULL[system]}


def test_the_report_shows_the_short_names_with_the_full_ones_on_hover(compare):
    import re

    html = _download(compare, "Report: HTML (opens offline)")
    hover = re.compile(r'\s(?:title|aria-label)="[^"]*"')  # what a pointer or a screen reader reads on a name
    assert "newstest2021" in html  # the check can fail: the full names are in the file
    shown = hover.sub("", html)
    assert [m.start() for m in re.finditer("newstest2021", shown)] == [], shown[shown.find("newstest2021") - 200 :][
        :400
    ]
    assert all(f">{s}<" in shown or f">{s} (baseline)<" in shown for s in SYSTEMS)
