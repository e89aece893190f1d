"""The paper's block test on a corpus (section 3, Table 2): the corpus and compare pages' section."""

from __future__ import annotations

import streamlit as st

from bleu_app.charts import corpus as corpus_charts
from bleu_app.frames import blocks as block_frames, corpus as corpus_frames
from bleu_app.frames.names import labels
from bleu_app.ui import cached, docs
from bleu_app.ui.components import scores, tables
from bleu_core.config import BleuConfig
from bleu_core.data.corpus import Corpus
from bleu_core.errors import InputError
from bleu_core.metrics.bleu import make_signature


def block_test_section(corpus: Corpus, config: BleuConfig, *, key: str, on_demand: bool = False) -> None:
    """The paper's block test (section 3, Table 2) on every system of a corpus: how the corpus was cut, the
    block scores, and the table of means, standard deviations and paired t in rank order.

    ``on_demand`` (the one-system corpus page): run only once a toggle asks for it, since it scores every
    system, where the rest of that page scores one (issue 13: a third of its first draw at 50,000 lines x 4).
    """
    st.subheader("The paper's block test")
    st.markdown(docs.text("block_test", "corpus"))
    n = len(corpus.systems)
    if on_demand and not st.toggle(
        f"Run the block test on all {n} system{'s' if n != 1 else ''} of the corpus",
        key=f"{key}.run",
        help="It scores every system of the corpus; the compare page always shows it.",
    ):
        return
    try:
        test = cached.block_test(corpus, config)
    except InputError as exc:
        scores.user_error(exc, what="The block test cannot run on this corpus")
        return
    names = list(corpus.names)
    st.caption(block_frames.block_test_description(test, corpus.n_segments))
    chart = corpus_charts.block_chart(block_frames.blocks(test, names), labels=labels(names))
    st.altair_chart(chart, key=f"{key}.chart")
    # the table under the chart at full width, so t and df (its point) are not cut off; the lowest system has
    # no t, df or p: "—", not pandas' None
    table = block_frames.block_test_shown(block_frames.block_test_table(test, names, labels(names)))
    # no fixed widths: a "small" column cut its own header ("mean of blo…"); Streamlit sizes each to its header
    right = {c: st.column_config.TextColumn(alignment="right") for c in block_frames.BLOCK_TEST_FORMATS}
    right |= {c: st.column_config.TextColumn(help=h, alignment="right") for c, h in block_frames.BLOCK_HELP.items()}
    st.dataframe(
        table,
        hide_index=True,
        width="stretch",
        height=tables.table_height(len(table)),  # every system in sight: an inner scroll hid the two best at 1280 px
        key=f"{key}.table",
        column_config={
            **right,
            corpus_frames.BLEU: st.column_config.TextColumn("corpus BLEU", alignment="right"),
            corpus_frames.MEAN: st.column_config.TextColumn("block mean", alignment="right"),
            corpus_frames.STD: st.column_config.TextColumn("block SD", alignment="right"),
        },
    )
    st.caption(
        "t vs next: paired t against the system ranked just below; p: its one-sided p, P(T ≥ t); t crit: the "
        "one-sided 95% point of t for its df; sig.: t ≥ t crit, the same as p ≤ 0.05 (one-sided, as the paper)."
    )
    st.caption(test.paper_note)
    scores.signature(make_signature(config, cached.nrefs(corpus)))
    st.caption(
        "BLEU on the 0-100 scale (the paper's Table 2 uses 0-1: its means 0.051 ... 0.256 are 5.1 ... 25.6 here); "
        "t does not depend on the scale."
    )
