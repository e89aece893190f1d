"""A-vs-B buckets with intervals (issue 22.6), on WMT22 zh-en: each length bucket's BLEU is sacreBLEU's on exactly
the bucket's lines (its lines found from sacreBLEU's own reference lengths), each interval is sacreBLEU's bootstrap
on them; the word-frequency buckets add up to sacreBLEU's unigram matches against reference A; the charts render
with vl-convert; the report carries both tables."""

from __future__ import annotations

import re

import numpy as np
import pytest
import sacrebleu
import vl_convert as vlc

from bleu_app.frames import corpus as fc, pair_buckets as pb
from bleu_app.report import ReportOptions, build_report
from bleu_app.views.pair_buckets import pair_buckets_view
from bleu_core.config import BleuConfig
from bleu_core.data.corpus import Corpus, build_corpus
from bleu_core.data.readers import read_text_file
from bleu_core.data.wordfreq import bucket_labels, freq_bucket_counts, ref_frequencies
from bleu_core.engine import ReferenceSet
from tests.conftest import RealSet

A, B = "Online-A", "NiuTrans"


@pytest.fixture(scope="module")
def wmt22_pair(wmt22: RealSet) -> Corpus:
    """WMT22 with both references and the systems A and B, as files are read."""
    refs = [read_text_file(p) for p in wmt22.ref_paths]
    return build_corpus("wmt22", refs, [read_text_file(wmt22.path(n)) for n in (A, B)])


@pytest.fixture(scope="module")
def view(wmt22_pair: Corpus):
    config = BleuConfig()
    ref_set = ReferenceSet.from_config(wmt22_pair.ref_streams, config)
    mats = {n: ref_set.stats(list(wmt22_pair.system(n).lines), config.max_ngram_order) for n in (A, B)}
    return pair_buckets_view(wmt22_pair, mats, config, a=A, b=B)


def _bucket_lines(label: str, ref_lens: list[int]) -> list[int]:
    """The lines whose reference length is in the bucket labelled "lo-hi tokens" (or "n tokens")."""
    m = re.fullmatch(r"(\d+)(?:-(\d+))? tokens", label)
    assert m is not None, label
    lo, hi = int(m[1]), int(m[2] or m[1])
    return [i for i, r in enumerate(ref_lens) if lo <= r <= hi]


@pytest.mark.slow
def test_length_buckets_equal_sacrebleu_with_its_intervals(wmt22_pair: Corpus, view) -> None:
    refs = wmt22_pair.ref_streams
    hyp_a, hyp_b = (list(wmt22_pair.system(n).lines) for n in (A, B))
    bleu = sacrebleu.BLEU()
    # sacreBLEU's own best-match reference length of each of A's lines: the buckets' key
    ref_lens = [int(row[1]) for row in bleu._extract_corpus_statistics(hyp_a, refs)]
    table = view.length
    assert table[fc.COUNT].sum() == len(hyp_a) == 1875
    assert len(table) == 5
    for _, row in table.iterrows():
        lines = _bucket_lines(row[fc.BUCKET], ref_lens)
        assert len(lines) == row[fc.COUNT]
        sub_refs = [[r[i] for i in lines] for r in refs]
        sa = sacrebleu.BLEU().corpus_score([hyp_a[i] for i in lines], sub_refs, n_bootstrap=1000)
        sb = sacrebleu.BLEU().corpus_score([hyp_b[i] for i in lines], sub_refs, n_bootstrap=1000)
        assert row[fc.BLEU_A] == pytest.approx(sa.score, abs=1e-9)
        assert row[fc.BLEU_B] == pytest.approx(sb.score, abs=1e-9)
        assert row[fc.B_MINUS_A] == pytest.approx(sb.score - sa.score, abs=1e-9)
        (lo_a, hi_a), (lo_b, hi_b), (lo_d, hi_d) = fc.PAIR_CI
        # sacreBLEU reports mean ± half width of its 2.5%..97.5% resamples: the same draws, the same bounds
        # (to 1e-6: the vectorised scoring of 1,000 resamples rounds differently in the last bits)
        assert (row[hi_a] - row[lo_a]) / 2 == pytest.approx(sa._ci, abs=1e-6)
        assert (row[hi_b] - row[lo_b]) / 2 == pytest.approx(sb._ci, abs=1e-6)
        assert row[lo_d] <= row[fc.B_MINUS_A] <= row[hi_d] or row[hi_d] - row[lo_d] < 1e-9


