"""The printable handout (issue 20, teaching review proposal I): its numbers are the engine's (through the public
``corpus_bleu``, not the path the handout takes), the paper's printed fractions where the paper prints them, and
the file is self-contained and escaped."""

from __future__ import annotations

import re
from dataclasses import replace
from html.parser import HTMLParser

import pytest

from bleu_app import handout as handout_module
from bleu_core.metrics.bleu import corpus_bleu
from bleu_core.teaching.paper import EXAMPLES
from tests.app.test_paper_quotes import PAPER, normalise

PAPER_ARGS = {"smooth_method": "none", "lowercase": True, "tokenize": "paper"}


class _Tables(HTMLParser):
    """Every table's rows of cell texts, by the table's id; every paragraph's text by id."""

    def __init__(self) -> None:
        super().__init__()
        self.tables: dict[str, list[list[str]]] = {}
        self.paras: dict[str, str] = {}
        self._table: str | None = None
        self._para: str | None = None
        self._cell: list[str] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        ident = dict(attrs).get("id") or ""
        if tag == "table":
            self._table = ident
            self.tables[ident] = []
        elif tag == "tr" and self._table is not None:
            self.tables[self._table].append([])
        elif tag in ("td", "th"):
            self._cell = []
        elif tag == "p" and ident:
            self._para = ident
            self.paras[ident] = ""

    def handle_endtag(self, tag: str) -> None:
        if tag in ("td", "th") and self._cell is not None and self._table is not None:
            self.tables[self._table][-1].append("".join(self._cell).strip())
            self._cell = None
        elif tag == "table":
            self._table = None
        elif tag == "p":
            self._para = None

    def handle_data(self, data: str) -> None:
        if self._cell is not None:
            self._cell.append(data)
        if self._para is not None:
            self.paras[self._para] += data


@pytest.fixture(scope="module")
def page() -> _Tables:
    parsed = _Tables()
    parsed.feed(handout_module.handout_html())
    return parsed


def _engine(hyp: str, refs: tuple[str, ...]):  # type: ignore[no-untyped-def]
    return corpus_bleu([hyp], [[r] for r in refs], **PAPER_ARGS)


@pytest.mark.parametrize(("key", "i"), [("ex1", 0), ("ex1", 1), ("ex2", 0), ("ex3", 0), ("ex4", 0), ("ex4", 1)])
def test_every_candidates_numbers_are_the_engines(page, key, i):
    ex = EXAMPLES[key]
    s = _engine(ex.candidates[i], ex.references)
    rows = page.tables[f"{key}-c{i + 1}"][1:]
    assert [(int(r[1]), int(r[2])) for r in rows] == list(zip(s.counts, s.totals, strict=True))
    assert [r[3] for r in rows] == [f"{m}/{t}" for m, t in zip(s.counts, s.totals, strict=True)]
    line = " ".join(page.paras[f"{key}-c{i + 1}-bleu"].split())
    assert f"c = {s.sys_len} " in line
    assert f"r (best match length) = {s.ref_len} " in line
    bp = f"{s.bp:.4f}" if s.bp >= 0.01 else f"{s.bp:.6f}"
    assert f"BP = {bp} " in line
    assert f"BLEU = {s.score / 100:.4f} ({s.score:.2f} " in line


def test_the_papers_printed_fractions_are_beside_the_computed_ones(page):
    printed = {  # the paper's text, as numbers (sections 2.1 and 2.2): each also checked in the seed below
        "ex1-c1": {1: "17/18", 2: "10/17"},
        "ex1-c2": {1: "8/14", 2: "1/13"},
        "ex2-c1": {1: "2/7", 2: "0"},
        "ex3-c1": {1: "2/2", 2: "1/1"},
    }
    for table, orders in printed.items():
        rows = page.tables[table][1:]
        for n, frac in orders.items():
            assert rows[n - 1][5] == frac, (table, n)
            if frac != "0":
                assert rows[n - 1][3] == frac  # the engine's fraction is the paper's
            else:
                assert rows[n - 1][1] == "0"
        assert all(r[5] == "" for r in rows[len(orders) :])  # nothing the paper does not print
    for sentence in (
        "Candidate 1 achieves a modified unigram precision of 17/18",
        "Candidate 2 achieves a modified unigram precision of 8/14",
        "Candidate 1 achieves a modified bigram precision of 10/17",
        "Candidate 2 achieves a modified bigram precision of 1/13",
        "the modified unigram precision in Example 2 is 2/7, even though its standard unigram precision is 7/7",
        "the (implausible) candidate achieves a modified bigram precision of 0",
        "the modified unigram precision is 2/2, and the modified bigram precision is 1/1",
    ):
        assert normalise(sentence) in PAPER, sentence
    assert "(the paper prints 7/7)" in " ".join(handout_module.handout_html().split())
    assert all(r[5] == "" for r in page.tables["ex4-c1"][1:])  # Example 4: the paper prints no fraction


