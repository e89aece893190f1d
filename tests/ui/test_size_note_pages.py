"""AppTest: the small-test-set note under the corpus page's score and the compare page's systems table: the demo
(30 segments) gets the warning, WMT22 zh-en (1,875 segments) the plain note; numbers with the intervals'
signature."""

from __future__ import annotations

from pathlib import Path

import sacrebleu

from bleu_app.markup import md_escape
from bleu_app.samples import demo_corpus
from tests.ui.conftest import folder_files, open_app, uploader

ROOT = Path(__file__).resolve().parents[2]


def _widest(refs: list[list[str]], hyps: list[list[str]]) -> float:
    """sacreBLEU's own bootstrap interval (1,000 resamples, its seed 12345), high - low, the widest."""
    return max(2 * sacrebleu.BLEU().corpus_score(hyp, refs, n_bootstrap=1000)._ci for hyp in hyps)


def test_corpus_page_demo_is_small():
    at = open_app("pages/corpus.py")
    system = at.selectbox(key="corpus.system").value
    c = demo_corpus()
    width = _widest([r.lines for r in c.references], [c.system(system).lines])
    warnings = [w.value for w in at.warning if "Small test set" in w.value]
    assert len(warnings) == 1  # the Markdown source: the note is escaped text
    assert md_escape("Small test set: 30 segments (fewer than 500);") in warnings[0]
    assert md_escape(f"widest 95% interval {width:.2f} BLEU points (wider than 5)") in warnings[0]
    assert md_escape(f"nrefs:{len(c.references)} | bs:1000 | rs:12345") in warnings[0]  # wraps at " | "


def test_compare_page_wmt22_is_not_small(data_dir):
    at = open_app("pages/compare.py")
    uploader(at, "compare.in_folder").set_value(folder_files(data_dir / "wmt22-general-zh-en")).run()
    assert not at.exception, [e.value for e in at.exception]
    assert not [w.value for w in at.warning if "Small test set" in w.value]
    notes = [c.value for c in at.caption if c.value.startswith(md_escape("Test set: 1875 segments; widest"))]
    assert len(notes) == 1
    assert md_escape("nrefs:2 | bs:1000 | rs:12345") in notes[0]
