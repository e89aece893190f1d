"""AppTest: the corpus page through app.py: demo on first open, every upload path and each bad input, drill-down."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from bleu_app.frames.corpus import bucket_signature
from bleu_core.config import BleuConfig
from tests.ui.conftest import errors, folder_files, open_app, page_elements, uploader

ROOT = Path(__file__).resolve().parents[2]


def test_demo_on_first_open():
    at = open_app("pages/corpus.py")
    assert at.title[0].value == "A corpus, one system"
    assert "81.38" in at.metric[0].value  # careful: sacrebleu.corpus_bleu gives 81.382 (the page opens on it)
    assert any("Mean of sentence BLEU" in m.label for m in at.metric)
    assert not errors(at)


def test_sentence_table_shows_the_text_after_its_key_numbers():
    at = open_app("pages/corpus.py")
    table = next(d for d in at.dataframe if "hypothesis" in d.value.columns)
    order = list(table.proto.column_order)
    # the other metrics the page shows (chrF by default once registered) are key numbers too
    others = [c for c in order if c.startswith("sentence ") and c != "sentence BLEU"]
    assert order[: 4 + len(others)] == ["segment", "sentence BLEU", "effect on BLEU", *others, "hypothesis"], order
    assert set(order) == set(table.value.columns)  # nothing hidden, only moved


def test_sentence_effects_read_with_minus_without_in_one_minus_style():
    """Review items 1, 15, 16: the corpus table's effect is BLEU with the sentence minus without it (as the compare
    page's), in BLEU points, a number the grid sorts by value, rounded so that none prints "-0.0000"."""
    import json

    from bleu_core import corpus_bleu

    at = open_app("pages/corpus.py")
    el = next(d for d in at.dataframe if "effect on BLEU" in d.value.columns)
    config = json.loads(el.proto.columns)["effect on BLEU"]
    assert config["label"] == "effect on BLEU (points)"
    assert "with the sentence minus without it" in config["help"]
    assert config["type_config"]["format"] == "%.4f"
    shown = el.value
    effects = shown["effect on BLEU"]
    assert effects.dtype.kind == "f"  # a number, not text: a header click sorts it by value
    assert not any(str(x) == "-0.0" for x in effects)  # a value that rounds to zero is +0.0: no "-0.0000"
    # segment 1 rescored from the text: with minus without (the page opens on "careful")
    from bleu_app.samples import demo_corpus

    c = demo_corpus()
    hyps, refs = list(c.system("careful").lines), c.ref_streams
    i = int(shown["segment"].iloc[0]) - 1
    with_it = corpus_bleu(hyps, refs).score
    without = corpus_bleu(hyps[:i] + hyps[i + 1 :], [r[:i] + r[i + 1 :] for r in refs]).score
    assert effects.iloc[0] == round(with_it - without, 4) + 0.0
    mean = next(m for m in at.metric if m.label == "Mean of sentence BLEU")
    assert "-" not in mean.proto.delta  # "−2.93 vs corpus BLEU", the axes' minus


def test_interval_signature_wraps_at_its_separators():
    """Review item 19: "Intervals: nrefs:2|bs:1000|...|sm / ooth:exp" broke mid-word; the main signature uses " | "."""
    at = open_app("pages/corpus.py")
    notes = [*at.caption, *at.warning]  # a warning on a small test set such as the demo, else a caption
    line = next(c.value for c in notes if "Intervals:" in c.value).split("Intervals:")[1].replace("\\", "")
    assert " | bs:1000 | rs:12345 | " in line
    assert "|" not in line.replace(" | ", "")


def test_settings_reach_the_signature():
    at = open_app("pages/corpus.py", query={"tok": "13a", "lc": "false"})
    assert any("tok:13a" in c.value and "nrefs:2" in c.value and "case:mixed" in c.value for c in at.caption)


def test_folder_upload_wmt22(data_dir):
    at = open_app("pages/corpus.py")
    uploader(at, "corpus.in_folder").set_value(folder_files(data_dir / "wmt22-general-zh-en")).run()
    assert not at.exception
    assert not errors(at)
    assert at.selectbox(key="corpus.system").options[:2] == ["AISP-SJTU", "DLUT"]
    assert len(at.selectbox(key="corpus.system").options) == 12
    assert any("1479" in md.value for md in at.markdown)  # Online-W's empty line, as a note


