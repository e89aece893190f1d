"""BLEU Explorer: the frame. Page config, state, the shared sidebar of BLEU settings, navigation."""

import streamlit as st

from bleu_app.ui import state, widgets

st.set_page_config(
    page_title="BLEU Explorer", page_icon=":material/translate:", layout="wide", initial_sidebar_state="auto"
)
state.init()

PAGES = [
    st.Page("app_pages/learn.py", title="Learn BLEU", icon=":material/school:", url_path="learn", default=True),
    st.Page("app_pages/sentence.py", title="One sentence", icon=":material/manage_search:", url_path="sentence"),
    st.Page("app_pages/corpus.py", title="Corpus", icon=":material/table_rows:", url_path="corpus"),
    st.Page("app_pages/compare.py", title="Compare systems", icon=":material/compare_arrows:", url_path="compare"),
]
nav = st.navigation(PAGES)
widgets.settings_sidebar()
nav.run()
