"""Shared views (issue 23.2): "Share this view" on the Sentence, Corpus and Compare pages; the link reopened in a
fresh AppTest session (another browser; the store is the only thing they share) shows the same numbers. On
SQLite and PostgreSQL (``store_env``)."""

from __future__ import annotations

from pathlib import Path
from urllib.parse import parse_qs, urlsplit

from streamlit.testing.v1 import AppTest

from bleu_app import samples
from bleu_app.ui import state
from bleu_app.ui.components import share
from tests.ui.conftest import open_app, outage

APP = str(Path(__file__).resolve().parents[2] / "app.py")


def _share(app: AppTest, page: str) -> tuple[str, str]:
    app.button(key=f"share.{page}").click().run()
    assert not app.exception
    links = [c.value for c in app.code if f"/{page}?view=" in c.value]
    assert len(links) == 2
    return links[0], links[1]


def _query(link: str) -> dict[str, str]:
    return {k: v[0] for k, v in parse_qs(urlsplit(link).query).items()}


def test_a_sentence_view_reopens_with_the_same_bleu(store_env):
    a = open_app("pages/sentence.py")
    a.text_area(key="sentence.hyp_box").set_value("the party always commands the military").run()
    a.session_state[state.PRESET] = "sacrebleu"
    for key, value in state.PRESETS["sacrebleu"].values.items():
        a.session_state[key] = value
    a.run()
    shown = a.metric[0].value
    sig = [c.value for c in a.caption if "tok:13a" in c.value]
    link, delete_link = _share(a, "sentence")
    assert delete_link.startswith(link + "&delete=")
    view_id = _query(link)[share.VIEW]
    assert len(view_id) >= 20

    b = open_app("pages/sentence.py", query={share.VIEW: view_id})
    assert b.text_area(key="sentence.hyp_box").value == "the party always commands the military"
    assert b.metric[0].value == shown
    assert [c.value for c in b.caption if "tok:13a" in c.value] == sig

    # the delete link removes it; the link then says so and the page shows its usual input
    c = open_app("pages/sentence.py", query=_query(delete_link))
    c.button(key="share.delete").click().run()
    assert any("deleted" in s.value for s in c.success)
    d = open_app("pages/sentence.py", query={share.VIEW: view_id})
    assert any("no longer exists" in w.value for w in d.warning)
    assert d.text_area(key="sentence.hyp_box").value == samples.SENTENCE_SAMPLES["ex1"].hyp


def test_a_compare_view_keeps_baseline_test_and_seed(store_env):
    a = open_app("pages/compare.py")
    names = list(a.selectbox(key="compare.baseline").options)
    a.selectbox(key="compare.baseline").select(names[-1]).run()
    a.number_input(key="compare.seed").set_value(7).run()
    assert not a.exception
    systems = a.dataframe[0].value
    link, _ = _share(a, "compare")
    b = open_app("pages/compare.py", query=_query(link))
    assert b.selectbox(key="compare.baseline").value == names[-1]
    assert b.number_input(key="compare.seed").value == 7
    assert not [w.value for w in b.warning if "Session State" in w.value]
    assert b.dataframe[0].value.equals(systems)  # BLEU, intervals and the differences against the baseline


def test_a_corpus_view_stores_the_corpus_once(store_env):
    a = open_app("pages/corpus.py")
    names = list(a.selectbox(key="corpus.system").options)
    a.selectbox(key="corpus.system").select(names[1]).run()
    score = a.metric[0].value
    link1, _ = _share(a, "corpus")
    a.button(key="share.corpus").click().run()
    assert store_env.corpora_count() == 1  # two views, one corpus
    b = open_app("pages/corpus.py", query=_query(link1))
    assert b.selectbox(key="corpus.system").value == names[1]
    assert b.metric[0].value == score
    assert b.metric[0].label == a.metric[0].label


def test_a_corpus_view_keeps_its_slice(store_env):
    a = open_app("pages/corpus.py")
    a.text_input(key=state.CORPUS_WHERE).set_value("ref_len > 12").run()
    assert not a.exception
    sliced = a.metric[0].value
    assert any("Slice:" in i.value for i in a.info)
    link, _ = _share(a, "corpus")
    b = open_app("pages/corpus.py", query=_query(link))
    assert b.text_input(key=state.CORPUS_WHERE).value == "ref_len > 12"
    assert b.metric[0].value == sliced
    assert [i.value for i in b.info if "Slice:" in i.value] == [i.value for i in a.info if "Slice:" in i.value]


def test_a_corpus_view_keeps_the_rows_its_sender_was_looking_at(store_env):
    a = open_app("pages/corpus.py")
    a.text_input(key="corpus.query").set_value("the").run()
    a.selectbox(key="corpus.sort").select("sentence BLEU").run()
    a.toggle(key="corpus.desc").set_value(True).run()
    assert not a.exception
    rows = next(d.value for d in a.dataframe if "hypothesis" in d.value.columns)
    assert len(rows) > 1
    link, _ = _share(a, "corpus")
    b = open_app("pages/corpus.py", query=_query(link))
    assert b.text_input(key="corpus.query").value == "the"
    assert b.selectbox(key="corpus.sort").value == "sentence BLEU"
    assert b.toggle(key="corpus.desc").value is True
    shown = next(d.value for d in b.dataframe if "hypothesis" in d.value.columns)
    assert shown["segment"].tolist() == rows["segment"].tolist()
    assert shown["sentence BLEU"].is_monotonic_decreasing


# --- issue 36: a store that fails ---------------------------------------------------------------------------------
def test_share_on_a_read_only_data_dir_says_so(read_only_dir, monkeypatch):
    from bleu_app import store as store_mod

    d, freeze = read_only_dir
    monkeypatch.setenv(store_mod.DATA_DIR_ENV, str(d))
    monkeypatch.delenv(store_mod.DATABASE_URL_ENV, raising=False)
    monkeypatch.setattr(store_mod, "_stores", {})
    store_mod.open_store(None, d).close()
    freeze()
    a = open_app("pages/sentence.py")
    a.button(key="share.sentence").click().run()
    assert not a.exception
    assert [e.value for e in a.error] == [
        "Not saved: the server's database is read-only, try again once the server's data directory is writable "
        "(tell whoever runs it)."
    ]
    assert not [c.value for c in a.code if "?view=" in c.value]


def test_a_view_that_cannot_be_loaded_now_is_not_called_gone_and_loads_at_the_next_run(store_env):
    a = open_app("pages/sentence.py")
    a.text_area(key=state.HYP_BOX).set_value("the party always commands the military").run()
    view_id = _query(_share(a, "sentence")[0])[share.VIEW]
    with outage(store_env):
        b = open_app("pages/sentence.py", query={share.VIEW: view_id})
    said = [w.value for w in b.warning]
    assert (
        "The shared view in this link cannot be loaded now (the server's database is unavailable): the page shows "
        "its usual input meanwhile, and loads the view at your next action."
    ) in said
    assert not any("no longer exists" in w for w in said)
    assert state.VIEW_APPLIED not in b.session_state  # not marked loaded: tried again
    b.button(key="share.retry").click().run()
    assert b.text_area(key=state.HYP_BOX).value == "the party always commands the military"
    assert not [w.value for w in b.warning if "cannot be loaded now" in w.value]
