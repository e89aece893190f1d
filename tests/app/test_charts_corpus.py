"""Charts of the corpus/compare pages via to_dict(): marks, fields, selections; exports."""

from __future__ import annotations

import math
import re

import pandas as pd
import pytest

from bleu_app.charts import corpus as ch, human as human_charts, style as style_charts
from bleu_app.frames import blocks as fb, corpus as f, human as fh
from bleu_app.samples import demo_corpus
from bleu_core import BleuConfig
from bleu_core.engine import MatchArrays
from bleu_core.engine.stats import corpus_matrix, prepare_references
from bleu_core.teaching.blocktest import ranked_block_test

CFG = BleuConfig()


@pytest.fixture(scope="module")
def mats():
    c = demo_corpus()
    infos, _ = prepare_references(c.ref_streams, CFG)
    return c, {s.name: corpus_matrix(list(s.lines), infos, CFG) for s in c.systems}


def _marks(spec: dict) -> list[str]:
    layers = spec.get("layer", [spec])
    return [(m["type"] if isinstance(m, dict) else m) for m in (lay["mark"] for lay in layers)]


def test_precision_decay(mats):
    spec = ch.precision_decay(f.precision_frame(mats[1])).to_dict()
    assert _marks(spec) == ["line", "point"]
    assert spec["layer"][0]["encoding"]["x"]["field"] == f.N
    assert spec["layer"][0]["encoding"]["y"]["scale"]["domain"] == [0, 1]


def test_bp_chart_has_curve_sentences_and_corpus(mats):
    spec = ch.bp_chart(f.bp_curve(), f.bp_points(mats[1]["terse"], CFG)).to_dict()
    assert _marks(spec) == ["line", "circle", "point", "text"]
    assert spec["layer"][2]["mark"]["shape"] == "diamond"


def test_systems_ci_and_bars(mats):
    df = f.system_table(mats[1], CFG, nrefs=2, baseline="careful")
    spec = ch.systems_ci_chart(df, "careful").to_dict()
    assert _marks(spec) == ["rule", "point"]
    assert spec["layer"][0]["encoding"]["x2"]["field"] == f.CI_HIGH
    bars = ch.precision_bars(f.precision_frame(mats[1])).to_dict()
    assert bars["mark"]["type"] == "bar"
    assert bars["encoding"]["xOffset"]["field"] == style_charts.SHOWN  # the short names, as every other chart's


def test_heatmap(mats):
    p, ph, d = f.pairwise(list(mats[1].values()), CFG, trials=100)
    names = list(mats[1])
    spec = ch.significance_heatmap(f.significance_frame(names, p, ph, d), names).to_dict()
    assert _marks(spec) == ["rect", "text"]
    # sorted by a rank field, never by a list of the names (a list is compiled into a Vega expression)
    assert spec["layer"][0]["encoding"]["x"]["sort"] == {"field": "col_rank", "op": "min", "order": "ascending"}
    data = spec["datasets"][spec["data"]["name"]]
    assert sorted({(r[f.COL], r["col_rank"]) for r in data}, key=lambda t: t[1]) == list(zip(names, range(len(names))))


def test_scatter_has_point_selection_on_segment(mats):
    c, m = mats
    pairs = f.pair_sentences(
        m["careful"], m["terse"], CFG, c.system("careful").lines, c.system("terse").lines, c.ref_streams
    )
    spec = ch.pair_scatter(pairs, "careful", "terse", highlight=(1, 2)).to_dict()
    params = spec["params"] if "params" in spec else spec["layer"][1]["params"]
    assert params[0]["name"] == ch.PICK
    assert params[0]["select"]["fields"] == [f.SEGMENT]


def test_ngram_and_human_charts(mats):
    a = MatchArrays.from_dicts(({("x",): 1}, {("x",): 1}), 1)
    df = f.ngram_diff(a, MatchArrays.from_dicts(({}, {}), 1))
    spec = ch.ngram_chart(df).to_dict()
    assert spec["params"][0]["name"] == ch.NGRAM_PICK
    table = f.system_table(mats[1], CFG, nrefs=2, human=mats[0].human_scores())
    human, _ = fh.human_frame(table)
    hs = human_charts.human_chart(human, "rating").to_dict()
    marks = _marks(hs)
    assert marks[:2] == ["line", "point"]
    assert set(marks[2:]) == {"text"}  # one text layer per offset the names are drawn at


