"""AppTest, issue 35: a WMT XML file uploaded on the compare and corpus pages gives every system's BLEU as sacreBLEU
computes it on the same plain text; the slice box offers the documents, original languages and domains present
and slices by them as sacreBLEU's --origlang does; the sentence tables show each segment's document; the compare
page states the MDE; a malformed file is one message naming file and line, and nothing else changes.

The XML is built in the test's temporary folder from the real WMT21 en-de data (tests/wmt_files.py)."""

from __future__ import annotations

import pytest
from sacrebleu.metrics import BLEU
from streamlit.testing.v1 import AppTest

from bleu_app.markup import md_escape
from bleu_core.engine import ReferenceSet
from bleu_core.significance.power import power_analysis
from tests.conftest import RealSet
from tests.ui.conftest import errors, open_app, uploader
from tests.wmt_files import WmtSet, build_xml, wmt_set

SEGMENTS = 300  # 12 documents of 25: what a page run over 4 systems affords on a shared machine


@pytest.fixture(scope="module")
def small(wmt21: RealSet) -> WmtSet:
    return wmt_set(wmt21, systems=4, segments=SEGMENTS)


def _upload(at: AppTest, prefix: str, w: WmtSet) -> None:
    xml = build_xml(w).encode("utf-8")
    uploader(at, f"{prefix}.in_table").set_value(("newstest2021.en-de.xml", xml, "text/xml")).run()
    assert not at.exception, [e.value for e in at.exception]
    assert not errors(at), errors(at)


@pytest.fixture(scope="module")
def compare_page(small: WmtSet) -> AppTest:
    at = open_app("pages/compare.py")
    _upload(at, "compare", small)
    return at


def _systems(at: AppTest) -> dict[str, float]:
    table = next(d.value for d in at.dataframe if "BLEU CI low" in d.value.columns and "system" in d.value.columns)
    return dict(zip(table["system"], table["BLEU"], strict=True))


def test_every_system_of_the_upload_scores_as_sacrebleu(compare_page: AppTest, small: WmtSet) -> None:
    shown = _systems(compare_page)
    assert sorted(shown) == sorted(small.systems)
    bleu = BLEU(references=list(small.refs.values()))
    for name, hyps in small.systems.items():
        assert shown[name] == pytest.approx(bleu.corpus_score(hyps, None).score, abs=1e-9), name
    notes = [m.value for m in compare_page.markdown if "read as WMT XML" in m.value]
    assert notes
    assert "300 segments in 12 documents, 3 references" in notes[0]


def test_the_compare_page_states_the_mde_of_the_pair(compare_page: AppTest, small: WmtSet) -> None:
    at = compare_page
    a, b = at.selectbox(key="compare.a").value, at.selectbox(key="compare.b").value
    line = next(m.value for m in at.markdown if m.value.startswith("This test set detects differences of about"))
    shown = _systems(at)
    assert f"{md_escape(b)} − {md_escape(a)} = **{shown[b] - shown[a]:+.2f}**" in line
    assert "with 80% power" in line
    assert "Card et al. 2020" in line
    # the core's power analysis of the pair (checked against sacreBLEU's resamples in tests/core/test_power.py)
    refs = ReferenceSet(list(small.refs.values()))
    (power,) = power_analysis(refs.stats(small.systems[a]), [refs.stats(small.systems[b])], nrefs=3)
    assert f"about **{power.mde:.2f} BLEU** with 80% power" in line
    assert power.difference == pytest.approx(shown[b] - shown[a], abs=1e-9)
    sigs = [c.value for c in at.caption if c.value.startswith("Minimum detectable difference: signature")]
    assert sigs
    assert "bs:1000" in sigs[0]


def test_the_slice_box_offers_the_documents_and_slices_as_sacrebleus_origlang(
    compare_page: AppTest, small: WmtSet
) -> None:
    at = compare_page
    pick = at.selectbox(key="compare.doc_pick")
    assert pick.options[:4] == ['origlang == "de"', 'origlang == "en"', 'domain == "news"', 'domain == "social"']
    assert pick.options[4:] == [f'doc == "{small.doc_id(d)}"' for d in range(small.n_docs)]
    captions = [c.value.replace("\\", "") for c in at.caption]
    assert any("12 documents; original languages: de, en; domains: news, social" in c for c in captions)
    pick.set_value('origlang == "de"').run()
    try:
        _check_origlang_de(at, small)
    finally:  # the other tests of the module read the whole test set
        at.text_input(key="compare.where").set_value("").run()


