"""The app's pages (their scripts, titles, icons and url paths) and the switch to the sentence page that a table
row or a card asks for."""

from __future__ import annotations

import streamlit as st

from bleu_app.ui import state

LEARN = "pages/learn.py"
SENTENCE = "pages/sentence.py"
CORPUS = "pages/corpus.py"
COMPARE = "pages/compare.py"
CLASS = "pages/class.py"  # named as its url path: a first deep link finds it (see frame.guard)


# The pages' icons are Material Symbols, which Streamlit bundles (emoji rendered as empty boxes on a Chromium without
# an emoji font; review item 20a).
def pages() -> list[st.Page]:
    """The app's pages. Learn is the default page (``/``); Streamlit ignores a default page's ``url_path``,
    so a hidden alias answers ``/learn`` with the same script (a teacher may send that address). Pages are
    told apart by ``url_path``, so the default one gets a name of its own that no link uses."""
    return [
        st.Page(LEARN, title="Learn BLEU", icon=":material/school:", url_path="home", default=True),
        st.Page(SENTENCE, title="One sentence", icon=":material/search:", url_path="sentence"),
        st.Page(CORPUS, title="Corpus", icon=":material/library_books:", url_path="corpus"),
        st.Page(COMPARE, title="Compare systems", icon=":material/balance:", url_path="compare"),
        st.Page(CLASS, title="Class", icon=":material/groups:", url_path="class"),
        st.Page(LEARN, title="Learn BLEU", icon=":material/school:", url_path="learn", visibility="hidden"),
    ]


def follow_handoff() -> None:
    """If a selection or a card asked for it (``state.hand_off``), switch to the sentence page (a callback may not
    switch pages itself)."""
    if state.get(state.GOTO_SENTENCE):
        state.put(state.GOTO_SENTENCE, False)
        # Without query_params Streamlit refuses to switch while the URL holds widget-bound settings (it may not
        # clear them); an empty dict replaces them, and the settings widgets write them back on the next run.
        st.switch_page(SENTENCE, query_params={})
