"""Altair charts as pure functions of DataFrames: no st.*, no I/O, no configure_*().

Split by page family: ``sentence`` (learn + sentence pages) and ``corpus`` (corpus + compare pages).
"""
