"""Compare systems: every chosen metric with CIs, significance matrices and rankings; BLEU's precisions, A vs B,
n-gram differences, human scores."""

import streamlit as st

from bleu_app import markup
from bleu_app.charts import corpus as charts
from bleu_app.frames import (
    corpus as frames,
    difference as difference_frames,
    metrics as metric_frames,
    power as power_frames,
)
from bleu_app.frames.names import labels
from bleu_app.ui import cached, cached_power, docs, frame, nav, state
from bleu_app.ui.components import scores, share, tables
from bleu_app.ui.corpus import (
    agreement,
    blocks,
    difference,
    document_level,
    exports,
    human,
    loading,
    metrics,
    selection,
    settings,
    significance,
    slicing,
)
from bleu_core.errors import InputError
from bleu_core.significance.trials import TRIALS_OFFERED, default_trials, holm_warning

frame.guard()

st.title("Compare systems")
corpus = whole = slicing.reference_picker("compare", loading.loader("compare"))
config = state.config()
settings.language_note(whole, config, "compare")
settings.corpus_settings_hint(config, settings.published_tokenizer(whole))
corpus = slicing.slice_box("compare", whole, config)  # every statistic below is on the slice's lines
corpus = document_level.switch("compare", corpus)  # or on its documents, each one segment (a WMT upload)
baseline = selection.system_picker(
    "Baseline", state.BASELINE_BOX, state.COMPARE_BASELINE, corpus, help="Differences are shown against this system."
)
share.section("compare", corpus=whole)  # the whole corpus: a slice is a setting of the view
# the trials start at this corpus's default (set through the state, so the slider shows it too; a new
# corpus sets it again); the matrix below reads the same pool of resamples as the intervals
state.put_absent(state.COMPARE_TRIALS, default_trials(len(corpus.systems)))
# the significance test's settings are the widgets' further down, read from the state here: the intervals, the
# ranking and the charts above the widgets need the same matrix and pool
method = str(state.get(state.COMPARE_METHOD) or "bs")
trials = int(state.get(state.COMPARE_TRIALS))
seed = int(state.get(state.COMPARE_SEED, cached.DEFAULT_SEED))
family = significance.family()
shown = metrics.chosen(corpus, config)
trials = significance.trials_in_budget(corpus, [s.metric for s in shown], trials)  # one session's share (24.1)
try:
    found = metrics.results(corpus, shown, baseline, method, trials, seed, family=family)
    bleu = next((r for r in found if r.shown.is_bleu), None)
except InputError as exc:  # the core's own memory check (a machine with little memory): a message, not a traceback
    scores.user_error(exc, what="The significance test cannot run")
    st.stop()
first = found[0]
precisions = frames.in_order(cached.precision_long(corpus, config), list(first.view.order))
bars = charts.precision_bars(precisions, labels=first.view.labels)

st.subheader("Systems side by side")
st.caption(
    f"{metric_frames.names(shown)}, best first by {markup.md_escape(first.shown.name)}. 95% bootstrap confidence "
    f"intervals: 1000 resamples of the {corpus.n_segments} segments, seed 12345, the same resamples for every "
    "metric; “vs baseline low/high”: the 95% interval of each difference to the baseline on those same resamples "
    "(paired: an interval that leaves out 0 is a difference the resamples agree on). Signatures (ours, and "
    "sacreBLEU's where it has one) under the table."
)
metrics.systems_table(corpus, found, config)
scores.size_note(  # the note's widths are BLEU points: BLEU's when it is shown
    corpus.n_segments,
    (bleu.systems[frames.CI_HIGH] - bleu.systems[frames.CI_LOW]).tolist() if bleu is not None else [],
    config,
    cached.nrefs(corpus),
    signature=None if bleu is not None else first.shown.metric.signature(cached.nrefs(corpus), bs=1000, rs=12345),
)
ci_charts = [r.view.ci_chart for r in found] + ([bars] if bleu is not None else [])
for start in range(0, len(ci_charts), 2):
    for col, chart in zip(st.columns(2), ci_charts[start : start + 2], strict=False):
        col.altair_chart(chart)
