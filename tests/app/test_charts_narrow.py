"""The Corpus and Compare charts rendered with vl-convert at a phone's width (390 px window: a 330 px chart), under
Streamlit's own chart theme (16 px bold titles, left aligned; 12 px axis labels): titles are never cut with "…",
every waterfall term and every matrix column keeps its name, the matrix's legend sits under the cells (review
items 4, 5 and 7)."""

from __future__ import annotations

import re

import numpy as np
import pandas as pd
import pytest

from bleu_app.charts import corpus as ch, difference as chd
from bleu_app.frames import corpus as f, difference as fd, pair_buckets as pb
from bleu_app.samples import demo_corpus
from bleu_core import BleuConfig
from bleu_core.engine import MatchArrays
from bleu_core.engine.stats import corpus_matrix, prepare_references
from bleu_core.teaching.blocktest import ranked_block_test
from bleu_core.teaching.decomposition import decompose

vlc = pytest.importorskip("vl_convert")

WIDTH = 330  # a 390 px phone, less Streamlit's padding
# what Streamlit's Altair theme sets (static/js CustomTheme), with the title cut at the chart's width
THEME = {
    "title": {"fontSize": 16, "fontWeight": "bold", "anchor": "start", "align": "left", "limit": WIDTH},
    "axis": {"labelFontSize": 12, "labelLimit": 100},
    "legend": {"labelFontSize": 14, "titleFontSize": 14},
}
CFG = BleuConfig()
# WMT22 zh-en's names, the review's
WMT22 = ["LanguageX", "JDExploreAcademy", "AISP-SJTU", "HuaweiTSC", "Online-B", "Lan-Bridge", "Online-W", "Online-A"]
WMT22 += ["Online-G", "NiuTrans", "DLUT", "Online-Y"]


def _svg(chart: object, width: int = WIDTH) -> str:
    spec = chart.to_dict()  # type: ignore[attr-defined]
    spec["width"] = width  # what Streamlit's container width does to it
    spec["autosize"] = {"type": "fit", "contains": "padding"}
    return str(vlc.vegalite_to_svg(spec, config=THEME))


def _title(svg: str) -> list[str]:
    """The drawn title lines."""
    block = svg.split("role-title-text")[1].split("</g>", maxsplit=1)[0]
    return re.findall(r"(?:<tspan[^>]*>|<text[^>]*>)([^<]+)<", block)


def _axis_labels(svg: str) -> list[list[tuple[float, float, str, str]]]:
    """Per axis: (x, y, opacity, text) of each label."""
    out = []
    for part in svg.split('class="mark-text role-axis-label"')[1:]:
        group = part.split("</g>", maxsplit=1)[0]
        out.append(
            [
                (float(x), float(y), o, t)
                for x, y, o, t in re.findall(
                    r'<text[^>]*transform="translate\(([-\d.]+),([-\d.]+)\)[^"]*"[^>]*opacity="([\d.]+)"[^>]*>([^<]*)<',
                    group,
                )
            ]
        )
    return out


@pytest.fixture(scope="module")
def demo():
    c = demo_corpus()
    infos, _ = prepare_references(c.ref_streams, CFG)
    return c, {s.name: corpus_matrix(list(s.lines), infos, CFG) for s in c.systems}


def _sig12() -> tuple[pd.DataFrame, list[str]]:
    bleu = np.linspace(30, 20, len(WMT22))
    delta = bleu[:, None] - bleu[None, :]
    p = np.where(np.abs(delta) > 2, 0.001, 0.4)
    return f.significance_frame(WMT22, p, p, delta), WMT22


def _waterfall() -> pd.DataFrame:
    d = decompose([30, 33, 20, 10, 5, 2, 29, 28, 27, 26], [31, 33, 22, 11, 4, 2, 30, 29, 28, 27])
    return fd.waterfall(d, "AISP-SJTU", "DLUT")