def _check_origlang_de(at: AppTest, small: WmtSet) -> None:
    assert not at.exception, [e.value for e in at.exception]
    assert at.text_input(key="compare.where").value == 'origlang == "de"'
    kept = small.lines_where(lambda d: small.origlang(d) == "de")  # sacreBLEU's --origlang de keeps these documents
    refs = [[r[i] for i in kept] for r in small.refs.values()]
    shown = _systems(at)
    for name, hyps in small.systems.items():
        want = BLEU().corpus_score([hyps[i] for i in kept], refs).score
        assert shown[name] == pytest.approx(want, abs=1e-9), name
    assert any(f"Slice: {len(kept)} of {SEGMENTS} lines" in i.value for i in at.info)


def test_the_pair_table_shows_the_document(compare_page: AppTest, small: WmtSet) -> None:
    pairs = next(d.value for d in compare_page.dataframe if "B - A" in d.value.columns)
    assert list(pairs.columns[:2]) == ["segment", "document"]
    for seg, doc in zip(pairs["segment"], pairs["document"], strict=True):
        assert doc == small.doc_id((seg - 1) // 25)


def test_the_corpus_page_sentence_table_shows_the_document(small: WmtSet) -> None:
    at = open_app("pages/corpus.py")
    _upload(at, "corpus", small)
    table = next(
        d.value for d in at.dataframe if "hypothesis" in d.value.columns and "effect on BLEU" in d.value.columns
    )
    assert table["document"].tolist()[:30] == [small.doc_id(i // 25) for i in range(30)]


def test_a_malformed_xml_is_one_message_naming_file_and_line_and_nothing_changes(small: WmtSet) -> None:
    at = open_app("pages/corpus.py")
    before = at.selectbox(key="corpus.system").options
    headline = at.metric[0].value
    broken = build_xml(small).replace("</seg></p></hyp>", "</seg></hyp>", 1).encode("utf-8")
    uploader(at, "corpus.in_table").set_value(("bad.xml", broken, "text/xml")).run()
    assert not at.exception, [e.value for e in at.exception]
    errs = errors(at)
    assert len(errs) == 1, errs
    assert "previous corpus is kept" in errs[0]
    assert "bad.xml:9: <p> opened at line 9 is not closed (mismatched tag at column" in errs[0].replace("\\", "")
    assert at.selectbox(key="corpus.system").options == before
    assert at.metric[0].value == headline


@pytest.mark.parametrize("store_env", ["sqlite"], indirect=True)  # the store's round trip is tested on both elsewhere
def test_a_shared_view_of_an_uploaded_xml_keeps_its_documents(store_env: object, small: WmtSet) -> None:
    a = open_app("pages/compare.py")
    _upload(a, "compare", small)
    a.button(key="share.compare").click().run()
    (link,) = [c.value for c in a.code if "/compare?view=" in c.value and "&delete=" not in c.value]
    b = open_app("pages/compare.py", query={"view": link.rsplit("view=", 1)[1]})
    assert not b.exception, [e.value for e in b.exception]
    assert _systems(b) == _systems(a)
    pick = b.selectbox(key="compare.doc_pick")
    assert pick.options == a.selectbox(key="compare.doc_pick").options
    pairs = next(d.value for d in b.dataframe if "B - A" in d.value.columns)
    assert len(pairs) > 0
    for seg, doc in zip(pairs["segment"], pairs["document"], strict=True):
        assert doc == small.doc_id((seg - 1) // 25)
    pick.set_value('origlang == "de"').run()
    _check_origlang_de(b, small)


def test_the_document_level_switch_scores_joined_documents_as_sacrebleu(small: WmtSet) -> None:
    """Issue 35's page toggle: each document's segments joined by a space, scored as sacreBLEU scores that text
    (d-BLEU), and said; the switch is offered only for a corpus with documents."""
    from tests.wmt_files import DOC

    at = open_app("pages/compare.py")
    assert not [t for t in at.toggle if t.key == "compare.doc_level"]  # the demo corpus has no documents
    _upload(at, "compare", small)
    at.toggle(key="compare.doc_level").set_value(True).run()
    assert not at.exception, [e.value for e in at.exception]

    def joined(lines: list[str]) -> list[str]:
        return [" ".join(lines[d : d + DOC]) for d in range(0, len(lines), DOC)]

    bleu = BLEU(references=[joined(r) for r in small.refs.values()])
    shown = _systems(at)
    for name, hyps in small.systems.items():
        assert shown[name] == pytest.approx(bleu.corpus_score(joined(hyps), None).score, abs=1e-9), name
    assert any(f"Document level: {small.n_docs:,} documents" in c.value for c in at.caption)
