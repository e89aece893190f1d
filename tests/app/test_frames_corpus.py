"""Frames of the corpus/compare pages: column contracts and numbers checked against bleu_core."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from bleu_app.frames import blocks as fb, corpus as f, human as fh
from bleu_app.samples import demo_corpus
from bleu_app.ui.components import export, tables
from bleu_core import BleuConfig, ReferenceSet, corpus_bleu, explain_corpus
from bleu_core.engine import MatchArrays
from bleu_core.engine.stats import corpus_matrix, prepare_references
from bleu_core.teaching.blocktest import ranked_block_test

CFG = BleuConfig()


@pytest.fixture(scope="module")
def demo():
    c = demo_corpus()
    infos, _ = prepare_references(c.ref_streams, CFG)
    return c, {s.name: corpus_matrix(list(s.lines), infos, CFG) for s in c.systems}


def test_sentence_table_matches_explain_corpus(demo):
    c, m = demo
    df = f.sentence_table(m["terse"], CFG, c.system("terse").lines, c.ref_streams)
    e = explain_corpus(list(c.system("terse").lines), c.ref_streams, CFG)
    assert list(df.columns[:6]) == [f.SEGMENT, f.SENT_BLEU, f.LOO, f.HYP_LEN, f.REF_LEN, f.RATIO]
    np.testing.assert_allclose(df[f.SENT_BLEU], e.sentence_scores)
    # the effect on BLEU is with minus without (as the compare page's effect on B - A); explain's is without - with
    np.testing.assert_allclose(df[f.LOO], -np.asarray(e.loo_delta))
    assert df[f.SEGMENT].tolist() == list(range(1, 31))


def test_effect_on_bleu_is_corpus_bleu_with_the_sentence_minus_without_it(demo):
    """Review item 1: one sign convention on both pages; rescored from the text without the sentence."""
    c, m = demo
    hyps = list(c.system("terse").lines)
    df = f.sentence_table(m["terse"], CFG, hyps, c.ref_streams)
    full = corpus_bleu(hyps, c.ref_streams).score  # CFG is sacreBLEU's default
    for i in (0, 7):
        without = corpus_bleu(hyps[:i] + hyps[i + 1 :], [r[:i] + r[i + 1 :] for r in c.ref_streams]).score
        assert df[f.LOO].iloc[i] == pytest.approx(full - without, abs=1e-9)


def test_sentence_tables_point_at_the_corpus_strings_instead_of_copying_them(demo):
    # issue 13: pandas' default str dtype copied every line into Arrow (82 MB and 0.2 s at 50,000 segments);
    # the tables now hold the loaded strings themselves, and one string per distinct fraction
    c, m = demo
    hyps, refs = c.system("terse").lines, c.ref_streams
    df = f.sentence_table(m["terse"], CFG, hyps, refs, c.source.lines if c.source else None)
    assert all(a is b for a, b in zip(df[f.HYP], hyps, strict=True))
    assert all(a is b for a, b in zip(df[f.REF], refs[0], strict=True))
    p1 = df["p1"].tolist()
    assert p1 == [f"{a}/{b}" for a, b in zip(m["terse"][:, 2].tolist(), m["terse"][:, 6].tolist(), strict=True)]
    assert len({id(x) for x in p1}) == len(set(p1))
    pairs = f.pair_sentences(m["terse"], m["careful"], CFG, hyps, c.system("careful").lines, refs)
    by_segment = pairs.set_index(f.SEGMENT)
    assert all(by_segment.loc[i + 1, "A"] is h for i, h in enumerate(hyps))


def test_system_table_scores_and_cis(demo):
    c, m = demo
    df = f.system_table(m, CFG, nrefs=2, baseline="careful", human=c.human_scores())
    for name in c.names:
        row = df[df[f.SYSTEM] == name].iloc[0]
        assert row[f.BLEU] == pytest.approx(corpus_bleu(list(c.system(name).lines), c.ref_streams).score, abs=1e-9)
        assert row[f.CI_LOW] <= row[f.BLEU] <= row[f.CI_HIGH]
    assert df.loc[df[f.SYSTEM] == "careful", "vs baseline"].iloc[0] == 0
    human, agree = fh.human_frame(df)
    assert len(human) == 4
    assert agree.n == 4
    assert agree.values["pearson"] == pytest.approx(np.corrcoef(human[f.BLEU], human[f.HUMAN])[0, 1], abs=1e-12)
    table = fh.agreement_frame(agree)
    assert len(table) == 5
    assert (table[f.CI_LOW] <= table[fh.VALUE] + 1e-12).all()
    _, few = fh.human_frame(df.head(2))
    assert few.note.startswith("Two systems")
    assert fh.agreement_frame(few).empty


def test_precision_and_bp(demo):
    _, m = demo
    p = f.precision_frame({"terse": m["terse"]})
    assert p[f.N].tolist() == [1, 2, 3, 4]
    assert p[f.FRACTION].iloc[0] == f"{p[f.MATCHES].iloc[0]}/{p[f.TOTAL].iloc[0]}"
    pts = f.bp_points(m["terse"], CFG)
    corpus = pts[pts[f.KIND] == "corpus"].iloc[0]
    s = corpus_bleu(list(demo[0].system("terse").lines), demo[0].ref_streams)
    assert corpus[f.BP] == pytest.approx(s.bp)
    assert (pts[f.KIND] == "sentence").sum() == 30


def test_buckets_and_blocks(demo):
    _, m = demo
    b = f.buckets(m["careful"], CFG, by="ref_len")
    assert b[f.COUNT].sum() == 30
    assert (b[f.CI_LOW] <= b[f.CI_HIGH]).all()
    r = f.buckets(m["terse"], CFG, by="ratio")
    assert r[f.COUNT].sum() == 30
    test = ranked_block_test(list(m.values()), CFG)
    names = list(m)
    bl = fb.blocks(test, names)
    assert set(bl[f.BLOCK]) == set(range(1, 7))  # 30 segments: 6 blocks of 5, not the paper's 25
    assert "fewer than the 50 that two blocks of the paper's 25 need" in fb.block_test_description(test, 30)
    table = fb.block_test_table(test, names)
    assert list(table.columns) == list(fb.BLOCK_TEST_COLUMNS)
    # best first, as the ranking above it (issue 30: it was the paper's lowest first under a best-first ranking)
    assert list(table[f.BLEU]) == sorted(table[f.BLEU], reverse=True)
    assert math.isnan(table[fb.BLOCK_T].iloc[-1])  # the lowest has no system below it
    pairs = test.result.pairs[::-1]
    assert list(table[fb.BLOCK_T].iloc[:-1]) == [p.t for p in pairs]
    assert set(table[fb.BLOCK_DF].iloc[:-1]) == {5}
    # issue 20.1: at df = 5 the one-sided 95% point is 2.015, not the paper's 1.7 (its 20 blocks: df = 19)
    assert [round(x, 3) for x in table[fb.BLOCK_CRIT].iloc[:-1]] == [2.015] * len(pairs)
    assert list(table[fb.BLOCK_SIG].iloc[:-1]) == ["yes" if p.t >= 2.015 else "no" for p in pairs]
    assert list(dict.fromkeys(bl[f.SYSTEM])) == list(table[f.SYSTEM])  # the chart's rows in the same order
    assert set(fb.block_test_shown(table)[fb.BLOCK_CRIT]) == {"—", "2.015"}


def test_block_test_description_paper_sized():
    ones = np.array([[4, 4, 4, 3, 2, 1, 4, 3, 2, 1]] * 1002)
    test = ranked_block_test([ones, ones], CFG)
    assert fb.block_test_description(test, 1002) == (
        "40 blocks of 25-26 consecutive segments (the 1002 segments do not divide by 25: the remainder is spread)"
        "; df = 39."
    )


def test_holm_and_pairwise(demo):
    _, m = demo
    mats = [m["careful"], m["terse"], m["careful"]]
    for method in ("bs", "ar"):
        p, ph, d = f.pairwise(mats, CFG, method=method, trials=200, seed=1)
        assert p[0, 1] < 0.05  # careful beats terse by ~50 BLEU
        assert p[0, 2] == 1.0  # a system against itself
        assert d[0, 1] > 0
        assert (ph >= p - 1e-12).all()
    sig = f.significance_frame(["a", "b", "c"], p, ph, d)
    assert len(sig) == 9
    assert sig[f.SIGNIFICANT].sum() == 4


def test_ngram_diff_ranks_and_min_support():
    vocab: dict[str, int] = {}
    a = MatchArrays.from_dicts(({("x",): 1}, {("x",): 1}, {("y",): 1}, {("x",): 1}), 1, vocab)
    b = MatchArrays.from_dicts(({}, {}, {}, {("z",): 1}), 1, vocab)
    df = f.ngram_diff(a, b, min_support=2)
    assert df[f.NGRAM].tolist() == ["x"]  # y (1 vs 0) and z fall below the support
    assert df[f.ONLY_A].iloc[0] == 3
    assert df[f.SEGMENTS_LIST].iloc[0] == (1, 2, 4)


def _ngram_diff_by_dicts(a, b, *, min_support=2, alpha=0.5, top=25):
    """The n-gram differences by their definition, one dictionary per segment (the oracle)."""
    only_a, only_b, segs = {}, {}, {}
    for i, (ma, mb) in enumerate(zip(a, b, strict=True), start=1):
        for g in set(ma) | set(mb):
            d = ma.get(g, 0) - mb.get(g, 0)
            if d:
                only_a[g] = only_a.get(g, 0) + max(d, 0)
                only_b[g] = only_b.get(g, 0) + max(-d, 0)
                segs.setdefault(g, []).append(i)
    na, nb = sum(only_a.values()), sum(only_b.values())
    rows = []
    for g, seg in segs.items():
        ca, cb = only_a[g], only_b[g]
        if ca + cb >= min_support:
            la = math.log((ca + alpha) / (na - ca + alpha))
            lb = math.log((cb + alpha) / (nb - cb + alpha))
            z = (la - lb) / math.sqrt(1 / (ca + alpha) + 1 / (cb + alpha))
            rows.append((-abs(z), " ".join(g), len(g), ca, cb, z, tuple(seg)))
    rows.sort()
    fa = [r for r in rows if r[5] > 0][:top]
    fb = [r for r in rows if r[5] <= 0][:top]
    return [(r[1], r[2], r[3], r[4], tuple(r[6])) for r in fa + fb], [r[5] for r in fa + fb]


@pytest.mark.parametrize(
    ("tokenize", "lowercase"), [("13a", False), pytest.param("intl", True, marks=pytest.mark.slow)]
)
def test_ngram_diff_counts_what_the_definition_counts(data_dir, tokenize, lowercase):
    # two WMT21 systems against one reference: the arrays' counting equals the dictionary definition,
    # row for row (n-gram, order, only A, only B, segments) and z to rounding
    wmt = data_dir / "wmt21-news-en-de"
    read = lambda p: p.read_text(encoding="utf-8").split("\n")[:-1]  # noqa: E731
    refs = [read(wmt / "reference.A.de")]
    sys_a, sys_b = (read(p) for p in sorted((wmt / "systems").glob("*.de"))[:2])
    ref_set = ReferenceSet(refs, tokenize=tokenize, lowercase=lowercase)
    df = f.ngram_diff(ref_set.match_arrays(sys_a, 4), ref_set.match_arrays(sys_b, 4))
    want, z = _ngram_diff_by_dicts(ref_set.matches(sys_a, 4), ref_set.matches(sys_b, 4))
    got = list(df[[f.NGRAM, f.N, f.ONLY_A, f.ONLY_B, f.SEGMENTS_LIST]].itertuples(index=False, name=None))
    assert len(got) == 50
    assert got == want
    assert np.allclose(df[f.LOG_ODDS], z, rtol=1e-12)
    explain = ReferenceSet(refs, tokenize=tokenize, lowercase=lowercase, backend="explain")
    again = f.ngram_diff(explain.match_arrays(sys_a, 4), explain.match_arrays(sys_b, 4))
    same = [(w[0], w[2], w[3]) for w in want]  # the explainable path gives the same differences
    assert list(again[[f.NGRAM, f.ONLY_A, f.ONLY_B]].itertuples(index=False, name=None)) == same


@pytest.mark.parametrize(
    ("tokenize", "lowercase"), [("13a", False), pytest.param("intl", True, marks=pytest.mark.slow)]
)
def test_ngram_diff_from_the_kernel_counts_what_the_definition_counts(data_dir, tokenize, lowercase):
    # issue 13: the compare page counts the differences in one kernel pass (ReferenceSet.ngram_diff) instead of
    # two systems' match arrays; the frame is the definition's, row for row, and the same as from the arrays
    wmt = data_dir / "wmt21-news-en-de"
    read = lambda p: p.read_text(encoding="utf-8").split("\n")[:-1]  # noqa: E731
    refs = [read(wmt / "reference.A.de")]
    sys_a, sys_b = (read(p) for p in sorted((wmt / "systems").glob("*.de"))[:2])
    ref_set = ReferenceSet(refs, tokenize=tokenize, lowercase=lowercase)
    assert ref_set.backend == "kernel"
    df = f.ngram_diff(ref_set.ngram_diff(sys_a, sys_b, 4))
    want, z = _ngram_diff_by_dicts(ref_set.matches(sys_a, 4), ref_set.matches(sys_b, 4))
    got = list(df[[f.NGRAM, f.N, f.ONLY_A, f.ONLY_B, f.SEGMENTS_LIST]].itertuples(index=False, name=None))
    assert len(got) == 50
    assert got == want
    assert np.allclose(df[f.LOG_ODDS], z, rtol=1e-12)
    pd.testing.assert_frame_equal(df, f.ngram_diff(ref_set.match_arrays(sys_a, 4), ref_set.match_arrays(sys_b, 4)))
    for orders in ([1], [3, 4]):  # the order filter keeps those orders only
        only = f.ngram_diff(ref_set.ngram_diff(sys_a, sys_b, 4), orders=orders)
        assert set(only[f.N]) == set(orders)
    same = f.ngram_diff(ref_set.ngram_diff(sys_a, sys_a, 4))  # no difference at all: an empty frame
    assert same.empty
    assert list(same.columns) == list(df.columns)


def test_table_page_filters_and_pages(demo):
    c, m = demo
    df = f.sentence_table(m["careful"], CFG, c.system("careful").lines, c.ref_streams)
    v = tables.table_page(df, query="LIGHTHOUSE", page_size=2)
    assert v.matching == 3  # careful's lines 4, 8, 9 or their first reference mention it
    assert v.pages == 2
    assert len(v.rows) == 2
    v2 = tables.table_page(df, sort_by=f.LOO, ascending=False, page=99, page_size=10)
    assert v2.page == 3
    assert v2.rows[f.LOO].is_monotonic_decreasing


def test_latex_escapes():
    import pandas as pd

    df = pd.DataFrame(
        {
            f.SYSTEM: ["a&b_%"],
            f.BLEU: [1.0],
            f.CI_LOW: [0.5],
            f.CI_HIGH: [1.5],
            f.BP: [1.0],
            f.RATIO: [1.0],
            "p1": [50.0],
        }
    )
    tex = export.latex_table(df, signature="nrefs:1|tok:13a")
    assert "a\\&b\\_\\%" in tex
    assert "\\begin{tabular}" in tex


@pytest.mark.parametrize("by", ["ref_len", "ratio"])
def test_bucket_intervals_from_kept_draws_are_the_drawn_ones(data_dir, by):
    # issue 13: the corpus page keeps each bucket's bootstrap sums (they depend on the tokens only), so a
    # smoothing change redraws nothing; the intervals are the ones drawing again gives
    wmt = data_dir / "wmt21-news-en-de"
    read = lambda p: p.read_text(encoding="utf-8").split("\n")[:-1]  # noqa: E731
    ref_set = ReferenceSet([read(wmt / "reference.A.de")])
    matrix = ref_set.stats(read(sorted((wmt / "systems").glob("*.de"))[0]))
    pools = f.bucket_resamples(matrix, by=by)
    for config in (CFG, BleuConfig(smooth_method="floor", smooth_value=0.1)):
        kept = f.buckets(matrix, config, by=by, resampled=pools)
        drawn = f.buckets(matrix, config, by=by)
        assert len(kept) >= 4
        assert kept.equals(drawn)


def test_csv_downloads_carry_the_signature_in_a_column():
    """Review item 3: significance.csv had p-values without ``bs:2000|rs:12345``: not reproducible. Issue 21: a
    ``# signature`` first line is data to pandas and spreadsheets, so the signature is a column; issue 24: text a
    spreadsheet would run as a formula is neutralised, numbers are not touched."""
    import io

    import pandas as pd

    from bleu_app.frames.metrics import Signed

    frame = pd.DataFrame({"A": ["x", "=1+1", "@SUM(A1)"], "B": ["y", "-2", "+x"], "p": [0.0123, -0.5, 1.0]})
    sig = "nrefs:1|bs:2000|rs:12345|case:mixed|eff:no|tok:13a|smooth:exp|order:4"
    theirs = "nrefs:1|bs:2000|seed:12345|case:mixed|eff:no|tok:13a|smooth:exp|version:2.6.0"
    signed = [Signed("BLEU", sig, theirs)]
    back = pd.read_csv(io.StringIO(export.csv(frame, signed)))  # plain read_csv: no comment= needed
    assert list(back.columns) == ["A", "B", "p", "sacreBLEU signature", "signature"]
    assert (back["signature"] == f"BLEU: {sig}").all()
    assert (back["sacreBLEU signature"] == f"BLEU: {theirs}").all()
    assert back["A"].tolist() == ["x", "'=1+1", "'@SUM(A1)"]
    assert back["B"].tolist() == ["y", "'-2", "'+x"]
    assert back["p"].tolist() == [0.0123, -0.5, 1.0]


def test_a_bucket_of_one_length_is_labelled_with_that_length():
    """Review item 20c: a bucket holding one reference length read "13-13 tokens"."""
    import re

    from bleu_app.frames.corpus import _bucket_of

    r = np.array([5, 5, 9, 13, 13, 13, 13, 20, 25, 30] * 3)
    matrix = np.zeros((len(r), 10), dtype=np.int64)
    matrix[:, 1] = r
    _, labels = _bucket_of(matrix, "ref_len", 5)
    assert "5 tokens" in labels
    assert not [x for x in labels if re.fullmatch(r"(\d+)-\1 tokens", x)], labels


def test_pair_buckets_equal_sacrebleu_on_the_same_lines(data_dir):
    """A against B per length bucket: each cell is sacreBLEU's corpus BLEU on exactly that bucket's lines."""
    import sacrebleu

    from bleu_app.frames.corpus import _bucket_of

    wmt = data_dir / "wmt21-news-en-de"
    read = lambda p: p.read_text(encoding="utf-8").split("\n")[:-1]  # noqa: E731
    refs = [read(wmt / "reference.A.de"), read(wmt / "reference.C.de")]
    a, b = read(wmt / "systems" / "Online-A.de"), read(wmt / "systems" / "Facebook-AI.de")
    ref_set = ReferenceSet(refs)
    ma, mb = ref_set.stats(a), ref_set.stats(b)
    table = f.pair_buckets(ma, mb, CFG)
    which, _ = _bucket_of(ma, "ref_len", 5)
    assert table[f.COUNT].sum() == len(a)
    for k, row in enumerate(table.itertuples(index=False)):
        lines = np.flatnonzero(which == k)
        sa = sacrebleu.corpus_bleu([a[i] for i in lines], [[r[i] for i in lines] for r in refs]).score
        sb = sacrebleu.corpus_bleu([b[i] for i in lines], [[r[i] for i in lines] for r in refs]).score
        assert row[2] == pytest.approx(sa, abs=1e-9)
        assert row[3] == pytest.approx(sb, abs=1e-9)
        assert row[4] == pytest.approx(sb - sa, abs=1e-9)
