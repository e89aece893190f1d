"""Compare systems: BLEU with CIs, precisions, the significance matrix, A vs B, n-gram differences, human scores."""

import streamlit as st

from bleu_app import markup
from bleu_app.charts import corpus as charts
from bleu_app.frames import corpus as frames
from bleu_app.ui import (
    cached,
    corpus_input,
    difference,
    docs,
    export,
    frame,
    human,
    render,
    selection,
    share,
    slicing,
    state,
    tables,
)
from bleu_app.views.ranking import ranking_view
from bleu_core.errors import InputError
from bleu_core.metrics.bleu import make_signature
from bleu_core.significance.trials import TRIALS_OFFERED, default_trials, holm_warning

frame.guard()

st.title("Compare systems")
corpus = whole = slicing.reference_picker("compare", corpus_input.loader("compare"))
config = state.config()
slicing.language_note(whole, config, "compare")
render.corpus_settings_hint(config, slicing.published_tokenizer(whole))
corpus = slicing.slice_box("compare", whole, config)  # every statistic below is on the slice's lines
baseline = selection.system_picker(
    "Baseline", "compare.baseline", state.COMPARE_BASELINE, corpus, help="Differences are shown against this system."
)
share.section("compare", corpus=whole)  # the whole corpus: a slice is a setting of the view
# the trials start at this corpus's default (set through the state, so the slider shows it too; a new
# corpus sets it again); the matrix below reads the same pool of resamples as the intervals
if state.COMPARE_TRIALS not in st.session_state:
    st.session_state[state.COMPARE_TRIALS] = default_trials(len(corpus.systems))
# the significance test's settings are the widgets' further down, read from the state here: the intervals, the
# ranking and the charts above the widgets need the same matrix and pool
method = str(st.session_state.get("compare.method") or "bs")
trials = int(st.session_state[state.COMPARE_TRIALS])
seed = int(st.session_state.get("compare.seed", cached.DEFAULT_SEED))
trials = render.trials_in_budget(corpus, config, trials)  # what one session may hold (issue 24.1)
try:
    systems = cached.systems_frame(corpus, config, baseline, cached.pool_size(method, trials, seed))
    significance = cached.significance_frame(corpus, config, method, trials, seed)
except InputError as exc:  # the core's own memory check (a machine with little memory): a message, not a traceback
    render.user_error(exc, what="The significance test cannot run")
    st.stop()
view = ranking_view(systems, significance, corpus.names, baseline)
ranked, by_score, systems, ci_chart = view.ranking, list(view.order), view.systems, view.ci_chart
precisions = frames.in_order(cached.precision_long(corpus, config), by_score)
bars = charts.precision_bars(precisions)

st.subheader("Systems side by side")
st.caption(
    f"95% bootstrap confidence intervals: 1000 resamples of the {corpus.n_segments} segments, seed 12345. "
    f"Signature: {make_signature(config, cached.nrefs(corpus)).replace('|', ' | ')}"
)
st.dataframe(
    systems,
    hide_index=True,
    key="compare.systems",
    column_config={
        frames.BLEU: st.column_config.NumberColumn(format="%.2f"),
        frames.CI_LOW: st.column_config.NumberColumn(format="%.2f"),
        frames.CI_HIGH: st.column_config.NumberColumn(format="%.2f"),
        frames.BP: st.column_config.NumberColumn(format="%.3f"),
        frames.RATIO: st.column_config.NumberColumn(format="%.3f"),
        "vs baseline": st.column_config.NumberColumn(format="%+.2f"),
        **{
            f"p{n}": st.column_config.NumberColumn(f"p{n} %", format="%.2f")
            for n in range(1, config.max_ngram_order + 1)
        },
    },
)
render.size_note(
    corpus.n_segments, (systems[frames.CI_HIGH] - systems[frames.CI_LOW]).tolist(), config, cached.nrefs(corpus)
)
c1, c2 = st.columns(2)
c1.altair_chart(ci_chart)
c2.altair_chart(bars)

st.subheader("Which differences are significant?")
s1, s2, s3 = st.columns(3)
s1.segmented_control(
    "Test",
    ["bs", "ar"],
    key="compare.method",
    default="bs",
    required=True,
    format_func={"bs": "bootstrap", "ar": "approx. randomization"}.get,
    help="Paired bootstrap resampling or paired approximate randomization.",
)
s2.select_slider(
    "Trials",
    TRIALS_OFFERED,
    key=state.COMPARE_TRIALS,
    help="1000 is sacreBLEU's default for the paired bootstrap; with many systems the default rises until a "
    "Holm-corrected p-value can fall below 0.05.",
)
s3.number_input("Seed", min_value=0, value=12345, step=1, key="compare.seed")
heatmap = view.heatmap
too_few = holm_warning(len(corpus.systems), int(trials))
if too_few:
    st.warning(too_few)
