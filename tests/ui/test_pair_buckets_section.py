"""AppTest: the compare page's A-vs-B section shows the length and word-frequency buckets with intervals, the
same numbers as ``views.pair_buckets`` (which the report reads too)."""

from __future__ import annotations

from pathlib import Path

from bleu_app.frames import corpus as fc, pair_buckets as pb
from bleu_app.samples import demo_corpus
from bleu_app.views.pair_buckets import pair_buckets_view
from bleu_core.config import BleuConfig
from bleu_core.engine import ReferenceSet
from tests.ui.conftest import open_app

ROOT = Path(__file__).resolve().parents[2]


def test_compare_page_shows_both_bucket_tables():
    at = open_app("pages/compare.py")
    a, b = at.selectbox(key="compare.a").value, at.selectbox(key="compare.b").value
    c = demo_corpus()
    config = BleuConfig()
    refs = ReferenceSet.from_config(c.ref_streams, config)
    mats = {n: refs.stats(list(c.system(n).lines), config.max_ngram_order) for n in (a, b)}
    want = pair_buckets_view(c, mats, config, a=a, b=b)
    frames = {tuple(df.value.columns): df.value for df in at.dataframe}
    length = frames[tuple(want.length.columns)]
    freq = frames[tuple(want.freq.columns)]
    assert length[fc.BLEU_A].round(9).tolist() == want.length[fc.BLEU_A].round(9).tolist()
    assert length[fc.PAIR_CI[2][1]].round(9).tolist() == want.length[fc.PAIR_CI[2][1]].round(9).tolist()
    assert freq[pb.FREQ_BUCKET].tolist() == want.freq[pb.FREQ_BUCKET].tolist()
    assert freq[pb.F_B_HIGH].round(9).tolist() == want.freq[pb.F_B_HIGH].round(9).tolist()
    assert any(m.value.startswith("**By word frequency in the references:") for m in at.markdown)


def test_large_test_sets_get_the_buckets_on_request(monkeypatch):
    # above the limit (50,000 lines cost seconds per draw) the section waits for its toggle; the demo stands in
    from bleu_app.ui.corpus import difference

    monkeypatch.setattr(difference, "BUCKETS_AUTO_SEGMENTS", 10)
    at = open_app("pages/compare.py")
    label = "By sentence length and word frequency, with intervals (30 sentences)"
    (toggle,) = [t for t in at.toggle if t.label == label]
    assert toggle.value is False
    assert not any(m.value.startswith("**By word frequency in the references:") for m in at.markdown)
    toggle.set_value(True).run()
    assert any(m.value.startswith("**By word frequency in the references:") for m in at.markdown)
