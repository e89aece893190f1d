"""Contracts of bleu_app.frames.sentence: column names, the paper's numbers, the exercise checker."""

from __future__ import annotations

import math
from dataclasses import replace

import pytest

from bleu_app import samples
from bleu_app.frames import sentence as f
from bleu_core import BleuConfig, explain_segment


def _expl(key: str, config: BleuConfig | None = None):
    s = samples.sample(key)
    return explain_segment(s.hyp, s.refs, config or BleuConfig.paper())


def test_clip_frame_is_the_papers_17_18_table():
    df = f.clip_frame(_expl("ex1"), 1)
    assert list(df.columns) == [f.NGRAM, f.COUNT, f.ref_col(0), f.ref_col(1), f.ref_col(2), f.MAX_REF, f.CLIP]
    assert df[f.CLIP].sum() == 17
    assert df[f.COUNT].sum() == 18
    the = df.set_index(f.NGRAM).loc["the"]
    assert (the[f.COUNT], the["Ref 1"], the["Ref 2"], the["Ref 3"], the[f.MAX_REF], the[f.CLIP]) == (3, 1, 4, 4, 4, 3)


def test_clip_frame_out_of_range_order_is_empty_with_columns():
    df = f.clip_frame(_expl("ex1"), 9)
    assert df.empty
    assert f.CLIP in df.columns


@pytest.mark.parametrize(
    ("key", "expected"),
    [
        ("ex1", ["17/18", "10/17", "7/16", "4/15"]),
        ("ex1c2", ["8/14", "1/13"]),
        ("ex2", ["2/7", "0/6"]),
        ("ex3", ["2/2", "1/1"]),
    ],
)
def test_precision_frame_fractions(key, expected):
    df = f.precision_frame(_expl(key))
    assert tuple(df.columns) == f.PRECISION_COLUMNS
    assert df[f.FRACTION].tolist()[: len(expected)] == expected


def test_log_terms_sum_to_log_bleu():
    e = _expl("ex1")
    df = f.log_terms_frame(e)
    assert tuple(df.columns) == f.LOG_COLUMNS
    assert df[f.KIND].tolist() == ["precision"] * 4 + ["brevity", "total"]
    parts = df[df[f.KIND] != "total"][f.VALUE].sum()
    assert math.isclose(parts, df[df[f.KIND] == "total"][f.VALUE].iloc[0])
    assert math.isclose(math.exp(parts), e.score.score / 100)


def test_log_terms_minus_infinity_is_nan():
    df = f.log_terms_frame(_expl("ex3"))
    assert df[f.VALUE].isna().sum() == 3  # log p3, log p4 and the total
    assert df[f.AXIS].tolist()[2] == "w3|log p3|−∞"


def test_bp_curve_and_points():
    curve = f.bp_curve_frame(16, c_max=2)
    assert tuple(curve.columns) == f.BP_CURVE_COLUMNS
    assert curve[f.BP].between(0, 1).all()
    assert curve[f.BP].iloc[-1] == 1.0
    pts = f.bp_points_frame(_expl("ex3"))
    assert pts[f.C].tolist() == [2, 16]
    assert math.isclose(pts[f.BP].iloc[0], math.exp(1 - 16 / 2))


def test_occurrences_say_which_reference():
    df = f.occurrence_frame(_expl("ex2"), 1)
    assert tuple(df.columns) == f.OCCURRENCE_COLUMNS
    assert df[f.STATUS].tolist() == ["matched"] * 2 + ["clipped"] * 5
    assert df[f.REFS].iloc[0] == "Ref 1 @ 1, 5; Ref 2 @ 6"


def test_missed_frame_recall_view():
    df = f.missed_frame(_expl("ex4c2"), 1)
    assert sorted(df[f.NGRAM]) == ["invariably", "perpetually"]


def test_naive_recall_and_plain_precision():
    assert f.naive_recall(_expl("ex4")) == (5, 5)
    assert f.naive_recall(_expl("ex4c2")) == (3, 5)
    assert f.plain_precision(_expl("ex2"), 1) == (7, 7)


def test_whatif_frame_deltas():
    before, after = _expl("ex1"), explain_segment("it is a guide", samples.sample("ex1").refs, BleuConfig.paper())
    df = f.whatif_frame(before, after)
    assert df[f.LABEL].tolist() == ["p1", "p2", "p3", "p4", "BP", "BLEU"]
    assert df.set_index(f.LABEL).loc["BP", f.DELTA] < 0


def test_overlap_frame_both_only_a_only_b():
    refs = ("the cat sat on the mat",)
    a = explain_segment("the cat sat", refs, BleuConfig.paper())
    b = explain_segment("a cat on the mat", refs, BleuConfig.paper())
    df = f.overlap_frame(a, b, 1).set_index(f.NGRAM)[f.WHO].to_dict()
    assert df == {"the": "both", "cat": "both", "sat": "only A", "on": "only B", "mat": "only B"}


def test_best_match_frame_12_15_17():
    df = f.best_match_frame((12, 15, 17), (10, 12, 13, 14, 16, 17, 20)).set_index(f.C)
    assert df.loc[12, f.CLOSEST_R] == 12
    assert df.loc[12, f.CLOSEST_BP] == 1.0
    assert df.loc[14, f.CLOSEST_R] == 15
    assert df.loc[16, f.CLOSEST_R] == 15
    assert "tie: 15 and 17" in df.loc[16, f.NOTE]
    assert df.loc[14, f.SHORTEST_BP] == 1.0
    assert df.loc[14, f.CLOSEST_BP] < 1.0
    assert df.loc[12, f.AVERAGE_R] == 44 / 3  # exact, not rounded to 14.67 (shown 14.6700 at 4 decimals)
    assert df.loc[12, f.AVERAGE_BP] == pytest.approx(math.exp(1 - (44 / 3) / 12))
    # each rule differs from the closest somewhere, and the paper's own 12-word candidate exposes the average
    assert df[f.DIFFERS].to_dict() == {
        10: "average",
        12: "average",
        13: "average",
        14: "shortest and average",
        16: "neither",
        17: "neither",
        20: "neither",
    }


