"""Learn BLEU: the paper's Examples 1-4 step by step, a misimplementation lab and an exercise."""

import streamlit as st

from bleu_app import samples
from bleu_app.frames import sentence as frames
from bleu_app.ui import cards, docs, frame, part2, render, shared, state, widgets
from bleu_core.bleu import make_signature
from bleu_core.errors import InputError
from bleu_core.variants import VARIANTS

frame.guard()

st.title("Learn BLEU, step by step")
docs.show("00_intro")

config = state.config()
if not state.is_paper_config():
    with st.container(border=True):
        docs.show("settings_note")
        st.button(
            "Use the paper's settings",
            key="learn.use_paper",
            on_click=state.use_paper_preset,
            type="primary",
            icon=":material/history_edu:",
        )

# Everything that is not text comes from `shared`: built once per (example, settings) for every session.
ex3, ex4a, ex4b = samples.SENTENCE_SAMPLES["ex3"], samples.SENTENCE_SAMPLES["ex4"], samples.SENTENCE_SAMPLES["ex4c2"]
ZERO_KEYS = ("ex1", "ex1c2", "ex2", "ex3", "ex4", "ex4c2")
try:
    c1 = shared.example("ex1", config)
    c2 = shared.example("ex1c2", config)
    e2 = shared.example("ex2", config)
    e3 = shared.example("ex3", config)
    e4a = shared.example("ex4", config)
    e4b = shared.example("ex4c2", config)
    pooled = shared.pooling_table(config)
    zero_orders = shared.zero_orders_table(ZERO_KEYS, config)
except InputError as exc:
    render.user_error(exc, what="These settings cannot score the paper's examples")
    st.stop()

walk, does_it_work, myths, lab, exercise = st.tabs(
    ["Part I: the metric", "Part II: does BLEU work?", "Misconceptions", "Misimplementation lab", "Exercise"]
)

with walk:
    st.header("1 · Plain precision: Example 2")
    docs.show("00a_plain")
    if state.is_paper_config():
        with st.container(border=True):
            docs.show("counted")
    st.markdown("**Example 2.** The candidate and its two references:")
    render.show_html(render.candidate_html(e2, n=1) + render.references_html(e2, best_match=False))
    st.metric(
        "Plain precision (no clipping)",
        frames.fraction(*frames.plain_precision(e2, 1)),
        help="Every candidate word that occurs in some reference counts.",
    )

    st.header("2 · Clipping: the modified unigram precision")
    docs.show("01_unigram")
    st.metric(
        "Modified precision p₁",
        frames.fraction(e2.orders[0].matches, e2.orders[0].total),
        help="Each word's count clipped by Max_Ref_Count.",
    )
    st.table(shared.clip_table("ex2", config, 1), hide_index=False)
    st.markdown("**Example 1.** The three references:")
    docs.show("02_clipping")
    render.show_html(render.references_html(c1, best_match=False))
    st.markdown(
        f"**Candidate 1** — modified unigram precision "
        f"**p₁ = {frames.fraction(c1.orders[0].matches, c1.orders[0].total)}**"
    )
    render.show_html(render.legend_html() + render.candidate_html(c1, n=1))
    st.table(shared.clip_table("ex1", config, 1), hide_index=False)
    st.markdown(f"**Candidate 2** — **p₁ = {frames.fraction(c2.orders[0].matches, c2.orders[0].total)}**")
    render.show_html(render.candidate_html(c2, n=1))
    with st.expander("Candidate 2's clipping table"):
        st.table(shared.clip_table("ex1c2", config, 1), hide_index=False)

    st.header("3 · Bigrams and longer n-grams")
    docs.show("03_bigrams")
    left, right = st.columns(2)
    with left:
        st.markdown(
            f"**Candidate 1: p₂ = {frames.fraction(c1.orders[1].matches, c1.orders[1].total)}**"
            if len(c1.orders) > 1
            else "Max order is 1: no bigrams."
        )
        render.show_html(render.candidate_html(c1, n=2))
    with right:
        st.markdown(
            f"**Candidate 2: p₂ = {frames.fraction(c2.orders[1].matches, c2.orders[1].total)}**"
            if len(c2.orders) > 1
            else ""
        )
        render.show_html(render.candidate_html(c2, n=2))
    if len(e2.orders) > 1:
        st.markdown(f"**Example 2: p₂ = {frames.fraction(e2.orders[1].matches, e2.orders[1].total)}**")
    with st.expander("The bigram clipping tables"):
        st.markdown("**Candidate 1**")
        st.table(shared.clip_table("ex1", config, 2), hide_index=False)
        st.markdown("**Candidate 2**")
        st.table(shared.clip_table("ex1c2", config, 2), hide_index=False)

    st.header("4 · A corpus: add the counts, then divide")
    docs.show("03b_corpus")
    st.table(pooled, hide_index=False)

    st.header("5 · Precision decays with n")
    docs.show("04_decay")
    left, right = st.columns(2)
    with left:
        st.markdown(f"**Candidate 1:** {render.precision_summary(c1)}")
        render.vega(shared.decay_spec("ex1", config, together=("ex1", "ex1c2")))
    with right:
        st.markdown(f"**Candidate 2:** {render.precision_summary(c2)}")
        render.vega(shared.decay_spec("ex1c2", config, together=("ex1", "ex1c2")))

    st.header("6 · The geometric mean")
    docs.show("04b_geomean")
    for name, ex in (("Candidate 1", c1), ("Candidate 2", c2)):
        expr, geo = frames.geometric_mean(ex)
        geo_text = "0" if geo is None else f"{geo:.4f}"
        st.markdown(
            f"**{name}:** geometric mean {expr} = **{geo_text}**; arithmetic mean {frames.arithmetic_mean(ex):.4f}"
        )

    st.header("7 · Short candidates: Example 3")
    docs.show("06a_short")
    st.markdown(f"**Example 3** — candidate *{ex3.hyp}*: {render.precision_summary(e3)}")

    st.header("8 · Why not recall: Example 4")
    docs.show("07_recall")
    left, right = st.columns(2)
    with left:
        render.recall_card(ex4a.label, e4a)
    with right:
        render.recall_card(ex4b.label, e4b)
    render.show_html(render.references_html(e4a, best_match=False))

    st.header("9 · The brevity penalty")
    docs.show("06_brevity")
    st.markdown(f"**Example 3** — candidate *{ex3.hyp}* and Example 1's references:")
    render.show_html(render.references_html(e3))
    left, right = st.columns([2, 3])
    with left:
        st.metric("c (candidate length)", e3.hyp_len)
        st.metric("r (best match length)", e3.closest_ref_len, help=f"Reference lengths {list(e3.ref_lens)}")
        st.metric("BP = exp(1 − r/c)", f"{e3.score.bp:.5f}")
    with right:
        render.vega(shared.bp_spec("ex3", config))
    st.subheader("The best match length: 12, 15 and 17 words")
    docs.show("06b_best_match")
    lens = samples.BEST_MATCH_EXAMPLE[1]
    st.table(shared.best_match_table(tuple(lens), (10, 12, 13, 14, 16, 17, 20)), hide_index=False)

    st.header("10 · BLEU, in the log domain")
    docs.show("05_logdomain")
    log_spec, log_table = shared.log_terms("ex1", config)
    left, right = st.columns([3, 2])
    with left:
        render.vega(log_spec)
    with right:
        st.markdown("**Candidate 1's terms**")
        st.table(log_table, hide_index=False)
        render.score_headline("BLEU = exp(log BLEU)", c1.score)
        st.markdown("**The toy corpus's terms** (step 4)")
        st.table(shared.corpus_log_terms(config), hide_index=False)

    st.header("11 · Why five of the six candidates score 0")
    docs.show("08_zero")
    st.dataframe(zero_orders, hide_index=True, width="stretch", key="learn.zero_orders")
    render.signature(make_signature(config, 3))

