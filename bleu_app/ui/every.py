"""The corpus page's "This corpus under every BLEU" section (one call from pages/corpus.py)."""

from __future__ import annotations

import streamlit as st

from bleu_app.charts import every as charts
from bleu_app.frames import every as frames
from bleu_app.ui import cached, docs
from bleu_core.data.corpus import Corpus


def every_bleu_section(corpus: Corpus, system: str) -> None:
    """Heading and explanation; on demand (a toggle), the spread, its chart and the table of every row."""
    st.subheader("This corpus under every BLEU")
    st.markdown(docs.text("every_bleu", "corpus"))
    if not st.toggle("Score this system under every BLEU", key="corpus.every"):
        return
    every = cached.every(corpus.system(system), corpus)
    df = frames.every_bleu_frame(every)
    st.markdown(frames.spread_sentence(every))
    st.altair_chart(charts.spread_chart(df))
    st.dataframe(
        df,
        hide_index=True,
        key="corpus.every_table",
        column_order=[c for c in frames.COLUMNS if c != frames.KEY],
        column_config={
            frames.SCORE: st.column_config.NumberColumn(format="%.2f"),
            frames.DIFFERENCE: st.column_config.NumberColumn(format="%+.2f"),
            frames.SIGNATURE: st.column_config.TextColumn(width="large"),
            frames.WHO: st.column_config.TextColumn(width="large"),
            frames.CHANGES: st.column_config.TextColumn(width="large"),
        },
    )
    for key, why in every.skipped:
        st.caption(f"Not shown: {key}: {why}")