def test_block_and_bucket(mats):
    blocks = fb.blocks(ranked_block_test(list(mats[1].values()), CFG), list(mats[1]))
    spec = ch.block_chart(blocks).to_dict()
    assert _marks(spec) == ["circle", "tick"]
    assert spec["title"] == ["Block test: BLEU of 6 blocks", "(tick: mean)"]  # two lines: one was cut at 390 px
    pytest.importorskip("vl_convert")
    svg = style_charts.export(ch.block_chart(blocks), "svg")
    assert "Block test: BLEU of 6 blocks" in svg
    symbols = svg.split('class="mark-symbol')[1].split("</g>")[0]
    assert symbols.count("<path") == len(blocks) == 6 * len(mats[1])  # one point per block and system
    assert _marks(ch.bucket_chart(f.buckets(mats[1]["careful"], CFG), "reference length").to_dict()) == [
        "rule",
        "point",
    ]


@pytest.mark.slow  # out of make test-core (the one-minute loop); make test runs it
def test_exports(mats):
    chart = ch.precision_bars(f.precision_frame(mats[1]))
    pytest.importorskip("vl_convert")
    page = str(style_charts.export(chart, "html"))
    assert "<html" in page.lower()
    assert "vegaEmbed" in page  # the chart is embedded, not a bare document
    links = _links(page)
    assert links  # the parser sees the page's scripts: a test that can fail
    assert not [u for u in links if u.startswith(("http:", "https:", "//"))], links  # nothing from a CDN
    assert style_charts.export(chart, "svg").lstrip().startswith("<svg")
    assert style_charts.export(chart, "png")[:8] == b"\x89PNG\r\n\x1a\n"


def _links(page: str) -> list[str]:
    """Every src/href attribute value of the page's tags, and "inline" for each script written in the page."""
    from html.parser import HTMLParser

    found: list[str] = []

    class _P(HTMLParser):
        def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
            found.extend(v or "" for k, v in attrs if k in ("src", "href"))
            if tag == "script" and not any(k == "src" for k, _ in attrs):
                found.append("inline")

    _P().feed(page)
    return [u.strip() for u in found]


def _y_label_gaps(svg: str) -> list[float]:
    """Pixel distances between neighbouring labels of the chart's discrete y axis (the second axis drawn)."""
    import itertools
    import re

    groups = svg.split('role-axis-label"')[1:]
    ys = sorted(float(y) for y in re.findall(r"translate\(-?[\d.]+,(-?[\d.]+)\)", groups[1].split("</g>")[0]))
    return [b - a for a, b in itertools.pairwise(ys)]


def test_block_chart_keeps_a_band_per_system_with_few_systems(mats):
    """Review item 2: with the demo's 4 systems the chart was a ~10 px strip with the names on top of each other.

    The height is a step per system (Streamlit keeps it; a pixel height was squeezed), and rendered the way
    Streamlit embeds charts (width of the container, autosize fit) the names stand >= 20 px apart.
    """
    blocks = fb.blocks(ranked_block_test(list(mats[1].values()), CFG), list(mats[1]))
    chart = ch.block_chart(blocks)
    spec = chart.to_dict()
    assert spec["height"] == {"step": 28}
    assert "color" not in spec["layer"][1]["mark"]  # the mean tick takes the theme's colour (dark mode)
    pytest.importorskip("vl_convert")
    import vl_convert as vlc

    spec["width"] = 600
    spec["autosize"] = {"type": "fit-x", "contains": "padding"}
    gaps = _y_label_gaps(vlc.vegalite_to_svg(spec))
    assert len(gaps) == len(mats[1]) - 1 == 3
    assert min(gaps) >= 20, gaps


@pytest.mark.slow  # 1.3 s or more: make test runs it, the one-minute loop leaves it out
def test_exported_charts_carry_the_signature(mats):
    """Review item 3: a PNG/SVG/HTML that leaves the app says how its numbers were scored (title's subtitle)."""
    pytest.importorskip("vl_convert")
    sig = "nrefs:1|bs:1000|rs:12345|case:mixed|eff:no|tok:13a|smooth:exp|order:4"
    chart = ch.precision_bars(f.precision_frame(mats[1]))
    title = chart.to_dict()["title"]
    svg = str(style_charts.export(chart, "svg", sig))
    assert f">{sig}<" in svg  # drawn as text
    assert f">{title}<" in svg  # under the chart's own title, which stays
    assert sig not in str(style_charts.export(chart, "svg"))
    assert sig in str(style_charts.export(chart, "html", sig))
    plain, with_sig = style_charts.export(chart, "png"), style_charts.export(chart, "png", sig)
    assert isinstance(with_sig, bytes)
    assert with_sig != plain


