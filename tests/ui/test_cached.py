"""bleu_app.ui.cached: caches keyed on the values their bodies read (Corpus.digest through hash_funcs)."""

from __future__ import annotations

from streamlit.testing.v1 import AppTest


def _script() -> None:
    import streamlit as st

    from bleu_app.frames import corpus as frames, metrics
    from bleu_app.ui import cached
    from bleu_core import BleuConfig
    from bleu_core.data.corpus import Corpus, System, TextFile

    refs = (TextFile("ref", ("the cat sat on the mat", "a dog")),)
    systems = (System("sys", ("the cat sat on a mat", "a dog")),)
    config = BleuConfig()
    for source in (("le chat", "un chien"), ("die Katze", "ein Hund")):
        corpus = Corpus("c", refs, systems, source=TextFile("src", source))
        st.text(" | ".join(cached.sentences(corpus, "sys", config)[frames.SOURCE]))
    renamed = Corpus("c", refs, (System("other name", systems[0].lines),))
    st.text(str(cached.stats_matrix(renamed.systems[0], renamed, config) is not None))
    st.text(" | ".join(cached.systems_frame(renamed, metrics.bleu(config))[frames.SYSTEM]))
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


def _encode_once_script() -> None:
    import streamlit as st

    from bleu_app.frames import corpus as frames
    from bleu_app.ui import cached
    from bleu_core import BleuConfig, ReferenceSet
    from bleu_core.data.corpus import Corpus, System, TextFile
    from bleu_core.engine import references as engine

    refs = (TextFile("ref", ("the cat sat on the mat", "a dog barks", "x y z")),)
    systems = (
        System("a", ("the cat sat on a mat", "a dog", "x y")),
        System("b", ("the cat sat", "a dog barks", "y z")),
    )
    corpus = Corpus("c", refs, systems)
    calls: list[int] = []
    real = engine._KernelRefs._encode  # every tokenization of candidates (grow=False) or references

    def counting(self, lines, *, grow):  # the real method, counted
        calls.append(grow)
        return real(self, lines, grow=grow)

    engine._KernelRefs._encode = counting
    got = {}
    try:
        for order in (4, 2):  # a max order change reuses each system's tokens
            config = BleuConfig(max_ngram_order=order)
            cached.matrices(corpus, config)
            got[order] = (
                cached.ngram_frame(corpus, "a", "b", config, 1),
                cached.stats_matrix(systems[0], corpus, config),
            )
    finally:
        engine._KernelRefs._encode = real
    plain = ReferenceSet([list(refs[0].lines)])  # the same from the lines, uncached
    for order, (frame, matrix) in got.items():
        want = frames.ngram_diff(plain.ngram_diff(list(systems[0].lines), list(systems[1].lines), order), min_support=1)
        st.text(str(frame.equals(want) and len(frame) > 0))
        st.text(str(matrix.tolist() == plain.stats(list(systems[0].lines), order).tolist()))
    st.text(f"candidates tokenized {calls.count(False)}")


def test_a_system_is_tokenized_once_for_every_max_order_and_its_ngram_differences() -> None:
    """issue 13: the statistics under two max orders and the n-gram differences read each system's tokens from
    cached.encoded (two systems: two encodings, not six), with the numbers computed from the lines."""
    at = AppTest.from_function(_encode_once_script, default_timeout=60)
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    assert [t.value for t in at.text] == ["True", "True", "True", "True", "candidates tokenized 2"]
