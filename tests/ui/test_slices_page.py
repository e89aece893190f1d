"""AppTest: the slice box on the corpus and compare pages recomputes the page's numbers on exactly the chosen lines
(equal to sacreBLEU's on them); a bad expression is one message; the diagnostics section lists flags per system
and slices the page to them; the target-language note offers zh for Chinese references."""

from __future__ import annotations

from pathlib import Path

import pytest
import sacrebleu
from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a  # sacreBLEU loads it lazily: not an attribute yet
from streamlit.testing.v1 import AppTest

from bleu_app.markup import md_escape
from bleu_app.samples import demo_corpus
from tests.ui.conftest import folder_files, open_app, uploader

ROOT = Path(__file__).resolve().parents[2]


def _sacre(system: str, lines: list[int]) -> float:
    c = demo_corpus()
    hyp = [c.system(system).lines[i] for i in lines]
    return sacrebleu.corpus_bleu(hyp, [[r.lines[i] for i in lines] for r in c.references]).score


def test_corpus_page_slice_recomputes_bleu():
    at = open_app("pages/corpus.py")
    system = at.selectbox(key="corpus.system").value
    whole = at.metric[0].value
    assert f"{_sacre(system, list(range(30))):.2f}" in whole
    at.text_input(key="corpus.where").input("line 3..17 and not line 10..10").run()
    assert not at.exception, [e.value for e in at.exception]
    lines = [i for i in range(2, 17) if i != 9]
    expected = f"{_sacre(system, lines):.2f}"
    assert expected != f"{_sacre(system, list(range(30))):.2f}"
    assert expected in at.metric[0].value
    segments = next(m for m in at.metric if m.label == "Segments")
    assert segments.value == f"{len(lines)}"  # the Segments metric counts the slice
    assert any(f"Slice: {len(lines)} of 30 lines" in i.value for i in at.info)
    assert any("too few for reliable intervals" in w.value for w in at.warning)


def test_bad_expression_is_one_message_and_the_whole_set_stays():
    at = open_app("pages/corpus.py")
    whole = at.metric[0].value
    at.text_input(key="corpus.where").input("ref_len >").run()
    assert not at.exception
    errors = [e.value for e in at.error]
    assert len(errors) == 1
    assert errors[0].startswith(md_escape("--where: expected a number, found the end at column 10 of 'ref_len >'"))
    assert at.metric[0].value == whole


def test_compare_page_slice_recomputes_every_system():
    at = open_app("pages/compare.py")
    at.text_input(key="compare.where").input('ref ~ "(?i)the" and ref_len >= 8').run()
    assert not at.exception, [e.value for e in at.exception]
    c = demo_corpus()
    tok = Tokenizer13a()
    lines = [
        i
        for i in range(30)
        if any("the" in r.lines[i].lower() for r in c.references) and len(tok(c.references[0].lines[i]).split()) >= 8
    ]
    assert 3 < len(lines) < 30
    table = next(d for d in at.dataframe if "BLEU CI low" in d.value.columns and "system" in d.value.columns).value
    for _, row in table.iterrows():
        assert row["BLEU"] == pytest.approx(_sacre(row["system"], lines), abs=1e-9)


def test_diagnostics_section_lists_flags_and_slices_to_them(data_dir):
    at = open_app("pages/corpus.py")
    uploader(at, "corpus.in_folder").set_value(folder_files(data_dir / "wmt22-general-zh-en")).run()
    assert not at.exception, [e.value for e in at.exception]
    # 12 x 1,875 lines: checked on request only (a 50,000-line upload would pay seconds on every first draw)
    assert not [d for d in at.dataframe if "lines flagged" in d.value.columns]
    (toggle,) = [t for t in at.toggle if t.label.startswith("Check every line of every system (22,500 lines)")]
    assert toggle.value is False
    toggle.set_value(True).run()
    counts = next(d for d in at.dataframe if "lines flagged" in d.value.columns).value
    assert len(counts) == 12
    w = counts[counts["system"] == "Online-W"].iloc[0]
    assert w["empty"] == 1  # Online-W's empty line 1479
    at.selectbox(key="corpus.diag_system").set_value("Online-W").run()
    at.multiselect(key="corpus.diag_kinds").set_value(["empty"]).run()
    flags = next(d for d in at.dataframe if "reason" in d.value.columns).value
    assert flags["line"].tolist() == [1479]
    assert flags["reason"].tolist() == ["no output; the reference has 53 tokens"]
    at.button(key="corpus.diag_slice").click().run()
    assert at.text_input(key="corpus.where").value == 'flag empty["Online-W"]'
    assert any("Slice: 1 of 1875 lines" in i.value for i in at.info)