@pytest.mark.parametrize(
    ("files", "expected"),
    [
        (
            [("d/ref.txt", b"a\nb\n", "text/plain"), ("d/systems/x.txt", b"a\n\xff\n", "text/plain")],
            "d/systems/x.txt:2",
        ),
        ([("d/ref.txt", b"a\nb\n", "text/plain"), ("d/systems/x.txt", b"a\x00\n", "text/plain")], "binary"),
        (
            [("d/ref.txt", b"a\nb\nc\n", "text/plain"), ("d/systems/x.txt", b"a\n", "text/plain")],
            "has 1 line but d/ref.txt has 3 lines",
        ),
        (
            [
                ("d/ref.txt", b"a\n", "text/plain"),
                ("d/systems/x.txt", b"a\n", "text/plain"),
                ("d/systems/x.en", b"b\n", "text/plain"),
            ],
            "two systems are called",
        ),
        ([("d/systems/x.txt", b"a\n", "text/plain")], "no reference file"),
    ],
)
def test_bad_folder_keeps_the_corpus(files, expected):
    at = open_app("pages/corpus.py")
    before = at.selectbox(key="corpus.system").options
    uploader(at, "corpus.in_folder").set_value(files).run()
    errs = errors(at)
    assert errs, "a bad upload must show an error"
    shown = [re.sub(r"\\(.)", r"\1", e) for e in errs]  # what Markdown shows: the escapes removed
    assert any(expected in e for e in shown), errs
    assert "previous corpus is kept" in errs[0]
    assert at.selectbox(key="corpus.system").options == before


def test_file_over_limit(monkeypatch):
    from bleu_app.ui.corpus import loading

    monkeypatch.setattr(loading, "PARSE_LIMIT_MB", 0.000001)
    at = open_app("pages/corpus.py")
    uploader(at, "corpus.in_folder").set_value(
        [("d/ref.txt", b"a b c\n", "text/plain"), ("d/systems/x.txt", b"a\n", "text/plain")]
    ).run()
    assert any("limit" in e for e in errors(at))


def test_files_tab_and_human_scores():
    at = open_app("pages/corpus.py")
    uploader(at, "corpus.in_refs").set_value([("ref.txt", b"the cat sat\na dog\n", "text/plain")])
    uploader(at, "corpus.in_systems").set_value(
        [("one.txt", b"the cat sat\na cat\n", "text/plain"), ("two.txt", b"a cat sat\na dog\n", "text/plain")]
    )
    uploader(at, "corpus.in_human").set_value(("h.tsv", b"one\t1\ntwo\t2\n", "text/plain"))
    at.button(key="corpus.load_files").click().run()
    assert not errors(at)
    assert at.selectbox(key="corpus.system").options == ["one", "two"]


def test_files_tab_without_reference():
    at = open_app("pages/corpus.py")
    uploader(at, "corpus.in_systems").set_value([("one.txt", b"x\n", "text/plain")])
    at.button(key="corpus.load_files").click().run()
    assert any("reference" in e for e in errors(at))


def test_table_upload_tsv_csv_jsonl():
    at = open_app("pages/corpus.py")
    uploader(at, "corpus.in_table").set_value(("t.tsv", b"src\tref\tA\tB\nx\ta b\ta b\ta\n", "text/plain")).run()
    assert at.selectbox(key="corpus.system").options == ["A", "B"]
    uploader(at, "corpus.in_table").set_value(("t.csv", b"ref,P\na b,a b\n", "text/csv")).run()
    assert at.selectbox(key="corpus.system").options == ["P"]
    uploader(at, "corpus.in_table").set_value(
        ("t.jsonl", b'{"refs": ["a b"], "hyps": {"J": "a"}}\n', "application/json")
    ).run()
    assert at.selectbox(key="corpus.system").options == ["J"]
    uploader(at, "corpus.in_table").set_value(
        ("bad.jsonl", b'{"refs": ["a"], "hyps": {"J": "a"}}\n[1]\n', "application/json")
    ).run()
    assert any("bad.jsonl:2" in e.replace("\\", "") for e in errors(at))
    assert at.selectbox(key="corpus.system").options == ["J"]


def test_paste_and_rename():
    at = open_app("pages/corpus.py")
    at.text_area(key="corpus.paste_ref").set_value("the cat sat on the mat\nhello world")
    at.text_area(key="corpus.paste_a").set_value("the cat sat on a mat\nhello world")
    at.text_input(key="corpus.paste_a_name").set_value("mine")
    at.button(key="corpus.load_paste").click().run()
    assert at.selectbox(key="corpus.system").options == ["mine"]
    at.text_area(key="corpus.paste_a").set_value("only one line")
    at.button(key="corpus.load_paste").click().run()
    assert any("has 1 line but pasted reference has 2 lines" in e for e in errors(at))
    assert at.selectbox(key="corpus.system").options == ["mine"]