def test_the_toy_corpus_is_pooled_and_its_mean_is_not_bleu(page):
    hyps = [
        EXAMPLES[k].candidates[i] for k, i in (("ex1", 0), ("ex1", 1), ("ex2", 0), ("ex3", 0), ("ex4", 0), ("ex4", 1))
    ]
    refs = [EXAMPLES[k].references for k, i in (("ex1", 0), ("ex1", 1), ("ex2", 0), ("ex3", 0), ("ex4", 0), ("ex4", 1))]
    streams = [[r[k] if k < len(r) else None for r in refs] for k in range(3)]
    whole = corpus_bleu(hyps, streams, **PAPER_ARGS)
    rows = page.tables["corpus"][1:]
    assert [r[3] for r in rows] == [f"{m}/{t}" for m, t in zip(whole.counts, whole.totals, strict=True)]
    mean = sum(corpus_bleu([h], [[x] for x in r], **PAPER_ARGS).score for h, r in zip(hyps, refs, strict=True)) / 6
    line = " ".join(page.paras["corpus-bleu"].split())
    assert f"c = {whole.sys_len} · r = {whole.ref_len} · BP = {whole.bp:.4f}" in line
    assert f"corpus BLEU = {whole.score / 100:.4f} ({whole.score:.2f})" in line
    assert f"mean of the six sentence BLEU scores = {mean / 100:.4f} ({mean:.2f}): not BLEU" in line
    assert abs(whole.score - mean) > 10  # the point of the table: they differ


def test_the_best_match_table_is_section_2_2_2s(page):
    rows = page.tables["best-match"][1:]
    assert rows[0] == ["12", "12", "1.0000"]  # "a terse 12 words ... we want the brevity penalty to be 1"
    assert normalise("the candidate translation is a terse 12 words, we want the brevity penalty to be 1") in PAPER


def test_the_file_is_self_contained_and_carries_signatures():
    page = handout_module.handout_html()
    for banned in ("<script", "<link", "src=", "href=", "url(", "@import", "http:", "https:"):
        assert banned not in page.lower(), banned
    sigs = re.findall(r'<span class="sig">([^<]*)</span>', page)
    assert len(sigs) == 8  # Examples 1-4, the corpus, and After BLEU's BLEU, chrF and TER
    assert "nrefs:3|case:lc|eff:no|tok:paper|smooth:none|order:4" in sigs[0]
    assert sigs[4].startswith("nrefs:var|")  # the corpus
    assert [s.split("|")[1] for s in sigs[5:]] == ["case:lc", "case:mixed", "case:lc"]  # BLEU, chrF, TER


def test_text_is_escaped():
    h = handout_module.handout()
    ex, cands, sig = h.examples[0]
    evil = replace(ex, title="<b>x</b> & co", references=("<script>alert(1)</script>", *ex.references[1:]))
    bad = replace(cands[0], text='"><img src=x>')
    page = handout_module.handout_html(replace(h, examples=((evil, (bad, *cands[1:]), sig), *h.examples[1:])))
    assert "<script>alert" not in page
    assert "<img" not in page
    assert "<b>x</b>" not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert "&lt;b&gt;x&lt;/b&gt; &amp; co" in page


def test_the_handout_ends_with_after_bleu_as_the_core_and_sacrebleu_compute_it() -> None:
    """Issue 33: the handout carries the After BLEU numbers (chrF beside BLEU, TER's count on Candidate 2)."""
    import re

    import sacrebleu

    from bleu_app.frames import after
    from bleu_app.handout import handout_html
    from bleu_core.teaching.paper import EXAMPLE_1

    page = handout_html()
    section = page[page.index("After BLEU: chrF and TER") :]
    for hyp, refs in [(after.PARAPHRASE[0], [after.PARAPHRASE[1]]), (after.MORPHOLOGY[0], [after.MORPHOLOGY[1]])]:
        assert f"<td>{sacrebleu.sentence_chrf(hyp, refs).score:.2f}</td>" in section
    ter = sacrebleu.sentence_ter(EXAMPLE_1.candidates[1], list(EXAMPLE_1.references))
    assert re.search(rf"TER = <b>{ter.score:.2f}</b>", section)
    assert "version:bleu-explorer" in section
