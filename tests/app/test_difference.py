"""Frames and charts of the difference decomposition on real WMT21 data, rendered with vl-convert."""

from __future__ import annotations

import math
import re

import pytest
import vl_convert as vlc

from bleu_app.charts import difference as ch
from bleu_app.frames import difference as f
from bleu_core import BleuConfig
from bleu_core.engine import ReferenceSet
from bleu_core.teaching.decomposition import decompose_matrices

CFG = BleuConfig()


@pytest.fixture(scope="module")
def wmt21_stats(wmt21):
    """Every WMT21 system's statistics against reference A, by name."""
    rs = ReferenceSet(wmt21.refs()[:1])
    return {name: rs.stats(wmt21.system(name)) for name in wmt21.names}


def test_waterfall_frame_steps_land_on_b(wmt21_stats):
    d = decompose_matrices(wmt21_stats["happypoet"], wmt21_stats["Facebook-AI"], CFG)
    wf = f.waterfall(d, "happypoet", "Facebook-AI", "points")
    steps = wf[wf[f.KIND] != "total"]
    assert steps[f.START].iloc[0] == d.baseline_score
    assert math.isclose(steps[f.END].iloc[-1], d.score, abs_tol=1e-9)
    assert (steps[f.START].iloc[1:].to_numpy() == steps[f.END].iloc[:-1].to_numpy()).all()  # contiguous
    log = f.waterfall(d, "happypoet", "Facebook-AI", "log")
    assert math.isclose(log[f.END].iloc[-2], d.log_ratio, abs_tol=1e-12)
    assert log[f.STEP].iloc[-1] == "log(B/A)"


@pytest.mark.parametrize("unit", ["points", "log"])
def test_waterfall_draws_every_step_with_its_label(wmt21_stats, unit):
    d = decompose_matrices(wmt21_stats["happypoet"], wmt21_stats["Facebook-AI"], CFG)
    wf = f.waterfall(d, "happypoet", "Facebook-AI", unit)
    svg = vlc.vegalite_to_svg(ch.waterfall_chart(wf, unit, title="w").properties(width=500).to_json())
    bars = re.findall(r'aria-roledescription="bar"', svg)
    assert len(bars) == len(wf)
    for label in wf[f.LABEL]:
        assert f">{label}<" in svg


def test_versus_baseline_draws_every_system(wmt21_stats):
    frame, skipped = f.versus_baseline(wmt21_stats, CFG, "Online-A", "points")
    assert not skipped
    assert frame[f.SYSTEM].nunique() == 19
    nets = frame.drop_duplicates(f.SYSTEM)[f.NET].to_numpy()
    assert (nets[:-1] >= nets[1:]).all()  # best first
    sums = frame.groupby(f.SYSTEM)[f.VALUE].sum()
    for name, net in frame.drop_duplicates(f.SYSTEM)[[f.SYSTEM, f.NET]].itertuples(index=False):
        assert math.isclose(sums[name], net, abs_tol=1e-9)  # the stacked terms reach the tick
    svg = vlc.vegalite_to_svg(ch.versus_baseline_chart(frame, "points", "Online-A").properties(width=500).to_json())
    for name in frame[f.SYSTEM].unique():
        assert f">{name}<" in svg


def test_not_finite_skipped_with_reason():
    import numpy as np

    a = np.array([[6, 6, 6, 5, 4, 3, 6, 5, 4, 3]])
    b = np.array([[6, 6, 4, 1, 0, 0, 6, 5, 4, 3]])  # no 3- or 4-gram match
    frame, skipped = f.versus_baseline({"a": a, "b": b}, BleuConfig(smooth_method="none"), "a")
    assert frame.empty
    assert skipped == {"b": "B has p3, p4 = 0 under none smoothing (log term -inf)"}
    assert f.waterfall(decompose_matrices(a, b, BleuConfig(smooth_method="none")), "a", "b").empty


def test_names_that_are_vega_keywords_or_quotes_render(wmt21_stats):
    # a sort list of names is compiled into a Vega expression; "if" or a quote in a name broke such charts
    names = {"if": "Online-A", 'it\'s "x"': "Facebook-AI", "datum.x)": "UF"}
    mats = {k: wmt21_stats[v] for k, v in names.items()}
    frame, _ = f.versus_baseline(mats, CFG, "if", "points")
    svg = vlc.vegalite_to_svg(ch.versus_baseline_chart(frame, "points", "if").properties(width=400).to_json())
    assert svg.count('aria-roledescription="bar"') == 2 * 5
    wf = f.waterfall(decompose_matrices(mats["if"], mats['it\'s "x"'], CFG), "if", 'it\'s "x"', "points")
    svg = vlc.vegalite_to_svg(ch.waterfall_chart(wf, "points", title="w").properties(width=400).to_json())
    assert svg.count('aria-roledescription="bar"') == len(wf)


