"""Learn BLEU: the paper's Examples 1-4 step by step, a misimplementation lab and an exercise."""

import streamlit as st

from bleu_app.ui import docs, frame, state
from bleu_app.ui.components import scores
from bleu_app.ui.learn import (
    cards,
    exercise as exercise_ui,
    lab as lab_ui,
    opening,
    part2,
    present,
    teacher,
    walk as walk_steps,
)
from bleu_core.errors import InputError

frame.guard()

if not present.presenting():  # presenter mode: the step's own heading is the slide's title
    st.title("Learn BLEU, step by step")
config = state.config()
# Everything that is not text comes from `shared`: built once per (example, settings) for every session.
try:
    steps_data = walk_steps.load(config)
except InputError as exc:
    scores.user_error(exc, what="These settings cannot score the paper's examples")
    st.stop()
all_steps = [(opening.TITLE, opening.show)]  # step 0: the opening vote
all_steps += [(title, lambda s=s: s(steps_data)) for title, s in walk_steps.STEPS]
all_steps += [(title, lambda s=s: s(config)) for title, s in part2.STEPS]
tab_steps = {"walk": 0, "part2": len(all_steps) - len(part2.STEPS)}  # where ?present=1&tab=KEY starts
CARDS_STEP = f"{len(all_steps)} · Misconceptions"


def cards_step() -> None:
    st.header(CARDS_STEP)  # the tab has no heading of its own; the lab's and the exercise's have theirs
    cards.show()


# the other tabs, one screen each, after Part II (so Next and the arrow keys reach them)
for tab, show_tab in (("cards", cards_step), ("lab", lambda: lab_ui.show(config)), ("exercise", exercise_ui.show)):
    tab_steps[tab] = len(all_steps)
    all_steps.append((f"{len(all_steps)} · {present.TABS[tab]}", show_tab))
at = present.step(len(all_steps), first=0, tabs=tab_steps)
if at is not None:  # presenter mode or a link to one step
    present.show_step(all_steps, at, first=0)
    st.stop()

if present.linked():  # a link to a tab or an item: the intro and the plan folded, so what it names is near the top
    with st.expander(teacher.FOLDED, expanded=False, icon=":material/info:"):
        docs.show("00_intro")
        teacher.body()
else:
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
    lab_ui.show(config)

with exercise:
    exercise_ui.show()
