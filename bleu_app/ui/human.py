"""The compare page's "BLEU against human scores" section: the scatter, every agreement statistic with its
bootstrap interval over systems, what too few systems can say, and the human-score names that matched no system."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from bleu_app.charts import corpus as charts
from bleu_app.frames import corpus as frames
from bleu_core.config import BleuConfig
from bleu_core.data.corpus import Corpus
from bleu_core.metrics.bleu import make_signature

from . import cached, docs, render


def section(corpus: Corpus, systems: pd.DataFrame, config: BleuConfig) -> None:
    """Render the section (an info box when no human scores are loaded)."""
    st.subheader("BLEU against human scores")
    unmatched = frames.unmatched_human(corpus.human, corpus.names)
    human, agree = frames.human_frame(systems, seed=cached.DEFAULT_SEED)
    if human.empty:
        st.info("No human scores loaded: add a human_scores.tsv (system<TAB>score) to the folder, or upload one.")
    else:
        h1, h2 = st.columns([3, 2])
        h1.altair_chart(charts.human_chart(human, corpus.human_label))
        if crowded := charts.unlabelled(human):
            h1.caption("No room for these names (hover their points): " + ", ".join(map(render.md_escape, crowded)))
        table = frames.agreement_frame(agree)
        if agree.note:
            h2.info(agree.note)
        else:
            h2.dataframe(
                table,
                hide_index=True,
                column_config={
                    frames.VALUE: st.column_config.NumberColumn(format="%.3f"),
                    frames.CI_LOW: st.column_config.NumberColumn("95% low", format="%.3f"),
                    frames.CI_HIGH: st.column_config.NumberColumn("95% high", format="%.3f"),
                },
            )
        h2.caption(
            f"over {agree.n} systems; intervals: bootstrap over systems ({agree.trials} draws, seed {agree.seed})"
        )
        render.signature(make_signature(config, cached.nrefs(corpus)), what="BLEU correlated")
        st.markdown(docs.text("human", "corpus"))
    if unmatched:
        one = len(unmatched) == 1
        st.warning(
            f"{len(unmatched)} name{'' if one else 's'} in the human scores {'matches' if one else 'match'} no "
            f"loaded system, so {'its' if one else 'their'} scores are not used:",
            icon=":material/link_off:",
        )
        st.text(", ".join(unmatched))