def test_row_selection_opens_the_sentence_page():
    def script():
        import streamlit as st

        from bleu_app.ui import state
        from bleu_app.ui.corpus import loading, selection

        loading.current()
        st.session_state["corpus.table"] = {"selection": {"rows": [1]}}
        selection.row_opener("corpus.table", [5, 2, 9], "careful")()
        st.write(state.get(state.HANDOFF))
        st.write(state.get(state.GOTO_SENTENCE))

    at = AppTest.from_function(script, default_timeout=60)
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    handoff = at.session_state["handoff.sentence"]
    assert handoff["hyp"].startswith("Fishermen sort the fish")  # segment 2 of careful
    assert len(handoff["refs"]) == 2
    assert handoff["other_hyp"] is None
    assert "segment 2" in handoff["label"]


def test_handoff_switches_to_the_sentence_page():
    from bleu_app.ui import state

    at = open_app("pages/corpus.py")
    at.session_state[state.HANDOFF] = {
        "hyp": "the cat",
        "refs": ["the cat sat"],
        "other_hyp": None,
        "label": "demo, segment 1",
    }
    at.session_state[state.GOTO_SENTENCE] = True
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    assert at.session_state[state.GOTO_SENTENCE] is False
    assert "corpus" not in at.title[0].value.lower()
    assert at.session_state[state.PRESET] == "sacrebleu"  # scored as on the corpus page
    assert at.query_params.get(state.SMOOTH) in ("exp", ["exp"]), dict(at.query_params)  # the link still says so


def test_block_test_and_buckets_render():
    at = open_app("pages/corpus.py")
    headers = [h.value for h in at.subheader]
    assert "The paper's block test" in headers
    # on this page the block test (every system) runs on demand; nothing of it is computed before
    assert not any("t vs next" in d.value.columns for d in at.dataframe)
    at.toggle(key="corpus.blocks.run").set_value(True).run()
    table = next(d.value for d in at.dataframe if "t vs next" in d.value.columns)
    assert table["t vs next"].iloc[1:].notna().all()
    assert any("section 3" in m.value and "1.7" in m.value for m in at.markdown)
    assert "BLEU by bucket" in headers


def _bucket_charts(at: AppTest) -> list[str]:
    return [c.proto.spec for c in at.get("vega_lite_chart") if "BLEU by reference length" in c.proto.spec]


def test_large_test_sets_get_the_buckets_on_request(monkeypatch):
    # above the compare page's limit for its A-vs-B buckets (1,000 resamples of every bucket: a third of the
    # server's time at 50,000 lines) the corpus page's buckets wait for a toggle too; the demo stands in
    from bleu_app.ui.corpus import difference

    monkeypatch.setattr(difference, "BUCKETS_AUTO_SEGMENTS", 10)
    at = open_app("pages/corpus.py")
    label = "By reference length and by length ratio, with intervals (30 sentences)"
    (toggle,) = [t for t in at.toggle if t.label == label]
    assert toggle.value is False
    assert "BLEU by bucket" in [h.value for h in at.subheader]  # the heading and its explanation stay
    assert not _bucket_charts(at)
    # the buckets' signature (BLEU under the page's settings, their bootstrap): not before they are drawn
    sig = bucket_signature(BleuConfig(), 2).replace("|", " | ")
    assert not any(sig in c.value for c in at.caption)
    toggle.set_value(True).run()
    assert not at.exception, [e.value for e in at.exception]
    assert len(_bucket_charts(at)) == 1
    assert any("length ratio c/r" in c.proto.spec for c in at.get("vega_lite_chart"))
    assert any(sig in c.value for c in at.caption)


def test_small_test_sets_show_the_buckets_at_once():
    at = open_app("pages/corpus.py")
    (toggle,) = [t for t in at.toggle if t.label.startswith("By reference length and by length ratio")]
    assert toggle.value is True
    assert len(_bucket_charts(at)) == 1