def test_chinese_references_get_the_note_and_zh_in_one_click(tmp_path, data_dir):
    src = (data_dir / "wmt22-general-zh-en" / "source.zh").read_text(encoding="utf-8").splitlines()
    hyp = ["".join(ch for k, ch in enumerate(line) if k % 5 != 2) for line in src]
    at = open_app("pages/corpus.py")
    files = [
        ("zh/reference.zh", ("\n".join(src) + "\n").encode(), "text/plain"),
        ("zh/systems/sys.zh", ("\n".join(hyp) + "\n").encode(), "text/plain"),
    ]
    uploader(at, "corpus.in_folder").set_value(files).run()
    assert not at.exception, [e.value for e in at.exception]
    notes = [w.value for w in at.warning if "mostly Chinese script" in w.value]
    assert len(notes) == 1
    assert "sacreBLEU uses zh for this target" in notes[0]
    assert f"{sacrebleu.corpus_bleu(hyp, [src]).score:.2f}" in at.metric[0].value
    at.button(key="corpus.use_tokenizer").click().run()
    assert not [w for w in at.warning if "mostly Chinese script" in w.value]
    assert f"{sacrebleu.corpus_bleu(hyp, [src], tokenize='zh').score:.2f}" in at.metric[0].value
    # and the settings hint does not send a Chinese target back to 13a
    assert not any("13a, mixed case" in c.value for c in at.caption)


def test_source_beside_the_sentences_in_the_gap_and_pair_tables(data_dir):

    at = open_app("pages/compare.py")
    uploader(at, "compare.in_folder").set_value(folder_files(data_dir / "wmt22-general-zh-en")).run()
    assert not at.exception, [e.value for e in at.exception]
    source = (data_dir / "wmt22-general-zh-en" / "source.zh").read_text(encoding="utf-8").splitlines()
    for key in ("compare.gap", "compare.pairs"):
        table = next(d for d in at.dataframe if key in getattr(d.proto, "id", "")).value
        assert len(table) > 10
        assert table["source"].tolist() == [source[s - 1] for s in table["segment"]]


def test_a_selected_row_hands_its_source_to_the_sentence_page():
    def script():
        import streamlit as st

        from bleu_app.ui import state
        from bleu_app.ui.corpus import selection
        from bleu_core.data.corpus import Corpus, System, TextFile

        corpus = Corpus(
            "toy",
            (TextFile("ref", ("a b", "c d", "e f")),),
            (System("A", ("a", "c", "e")), System("B", ("b", "d", "f"))),
            TextFile("src", ("S1 *bold*", "S2", "S3")),
        )
        state.init_corpus(lambda: corpus)
        state.put(state.SHOWN_CORPUS, corpus)
        st.session_state["compare.gap"] = {"selection": {"rows": [0]}}
        selection.row_opener("compare.gap", [1, 3], "A", "B")()

    at = AppTest.from_function(script, default_timeout=60)
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    handoff = at.session_state["handoff.sentence"]
    assert (handoff["hyp"], handoff["other_hyp"], handoff["source"]) == ("a", "b", "S1 *bold*")

    from bleu_app.ui import state

    page = open_app("pages/corpus.py")
    page.session_state[state.HANDOFF] = dict(handoff)
    page.switch_page("pages/sentence.py").run()
    assert not page.exception, [e.value for e in page.exception]
    assert "Source: S1 *bold*" in [t.value for t in page.text]  # as text, not Markdown