def test_pooling_frame_sums_counts_over_sentences():
    df = f.pooling_frame([("ex1", _expl("ex1")), ("ex1c2", _expl("ex1c2"))]).set_index(f.SENTENCE)
    assert df.loc["ex1", "p1"] == "17/18"
    assert df.loc["ex1c2", "p1"] == "8/14"
    assert df.loc[f.CORPUS_ROW, "p1"] == "25/32"
    assert df.loc[f.CORPUS_ROW, "p2"] == "11/30"


def test_geometric_mean_of_candidate_1():
    expr, value = f.geometric_mean(_expl("ex1"))
    assert expr == "(17/18 · 10/17 · 7/16 · 4/15)^(1/4)"
    assert value == pytest.approx((17 / 18 * 10 / 17 * 7 / 16 * 4 / 15) ** 0.25)
    assert f.geometric_mean(_expl("ex3"))[1] is None


def test_zero_orders_frame_shows_what_each_fix_changes():
    config = BleuConfig.paper()
    configs = f.what_if_configs(config)
    cells = {
        k: {name: explain_segment(s.hyp, s.refs, c) for name, c in configs.items()}
        for k, s in samples.SENTENCE_SAMPLES.items()
        if k in ("ex3", "ex4", "ex4c2")
    }
    df = f.zero_orders_frame(cells).set_index(f.SENTENCE)
    assert (df["these settings"] == 0).all()
    assert df.loc["ex3", f.PRECISIONS] == "p1 = 2/2 · p2 = 1/1 · p3 = 0/0 · p4 = 0/0"
    assert df.loc["ex4c2", "+ effective order"] == pytest.approx(100.0)  # 3/3, 2/2, 1/1; p4 = 0/0 left out
    assert df.loc["ex4", "+ effective order"] == 0  # 0/3 trigrams: an order with n-grams and no match stays
    assert df.loc["ex4", "+ exp smoothing"] > 0
    assert df.loc["ex4c2", "+ exp smoothing"] == 0  # sacreBLEU's exp smoothing leaves an order with no n-grams at 0
    assert df.loc["ex3", "+ effective order"] == pytest.approx(100 * math.exp(1 - 16 / 2))  # BP alone
    # mteval-v13a: a 0/0 order counts as 1 and the fourth root is kept; the i-th 0/k order as 1/(2^i k)
    assert df.loc["ex3", f.MTEVAL] == pytest.approx(100 * math.exp(1 - 16 / 2))
    assert df.loc["ex4c2", f.MTEVAL] == pytest.approx(100.0)
    ex4 = cells["ex4"]["these settings"]
    assert [(o.matches, o.total) for o in ex4.orders][2][0] == 0
    logs = []
    halves = 1
    for o in ex4.orders:
        if o.total and not o.matches:
            halves *= 2
            logs.append(math.log(1 / (halves * o.total)))
        elif o.total:
            logs.append(math.log(o.matches / o.total))
    bp = min(1.0, math.exp(1 - ex4.closest_ref_len / ex4.hyp_len))
    assert df.loc["ex4", f.MTEVAL] == pytest.approx(100 * math.exp(sum(logs) / 4) * bp)
    assert df.loc["ex4c2", "+ exp smoothing"] == 0 < df.loc["ex4c2", f.MTEVAL]  # 0/0 is 0 there, 1 in mteval
    # with effective order as well, sacreBLEU agrees on these three; it differs when a 0/0 order sits beside an
    # imperfect one: mteval divides the logs by 4, effective order by the orders present
    assert df[f.MTEVAL].to_numpy() == pytest.approx(df["+ both"].to_numpy())
    two = {
        k: {n: explain_segment(s.hyp, s.refs, replace(c, max_ngram_order=2)) for n, c in configs.items()}
        for k, s in samples.SENTENCE_SAMPLES.items()
        if k == "ex3"
    }
    assert f.MTEVAL not in f.zero_orders_frame(two).columns  # the script has no N = 2


def test_input_warnings():
    e = _expl("ex3", BleuConfig.paper())
    msgs = f.input_warnings("of the", e)
    assert any("fewer than the max order" in m for m in msgs)
    tok = explain_segment("the cat .", ["the cat."], BleuConfig())
    assert any("looks tokenized" in m for m in f.input_warnings("the cat .", tok))
    zw = explain_segment("the\u200bcat", ["the cat"], BleuConfig())
    assert any("invisible" in m for m in f.input_warnings("the\u200bcat", zw))
    clean = _expl("ex1")
    assert f.input_warnings(samples.sample("ex1").hyp, clean) == []


def test_variants_frame_columns():
    from bleu_core import run_variant

    hyps, refs = samples.paper_corpus_streams()
    res = [run_variant("no_clipping", list(hyps), [list(r) for r in refs], BleuConfig.paper())]
    df = f.variants_frame(res)
    assert list(df.columns) == [f.VARIANT, f.WRONG, f.RIGHT, f.DELTA, f.DETAIL]
    assert df[f.WRONG].iloc[0] != df[f.RIGHT].iloc[0]