@pytest.mark.slow  # out of make test-core (the one-minute loop); make test runs it
def test_word_frequency_buckets_add_up_to_sacrebleu_unigram_matches(wmt22_pair: Corpus, view) -> None:
    refs = wmt22_pair.ref_streams
    tok = sacrebleu.tokenizers.tokenizer_13a.Tokenizer13a()
    ref_tokens = [[tok(line).split() for line in stream] for stream in refs]
    freq = ref_frequencies(ref_tokens)
    table = view.freq
    assert table[pb.FREQ_BUCKET].tolist() == [x for x in bucket_labels() if x in set(table[pb.FREQ_BUCKET])]
    assert table[pb.REF_WORDS].sum() == sum(len(t) for t in ref_tokens[0])
    for name, out_col, f_col in ((A, pb.OUT_A, pb.F_A), (B, pb.OUT_B, pb.F_B)):
        hyp = list(wmt22_pair.system(name).lines)
        counts = freq_bucket_counts([tok(line).split() for line in hyp], ref_tokens[0], freq).sum(axis=0)
        s = sacrebleu.corpus_bleu(hyp, [refs[0]])
        assert counts[0::3].sum() == s.counts[0]  # matches in every bucket: sacreBLEU's clipped unigrams vs ref A
        assert counts[2::3].sum() == table[out_col].sum() == s.sys_len
        for _, row in table.iterrows():
            j = bucket_labels().index(row[pb.FREQ_BUCKET])
            both, ref, out = counts[3 * j : 3 * j + 3]
            assert row[f_col] == pytest.approx(200.0 * both / (ref + out) if ref + out else 0.0, abs=1e-9)
    low, high = table[pb.F_DIFF_LOW].to_numpy(), table[pb.F_DIFF_HIGH].to_numpy()
    assert (low <= high).all()
    assert (table[pb.F_A_LOW] <= table[pb.F_A] + 1e-9).all()
    assert (table[pb.F_A] <= table[pb.F_A_HIGH] + 1e-9).all()
    assert np.isfinite(low).all()


def test_charts_render_with_vl_convert(view) -> None:
    for chart, labels in ((view.length_chart, view.length[fc.BUCKET]), (view.freq_chart, view.freq[pb.FREQ_BUCKET])):
        svg = vlc.vegalite_to_svg(chart.to_dict())
        assert svg.lstrip().startswith("<svg")
        for label in labels:
            assert label.replace("<", "&lt;").replace(">", "&gt;") in svg
        assert f"A: {A}" in svg
        assert f"B: {B}" in svg


@pytest.mark.slow  # the WMT22 report: every chart drawn; the view's tables are checked above
def test_report_has_both_tables(wmt22_pair: Corpus, view) -> None:
    html_text = build_report(wmt22_pair, BleuConfig(), ReportOptions(a=A, b=B, trials=100))
    assert f"By reference length: {B} (B) vs {A} (A)" in html_text
    assert f"By word frequency in the references: {B} (B) vs {A} (A)" in html_text
    first = view.length.iloc[0]
    lo, hi = fc.PAIR_CI[0]
    cells = re.sub(r'<td class="[^"]*">', "<td>", html_text)
    assert f"<td>{first[fc.BUCKET]}</td><td>{first[fc.COUNT]}</td><td>{first[fc.BLEU_A]:.2f}</td>" in cells
    assert f"<td>{first[fc.BLEU_A]:.2f}</td><td>[{first[lo]:.2f}, {first[hi]:.2f}]</td>" in cells
    f_first = view.freq.iloc[0]
    assert f"<td>{f_first[pb.F_A]:.2f}</td><td>[{f_first[pb.F_A_LOW]:.2f}, {f_first[pb.F_A_HIGH]:.2f}]</td>" in cells


def _plot_height(chart, width: int = 340) -> tuple[float, str]:
    """The y axis's length and its range as Streamlit draws the chart in a half-width column (autosize fit: title,
    axes and legend inside the chart's height)."""
    spec = chart.to_dict()
    spec["width"] = width
    spec["autosize"] = {"type": "fit", "contains": "padding"}
    svg = vlc.vegalite_to_svg(spec)
    y_axis = svg[svg.index('aria-label="Y-axis') :]
    label = y_axis[: y_axis.index('"', len('aria-label="'))]
    domain = y_axis[y_axis.index("role-axis-domain") :]
    m = re.search(r'<line transform="translate\(0,([\d.]+)\)" x2="0" y2="-([\d.]+)"', domain)
    assert m is not None, domain[:300]
    return float(m[2]), label


def test_bucket_charts_are_tall_enough_to_read_and_not_from_zero(wmt22_pair: Corpus, view) -> None:
    """Researcher walk B1: the bucket charts were ~45 px tall with a y axis from 0 (gaps of 1-5 points unseen)."""
    config = BleuConfig()
    ref_set = ReferenceSet.from_config(wmt22_pair.ref_streams, config)
    corpus_buckets = fc.buckets(ref_set.stats(list(wmt22_pair.system(A).lines), 4), config, by="ref_len")
    from bleu_app.charts import corpus as corpus_charts

    for chart in (view.length_chart, view.freq_chart, corpus_charts.bucket_chart(corpus_buckets, "reference length")):
        height, label = _plot_height(chart)
        assert height >= 200, (height, label)
    for chart in (view.length_chart, corpus_charts.bucket_chart(corpus_buckets, "reference length")):
        low = float(re.search(r"values from ([\d.]+) to", _plot_height(chart)[1])[1])
        assert low > 0, low  # BLEU 23-35: the axis starts near the data, not at 0