with does_it_work:
    part2.show(config)

with myths:
    cards.show()

with lab:
    st.header("Misimplementation lab")
    docs.show("lab")
    corpus_keys = ["paper", *samples.SENTENCE_SAMPLES]
    which = st.selectbox(
        "Score",
        corpus_keys,
        key="learn.lab_corpus",
        format_func=lambda k: (
            "All six candidates of Examples 1-4 as one corpus" if k == "paper" else samples.SENTENCE_SAMPLES[k].label
        ),
    )
    key = st.selectbox("Variant", list(VARIANTS), key="learn.variant", format_func=lambda k: VARIANTS[k].label)
    nltk = st.selectbox(
        "NLTK smoothing (SmoothingFunction)",
        [0, 1, 2, 3, 4],
        key="learn.nltk",
        format_func=lambda m: f"method{m}" + (" (none)" if m == 0 else ""),
        disabled=key != "nltk",
    )
    try:
        everything, everything_table = shared.lab(which, config, nltk)
    except InputError as exc:
        render.user_error(exc, what="The lab cannot run")
        st.stop()
    result = everything[list(VARIANTS).index(key)]
    right_col, wrong_col = st.columns(2)
    right_col.metric("Correct BLEU", f"{result.correct:.2f}")
    wrong_col.metric(
        result.variant.label, f"{result.score:.2f}", delta=f"{result.difference:+.2f} BLEU points", delta_color="off"
    )
    if result.correct == 0:
        st.caption(
            "The correct score is 0 here (a precision is 0/k or 0/0, step 11), and most mistakes keep it at 0: "
            "pick the six-candidate corpus or Example 1's Candidate 1, or set smoothing to exp or N to 2 in the "
            "sidebar."
        )
    st.markdown(f"**What it does:** {result.variant.mistake}")
    st.markdown(f"**Who does it:** {result.variant.who}")
    st.markdown(f"**The numbers:** {result.detail}")
    lab_signature = make_signature(config, len(samples.SENTENCE_SAMPLES[which].refs) if which != "paper" else "var")
    render.signature(lab_signature)
    if key == "nltk":
        st.dataframe(shared.nltk_table(which, config), hide_index=True, key="learn.nltk_methods")
    st.subheader("Every variant at a glance")
    st.dataframe(everything_table, hide_index=True, width="stretch")
    render.signature(lab_signature, what="Correct BLEU (each variant changes it as its row says)")

with exercise:
    st.header("Exercise: compute BLEU by hand")
    docs.show("exercise")
    pick = st.selectbox(
        "Example",
        list(samples.SENTENCE_SAMPLES),
        key="learn.exercise_pick",
        format_func=lambda k: samples.SENTENCE_SAMPLES[k].label.split(" (")[0],
    )
    try:
        target = shared.example(pick, config)
    except InputError as exc:
        render.user_error(exc, what="Cannot build the exercise")
        st.stop()
    st.markdown("**Candidate, tokenized**")
    render.tokens_line(target.hyp_tokens)
    st.markdown("**References, tokenized**")
    render.show_html(render.references_html(target, answers=False))  # r and the lengths are asked for
    steps = frames.exercise_steps(target)
    answers = widgets.exercise_form(steps, key=f"learn.exercise.{pick}")
    if answers is not None:
        render.exercise_feedback(frames.exercise_frame(steps, answers))