def _charts(demo) -> dict[str, object]:
    c, m = demo
    sig, names = _sig12()
    systems = f.system_table(m, CFG, nrefs=2, baseline="careful")
    pairs = f.pair_sentences(
        m["careful"], m["terse"], CFG, c.system("careful").lines, c.system("terse").lines, c.ref_streams
    )
    versus, _ = fd.versus_baseline(m, CFG, "careful")
    a = MatchArrays.from_dicts(({("x",): 1}, {("x",): 1}), 1)
    buckets = pd.DataFrame(
        {pb.BUCKET: ["low", "high"], pb.ORDER: [0, 1], pb.SIDE: ["A", "B"], pb.VALUE: [1.0, 2.0]}
        | {pb.LOW: [0.5, 1.5], pb.HIGH: [1.5, 2.5], pb.COUNT: [3, 4]}
    )
    return {
        "systems by cluster": ch.systems_ci_chart(systems, "careful", clusters=dict.fromkeys(m, 1)),
        "precisions": ch.precision_bars(f.precision_frame(m)),
        "matrix": ch.significance_heatmap(sig, names),
        "scatter": ch.pair_scatter(pairs, "AISP-SJTU", "DLUT"),
        "n-grams": ch.ngram_chart(f.ngram_diff(a, MatchArrays.from_dicts(({}, {}), 1))),
        "bucket": ch.bucket_chart(f.buckets(m["careful"], CFG, by="ratio"), "length ratio c/r"),
        "blocks": ch.block_chart(f.blocks(ranked_block_test(list(m.values()), CFG), list(m))),
        "waterfall": chd.waterfall_chart(_waterfall(), "points", title=["AISP-SJTU (A) → DLUT (B)", "BLEU points"]),
        "versus": chd.versus_baseline_chart(versus, "points", "AISP-SJTU"),
        "pair buckets": chd.pair_bucket_chart(buckets, x_title="word frequency in the references", y_title="F-measure"),
    }


NAMES = ("systems by cluster", "precisions", "matrix", "scatter", "n-grams", "bucket", "blocks", "waterfall")


@pytest.mark.parametrize("name", [*NAMES, "versus", "pair buckets"])
def test_titles_fit_a_phone(demo, name):
    """Review item 7: "Corpus BLEU per system, by significance clu…", "n-grams one system matches and the other …"."""
    lines = _title(_svg(_charts(demo)[name]))
    assert lines, name
    assert not [t for t in lines if t.endswith("…")], lines


def test_waterfall_names_every_term_at_a_phones_width():
    """Review item 5: at 390 px the waterfall's axis showed "A: AISP-SJTU, p1, p3, B: DLUT" (BP, p2, p4 hidden)."""
    wf = _waterfall()
    svg = _svg(chd.waterfall_chart(wf, "points", title="w"))
    band = next(axis for axis in _axis_labels(svg) if "BP" in [t for *_, t in axis])
    assert [(t, o) for _, _, o, t in band] == [(s, "1") for s in wf[fd.STEP]]  # each drawn, none hidden
    ys = [y for _, y, _, _ in band]
    assert min(np.diff(ys)) >= 12  # one band each, no two on one line
    for label in wf[fd.LABEL]:  # and each bar's value
        assert f">{label}<" in svg


def test_matrix_at_a_phones_width_draws_every_column_name_apart_and_the_legend_below():
    """Review item 4: at 390 px the rotated column names ran together and the legend took a third of the width."""
    sig, names = _sig12()
    svg = _svg(ch.significance_heatmap(sig, names))
    columns = next(axis for axis in _axis_labels(svg) if len({round(y) for _, y, _, _ in axis}) == 1)
    assert sorted(t for *_, t in columns) == sorted(names)
    assert {o for _, _, o, _ in columns} == {"1"}
    xs = sorted(x for x, *_ in columns)
    size = float(re.search(r'font-size="([\d.]+)px"[^>]*>' + re.escape(columns[0][3]) + "<", svg).group(1))
    assert min(np.diff(xs)) >= size + 2  # upright names one font-size apart at least: no overprint
    spec = ch.significance_heatmap(sig, names).to_dict()
    assert spec["layer"][0]["encoding"]["color"]["legend"]["orient"] == "bottom"