def test_reference_picker_scores_against_the_chosen_references(data_dir):
    root = data_dir / "wmt22-general-zh-en"
    at = open_app("pages/corpus.py")
    uploader(at, "corpus.in_folder").set_value(folder_files(root)).run()
    assert not at.exception, [e.value for e in at.exception]
    at.selectbox(key="corpus.system").set_value("Online-B").run()
    picker = at.multiselect(key="corpus.refs")
    assert picker.options == ["reference.A.en", "reference.B.en"]
    assert any("Published WMT numbers usually use one reference" in c.value for c in at.caption)
    hyp = (root / "systems" / "Online-B.en").read_text(encoding="utf-8").splitlines()
    a = (root / "reference.A.en").read_text(encoding="utf-8").splitlines()
    b = (root / "reference.B.en").read_text(encoding="utf-8").splitlines()
    assert f"{sacrebleu.corpus_bleu(hyp, [a, b]).score:.2f}" in at.metric[0].value
    picker.set_value([next(v for v in picker.value if v.endswith("reference.A.en"))]).run()
    assert not at.exception, [e.value for e in at.exception]
    one = sacrebleu.corpus_bleu(hyp, [a]).score
    assert f"{one:.2f}" in at.metric[0].value
    assert any("nrefs:1" in c.value for c in at.caption)
    # with a slice on top: reference A only, on the slice's lines
    at.text_input(key="corpus.where").input("line 1..400").run()
    assert f"{sacrebleu.corpus_bleu(hyp[:400], [a[:400]]).score:.2f}" in at.metric[0].value


def test_a_flagged_row_opens_its_line_of_the_whole_test_set():
    def script():
        import streamlit as st

        from bleu_app.ui import state
        from bleu_app.ui.corpus import slicing
        from bleu_core.data.corpus import Corpus, System, TextFile

        lines = tuple(f"line {k}" for k in range(1, 11))
        corpus = Corpus("toy", (TextFile("ref", lines),), (System("A", tuple(x.upper() for x in lines)),))
        state.init_corpus(lambda: corpus)
        st.session_state["corpus.diag_table"] = {"selection": {"rows": [1]}}
        slicing.open_flagged("corpus.diag_table", [4, 7], "A", corpus)

    at = AppTest.from_function(script, default_timeout=60)
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    handoff = at.session_state["handoff.sentence"]
    assert (handoff["hyp"], handoff["refs"]) == ("LINE 7", ["line 7"])
    assert handoff["label"] == "toy, segment 7: A"
    assert at.session_state["corpus.goto_sentence"] is True


def test_a_slice_label_on_the_sentence_page_stays_text():
    from bleu_app.ui import state

    at = open_app("pages/corpus.py")
    label = 'toy · where: hyp[A] ~ "^\\$5 *and* $x$" (3 of 30 lines), segment 2: A'
    at.session_state[state.HANDOFF] = {"hyp": "a", "refs": ["a"], "other_hyp": None, "label": label}
    at.switch_page("pages/sentence.py").run()
    assert not at.exception, [e.value for e in at.exception]
    assert f"Loaded: {md_escape(label)}" in [c.value for c in at.caption]


@pytest.mark.parametrize("page", ["corpus", "compare"])
def test_diagnostics_say_they_cover_the_whole_corpus_under_a_slice(page):
    """The slice banner says every number below is on the slice; the degenerate-output section counts the whole
    corpus (its button slices to the flagged lines), and says so while a slice is on."""
    at = open_app(f"pages/{page}.py")
    note = "This section covers the whole corpus (all 30 lines), not the slice."
    assert note not in [c.value for c in at.caption]
    at.text_input(key=f"{page}.where").input("line 3..17").run()
    assert not at.exception, [e.value for e in at.exception]
    assert any("Slice: 15 of 30 lines" in i.value for i in at.info)
    captions = [c.value for c in at.caption]
    assert note in captions
    assert captions.index(note) > next(i for i, c in enumerate(captions) if c.startswith("Lines flagged per system"))


def test_one_long_line_is_checked_on_request_and_then_quickly():
    """Issue 36 (C1): a corpus of one 3 MB line is one line, but the checks' default is decided by characters too;
    on request the checks read the first LINE_CHECK_CHARS of each line and say so."""
    from bleu_core.data.diagnostics import LINE_CHECK_CHARS

    big = ("the cat " * 400_000).encode()  # 3.2 MB, one line
    files = [("d/ref.txt", big + b"\n"), ("d/systems/s.txt", big.replace(b"cat", b"cap", 1000) + b"\n")]
    at = open_app("pages/corpus.py")
    uploader(at, "corpus.in_folder").set_value([(n, b, "text/plain") for n, b in files]).run()
    assert not at.exception, [e.value for e in at.exception]
    (toggle,) = [t for t in at.toggle if t.label.startswith("Check every line of every system (1 line)")]
    assert toggle.value is False  # 1 line, but 6.4 million characters
    toggle.set_value(True).run()
    assert not at.exception, [e.value for e in at.exception]
    counts = next(d for d in at.dataframe if "lines flagged" in d.value.columns).value
    assert counts.iloc[0]["system"] == "s"
    assert len(big) > LINE_CHECK_CHARS