def _contrast(a: str, b: str) -> float:
    """WCAG contrast ratio of two #rrggbb colours."""

    def lum(c: str) -> float:
        rgb = [int(c[i : i + 2], 16) / 255 for i in (1, 3, 5)]
        r, g, b = (x / 12.92 if x <= 0.03928 else ((x + 0.055) / 1.055) ** 2.4 for x in rgb)
        return 0.2126 * r + 0.7152 * g + 0.0722 * b

    hi, lo = sorted((lum(a), lum(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


@pytest.mark.parametrize(("theme", "background"), [("light", "#ffffff"), ("dark", "#0e1117")])
def test_human_chart_names_readable_in_both_themes(theme, background):
    """Review item 7: the system names were black text (Vega's default for text) on the dark theme.

    Rendered with the theme's chart colours from .streamlit/config.toml (what Streamlit gives Vega as the
    "category" range), every name is drawn in a colour with WCAG contrast >= 3 against the theme's background.
    """
    import re
    import tomllib
    from pathlib import Path

    pytest.importorskip("vl_convert")
    import vl_convert as vlc

    conf = tomllib.loads((Path(__file__).resolve().parents[2] / ".streamlit" / "config.toml").read_text())
    colours = conf["theme"][theme]["chartCategoricalColors"]
    names = ["JDExploreAcademy", "NiuTrans", "DLUT"]
    df = pd.DataFrame({f.SYSTEM: names, f.BLEU: [38.0, 30.5, 29.0], f.HUMAN: [-0.02, -0.16, -0.08]})
    svg = vlc.vegalite_to_svg(human_charts.human_chart(df, "da_z").to_dict(), config={"range": {"category": colours}})
    named = {"black": "#000000", "white": "#ffffff"}
    fills = {name: named.get(fill, fill) for fill, name in re.findall(r'<text[^>]*fill="([^"]+)"[^>]*>([^<]+)<', svg)}
    assert set(names) <= set(fills)
    for name in names:
        assert _contrast(fills[name], background) >= 3, (name, fills[name])


def _twelve() -> tuple[pd.DataFrame, list[str]]:
    """A 12-system matrix like WMT22's, with one pair whose difference rounds to zero from below."""
    import numpy as np

    names = [f"system-{i:02d}" for i in range(12)]
    bleu = np.linspace(38.0, 28.0, 12)
    bleu[5] = bleu[4] - 0.003  # AISP-SJTU vs HuaweiTSC in the review: equal to two decimals
    delta = bleu[:, None] - bleu[None, :]
    p = np.where(np.abs(delta) > 2, 0.001, 0.4)
    return f.significance_frame(names, p, p, delta), names


def _texts(svg: str) -> list[tuple[str, str]]:
    """(opacity, text) of every drawn mark-text item (the matrix's cell labels)."""
    import re

    layer = svg.split('class="mark-text role-mark')[1].split("</g>", maxsplit=1)[0]
    return re.findall(r'<text[^>]*opacity="([\d.]+)"[^>]*>([^<]*)<', layer)


@pytest.mark.parametrize("width", [180, 408])
def test_twelve_system_matrix_drops_cell_numbers_when_narrow(width):
    """Review item 6: at 420 px the 12x12 matrix printed full-size numbers in ~15 px cells."""
    pytest.importorskip("vl_convert")
    import vl_convert as vlc

    sig, names = _twelve()
    spec = ch.significance_heatmap(sig, names).to_dict()
    spec["width"] = width  # what Streamlit's container width does to it
    texts = _texts(vlc.vegalite_to_svg(spec))
    assert len(texts) == 12 * 11
    shown = {o for o, _ in texts}
    assert shown == ({"0"} if width / 12 < ch.MIN_CELL else {"1"})


@pytest.mark.slow  # out of make test-core (the one-minute loop); make test runs it
def test_matrix_never_shows_a_signed_zero():
    """Review item 19: two systems equal to two decimals read "-0.00" / "+0.00"."""
    pytest.importorskip("vl_convert")
    import vl_convert as vlc

    sig, names = _twelve()
    labels = [t for _, t in _texts(vlc.vegalite_to_svg(ch.significance_heatmap(sig, names).to_dict()))]
    assert labels.count("0.00") == 2  # the pair, both ways round
    assert not [t for t in labels if t.startswith(("-0.00", "+0.00", "−0.00"))]


def test_ranked_charts_draw_short_names_and_clusters_on_wmt(data_dir):
    """WMT-style names that share a prefix and a suffix: the CI chart (coloured by cluster) and the matrix draw
    the part that differs, in score order; the full names stay in the data (tooltips, exports)."""
    import re

    import numpy as np
    import vl_convert as vlc

    from bleu_app.frames.names import labels
    from bleu_core.engine import ReferenceSet

    root = data_dir / "wmt21-news-en-de"
    paths = sorted((root / "systems").glob("*.de"))[:6]
    refs = ReferenceSet([(root / "reference.A.de").read_text(encoding="utf-8").splitlines()])
    names = [f"newstest2021.{p.stem}.0.en-de" for p in paths]
    m = {n: refs.stats(p.read_text(encoding="utf-8").splitlines()) for n, p in zip(names, paths, strict=True)}
    systems = f.system_table(m, CFG, nrefs=1, baseline=names[0])
    p, ph, delta = f.pairwise(list(m.values()), CFG, trials=1000)
    sig = f.significance_frame(names, p, ph, delta)
    ranked = f.ranking(systems, sig)
    order = [s.name for s in ranked.systems]
    lab = labels(names)
    assert lab[names[0]] == paths[0].stem
    ci = ch.systems_ci_chart(
        f.in_order(systems, order), names[0], clusters={s.name: s.cluster for s in ranked.systems}, labels=lab
    )
    svg = vlc.vegalite_to_svg(ci.to_dict())
    texts = re.findall(r"<text[^>]*>([^<]*)</text>", svg)
    shown = [t for t in texts if t in lab.values()]
    assert shown == [lab[n] for n in order]  # every system, best first, by its short name
    assert not any("newstest2021" in t for t in texts)
    assert "significance cluster" in texts
    assert sum(t.startswith("cluster ") for t in texts) == len({s.cluster for s in ranked.systems})
    heat = vlc.vegalite_to_svg(ch.significance_heatmap(sig, order, labels=lab).to_dict())
    assert not any("newstest2021" in t for t in re.findall(r"<text[^>]*>([^<]*)</text>", heat))
    assert np.isfinite(systems[f.BLEU]).all()


def test_ranking_html_escapes_names_and_draws_cluster_rules():
    from bleu_app.markup import ranking_html

    evil = '<img src=x onerror=alert(1)> "q" & **b**'
    df = pd.DataFrame(
        {
            f.PLACE: [1, 2, 3],
            f.RANK_RANGE: ["1", "2–3", "2–3"],
            f.CLUSTER: [1, 2, 2],
            f.SYSTEM: [evil, "b", "c"],
            f.BLEU: [30.0, 20.0, 19.5],
            f.CI_LOW: [29.0, 19.0, 18.5],
            f.CI_HIGH: [31.0, 21.0, 20.5],
        }
    )
    html = ranking_html(df, {evil: evil, "b": "b", "c": "c"}, "b")
    assert "<img" not in html
    assert "&lt;img src=x onerror=alert(1)&gt; &quot;q&quot; &amp; **b**" in html
    assert html.count('class="cut') == 1
    assert "b (baseline)" in html


def _assert_names_apart_and_by_their_points(boxes: dict, points: dict) -> None:
    """Each drawn name is nearest its own point (a reader pairs it with that one) and no two names overlap."""
    for name, box in boxes.items():
        near = min(points, key=lambda p: _gap(points[p], box))
        assert near == name, (name, near, box)
    items = list(boxes.items())
    for i, (a, ba) in enumerate(items):
        for b, bb in items[i + 1 :]:
            apart = ba[2] <= bb[0] or bb[2] <= ba[0] or ba[3] <= bb[1] or bb[3] <= ba[1]
            assert apart, (a, ba, b, bb)


def _wmt22_human(data_dir) -> pd.DataFrame:
    """WMT22 zh-en's twelve systems: corpus BLEU (13a, both references) and the human da_z score."""
    return _human_frame(data_dir / "wmt22-general-zh-en")


def _wmt_corpus(root):
    """A WMT folder read as the app reads an uploaded folder (the raw human judgements left out)."""
    from bleu_core.data.readers import parse_folder

    files = [
        (str(p.relative_to(root.parent)), p.read_bytes())
        for p in sorted(root.rglob("*"))
        if p.is_file() and "human_eval_original" not in p.parts
    ]
    return parse_folder(files)


def _human_frame(root) -> pd.DataFrame:
    """A WMT folder's systems with a human score: corpus BLEU (13a, every reference) and that score."""
    from bleu_core.metrics.bleu import corpus_bleu

    corpus = _wmt_corpus(root)
    refs = [list(r.lines) for r in corpus.references]
    human = dict(corpus.human)
    rows = [
        {f.SYSTEM: n, f.BLEU: corpus_bleu(list(corpus.system(n).lines), refs).score, f.HUMAN: human[n]}
        for n in corpus.names
        if n in human
    ]
    return pd.DataFrame(rows)


def _drawn_name_boxes(svg: str, names: list[str]) -> dict[str, tuple[float, float, float, float]]:
    """Each name's text box as drawn in the SVG (anchor from its transform; 6 px a character at 11 px)."""
    import re

    boxes = {}
    for anchor, tx, ty, name in re.findall(
        r'<text[^>]*text-anchor="(\w+)"[^>]*transform="translate\(([-\d.]+),([-\d.]+)\)"[^>]*>([^<]+)</text>', svg
    ):
        if name in names:
            x, y, w = float(tx), float(ty), 6.0 * len(name)
            left = x if anchor == "start" else x - w
            boxes[name] = (left, y - 8, left + w, y + 3)
    return boxes


def _drawn_points(svg: str) -> dict[str, tuple[float, float]]:
    """Each system's point as drawn (the symbol path whose aria-label names it)."""
    import re

    found = re.findall(
        r'<path aria-label="[^"]*system: ([^;"]+)[^"]*"[^>]*aria-roledescription="point"[^>]*'
        r'transform="translate\(([-\d.]+),([-\d.]+)\)"',
        svg,
    )
    return {name: (float(x), float(y)) for name, x, y in found}


def _gap(point: tuple[float, float], box: tuple[float, float, float, float]) -> float:
    x, y = point
    left, top, right, bottom = box
    return math.hypot(max(left - x, 0, x - right), max(top - y, 0, y - bottom))


@pytest.mark.parametrize("width", [330, 640])
def test_human_chart_names_do_not_overlap_on_wmt22(data_dir, width):
    """Browser review: WMT22's names were drawn at one offset from clustered points and overlapped. Rendered by
    vl-convert at a phone's and a desktop's plot width, every system's name is drawn and no two overlap."""
    pytest.importorskip("vl_convert")
    import vl_convert as vlc

    df = _wmt22_human(data_dir)
    assert len(df) == 12
    assert human_charts.unlabelled(df) == []
    spec = human_charts.human_chart(df, "da_z").to_dict()
    spec["width"] = width
    svg = vlc.vegalite_to_svg(spec)
    boxes = _drawn_name_boxes(svg, df[f.SYSTEM].tolist())
    assert set(boxes) == set(df[f.SYSTEM])
    points = _drawn_points(svg)
    assert set(points) == set(df[f.SYSTEM])
    _assert_names_apart_and_by_their_points(boxes, points)


def test_human_chart_leaves_out_names_with_no_room_and_says_which():
    crowd = pd.DataFrame(
        {
            f.SYSTEM: [f"system-{i:02d}" for i in range(30)],
            f.BLEU: [30 + i * 0.01 for i in range(30)],
            f.HUMAN: [0.1 + i * 0.0001 for i in range(30)],
        }
    )
    placed = human_charts.place_labels(crowd, f.HUMAN, f.BLEU, f.SYSTEM)
    missing = human_charts.unlabelled(crowd)
    assert 0 < len(missing) < 30
    assert missing == placed.loc[placed[human_charts.LABEL_SPOT] < 0, f.SYSTEM].tolist()


@pytest.mark.parametrize("background", ["#ffffff", "#0e1117"])
def test_ci_chart_shape_legend_is_seen_on_both_themes(mats, background):
    """The baseline/system shape legend has no colour channel: its symbols were drawn black, invisible on the
    dark theme (review 29). They carry a grey that holds 3:1 (WCAG, graphics) on light and dark."""
    c, m = mats
    df = f.system_table(m, CFG, nrefs=len(c.references))
    spec = ch.systems_ci_chart(df, "careful").to_dict()
    legend = spec["layer"][1]["encoding"]["shape"]["legend"]
    for key in ("symbolFillColor", "symbolStrokeColor"):
        assert _contrast(legend[key], background) >= 3, (key, legend[key], background)


def _wmt21_human(data_dir) -> pd.DataFrame:
    """WMT21 en-de's twenty systems with a DA score: corpus BLEU (13a, the three references) and da_z."""
    return _human_frame(data_dir / "wmt21-news-en-de")


@pytest.mark.parametrize("width", [358, 556])
def test_human_chart_names_do_not_overlap_as_streamlit_draws_it(data_dir, width):
    """Review 29: on the compare page WMT21's "Online-Y" was written over "nuclear_trans" (and "Online-B" touched
    "WeChat-AI"). Streamlit fits the whole chart, title and axes included, into its 320 px (autosize "fit"), so
    the plot is 200 px tall, not 320, and 291 px wide at a 390 px phone (measured in Chromium): names placed for a
    larger plot collide. Rendered the way Streamlit sizes it (the element 358 px wide at 390, 556 at 1400), no
    two drawn names overlap, and each is nearest its own point."""
    pytest.importorskip("vl_convert")
    import vl_convert as vlc

    df = _wmt21_human(data_dir)
    assert len(df) == 20
    placed_names = [n for n in df[f.SYSTEM] if n not in human_charts.unlabelled(df)]
    spec = human_charts.human_chart(df, "da_z").to_dict()
    spec["width"] = width
    spec["autosize"] = {"type": "fit", "contains": "padding"}  # what st.altair_chart applies
    svg = vlc.vegalite_to_svg(spec)
    boxes = _drawn_name_boxes(svg, placed_names)
    assert set(boxes) == set(placed_names)
    points = _drawn_points(svg)
    _assert_names_apart_and_by_their_points(boxes, points)


def _luminance(colour: str) -> float:
    r, g, b = (
        (int(v) for v in re.findall(r"\d+", colour))
        if colour.startswith("rgb")
        else (int(colour[i : i + 2], 16) for i in (1, 3, 5))
    )
    lin = [(c / 255 / 12.92) if c / 255 <= 0.03928 else ((c / 255 + 0.055) / 1.055) ** 2.4 for c in (r, g, b)]
    return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]


def test_precisions_of_twenty_systems_are_a_grid_each_cell_written_and_legible(data_dir):
    """Review 29 item 17: with WMT21's 20 systems the grouped bars gave two systems the same colour and fill."""
    import vl_convert as vlc

    corpus = _wmt_corpus(data_dir / "wmt21-news-en-de")
    from bleu_core.engine import ReferenceSet

    refs = ReferenceSet(corpus.ref_streams)  # the kernel's statistics: the explainable path's (tests/core/test_fast.py)
    prec = f.precision_frame({s.name: refs.stats(list(s.lines)) for s in corpus.systems})
    assert len(corpus.names) == 20 > ch.BARS_UP_TO
    svg = vlc.vegalite_to_svg(ch.precision_bars(prec).to_json())
    cells = re.findall(
        r'aria-roledescription="rect mark" d="M([\d.]+),([\d.]+)h([\d.]+)v([\d.]+)h[^"]*" fill="([^"]+)"', svg
    )
    texts = re.findall(
        r'aria-roledescription="text mark"[^>]*translate\(([\d.]+),([\d.]+)\)[^>]*fill="([^"]+)">([^<]*)<', svg
    )
    assert len(cells) == len(texts) == 20 * 4
    assert sorted(t[3] for t in texts) == sorted(f"{p:.3f}" for p in prec[f.PRECISION])  # every p_n written
    assert len({(c[0], c[1]) for c in cells}) == 80  # one cell each: no two systems share a row
    for x, y, colour, value in texts:  # the cell under each value: dark text at 4.5:1 or more
        under = [
            c
            for c in cells
            if float(c[0]) <= float(x) <= float(c[0]) + float(c[2])
            and float(c[1]) <= float(y) <= float(c[1]) + float(c[3])
        ]
        assert len(under) == 1, value
        lt, lc = _luminance(colour), _luminance(under[0][4])
        assert (max(lt, lc) + 0.05) / (min(lt, lc) + 0.05) >= 4.5, (value, colour, under[0][4])
    # up to BARS_UP_TO systems the bars stay (WMT22's twelve)
    assert (
        ch.precision_bars(prec[prec[f.SYSTEM].isin(corpus.names[: ch.BARS_UP_TO])]).to_dict()["mark"]["type"] == "bar"
    )
