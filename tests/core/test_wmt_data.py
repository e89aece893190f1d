"""WMT test sets as shipped (issue 35): the XML and JSONL readers against sacreBLEU's own reader and scores, the
markup check, documents (d-BLEU, the document-block paired bootstrap, --origlang/--subset) against sacreBLEU.

The XML and JSONL files are built in the test's temporary folder from the real WMT21 en-de data (source, references
A, C and D, 20 systems), with documents of 20 segments and origlang/domain attributes chosen here."""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from xml.sax.saxutils import escape, quoteattr

import numpy as np
import pytest
import sacrebleu
from sacrebleu.dataset.base import Dataset
from sacrebleu.dataset.wmt_xml import WMTXMLDataset
from sacrebleu.metrics.bleu import BLEU
from sacrebleu.significance import _compute_p_value

from bleu_core.data.corpus import TextFile
from bleu_core.data.documents import (
    Documents,
    document_comparison,
    document_sums,
    join_documents,
    sacrebleu_subset,
)
from bleu_core.data.wmt import check_no_markup, find_markup, parse_wmt
from bleu_core.data.wmt_jsonl import parse_wmt_jsonl
from bleu_core.data.wmt_xml import parse_wmt_xml
from bleu_core.engine import ReferenceSet
from bleu_core.errors import InputError
from bleu_core.metrics.bleu import corpus_bleu, score_many
from tests.conftest import RealSet

DOC = 20  # segments per document in the files built here
SOME = ("Online-A", "UEdin", "ICL")  # systems scored by sacreBLEU where all 20 would take long; the others' text
# is checked line for line
DOMAINS = ("news", "social", "speech", None)  # a document without a domain, as in WMT21 and WMT22


