"""The "under every BLEU" frame and chart: column contract, spec, and the chart drawn by vl-convert on real data."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import vl_convert as vlc

from bleu_app.charts import every as ch
from bleu_app.frames import every as f
from bleu_core import every_bleu
from bleu_core.teaching.every import EveryBleu
from tests.core.cases import read_lines


@pytest.fixture(scope="module")
def wmt21(data_dir: Path) -> EveryBleu:
    d = data_dir / "wmt21-news-en-de"
    refs = [read_lines(d / f"reference.{k}.de")[:400] for k in "AC"]
    return every_bleu(read_lines(d / "systems" / "Online-B.de")[:400], refs)


def test_frame_contract(wmt21: EveryBleu) -> None:
    df = f.every_bleu_frame(wmt21)
    assert tuple(df.columns) == f.COLUMNS
    assert df[f.KEY].tolist() == [r.key for r in wmt21.rows]
    assert df[f.SCORE].tolist() == [r.score for r in wmt21.rows]
    assert df[f.KIND].iloc[0] == "sacreBLEU default"
    assert set(df[f.KIND]) == set(f.KINDS.values())
    shortest = df[df[f.KEY] == "variant:shortest_ref"].iloc[0]
    assert "(sum of shortest)" in shortest[f.CHANGES]  # the variant's numbers come with its description
    sentence = f.spread_sentence(wmt21)
    words, _ = f.word_level(wmt21)
    lo, hi = min(r.score for r in words), max(r.score for r in words)
    assert f"**{hi - lo:.2f} BLEU points**" in sentence


def test_headline_spread_is_over_word_level_settings(wmt21: EveryBleu) -> None:
    # review item 17: "from 29.91 (tok none) to 72.45 (tok char + lowercase): a spread of 42.54" was driven by
    # character tokenization, another unit; it is now said separately
    words, char = f.word_level(wmt21)
    assert {r.key for r in char} == {"tok:char", "tok:char+lc"}
    assert all("tok:char" not in r.key for r in words)
    sentence = f.spread_sentence(wmt21)
    head, _, tail = sentence.partition(" Character tokenization")
    assert "tok char" not in head
    assert f"({max(words, key=lambda r: r.score).label})" in head
    assert f"{min(r.score for r in char):.2f} to {max(r.score for r in char):.2f}" in tail
    if max(wmt21.rows, key=lambda r: r.score) in char:  # on this corpus the old headline's top was a char row
        assert f"**{wmt21.spread:.2f} BLEU points**" not in sentence


def test_chart_spec(wmt21: EveryBleu) -> None:
    spec = ch.spread_chart(f.every_bleu_frame(wmt21)).to_dict()
    marks = [lay["mark"]["type"] if isinstance(lay["mark"], dict) else lay["mark"] for lay in spec["layer"]]
    assert marks == ["rule", "point", "text"]
    dots = spec["layer"][1]["encoding"]
    assert dots["x"]["field"] == f.SCORE
    assert dots["y"]["sort"] == {"field": f.SCORE, "order": "descending"}
    assert dots["y"]["axis"]["labelLimit"] == ch.LABEL_LIMIT
    assert dots["color"]["field"] == dots["shape"]["field"] == f.KIND
    assert {t["field"] for t in dots["tooltip"]} >= {f.SIGNATURE, f.WHO}


def test_chart_draws_every_row_with_vl_convert(wmt21: EveryBleu) -> None:
    df = f.every_bleu_frame(wmt21)
    svg = vlc.vegalite_to_svg(ch.spread_chart(df).to_json())
    assert svg.lstrip().startswith("<svg")
    # one symbol per row (Vega draws points as paths with role "mark" inside the symbol group)
    group = re.search(r'class="mark-symbol role-mark[^"]*"(.*?)</g>', svg, re.S)
    assert group is not None
    assert group.group(1).count("<path") == len(df)
    for label in (r.label for r in wmt21.rows):  # every label whole (none cut to "NLTK corpus_ble...")
        assert f">{label}<" in svg
    assert f"sacreBLEU default {wmt21.default.score:.2f}" in svg
