"""Corpus: one system over the whole test set: score card, decay and BP, sentences, buckets, block test,
the corpus under every BLEU."""

import streamlit as st

from bleu_app import markup
from bleu_app.charts import corpus as charts
from bleu_app.frames import corpus as frames, metrics as metric_frames, signs
from bleu_app.frames.names import labels
from bleu_app.ui import cached, docs, frame, nav, state
from bleu_app.ui.components import scores, share, tables
from bleu_app.ui.corpus import (
    agreement,
    blocks,
    buckets,
    every as every_section,
    loading,
    metrics,
    selection,
    settings,
    slicing,
)

frame.guard()

st.title("A corpus, one system")
corpus = whole = slicing.reference_picker("corpus", loading.loader("corpus"))
config = state.config()
settings.language_note(whole, config, "corpus")
settings.corpus_settings_hint(config, settings.published_tokenizer(whole))
corpus = slicing.slice_box("corpus", whole, config)  # every statistic below is on the slice's lines
system = selection.system_picker("System", state.SYSTEM_BOX, state.CORPUS_SYSTEM, corpus)
share.section("corpus", corpus=whole)  # the whole corpus: a slice is a setting of the view
matrix = cached.stats_matrix(corpus.system(system), corpus, config)  # this system's only: the page is about it
score = frames.corpus_score(matrix, config, cached.nrefs(corpus))
mean_term, bp = frames.factorisation(score)

left, right = st.columns([2, 3])
with left:
    scores.score_headline(f"Corpus BLEU of {markup.md_escape(system)}", score)  # a label is Markdown
    st.markdown(
        f"BLEU = (geometric mean of p_n) × BP = **{mean_term:.4f} × {bp:.4f}**  \n"
        f"c = {score.sys_len} candidate tokens, r = {score.ref_len} (effective reference length: the sum of the "
        "closest reference lengths), "
        f"c/r = {score.ratio:.4f}"
    )
    shown = metrics.chosen(corpus, config)  # every metric's resamples drawn with BLEU's, once
    _, low, high = cached.metric_interval(corpus, system, metric_frames.bleu(config), every=shown)
    st.markdown(f"95% interval: **{low:.2f} to {high:.2f}**")
    scores.size_note(corpus.n_segments, [high - low], config, cached.nrefs(corpus))
right.dataframe(
    frames.order_rows(matrix, config, cached.nrefs(corpus)),
    hide_index=True,
    column_config={
        frames.PRECISION: st.column_config.NumberColumn("p_n", format="%.4f"),
        frames.FRACTION: "matches / total",
        frames.N: "n",
    },
)
metrics.score_cards(corpus, system, metrics.chosen(corpus, config))  # every chosen metric but BLEU, after it
c1, c2 = st.columns(2)
c1.altair_chart(charts.precision_decay(frames.precision_frame({labels(list(corpus.names))[system]: matrix})))
c2.altair_chart(charts.bp_chart(*frames.bp_frames(matrix, config)))

others = tuple(s for s in shown if not s.is_bleu)
sentences = cached.sentences_with(corpus, system, config, others)  # a column per chosen metric but BLEU
corpus_bleu, mean_bleu, gap = frames.mean_vs_corpus(sentences, score.score)
with st.container(border=True):
    m1, m2, m3 = st.columns(3)
    m1.metric("Corpus BLEU", f"{corpus_bleu:.2f}")
    m2.metric(
        "Mean of sentence BLEU",
        f"{mean_bleu:.2f}",
        f"{signs.signed(gap)} vs corpus BLEU",
        delta_color="off",
        delta_arrow="down" if gap < 0 else "up",  # the real minus sign: Streamlit's own test looks for "-"
    )
    m3.metric("Segments", f"{corpus.n_segments}")
    scores.signature(score.signature, what="Corpus BLEU")  # the box's first number: its own, not the mean's
    scores.signature(frames.sentence_signature(config, cached.nrefs(corpus)), what="Mean of sentence BLEU")
    st.markdown(docs.text("mean_vs_corpus", "corpus"))

st.subheader("Sentences")
st.caption(docs.text("loo", "corpus"))
f1, f2, f3, f4 = st.columns([3, 2, 1.4, 1])  # 1.4: "Descending" whole at 1280 px (1 cut it)
query = f1.text_input("Search the hypothesis and reference", key=state.CORPUS_QUERY, placeholder="a word or phrase")
if state.get(state.CORPUS_SORT) == "leave-one-out effect":  # a view shared before the column's new name
    state.put(state.CORPUS_SORT, frames.LOO)
metric_columns = [metric_frames.segment_column(s.metric) for s in others]
sortable = [frames.SEGMENT, frames.LOO, frames.SENT_BLEU, *metric_columns, frames.HYP_LEN, frames.RATIO]
if state.get(state.CORPUS_SORT) not in sortable:  # a metric no longer chosen
    state.put(state.CORPUS_SORT, frames.SEGMENT)
sort_by = f2.selectbox("Sort by", sortable, key=state.CORPUS_SORT)
descending = f3.toggle("Descending", key=state.CORPUS_DESC)
page_no = f4.number_input("Page", min_value=1, value=1, step=1, key=state.CORPUS_PAGE)
view = tables.table_page(sentences, query=query, sort_by=sort_by, ascending=not descending, page=int(page_no))
st.caption(f"{view.matching} matching sentences · page {view.page} of {view.pages} · select a row to open it")
st.dataframe(
    # a number (the grid sorts it by value), rounded so that none prints "-0.0000"
    view.rows.assign(**{frames.LOO: signs.zero_unsigned(view.rows[frames.LOO], 4)}),
    hide_index=True,
    key="corpus.table",
    column_order=metric_frames.after_sentence_bleu(frames.text_first(list(view.rows.columns)), metric_columns),
    selection_mode="single-row",
    on_select=selection.row_opener("corpus.table", view.rows[frames.SEGMENT].tolist(), system),
    column_config={
        frames.SENT_BLEU: st.column_config.NumberColumn(format="%.2f"),
        **{
            metric_frames.segment_column(s.metric): st.column_config.NumberColumn(
                format=metric_frames.number_format(s.metric)
            )
            for s in others
        },
        frames.LOO: st.column_config.NumberColumn(
            "effect on BLEU (points)", help="corpus BLEU with the sentence minus without it", format="%.4f"
        ),
        frames.RATIO: st.column_config.NumberColumn(format="%.2f"),
        frames.HYP: st.column_config.TextColumn(width="large"),
        frames.REF: st.column_config.TextColumn("reference (first)", width="large"),
    },
)

agreement.section(corpus, shown, key="corpus.agreement", system=system)
agreement.sentences_section(corpus, sentences, system, others)
buckets.section(corpus, system, config)  # on request above 5,000 sentences, as on the compare page

blocks.block_test_section(corpus, config, key="corpus.blocks", on_demand=True)
every_section.every_bleu_section(corpus, system)
slicing.diagnostics_section("corpus", whole, config, sliced=corpus is not whole)
nav.follow_handoff()
