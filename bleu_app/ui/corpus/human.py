"""The compare page's "BLEU against human scores" section: the scatter, every agreement statistic with its
bootstrap interval over systems, what too few systems can say, and the human-score names that matched no system."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from bleu_app import markup
from bleu_app.charts import human as charts
from bleu_app.frames import corpus as frames, human as human_frames, metrics as metric_frames
from bleu_app.ui import cached, docs
from bleu_app.ui.components import scores
from bleu_app.ui.corpus import human_permutation
from bleu_core.config import BleuConfig
from bleu_core.data.corpus import Corpus
from bleu_core.metrics.bleu import make_signature


def section(corpus: Corpus, systems: pd.DataFrame | None, config: BleuConfig, baseline: str = "") -> None:
    """Render the section (an info box when no human scores are loaded). ``systems``: the page's BLEU systems
    table, or None when BLEU is not among the page's metrics (then it is computed here, only when there are human
    scores to correlate with)."""
    st.subheader("BLEU against human scores")
    unmatched = human_frames.unmatched_human(corpus.human, corpus.names)
    if systems is None:
        shown = metric_frames.bleu(config)
        systems = cached.systems_frame(corpus, shown, baseline) if corpus.human_scores() else pd.DataFrame()
    human, agree = human_frames.human_frame(systems, seed=cached.DEFAULT_SEED)
    if human.empty:
        below = " (segment scores imported: the test below can use them)" if corpus.scores else ""
        st.info(
            f"No human scores per system loaded: add a human_scores.tsv (system<TAB>score) to the folder, or "
            f"upload one{below}."
        )
    else:
        h1, h2 = st.columns([3, 2])
        h1.altair_chart(charts.human_chart(human, corpus.human_label))
        if crowded := charts.unlabelled(human):
            h1.caption("No room for these names (hover their points): " + ", ".join(map(markup.md_escape, crowded)))
        table = human_frames.agreement_frame(agree)
        if agree.note:
            h2.info(agree.note)
        else:
            h2.dataframe(
                table,
                hide_index=True,
                column_config={
                    human_frames.VALUE: st.column_config.NumberColumn(format="%.3f"),
                    frames.CI_LOW: st.column_config.NumberColumn("95% low", format="%.3f"),
                    frames.CI_HIGH: st.column_config.NumberColumn("95% high", format="%.3f"),
                },
            )
        label = markup.md_escape(corpus.human_label or "the file's human score")
        h2.caption(
            f"over {agree.n} systems; gold: {label}; intervals: bootstrap over systems ({agree.trials} draws, seed "
            f"{agree.seed}), not mt-metrics-eval's segment resampling (see below)"
        )
        scores.signature(make_signature(config, cached.nrefs(corpus)), what="BLEU correlated")
        st.markdown(docs.text("human", "corpus"))
    human_permutation.section(corpus, config)
    if unmatched:
        one = len(unmatched) == 1
        st.warning(
            f"{len(unmatched)} name{'' if one else 's'} in the human scores {'matches' if one else 'match'} no "
            f"loaded system, so {'its' if one else 'their'} scores are not used:",
            icon=":material/link_off:",
        )
        st.text(", ".join(unmatched))