def test_decomposition_table_rows_add_up(wmt21_stats):
    table, decs = f.decomposition_table(wmt21_stats, CFG, "Online-A")
    assert len(table) == len(decs) == 19
    logs = table[[f"log {t}" for t in f.term_names(4)]].sum(axis=1)
    assert ((logs - table["log(B/A)"]).abs() < 1e-9).all()
    points = table[[f"{t} (points)" for t in f.term_names(4)]].sum(axis=1)
    assert ((points - table[f.NET]).abs() < 1e-9).all()


def test_versus_baseline_with_the_demos_few_systems_keeps_bands_and_legend():
    """Review item 2: on the demo (4 systems) the chart was a strip and the term legend lost p3/p4."""
    from bleu_app.samples import demo_corpus
    from tests.app.test_charts_corpus import _y_label_gaps

    c = demo_corpus()
    rs = ReferenceSet([list(r) for r in c.ref_streams])
    stats = {s.name: rs.stats(list(s.lines)) for s in c.systems}
    base = next(iter(stats))
    frame, _ = f.versus_baseline(stats, CFG, base, "points")
    spec = ch.versus_baseline_chart(frame, "points", base).to_dict()
    assert spec["height"] == {"step": 30}
    spec["width"] = 600
    spec["autosize"] = {"type": "fit-x", "contains": "padding"}
    svg = vlc.vegalite_to_svg(spec)
    assert len(_y_label_gaps(svg)) == len(stats) - 2  # every other system has its band
    assert min(_y_label_gaps(svg)) >= 20
    legend = svg[svg.index("role-legend") :]
    for term in frame[f.TERM].unique():
        assert f">{term}<" in legend, term
    height = float(re.search(r'<svg[^>]* height="([\d.]+)"', svg).group(1))  # type: ignore[union-attr]
    last = max(float(y) for y in re.findall(r"translate\(-?[\d.]+,(-?[\d.]+)\)", svg))
    assert last <= height  # nothing placed below the drawing


def test_gap_curve_draws_its_line_to_the_gap(wmt21_stats):
    from bleu_core.teaching.shares import gap_shares

    shares = gap_shares(wmt21_stats["happypoet"], wmt21_stats["Facebook-AI"], CFG)
    frame = f.gap_curve(shares)
    assert len(frame) <= 400
    assert frame[f.SENTENCES].iloc[-1] == len(wmt21_stats["happypoet"])
    assert math.isclose(frame[f.CUMULATIVE].iloc[-1], shares.gap, abs_tol=1e-9)
    assert frame[f.CUMULATIVE].max() > shares.gap > 0  # sentences pull both ways: the line climbs past the gap
    svg = vlc.vegalite_to_svg(ch.gap_curve_chart(frame, shares.gap).properties(width=500).to_json())
    path = re.search(r'aria-roledescription="line mark"[^>]*d="M([^"]+)"', svg)
    assert path, "no line drawn"
    assert len(re.findall(r"[ML]", "M" + path.group(1))) == len(frame)
    assert f"B − A = +{shares.gap:.2f}" in svg


def test_the_a_vs_b_sentences_by_share_add_up_to_the_corpus_gap(wmt21, wmt21_stats):
    """Researcher-walk C6: the A-vs-B table's order is each sentence's share of the gap, and the shares of every
    sentence add up to sacreBLEU's corpus BLEU of B minus A's (WMT21 en-de, every segment)."""
    import sacrebleu

    from bleu_app.frames import corpus as cf

    a, b = wmt21_stats["happypoet"], wmt21_stats["Facebook-AI"]
    refs = wmt21.refs()[:1]
    lines = (wmt21.system("happypoet"), wmt21.system("Facebook-AI"))
    pairs = cf.pair_sentences(a, b, CFG, *lines, refs, None, None)
    out = f.by_share(pairs, a, b, CFG)
    assert sorted(out[f.SEGMENT]) == list(range(1, len(a) + 1))
    assert out[f.SHARE].is_monotonic_decreasing
    gap = sacrebleu.corpus_bleu(lines[1], refs).score - sacrebleu.corpus_bleu(lines[0], refs).score
    assert math.isclose(out[f.SHARE].sum(), gap, abs_tol=1e-9)
    row = out.iloc[0]  # each row keeps its own sentence's numbers
    assert row[cf.BLEU_B] == pairs.set_index(f.SEGMENT).loc[row[f.SEGMENT], cf.BLEU_B]
