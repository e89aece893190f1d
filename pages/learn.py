"""Learn BLEU: the paper's Examples 1-4 step by step, a misimplementation lab and an exercise."""

import streamlit as st

from bleu_app import samples
from bleu_app.ui import (
    cards,
    docs,
    exercise as exercise_ui,
    frame,
    opening,
    part2,
    present,
    render,
    shared,
    state,
    teacher,
    walk as walk_steps,
)
from bleu_core.bleu import make_signature
from bleu_core.errors import InputError
from bleu_core.variants import VARIANTS

frame.guard()

st.title("Learn BLEU, step by step")
config = state.config()
# Everything that is not text comes from `shared`: built once per (example, settings) for every session.
try:
    steps_data = walk_steps.load(config)
except InputError as exc:
    render.user_error(exc, what="These settings cannot score the paper's examples")
    st.stop()
all_steps = [(opening.TITLE, opening.show)]  # step 0: the opening vote
all_steps += [(title, lambda s=s: s(steps_data)) for title, s in walk_steps.STEPS]
all_steps += [(title, lambda s=s: s(config)) for title, s in part2.STEPS]
at = present.step(len(all_steps), first=0)
if at is not None:  # presenter mode or a link to one step
    present.show_step(all_steps, at, first=0)
    st.stop()

teacher.show()
docs.show("00_intro")
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

walk, does_it_work, myths, lab, exercise = st.tabs(list(present.TABS.values()), default=present.default_tab())

with walk:
    opening.show()
    for _, walk_step in walk_steps.STEPS:
        walk_step(steps_data)

with does_it_work:
    part2.intro()
    for _, step in part2.STEPS:
        step(config)

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
    exercise_ui.show()
