"""AppTest: the corpus page's "under every BLEU" section: off until asked, then the table, chart and spread."""

from __future__ import annotations

import json
from pathlib import Path

from streamlit.testing.v1 import AppTest

from bleu_app.frames import every as f
from bleu_app.samples import demo_corpus
from bleu_core import every_bleu
from tests.ui.conftest import folder_files, open_app

ROOT = Path(__file__).resolve().parents[2]


def _every_frames(at: AppTest) -> list:
    return [d.value for d in at.dataframe if f.SIGNATURE in d.value.columns]


def test_section_off_until_asked_then_matches_the_engine() -> None:
    at = open_app("pages/corpus.py")
    assert "This corpus under every BLEU" in [h.value for h in at.subheader]
    assert not _every_frames(at)  # nothing computed before the toggle
    at.toggle(key="corpus.every").set_value(True).run()
    assert not at.exception, [e.value for e in at.exception]
    system = at.selectbox(key="corpus.system").value
    corpus = demo_corpus()
    want = every_bleu(list(corpus.system(system).lines), corpus.ref_streams)
    (df,) = _every_frames(at)
    assert df[f.LABEL].tolist() == [r.label for r in want.rows]
    assert df[f.SCORE].tolist() == [r.score for r in want.rows]
    assert df[f.SIGNATURE].tolist() == [r.signature for r in want.rows]
    words, _ = f.word_level(want)  # the headline's spread is over word-level settings (review item 17)
    spread = max(r.score for r in words) - min(r.score for r in words)
    assert any(f"**{spread:.2f} BLEU points**" in m.value for m in at.markdown)
    (chart,) = [c for c in at.get("vega_lite_chart") if "The same corpus under every BLEU" in c.proto.spec]
    spec = json.loads(chart.proto.spec)
    assert [lay["mark"]["type"] for lay in spec["layer"]] == ["rule", "point", "text"]


def test_section_follows_the_system_and_ignores_the_sidebar(data_dir) -> None:
    at = open_app("pages/corpus.py")
    files = [x for x in folder_files(data_dir / "wmt22-general-zh-en") if "human" not in x[0]]
    next(u for u in at.get("file_uploader") if "corpus.in_folder" in u.proto.id).set_value(files).run()
    assert not at.exception, [e.value for e in at.exception]
    at.selectbox(key="corpus.system").set_value("DLUT").run()
    at.toggle(key="corpus.every").set_value(True).run()
    assert not at.exception, [e.value for e in at.exception]
    d = data_dir / "wmt22-general-zh-en"
    from tests.core.cases import read_lines

    refs = [read_lines(d / f"reference.{k}.en") for k in "AB"]
    want = every_bleu(read_lines(d / "systems" / "DLUT.en"), refs)
    (df,) = _every_frames(at)
    assert df[f.SCORE].iloc[0] == want.default.score
    assert df[f.SIGNATURE].iloc[0].startswith("nrefs:2|case:mixed|eff:no|tok:13a|smooth:exp|")
    assert df[f.SCORE].tolist() == [r.score for r in want.rows]