metrics.learning_curve(first)
agreement.section(corpus, shown, key="compare.agreement")

st.subheader("Which differences are significant?")
s1, s2, s3 = st.columns(3)
s1.segmented_control(
    "Test",
    ["bs", "ar"],
    key=state.COMPARE_METHOD,
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
s3.number_input("Seed", min_value=0, value=12345, step=1, key=state.COMPARE_SEED)
significance.family_picker()
too_few = holm_warning(len(corpus.systems), int(trials))
if too_few:
    st.warning(too_few)
metrics.rankings(corpus, found, baseline, method, int(trials), int(seed))
st.caption(
    "A line between two clusters: every system above it is significantly better than every system below it "
    "(Holm-corrected p < 0.05 under the test above). Ranks possible: the ranks a system could take given the "
    "significant pairs. Each metric is tested on the same draws."
)
st.markdown(docs.text("significance", "corpus"))
blocks.block_test_section(corpus, config, key="compare.blocks")

st.subheader("Sentence by sentence: A vs B")
p1, p2 = st.columns(2)
a_first, b_first = selection.pair_defaults(corpus, baseline, first.view.order)  # the baseline and the best other
with p1:
    sys_a = selection.system_picker("System A", state.A_BOX, state.COMPARE_A, corpus, default_index=a_first)
with p2:
    sys_b = selection.system_picker("System B", state.B_BOX, state.COMPARE_B, corpus, default_index=b_first)
power = cached_power.pair_power(corpus, sys_a, sys_b, config, cached.pool_size(method, trials, seed))
short = labels(list(corpus.names))  # the names of the charts and tables above (the pickers hold the full ones)
st.markdown(power_frames.mde_line(power, short[sys_a], short[sys_b]))
scores.signature(power.signature, what="Minimum detectable difference")
pairs = cached_power.pair_by_share(corpus, sys_a, sys_b, config)  # by share of the gap (or of B - A, not finite)
ngrams = cached.ngram_frame(corpus, sys_a, sys_b, config)
chosen, only = selection.ngram_segments(ngrams)
scatter = charts.pair_scatter(pairs, short[sys_a], short[sys_b], highlight=tuple(only or ()))
st.altair_chart(
    scatter,
    key="compare.scatter",
    on_select=selection.point_opener("compare.scatter", charts.PICK, frames.SEGMENT, sys_a, sys_b),
    selection_mode=charts.PICK,
)
st.caption("Click a point to open its sentence with both systems (double-click clears the choice).")
if chosen:
    st.info(f"Showing the sentences where the systems differ on the n-gram “{markup.md_escape(chosen)}”.")
    st.button("Show all sentences", key="compare.clear_ngram", on_click=selection.clear_ngram)
view = tables.table_page(pairs, query="", segments=only, page_size=200)
st.caption(
    f"{view.matching} sentences, "
    + (
        "sorted by each one's share of the corpus gap B - A in BLEU points (the shares add up to the gap; the "
        "sentences that carry B's lead first)"
        if difference_frames.SHARE in pairs
        else "sorted by B - A of sentence BLEU (B better first)"
    )
    + "; select a row to open it with both systems."
)
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
        difference_frames.SHARE: st.column_config.NumberColumn(format="%+.3f"),
        **tables.side_by_side(),
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

human.section(corpus, bleu.systems if bleu is not None else None, config, baseline)

st.subheader("Export")
exports.section(corpus, config, found, baseline, (pairs, ngrams, scatter, bars), (method, int(trials), int(seed)))
others = [r.shown for r in found if not r.shown.is_bleu]  # the report's sections after BLEU's
test = (str(method), int(trials), int(seed))
difference.report_button(corpus, config, baseline, sys_a, sys_b, test, others, family=family)
slicing.diagnostics_section("compare", whole, config, sliced=corpus is not whole)
nav.follow_handoff()