st.altair_chart(heatmap, key="compare.matrix")
render.signature(make_signature(config, cached.nrefs(corpus), **{str(method): int(trials)}, rs=int(seed)))
st.markdown("**Ranked by BLEU, in significance clusters**")
st.html(markup.ranking_html(view.ranked, view.labels, baseline))
st.caption(
    "A line between two clusters: every system above it is significantly better than every system below it "
    "(Holm-corrected p < 0.05 under the test above). Ranks possible: the ranks a system could take given the "
    "significant pairs."
)
st.markdown(docs.text("significance", "corpus"))
render.block_test_section(corpus, config, key="compare.blocks")

st.subheader("Sentence by sentence: A vs B")
p1, p2 = st.columns(2)
with p1:
    sys_a = selection.system_picker("System A", "compare.a", state.COMPARE_A, corpus)
with p2:
    sys_b = selection.system_picker("System B", "compare.b", state.COMPARE_B, corpus, default_index=1)
pairs = cached.pair_frame(corpus, sys_a, sys_b, config)
ngrams = cached.ngram_frame(corpus, sys_a, sys_b, config)
chosen, only = selection.ngram_segments(ngrams)
scatter = charts.pair_scatter(pairs, sys_a, sys_b, highlight=tuple(only or ()))
st.altair_chart(
    scatter,
    key="compare.scatter",
    on_select=selection.point_opener("compare.scatter", charts.PICK, frames.SEGMENT, sys_a, sys_b),
    selection_mode=charts.PICK,
)
st.caption("Click a point to open its sentence with both systems (double-click clears the choice).")
if chosen:
    st.info(f"Showing the sentences where the systems differ on the n-gram “{render.md_escape(chosen)}”.")
    st.button("Show all sentences", key="compare.clear_ngram", on_click=selection.clear_ngram)
view = tables.table_page(pairs, query="", segments=only, page_size=200)
st.caption(f"{view.matching} sentences, sorted by B - A (B better first); select a row to open it with both systems.")
st.dataframe(
    view.rows,
    hide_index=True,
    key="compare.pairs",
    selection_mode="single-row",
    on_select=selection.row_opener("compare.pairs", view.rows[frames.SEGMENT].tolist(), sys_a, sys_b),
    column_config={
        frames.BLEU_A: st.column_config.NumberColumn(format="%.1f"),
        frames.BLEU_B: st.column_config.NumberColumn(format="%.1f"),
        frames.DIFF: st.column_config.NumberColumn(format="%+.1f"),
        **render.side_by_side(),
    },
)

difference.section(corpus, config, baseline, sys_a, sys_b)

st.subheader("n-gram differences")
st.markdown(docs.text("ngram_diff", "corpus"))
if ngrams.empty:
    st.info("No n-gram separates the two systems (they match the same n-grams everywhere).")
else:
    st.altair_chart(
        charts.ngram_chart(ngrams),
        key="compare.ngrams",
        on_select=selection.on_ngram_select_cb,
        selection_mode=charts.NGRAM_PICK,
    )

human.section(corpus, systems, config)

st.subheader("Export")
sig_text = make_signature(config, cached.nrefs(corpus))
sig_ci = make_signature(config, cached.nrefs(corpus), bs=1000, rs=cached.DEFAULT_SEED)  # the intervals' draws
sig_test = make_signature(config, cached.nrefs(corpus), **{str(method): int(trials)}, rs=int(seed))
export.downloads(
    "CSV:",
    {
        "systems": (lambda: export.csv(systems, sig_ci), "systems.csv", "text/csv"),
        "significance": (lambda: export.csv(significance, sig_test), "significance.csv", "text/csv"),
        "A vs B": (lambda: export.csv(pairs, sig_text), "sentences_a_vs_b.csv", "text/csv"),
        "n-grams": (lambda: export.csv(ngrams, sig_text), "ngrams.csv", "text/csv"),
    },
    "compare.csv",
)
export.downloads(
    "LaTeX:",
    {
        "ranking": (
            lambda: export.ranking_latex(ranked, systems, significance, baseline, sig_test),
            "ranking.tex",
            "text/x-tex",
        ),
        "table": (lambda: export.latex_table(systems, signature=sig_text), "comparison.tex", "text/x-tex"),
    },
    "compare.tex",
)
export.downloads(
    "Chart:",
    {
        "CIs PNG": (lambda: charts.export(ci_chart, "png", sig_ci), "bleu_ci.png", "image/png"),
        "CIs SVG": (lambda: charts.export(ci_chart, "svg", sig_ci), "bleu_ci.svg", "image/svg+xml"),
        "matrix PNG": (lambda: charts.export(heatmap, "png", sig_test), "significance.png", "image/png"),
        "matrix SVG": (lambda: charts.export(heatmap, "svg", sig_test), "significance.svg", "image/svg+xml"),
        "precisions HTML": (lambda: charts.export(bars, "html", sig_text), "precisions.html", "text/html"),
        "scatter HTML": (lambda: charts.export(scatter, "html", sig_text), "scatter.html", "text/html"),
    },
    "compare.chart",
)
difference.report_button(corpus, config, baseline, sys_a, sys_b, str(method), int(trials), int(seed))
slicing.diagnostics_section("compare", whole, config, sliced=corpus is not whole)
selection.follow_handoff()
