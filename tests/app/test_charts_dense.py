"""The per-sentence charts at 50,000 lines (issue 24): the data they send is bounded, they still draw (vl-convert,
on real WMT21 data repeated as ``bench.load.make_corpus`` repeats it), and below ``DENSE`` nothing changes."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest

from bleu_app.charts import corpus as ch
from bleu_app.frames import corpus as f
from bleu_core import BleuConfig
from bleu_core.engine.stats import corpus_matrix, prepare_references

CFG = BleuConfig()
LINES = 50_000
SPEC_BYTES = 200_000  # the whole spec with its data, as JSON: 2.0 MB (BP) and 1.6 MB (scatter) before


def _rows(path) -> list[str]:
    return path.read_text(encoding="utf-8").split("\n")[:-1]


@pytest.fixture(scope="module")
def wmt21(data_dir):
    """Two WMT21 en-de systems' statistics over 50,000 lines: the real 1,002 repeated, as the bench's corpus is
    (a repeated line has the same statistics row, so the rows are tiled)."""
    folder = data_dir / "wmt21-news-en-de"
    ref = _rows(folder / "reference.A.de")
    infos, _ = prepare_references([ref], CFG)
    systems = sorted((folder / "systems").glob("*.de"))[:2]
    reps = LINES // len(ref) + 1
    out = {}
    for p in systems:
        hyps = _rows(p)
        out[p.stem] = (np.tile(corpus_matrix(hyps, infos, CFG), (reps, 1))[:LINES], (hyps * reps)[:LINES])
    return out, (ref * reps)[:LINES]


def _size(chart) -> tuple[dict, int]:
    spec = chart.to_dict()
    return spec, len(json.dumps(spec))


def _data(spec: dict, layer: int) -> list[dict]:
    return spec["datasets"][spec["layer"][layer]["data"]["name"]]


def test_bp_chart_at_50k_is_binned_exactly_and_draws(wmt21):
    mats, _ = wmt21
    matrix = next(iter(mats.values()))[0]
    curve, points = f.bp_frames(matrix, CFG)
    spec, size = _size(ch.bp_chart(curve, points))
    assert size < SPEC_BYTES, size
    bins = _data(spec, 1)
    assert len(bins) <= ch.BP_BINS
    assert sum(b[ch.SENTENCES] for b in bins) == LINES  # every sentence is in a bin, once
    sent = points[points[f.KIND] == "sentence"]
    assert min(b["ratio_min"] for b in bins) == pytest.approx(sent[f.RATIO].min())  # exact ranges
    assert max(b["ratio_max"] for b in bins) == pytest.approx(sent[f.RATIO].max())
    assert max(b["bp_max"] for b in bins) == pytest.approx(sent[f.BP].max())
    corpus = _data(spec, 2)  # the corpus point is the same as at any size
    assert corpus[0][f.BP] == pytest.approx(points[points[f.KIND] == "corpus"][f.BP].iloc[0])
    pytest.importorskip("vl_convert")
    svg = ch.export(ch.bp_chart(curve, points), "svg")
    assert "Brevity penalty" in svg
    symbols = svg.split('class="mark-symbol')[1].split("</g>")[0]
    assert symbols.count("<path") == len(bins)  # one bubble per bin drawn


def test_scatter_at_50k_keeps_every_sentence_in_the_density_and_the_extremes_clickable(wmt21):
    mats, ref = wmt21
    (a, (ma, ha)), (b, (mb, hb)) = mats.items()
    pairs = f.pair_sentences(ma, mb, CFG, ha, hb, [ref])
    marked = tuple(range(1, 50_001, 997))  # an n-gram's segments, mostly not among the extremes
    spec, size = _size(ch.pair_scatter(pairs, a, b, highlight=marked))
    assert size < SPEC_BYTES, size
    cells, points = _data(spec, 0), _data(spec, 2)
    assert sum(c[ch.SENTENCES] for c in cells) == LINES
    assert len(cells) <= (100 / ch.PAIR_BIN) ** 2
    # the points: the TOP_POINTS largest |B - A| exactly, plus every marked one; each with its exact numbers
    biggest = pairs[f.DIFF].abs().sort_values(ascending=False).iloc[ch.TOP_POINTS - 1]
    shown = pd.DataFrame(points)
    assert len(shown) == len(set(shown[f.SEGMENT]))
    assert (shown[~shown["marked"]][f.DIFF].abs() >= biggest).all()
    assert set(marked) <= set(shown[f.SEGMENT])
    exact = pairs.set_index(f.SEGMENT).loc[shown[f.SEGMENT]]
    assert shown[f.BLEU_B].tolist() == exact[f.BLEU_B].tolist()
    # clicking a point still opens its sentence: the selection is on the points' layer (Altair lifts it to the
    # top with the layer's name in its views)
    params = spec["params"] if "params" in spec else spec["layer"][2]["params"]
    assert params[0]["name"] == ch.PICK
    assert params[0]["select"]["fields"] == [f.SEGMENT]
    assert params[0].get("views", [spec["layer"][2].get("name")]) == [spec["layer"][2].get("name")]
    assert "50000 sentences" in " ".join(spec["title"]["subtitle"])  # in lines that fit a phone
    pytest.importorskip("vl_convert")
    svg = ch.export(ch.pair_scatter(pairs, a, b, highlight=marked), "svg")
    assert svg.split('class="mark-rect')[1].split("</g>")[0].count("<path") == len(cells)
    assert svg.split('class="mark-symbol')[1].split("</g>")[0].count("<path") == len(shown)


def test_below_dense_every_sentence_is_its_own_point():
    n = ch.DENSE
    pairs = pd.DataFrame(
        {f.SEGMENT: np.arange(1, n + 1), f.BLEU_A: np.linspace(0, 100, n), f.BLEU_B: np.linspace(100, 0, n)}
    ).assign(**{f.DIFF: lambda d: d[f.BLEU_B] - d[f.BLEU_A]})
    spec = ch.pair_scatter(pairs, "a", "b").to_dict()
    assert len(spec["layer"]) == 2
    assert len(_data(spec, 1)) == n
    points = pd.DataFrame({f.RATIO: np.linspace(0.5, 1.5, n), f.BP: 1.0, f.SEGMENT: 1, f.KIND: "sentence"})
    bp = ch.bp_chart(f.bp_curve(), points).to_dict()
    assert len(_data(bp, 1)) == n


def test_ngram_chart_sends_no_segment_lists():
    ngrams = pd.DataFrame(
        {
            f.NGRAM: ["a b", "c"],
            f.N: [2, 1],
            f.ONLY_A: [5, 0],
            f.ONLY_B: [0, 4],
            f.LOG_ODDS: [2.0, -1.5],
            f.FAVOURS: ["A", "B"],
            f.SEGMENTS_LIST: [tuple(range(1, 40_000)), (3,)],
        }
    )
    spec = ch.ngram_chart(ngrams).to_dict()
    rows = spec["datasets"][spec["data"]["name"]]
    assert [r[f.NGRAM] for r in rows] == ["a b", "c"]
    assert all(f.SEGMENTS_LIST not in r for r in rows)
    assert f.SEGMENTS_LIST in ngrams.columns  # the page's frame keeps them (the sentence filter reads them)


def test_block_chart_at_50k_bins_the_blocks_and_keeps_the_exact_means(wmt21):
    from bleu_core.teaching.blocktest import ranked_block_test

    mats, _ = wmt21
    names = list(mats)
    blocks = f.blocks(ranked_block_test([m for m, _ in mats.values()], CFG), names)
    assert len(blocks) == 2 * LINES // 25  # blocks of 25: one point per block and system before
    spec, size = _size(ch.block_chart(blocks))
    assert size < SPEC_BYTES, size
    assert spec["title"] == [f"Block test: BLEU of {LINES // 25} blocks", "(tick: mean)"]
    bins, means = _data(spec, 0), _data(spec, 1)
    for name in names:
        mine = blocks[blocks[f.SYSTEM] == name][f.BLEU]
        got = [b for b in bins if b[f.SYSTEM] == name]
        assert sum(b[ch.BLOCKS] for b in got) == len(mine)  # every block in one bin
        assert min(b["bleu_min"] for b in got) == mine.min()
        assert max(b["bleu_max"] for b in got) == mine.max()
        assert next(m[f.BLEU] for m in means if m[f.SYSTEM] == name) == pytest.approx(mine.mean(), abs=1e-12)
    pytest.importorskip("vl_convert")
    svg = ch.export(ch.block_chart(blocks), "svg")
    assert svg.split('class="mark-symbol')[1].split("</g>")[0].count("<path") == len(bins)