@dataclass(frozen=True)
class Wmt21:
    source: list[str]
    refs: dict[str, list[str]]
    systems: dict[str, list[str]]

    def origlang(self, d: int) -> str:
        return "de" if d % 3 == 2 else "en"

    def domain(self, d: int) -> str | None:
        # the last document has a domain: sacreBLEU keeps the domain field only when the last one has
        return "news" if d == self.n_docs - 1 else DOMAINS[d % len(DOMAINS)]

    @property
    def n_docs(self) -> int:
        return -(-len(self.source) // DOC)

    def doc_id(self, d: int) -> str:
        return f"newstest2021.en-de.{d:03d}"

    def blocks(self) -> list[range]:
        return [range(d * DOC, min((d + 1) * DOC, len(self.source))) for d in range(self.n_docs)]


def _read(p: Path) -> list[str]:
    return p.read_text(encoding="utf-8").split("\n")[:-1]


@pytest.fixture(scope="module")
def wmt21_docs(wmt21: RealSet) -> Wmt21:
    """WMT21 with the document structure this file gives it (the shared data has none)."""
    return Wmt21(wmt21.source(), dict(zip("ACD", wmt21.refs(), strict=True)), {n: wmt21.system(n) for n in wmt21.names})


def _segs(lines: list[str], block: range) -> str:
    return "".join(f'<seg id="{i - block.start + 1}">{escape(lines[i])}</seg>' for i in block)


def build_xml(w: Wmt21) -> str:
    out = ['<?xml version="1.0" encoding="utf-8"?>', '<dataset id="newstest2021">', '<collection id="general">']
    for d, block in enumerate(w.blocks()):
        dom = w.domain(d)
        attrs = f"id={quoteattr(w.doc_id(d))} origlang={quoteattr(w.origlang(d))}"
        attrs += f" domain={quoteattr(dom)}" if dom is not None else ""
        out.append(f"<doc {attrs}>")
        out.append(f'<src lang="en"><p>{_segs(w.source, block)}</p></src>')
        for t, lines in w.refs.items():
            out.append(f'<ref lang="de" translator="{t}"><p>{_segs(lines, block)}</p></ref>')
        for s, lines in w.systems.items():
            out.append(f'<hyp system={quoteattr(s)} lang="de"><p>{_segs(lines, block)}</p></hyp>')
        out.append("</doc>")
    out += ["</collection>", "</dataset>", ""]
    return "\n".join(out)


@pytest.fixture(scope="module")
def xml_file(wmt21_docs: Wmt21, tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("wmt") / "newstest2021.en-de.xml"
    path.write_text(build_xml(wmt21_docs), encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def read_xml(xml_file: Path):
    return parse_wmt_xml(xml_file.read_bytes(), xml_file.name)


def _ours(corpus) -> dict[str, float]:
    """Every system's BLEU by this package (references tokenized once)."""
    refs = ReferenceSet(corpus.ref_streams)
    return {s.name: float(score_many(refs.stats(list(s.lines)).sum(axis=0)[None, :])[0]) for s in corpus.systems}


@pytest.fixture(scope="module")
def sacre(wmt21_docs: Wmt21) -> Callable[[str, str], float]:
    """sacreBLEU's BLEU of a system on the plain text, against the references named (e.g. "ACD"), cached."""
    metrics: dict[str, BLEU] = {}
    cache: dict[tuple[str, str], float] = {}

    def score(system: str, refs: str) -> float:
        if (system, refs) not in cache:
            if refs not in metrics:
                metrics[refs] = BLEU(references=[wmt21_docs.refs[t] for t in refs])
            cache[system, refs] = metrics[refs].corpus_score(wmt21_docs.systems[system], None).score
        return cache[system, refs]

    return score


def _clean(s: str) -> str:
    return re.sub(r"\s+", " ", s.strip())  # sacreBLEU's Dataset._clean


# --- WMT XML against sacreBLEU -----------------------------------------------------------------------------


@pytest.mark.slow  # out of make test-core (the one-minute loop); make test runs it
def test_xml_reads_what_sacrebleus_wmt_xml_reader_reads(xml_file: Path, read_xml, wmt21_docs: Wmt21) -> None:
    fields = WMTXMLDataset._unwrap_wmt21_or_later(str(xml_file))
    c, docs = read_xml.corpus, read_xml.documents
    assert c.n_segments == len(wmt21_docs.source) == 1002
    assert list(c.source.lines) == [_clean(x) for x in fields["src"]]
    assert read_xml.translators == read_xml.available == ("A", "C", "D")
    for t, ref in zip(read_xml.translators, c.references, strict=True):
        assert list(ref.lines) == [_clean(x) for x in fields[f"ref:{t}"]]
    assert c.names == tuple(wmt21_docs.systems)
    for s in c.systems:
        assert list(s.lines) == [_clean(x) for x in fields[s.name]]
    assert list(docs.doc_ids) == fields["docid"]
    assert list(docs.origlangs) == fields["origlang"]
    assert list(docs.domains) == fields["domain"]
    assert (docs.src_lang, docs.tgt_lang) == ("en", "de")
    assert len(docs.names) == wmt21_docs.n_docs == 51


@pytest.mark.slow  # sacreBLEU scores 20 systems against 3 references: about 10 s
def test_every_systems_bleu_from_the_xml_is_sacrebleus_on_the_plain_text(read_xml, sacre) -> None:
    ours = _ours(read_xml.corpus)
    assert len(ours) == 20
    for name, score in ours.items():
        assert score == pytest.approx(sacre(name, "ACD"), abs=1e-9), name


@pytest.mark.slow  # out of make test-core (the one-minute loop); make test runs it
def test_a_translator_chosen_gives_that_reference_only(xml_file: Path, sacre) -> None:
    w = parse_wmt_xml(xml_file.read_bytes(), xml_file.name, ref_translators=("C",))
    assert w.translators == ("C",)
    assert len(w.corpus.references) == 1
    hyp = w.corpus.system("Online-A").lines
    assert corpus_bleu(list(hyp), w.corpus.ref_streams).score == pytest.approx(sacre("Online-A", "C"), abs=1e-9)
    with pytest.raises(InputError, match=r"no reference by translator 'B' \(the file has: 'A', 'C', 'D'\)"):
        parse_wmt_xml(xml_file.read_bytes(), xml_file.name, ref_translators=("B",))


SMALL = """<?xml version="1.0" encoding="utf-8"?>
<dataset id="t">
<collection id="general">
<doc id="d1" origlang="en" domain="news">
<src lang="en"><p><seg id="1">AT&amp;T rose.</seg><seg id="2">  Two   spaces. </seg><seg id="3">No ref.</seg></p></src>
<ref lang="de" translator="A"><p><seg id="1">AT&amp;T stieg.</seg><seg id="2">Zwei.</seg><seg id="3"></seg></p></ref>
<hyp system="S1" lang="de"><p><seg id="1">AT&amp;amp;T stieg.</seg><seg id="2">Zwei .</seg><seg id="3">x</seg></p></hyp>
<hyp system="S2" lang="de"><p><seg id="2">Zwei.</seg><seg id="1">AT&amp;T.</seg><seg id="3">y</seg></p></hyp>
</doc>
<doc id="ts1" origlang="en" testsuite="yes">
<src lang="en"><p><seg id="1">Suite.</seg></p></src>
<hyp system="S1" lang="de"><p><seg id="1">Suite.</seg></p></hyp>
</doc>
<doc id="d2" origlang="de">
<src lang="en"><p><seg id="1">Last.</seg></p></src>
<ref lang="de" translator="A"><p><seg id="1">Letzte.</seg></p></ref>
<hyp system="S1" lang="de"><p><seg id="1">Letzte.</seg></p></hyp>
<hyp system="S2" lang="de"><p><seg id="1">Letzter.</seg></p></hyp>
</doc>
</collection>
</dataset>
"""


def test_entities_are_decoded_once_and_skips_are_sacrebleus(tmp_path: Path) -> None:
    path = tmp_path / "small.xml"
    path.write_text(SMALL, encoding="utf-8")
    fields = WMTXMLDataset._unwrap_wmt21_or_later(str(path))
    w = parse_wmt_xml(SMALL.encode(), "small.xml")
    # real WMT files hold &amp;amp; in system text: one decoding shows &amp;, as sacreBLEU's lxml reader does
    assert w.corpus.system("S1").lines[0] == "AT&amp;T stieg." == fields["S1"][0]
    assert w.corpus.source.lines == tuple(_clean(x) for x in fields["src"]) == ("AT&T rose.", "Two spaces.", "Last.")
    assert w.corpus.system("S2").lines == tuple(fields["S2"])  # ordered by id, not by position in the file
    assert w.documents.doc_ids == tuple(fields["docid"]) == ("d1", "d1", "d2")  # no test suite, no unreferenced seg
    assert w.documents.domains == ("news", "news", None)
    assert any("1 segment(s) no reference translates were skipped" in n for n in w.corpus.warnings)
    assert any("1 test-suite document(s) skipped" in n for n in w.corpus.warnings)
    raw = parse_wmt_xml(SMALL.encode(), "small.xml", normalize_space=False)
    assert raw.corpus.source.lines[1] == "  Two   spaces. "


# --- bad input: one line naming file, line, document and segment ---------------------------------------------


def _error(text: str) -> str:
    with pytest.raises(InputError) as e:
        parse_wmt_xml(text.encode(), "t.xml")
    msg = str(e.value)
    assert "\n" not in msg
    return msg


def test_malformed_xml_names_the_element_left_open_and_its_line() -> None:
    broken = SMALL.replace('<seg id="2">Zwei .</seg>', '<seg id="2">Zwei .')
    assert _error(broken) == "t.xml:7: <seg> opened at line 7 is not closed (a <seg> starts inside it)"
    last = SMALL.replace('<seg id="3">y</seg>', '<seg id="3">y')
    assert _error(last) == "t.xml:8: <seg> opened at line 8 is not closed (mismatched tag at column 96)"
    truncated = SMALL[: SMALL.index("</collection>")]
    assert _error(truncated).startswith("t.xml:20: <collection> opened at line 3 is not closed (no element found")
    assert _error("<dataset><doc id='a'></dataset>").startswith("t.xml:1: <doc> opened at line 1 is not closed")
    assert _error("just text").startswith("t.xml:1: not well-formed XML (syntax error")


def test_a_segment_missing_from_a_system_is_named() -> None:
    text = SMALL.replace('<seg id="2">Zwei.</seg><seg id="1">AT&amp;T.</seg>', '<seg id="1">AT&amp;T.</seg>')
    assert _error(text) == "t.xml:8: system 'S2' has no <seg id=\"2\"> in document 'd1'"


def test_duplicate_segment_ids_are_named() -> None:
    text = SMALL.replace('<seg id="2">  Two', '<seg id="1">  Two')
    assert _error(text) == "t.xml:5: document 'd1': two segments with id 1 in the source (lines 5 and 5)"


def test_two_source_languages_are_refused() -> None:
    text = SMALL.replace('<src lang="en"><p><seg id="1">Last.', '<src lang="fr"><p><seg id="1">Last.')
    assert _error(text) == (
        "t.xml:15: two source languages ('en' at line 5, 'fr' at line 15); a WMT file holds one language pair"
    )


def test_an_empty_document_is_refused() -> None:
    text = SMALL.replace('<src lang="en"><p><seg id="1">Last.</seg></p></src>', '<src lang="en"><p></p></src>')
    assert _error(text) == "t.xml:14: document 'd2' is empty: its source has no <seg>"


def test_a_system_missing_a_document_is_named() -> None:
    text = SMALL.replace('<hyp system="S2" lang="de"><p><seg id="1">Letzter.</seg></p></hyp>\n', "")
    assert _error(text) == "t.xml:14: system 'S2' has no translation of document 'd2'"


BOMB = """<?xml version="1.0"?>
<!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol1 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
<!ENTITY lol2 "&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;">
<!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
<!ENTITY lol4 "&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;">
<!ENTITY lol5 "&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;">
<!ENTITY lol6 "&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;">
<!ENTITY lol7 "&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;">
<!ENTITY lol8 "&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;">
<!ENTITY lol9 "&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;">]>
<dataset><doc id="d" origlang="en"><src lang="en"><p><seg id="1">&lol9;</seg></p></src>
<ref lang="de" translator="A"><p><seg id="1">x</seg></p></ref></doc></dataset>
"""


def test_an_entity_bomb_and_an_external_entity_are_refused_before_expansion() -> None:
    start = time.perf_counter()
    assert _error(BOMB).startswith("t.xml:2: has a document type declaration (<!DOCTYPE ...>)")
    assert time.perf_counter() - start < 1.0
    external = BOMB.split("<!DOCTYPE", maxsplit=1)[0] + '<!DOCTYPE d [<!ENTITY x SYSTEM "file:///etc/passwd">]>\n'
    external += '<dataset><doc id="d"><src lang="en"><p><seg id="1">&x;</seg></p></src></doc></dataset>'
    assert "document type declaration" in _error(external)
    # without a declaration an entity is undefined, never looked up
    assert "undefined entity" in _error(SMALL.replace("AT&amp;T rose.", "&passwd; rose."))


def test_markup_inside_a_segment_is_refused() -> None:
    assert _error(SMALL.replace("AT&amp;T rose.", "AT<b>T</b>")) == (
        "t.xml:5: a <b> element inside <seg> (opened at line 5); a segment is text"
    )


def test_not_utf8_names_the_line() -> None:
    with pytest.raises(InputError, match=r"^t\.xml:5: not UTF-8"):
        parse_wmt_xml(SMALL.encode().replace(b"rose", b"ros\xe9"), "t.xml")


# --- markup in text files ----------------------------------------------------------------------------------


def test_markup_is_found_and_refused_not_scored_as_text(wmt21_docs: Wmt21) -> None:
    hyp, ref = wmt21_docs.systems["Online-A"][:20], wmt21_docs.refs["A"][:20]
    wrap = [f'<seg id="{i + 1}">{line}</seg>' for i, line in enumerate(hyp)]
    wrap_ref = [f'<seg id="{i + 1}">{line}</seg>' for i, line in enumerate(ref)]
    plain = sacrebleu.corpus_bleu(hyp, [ref]).score
    as_text = sacrebleu.corpus_bleu(wrap, [wrap_ref]).score
    assert as_text > plain + 15  # the tags match as words: what scoring markup as text does
    found = find_markup(wrap)
    assert found is not None
    assert (found.line, found.tag, found.kind) == (1, '<seg id="1">', "seg")
    with pytest.raises(InputError) as e:
        check_no_markup(TextFile("hyp.de", tuple(hyp[:5] + wrap[5:])))
    assert str(e.value).startswith("hyp.de:6: holds markup ('<seg id=\"6\">'); scored as text the tags would count")
    sgml = ['<tstset setid="newstest2019" srclang="any" trglang="de">', '<doc sysid="X" docid="a" origlang="en">']
    assert find_markup(["ok", *sgml]) == find_markup(["ok", *sgml[:1]])
    kinds = [getattr(find_markup(lines), "kind", None) for lines in (["ok", *sgml], ['<?xml version="1.0"?>'])]
    assert kinds == ["sgml", "xml"]


def test_no_real_text_file_is_taken_for_markup(data_dir: Path) -> None:
    files = [p for p in data_dir.rglob("*") if p.is_file() and p.suffix not in (".md", ".tsv", ".txt", ".csv")]
    assert len(files) > 40
    for p in files:
        assert find_markup(_read(p)) is None, p


# --- documents -----------------------------------------------------------------------------------------------


@pytest.mark.slow  # sacreBLEU on 51 documents of 20 segments: about 10 s
def test_document_bleu_is_sacrebleus_on_the_joined_documents(read_xml, wmt21_docs: Wmt21) -> None:
    joined, docs = join_documents(read_xml.corpus, read_xml.documents)
    assert joined.n_segments == len(docs.doc_ids) == wmt21_docs.n_docs
    assert docs.doc_ids == read_xml.documents.names
    assert docs.origlangs == tuple(wmt21_docs.origlang(d) for d in range(wmt21_docs.n_docs))
    join = lambda lines: [" ".join(lines[i] for i in b) for b in wmt21_docs.blocks()]  # noqa: E731
    refs = [join(r) for r in wmt21_docs.refs.values()]
    metric = BLEU(references=refs)
    ours = _ours(joined)
    for name in SOME:
        score = ours[name]
        assert score == pytest.approx(metric.corpus_score(join(wmt21_docs.systems[name]), None).score, abs=1e-9), name
    d_chrf = sacrebleu.corpus_chrf(join(wmt21_docs.systems["UEdin"]), refs).score
    assert sacrebleu.corpus_chrf(list(joined.system("UEdin").lines), joined.ref_streams).score == d_chrf


def test_document_sums_keep_the_corpus_score(read_xml) -> None:
    c = read_xml.corpus
    refs = ReferenceSet(c.ref_streams)
    m = refs.stats(list(c.system("UEdin").lines))
    d = document_sums(m, read_xml.documents)
    assert d.shape == (51, m.shape[1])
    assert (d.sum(axis=0) == m.sum(axis=0)).all()
    assert (d[0] == m[:DOC].sum(axis=0)).all()
    assert (d[-1] == m[1000:].sum(axis=0)).all()


@pytest.mark.slow  # out of make test-core (the one-minute loop); make test runs it
def test_the_document_block_bootstrap_is_sacrebleus_test_on_document_rows(read_xml, wmt21_docs: Wmt21) -> None:
    """sacreBLEU's own paired bootstrap steps (its draws, its BLEU from statistics, its p-value) on its own
    per-segment statistics summed per document: the block test, computed by sacreBLEU's code."""
    names = ("Online-A", "UEdin", "Facebook-AI")
    c = read_xml.corpus
    refs = ReferenceSet(c.ref_streams)
    mats = [refs.stats(list(c.system(n).lines)) for n in names]
    ours = document_comparison(mats[0], mats[1:], read_xml.documents, trials=1000, nrefs=3)
    assert ours.signature.startswith("nrefs:3|bs:1000|rs:12345|block:doc|")
    metric = BLEU(references=list(wmt21_docs.refs.values()))
    blocks = wmt21_docs.blocks()

    def doc_stats(name: str) -> np.ndarray:
        seg = np.array(metric._extract_corpus_statistics(wmt21_docs.systems[name], None), dtype=np.float64)
        return np.array([seg[b.start : b.stop].sum(axis=0) for b in blocks])

    rng = np.random.default_rng(12345)
    idxs = rng.choice(len(blocks), size=(1000, len(blocks)), replace=True)
    base = doc_stats(names[0])
    score = lambda st: metric._compute_score_from_stats(list(st)).score  # noqa: E731
    base_scores = np.array([score(base[i].sum(axis=0)) for i in idxs])
    assert ours.baseline_score == pytest.approx(score(base.sum(axis=0)), abs=1e-9)
    for name, r in zip(names[1:], ours.results, strict=True):
        sys = doc_stats(name)
        sys_scores = np.array([score(sys[i].sum(axis=0)) for i in idxs])
        diffs = np.abs(sys_scores - base_scores)
        p = _compute_p_value(diffs - diffs.mean(), abs(score(base.sum(axis=0)) - score(sys.sum(axis=0))))
        assert r.p_value == pytest.approx(p, abs=1.5 / 1001), name  # sacreBLEU rounds statistics to float32
        assert (r.low, r.high) == pytest.approx((np.sort(sys_scores)[25], np.sort(sys_scores)[974]), abs=1e-6)


_UNWRAPPED: dict[str, dict[str, list[str]]] = {}


@pytest.fixture
def registered(xml_file: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Callable[..., list[int]]:
    """sacreBLEU's own filter_subset on our file: registered as a WMT XML test set in a sacreBLEU folder of our
    own, and run on the line numbers (so what it keeps is the lines it keeps)."""
    import sacrebleu.utils as su

    raw = tmp_path / "wmtx" / "raw"
    raw.mkdir(parents=True)
    (raw / xml_file.name).write_bytes(xml_file.read_bytes())
    dataset: Dataset = WMTXMLDataset("wmtx", langpairs={"en-de": [xml_file.name]})
    monkeypatch.setitem(su.DATASETS, "wmtx", dataset)
    monkeypatch.setattr(su, "SACREBLEU_DIR", str(tmp_path))
    # sacreBLEU parses the whole file on every call: its own parse, kept once for the 30 cases
    unwrap = WMTXMLDataset._unwrap_wmt21_or_later

    def cached(f: str) -> dict[str, list[str]]:  # the same file, in each case's own folder
        if Path(f).name not in _UNWRAPPED:
            _UNWRAPPED[Path(f).name] = unwrap(f)
        return _UNWRAPPED[Path(f).name]

    monkeypatch.setattr(WMTXMLDataset, "_unwrap_wmt21_or_later", staticmethod(cached))

    def run(origlang: str | None, subset: str | None) -> list[int]:
        (kept,) = su.filter_subset([list(range(1002))], "wmtx", "en-de", origlang, subset)
        return kept

    return run


@pytest.mark.parametrize("origlang", [None, "en", "de", "non-en", "non-de", "cs"])
@pytest.mark.parametrize("subset", [None, "news", "so|sp", "country:news", "^s"])
def test_origlang_and_subset_keep_what_sacrebleu_keeps(
    registered: Callable[..., list[int]], read_xml, origlang: str | None, subset: str | None
) -> None:
    ours = list(sacrebleu_subset(read_xml.documents, origlang=origlang, subset=subset))
    assert ours == registered(origlang, subset)
    if origlang == "cs" or (origlang is None and subset is None):
        assert ours in ([], list(range(1002)))


def test_where_on_documents(read_xml, wmt21_docs: Wmt21) -> None:
    d = read_xml.documents
    by_doc = [i // DOC for i in range(1002)]
    assert d.where("origlang", "==", "de") == tuple(i for i in range(1002) if wmt21_docs.origlang(by_doc[i]) == "de")
    assert d.where("domain", "==", "social") == tuple(
        i for i in range(1002) if wmt21_docs.domain(by_doc[i]) == "social"
    )
    assert d.where("domain", "!=", "news") == tuple(i for i in range(1002) if wmt21_docs.domain(by_doc[i]) != "news")
    assert d.where("doc", "~", r"\.00[12]$") == tuple(range(20, 60))
    with pytest.raises(InputError, match=r"^--where: a quantified group quantified again"):
        d.where("doc", "~", "(a+)+$")
    with pytest.raises(InputError, match="unknown document field 'genre'"):
        d.where("genre", "==", "x")  # type: ignore[arg-type]
    sub = d.take(d.where("origlang", "==", "de"))
    assert set(sub.origlangs) == {"de"}
    assert sub.n_segments == len(d.where("origlang", "==", "de"))


def test_documents_must_describe_the_corpus(read_xml) -> None:
    short = Documents(("a",), ("en",), (None,))
    with pytest.raises(InputError, match="has 1002 segments but the documents describe 1"):
        join_documents(read_xml.corpus, short)
    with pytest.raises(InputError, match="1 document ids but 0 origlangs"):
        Documents(("a",), (), (None,))


# --- WMT JSONL -----------------------------------------------------------------------------------------------


def _wmt25(w: Wmt21, tmp: Path) -> tuple[bytes, list[tuple[str, bytes]]]:
    """The WMT25 shape: the test set one document a line (paragraphs apart by a blank line), one file per system."""
    lines = []
    for d, b in enumerate(w.blocks()):
        doc = f"en-de_DE_#_{w.domain(d) or 'news'}_#_{w.doc_id(d)}"
        lines.append(
            {
                "doc_id": doc,
                "domain": w.domain(d) or "news",
                "src_lang": "en",
                "tgt_lang": "de_DE",
                "src_text": "\n\n".join(w.source[i] for i in b),
                "refs": {f"ref{t}": {"ref": "\n\n".join(r[i] for i in b)} for t, r in w.refs.items()},
                "video": None,
            }
        )
    lines.append({**lines[0], "doc_id": "en-cs_CZ_#_news_#_other", "src_lang": "en", "tgt_lang": "cs_CZ"})
    lines.append({**lines[0], "doc_id": "en-de_DE_#_news_#_noref", "refs": {}})
    systems = []
    for name, hyp in w.systems.items():
        rows = [
            {"doc_id": lines[d]["doc_id"], "hypothesis": "\n\n".join(hyp[i] for i in b)}
            for d, b in enumerate(w.blocks())
        ]
        systems.append((f"systems/{name}.jsonl", "\n".join(json.dumps(r, ensure_ascii=False) for r in rows).encode()))
    test_set = "\n".join(json.dumps(x, ensure_ascii=False) for x in lines).encode()
    return test_set, systems


@pytest.mark.slow  # out of make test-core (the one-minute loop); make test runs it
def test_wmt25_jsonl_documents_and_system_files_score_as_the_plain_text(
    wmt21_docs: Wmt21, tmp_path: Path, sacre
) -> None:
    data, systems = _wmt25(wmt21_docs, tmp_path)
    with pytest.raises(InputError, match=r"^wmt25-genmt\.jsonl: holds 2 language pairs \(en-cs_CZ, en-de_DE\)"):
        parse_wmt_jsonl(data, "wmt25-genmt.jsonl", systems=systems)
    w = parse_wmt(data, "wmt25-genmt.jsonl", systems=systems, langpair="en-de")
    assert w.format == "wmt-jsonl"
    assert w.corpus.n_segments == 1002
    assert w.corpus.names == tuple(wmt21_docs.systems)
    assert dict(w.fields)["references"] == "refs.refA.ref, refs.refC.ref, refs.refD.ref"
    assert dict(w.fields)["segments"] == "paragraphs (split at blank lines)"
    assert "read source from src_text" in w.describe()
    assert (w.documents.src_lang, w.documents.tgt_lang, len(w.documents.names)) == ("en", "de_DE", 51)
    assert any("1 document(s) without a reference skipped" in n for n in w.corpus.warnings)
    for name, hyp in wmt21_docs.systems.items():
        assert w.corpus.system(name).lines == tuple(_clean(x) for x in hyp)
    ours = _ours(w.corpus)
    for name in SOME:
        assert ours[name] == pytest.approx(sacre(name, "ACD"), abs=1e-9), name
    whole = parse_wmt_jsonl(data, "t.jsonl", systems=systems[:1], langpair="en-de_DE", unit="document")
    assert whole.corpus.n_segments == 51


def test_wmt25_jsonl_bad_input_names_file_and_document(wmt21_docs: Wmt21, tmp_path: Path) -> None:
    data, systems = _wmt25(wmt21_docs, tmp_path)
    name, raw = systems[0]
    rows = [json.loads(x) for x in raw.decode().split("\n")]
    missing = "\n".join(json.dumps(r) for r in rows[1:]).encode()
    with pytest.raises(InputError) as e:
        parse_wmt_jsonl(data, "t.jsonl", systems=[(name, missing)], langpair="en-de")
    assert str(e.value) == f"{name}: system 'BUPT_rush' has no translation of document '{rows[0]['doc_id']}'"
    rows[3]["hypothesis"] = rows[3]["hypothesis"].replace("\n\n", " ", 1)
    merged = "\n".join(json.dumps(r) for r in rows).encode()
    with pytest.raises(InputError, match=r"has 19 paragraphs but the source has 20"):
        parse_wmt_jsonl(data, "t.jsonl", systems=[(name, merged)], langpair="en-de")
    with pytest.raises(InputError, match=r"^t\.jsonl:2: not JSON"):
        parse_wmt_jsonl(b'{"doc_id": "a", "src_text": "x"}\n{oops\n', "t.jsonl")
    with pytest.raises(InputError, match=r"^t\.jsonl:1: not a WMT JSONL file: expected src_text"):
        parse_wmt_jsonl(b'{"src": "x", "ref": "y"}\n', "t.jsonl")


@pytest.mark.slow  # out of make test-core (the one-minute loop); make test runs it
def test_wmt24_segment_records_score_as_the_plain_text(wmt21_docs: Wmt21, sacre) -> None:
    """WMT24/25 human-evaluation files: one segment a line, tgt_text holding references and systems by name,
    doc_id = <document>_#_<n>; a system missing from a segment is left out and named."""
    lines = []
    for d, b in enumerate(wmt21_docs.blocks()):
        for i in b:
            tgt = {
                "refA": wmt21_docs.refs["A"][i],
                **{s: h[i] for s, h in wmt21_docs.systems.items()},
                "refC": wmt21_docs.refs["C"][i],
            }
            if i == 5:
                del tgt["Online-W"]
            lines.append(
                {
                    "doc_id": f"test-en-{wmt21_docs.domain(d) or 'news'}_{d}_#_{i}",
                    "src_text": wmt21_docs.source[i],
                    "tgt_text": tgt,
                    "langs": "en-de",
                    "scores": {},
                }
            )
    data = "\n".join(json.dumps(x, ensure_ascii=False) for x in lines).encode()
    w = parse_wmt_jsonl(data, "wmt24-genmt-humeval.jsonl")
    assert w.translators == ("A", "C")
    assert "Online-W" not in w.corpus.names
    assert len(w.corpus.names) == 19
    assert any("1 system(s) missing from some segments left out: Online-W" in n for n in w.corpus.warnings)
    assert w.documents.names[:2] == ("test-en-news_0", "test-en-social_1")
    assert w.documents.domains[:21] == ("news",) * 20 + ("social",)
    assert dict(w.fields)["references"] == "tgt_text[refA], tgt_text[refC]"
    for s in w.corpus.systems:
        assert s.lines == tuple(_clean(x) for x in wmt21_docs.systems[s.name])
    ours = _ours(w.corpus)
    for name in SOME:
        assert ours[name] == pytest.approx(sacre(name, "AC"), abs=1e-9), name
    lines[7]["tgt_text"].pop("refC")
    with pytest.raises(InputError, match=r"^t\.jsonl:8: segment 'test-en-news_0_#_7' has no reference 'refC'"):
        parse_wmt_jsonl("\n".join(json.dumps(x) for x in lines).encode(), "t.jsonl")


def test_markup_is_found_on_its_line_after_text_with_a_lone_angle_bracket() -> None:
    """find_markup skips to the first "<" (most MT text has none; the scan was most of a 50,000-line upload's
    parse): a "<" in prose before the markup, a declaration indented on a later line, and no "<" at all."""
    from bleu_core.data.wmt_base import find_markup

    lines = ["x < y in prose", "plain", '  <seg id="3">z</seg>']
    found = find_markup(lines)
    assert found is not None
    assert (found.line, found.kind) == (3, "seg")
    declared = find_markup(["text", "   <?xml version='1.0'?>"])
    assert declared is not None
    assert (declared.line, declared.kind) == (2, "xml")
    assert find_markup(["no angle brackets", "here either"] * 1000) is None