def test_mean_of_sentence_bleu_and_buckets_carry_their_own_signature():
    # review item 10: the mean of sentence BLEU (effective order) and the bootstrap buckets sat under the
    # corpus signature only (eff:no, no resamples or seed)
    at = open_app("pages/corpus.py")
    els = page_elements(at.main)
    start = next(
        i for i, e in enumerate(els) if getattr(e, "type", "") == "metric" and e.label == "Mean of sentence BLEU"
    )
    # the box's captions (the corpus BLEU's own comes first): the one that names the mean
    mean = next(str(e.value) for e in els[start:] if str(getattr(e, "value", "")).startswith("Mean of sentence BLEU:"))
    assert mean.startswith("Mean of sentence BLEU: signature ")
    assert "eff:yes" in mean
    assert "tok:13a" in mean
    heads = [i for i, e in enumerate(els) if getattr(e, "type", "") == "subheader"]
    start = next(i for i in heads if els[i].value == "BLEU by bucket")
    section = els[start : next(i for i in heads if i > start)]
    buckets = " ".join(str(e.value) for e in section if getattr(e, "type", "") == "caption")
    assert "bs:1000" in buckets
    assert "rs:12345" in buckets
    assert "eff:no" in buckets


def test_corpus_pages_open_on_sacrebleus_default_and_paper_settings_are_flagged():
    """Corpus pages open on sacreBLEU's default; the paper's preset, chosen by the user, is flagged there with a
    one-click way back, and that choice is kept across pages."""
    from bleu_app.ui import state

    at = open_app("pages/corpus.py")
    assert at.session_state[state.PRESET] == "sacrebleu"
    assert any("tok:13a" in c.value and "smooth:exp" in c.value for c in at.caption)
    assert not any("Published corpus BLEU" in c.value for c in at.caption)
    at.sidebar.selectbox(key=state.PRESET).select("paper").run()
    assert any("Published corpus BLEU" in c.value for c in at.caption)
    assert any("tok:paper" in c.value for c in at.caption)
    at.switch_page("pages/compare.py").run()  # the user's choice is kept on the next corpus page
    assert at.session_state[state.PRESET] == "paper"
    at.button(key="render.use_sacrebleu").click().run()
    assert not at.exception, [e.value for e in at.exception]
    assert not any("Published corpus BLEU" in c.value for c in at.caption)
    assert any("tok:13a" in c.value and "smooth:exp" in c.value for c in at.caption)


def test_learn_keeps_the_papers_preset_until_the_user_picks_one():
    """Learn opens on the paper's preset, the corpus page on sacreBLEU's; back on Learn it is the paper's again."""
    from bleu_app.ui import state

    at = open_app()
    assert at.session_state[state.PRESET] == "paper"
    at.switch_page("pages/corpus.py").run()
    assert at.session_state[state.PRESET] == "sacrebleu"
    at.switch_page("pages/learn.py").run()
    assert at.session_state[state.PRESET] == "paper"
    assert any("tok:paper" in c.value for c in at.sidebar.code)


def test_a_shared_link_with_settings_keeps_them_on_every_page():
    from bleu_app.ui import state

    at = open_app("pages/corpus.py", query={"tok": "char"})
    assert at.session_state[state.TOKENIZE] == "char"
    assert at.session_state[state.PRESET] == "custom"


def test_a_loaded_or_refused_folder_empties_its_uploader():
    # issue 13: a loaded upload's bytes are let go; the uploader comes back empty under a new key, the panel's
    # title names what is loaded. Issue 24.4: a refused folder's bytes go too (they were held for the session's
    # life); its message stays and names the problem
    at = open_app("pages/corpus.py")

    def folder_uploader():
        return next(u for u in at.get("file_uploader") if "corpus.in_folder" in u.proto.id)

    assert folder_uploader().proto.id.endswith("corpus.in_folder.0")
    folder_uploader().set_value([("d/systems/x.txt", b"a\n", "text/plain")]).run()
    assert errors(at)
    assert folder_uploader().proto.id.endswith("corpus.in_folder.1")
    assert not folder_uploader().value
    folder_uploader().set_value(
        [("d/ref.txt", b"a b c\nd e\n", "text/plain"), ("d/systems/x.txt", b"a b\nd\n", "text/plain")]
    ).run()
    assert not errors(at)
    assert folder_uploader().proto.id.endswith("corpus.in_folder.2")
    assert not folder_uploader().value
    assert "2 segments" in at.expander[0].label
    assert at.selectbox(key="corpus.system").options == ["x"]


def test_the_corpus_bleu_in_the_mean_box_carries_the_corpus_signature():
    # review 29 item 11: the box's "Corpus BLEU" was followed by the mean's signature only (eff:yes)
    at = open_app("pages/corpus.py")
    captions = [str(c.value) for c in at.caption]
    corpus = [c for c in captions if c.startswith("Corpus BLEU: signature ")]
    assert len(corpus) == 1
    assert "eff:no" in corpus[0]
    assert "tok:13a" in corpus[0]
