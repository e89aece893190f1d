"""bleu_app.ui.cached: caches keyed on the values their bodies read (Corpus.digest through hash_funcs)."""

from __future__ import annotations

from streamlit.testing.v1 import AppTest


def _script() -> None:
    import streamlit as st

    from bleu_app.frames import corpus as frames
    from bleu_app.ui import cached
    from bleu_core import BleuConfig, Corpus, System, TextFile

    refs = (TextFile("ref", ("the cat sat on the mat", "a dog")),)
    systems = (System("sys", ("the cat sat on a mat", "a dog")),)
    config = BleuConfig()
    for source in (("le chat", "un chien"), ("die Katze", "ein Hund")):
        corpus = Corpus("c", refs, systems, source=TextFile("src", source))
        st.text(" | ".join(cached.sentences(corpus, "sys", config)[frames.SOURCE]))
    renamed = Corpus("c", refs, (System("other name", systems[0].lines),))
    st.text(str(cached.stats_matrix(renamed.systems[0], renamed, config) is not None))
    st.text(" | ".join(cached.systems_frame(renamed, config)[frames.SYSTEM]))
    # the per-segment tables are served as they are, not as a copy unpickled on every read (issue 13)
    st.text(str(cached.sentences(corpus, "sys", config) is cached.sentences(corpus, "sys", config)))
    st.text(str(cached.pair_frame(corpus, "sys", "sys", config) is cached.pair_frame(corpus, "sys", "sys", config)))


def test_sentence_table_follows_a_changed_source_file() -> None:
    """Same references and systems, another source: the sentence table shows the new source. Before the
    caches were keyed on Corpus.digest, its key held only the system and reference digests, so the second
    corpus got the first one's source text."""
    at = AppTest.from_function(_script, default_timeout=60)
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    assert [t.value for t in at.text] == [
        "le chat | un chien",
        "die Katze | ein Hund",
        "True",
        "other name",
        "True",
        "True",
    ]
