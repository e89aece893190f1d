"""Debug one translation: highlights, which reference licensed each match, clipping tables, precisions,
the brevity penalty, what-if editing and a shareable link."""

import streamlit as st

from bleu_app import markup
from bleu_app.charts import sentence as charts
from bleu_app.frames import metrics as metric_frames, sentence as frames
from bleu_app.ui import cached, docs, frame, state
from bleu_app.ui.components import explained, highlight, scores, sentence, share, tables
from bleu_core.errors import InputError

frame.guard()

st.title("Debug one translation")
docs.show("sentence_intro")

with st.container(border=True):
    inp = sentence.sentence_inputs()
if inp.label:
    st.caption(f"Loaded: {markup.md_escape(inp.label)}")  # names and slice expressions are user text
if inp.source is not None:
    st.text(f"Source: {inp.source}")  # user text, shown as text
# a view holds what the page explains: no more than its own limit
too_long = f"Over {sentence.MAX_SENTENCE_CHARS:,} characters: shorten the text to share it."
share.section("sentence", unshareable=too_long if inp.too_long else "")

if inp.too_long:
    st.warning(
        f"This is more text than one sentence (over {sentence.MAX_SENTENCE_CHARS:,} characters). The page explains "
        "one segment at a time; score a whole document on the Corpus page. Your text is kept above.",
        icon=":material/warning:",
    )
    st.stop()
if not inp.hyp.strip():
    st.info("Type or paste a **candidate** translation above to see how BLEU scores it.", icon=":material/edit:")
    st.stop()
if not inp.refs:
    st.warning(
        "Add at least one **reference** translation: BLEU compares the candidate with references.",
        icon=":material/warning:",
    )
    st.stop()

config = state.config()
try:
    expl = cached.explain(inp.hyp, inp.refs, config)
except InputError as exc:
    scores.user_error(exc, what="Cannot score this input")
    st.stop()

# --- the score --------------------------------------------------------------------------------------------
head, c_col, r_col, bp_col = st.columns([3, 1, 1, 1])
with head:
    scores.score_headline("Sentence BLEU", expl.score)
    scores.effective_order_note(inp.hyp, tuple(inp.refs), config, expl.score)  # the corpus tables' number
c_col.metric("c (candidate tokens)", expl.hyp_len)
r_col.metric("r (best match length)", expl.closest_ref_len, help=f"Reference lengths: {list(expl.ref_lens)}")
bp_col.metric("BP", f"{expl.score.bp:.4f}")
others = [m for m in metric_frames.resolve(state.metric_keys(), config) if not m.is_bleu and not m.imported]
scores.metric_cards(inp.hyp, tuple(inp.refs), others)  # the other metrics chosen in the sidebar
st.caption(scores.precision_summary(expl))
docs.show("sentence_caveat")
scores.warnings(frames.input_warnings(inp.hyp, expl))
scores.answers(expl, sidebar=True)  # why 0, and the tokenizer for Chinese, Japanese, Korean or Thai

# --- highlights -----------------------------------------------------------------------------------------
st.subheader("Where the candidate matches")
mode_col, n_col = st.columns([3, 2])  # the control's two labels whole at 1280 px (teacher walk W22)
mode = mode_col.segmented_control(
    "Highlight",
    ["order", "longest"],
    default="order",
    key="sentence.mode",
    required=True,
    format_func={"order": "Status at one order n", "longest": "Longest matched n-gram"}.get,
)
n = n_col.pills("Order n", list(range(1, config.max_ngram_order + 1)), default=1, key="sentence.n", required=True) or 1
occ = frames.occurrence_frame(expl, n)

candidate_box = st.container()
# one above the other, each full width: side by side, the clipping table's answer column (Count_clip) was
# scrolled off at 1280 px with three references (teacher walk W15)
table_col = st.container()
occ_col = st.container()
with occ_col:
    st.markdown(f"**{n}-gram occurrences** — select a row to mark it in the candidate and the references")
    event = st.dataframe(
        occ,
        key="sentence.occ",
        on_select="rerun",
        selection_mode="single-row",
        hide_index=True,
        width="stretch",
        height=min(36 * (len(occ) + 1) + 3, 420),
    )
selected = sentence.selected_occurrence(event, occ, n)
with candidate_box:
    st.markdown(f"**Candidate** ({'longest matched n-gram per token' if mode == 'longest' else f'{n}-grams'})")
    highlight.show_html(
        highlight.legend_html(refs=True)
        + highlight.candidate_html(expl, mode="longest" if mode == "longest" else "order", n=n, selected=selected)
    )
with table_col:
    st.markdown(
        f"**Clipping table, {n}-grams** — p{n} = "
        f"{frames.fraction(expl.orders[n - 1].matches, expl.orders[n - 1].total)}"
    )
    tables.clip_table(frames.clip_frame(expl, n))
st.markdown("**References**" + (" — the selected n-gram's matches are marked" if selected else ""))
highlight.show_html(highlight.references_html(expl, selected))

if inp.other_hyp:
    st.subheader("Two systems on the same references")
    try:
        other = cached.explain(inp.other_hyp, inp.refs, config)
    except InputError as exc:
        scores.user_error(exc, what="Cannot score the second candidate")
    else:
        a_col, b_col = st.columns(2)
        with a_col:
            st.markdown(
                f"**A** — BLEU {expl.score.score:.2f}"
                + scores.effective_order_suffix(inp.hyp, tuple(inp.refs), config, expl.score)
                + scores.metric_scores_text(inp.hyp, tuple(inp.refs), others)
            )
            highlight.show_html(highlight.candidate_html(expl, n=n))
        with b_col:
            st.markdown(
                f"**B** — BLEU {other.score.score:.2f}"
                + scores.effective_order_suffix(inp.other_hyp, tuple(inp.refs), config, other.score)
                + scores.metric_scores_text(inp.other_hyp, tuple(inp.refs), others)
            )
            highlight.show_html(highlight.candidate_html(other, n=n))
        st.markdown(f"**Matched {n}-grams: by both, only A, only B**")
        st.dataframe(frames.overlap_frame(expl, other, n), hide_index=True, width="stretch")

# --- precisions and brevity ---------------------------------------------------------------------------
st.subheader("Precision per order and the brevity penalty")
prec = frames.precision_frame(expl)
p_col, d_col = st.columns(2)
p_col.altair_chart(charts.precision_bars(prec), width="stretch")
d_col.altair_chart(charts.decay_chart(prec), width="stretch")
l_col, b_col = st.columns(2)
l_col.altair_chart(charts.log_terms_chart(frames.log_terms_frame(expl)), width="stretch")
b_col.altair_chart(
    charts.bp_curve_chart(
        frames.bp_curve_frame(expl.closest_ref_len, c_max=expl.hyp_len), frames.bp_points_frame(expl)
    ),
    width="stretch",
)

with st.expander("Tokenized text (exactly what is scored)"):
    st.markdown("**Candidate**")
    sentence.tokens_line(expl.hyp_tokens)
    st.markdown("**Best-match reference**")
    sentence.tokens_line(expl.ref_tokens[expl.best_ref])

with st.expander(f"Recall view: reference {n}-grams the candidate never produced"):
    st.dataframe(frames.missed_frame(expl, n), hide_index=True, width="stretch")

explained.metrics_explained(inp.hyp, inp.refs, others)  # chrF's orders and TER's edits, when chosen

st.subheader("What if?")
sentence.whatif_editor(inp.hyp, inp.refs, config, key="sentence.whatif")
