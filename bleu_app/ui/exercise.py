"""The Learn page's exercise: one item at a time, its steps unlocked one by one, the answers kept per item (in
the session, not in widgets, so switching items loses nothing), the worked step after two wrong tries, and a
score at the end. The checking is ``frames.exercise``."""

from __future__ import annotations

from typing import Any

import streamlit as st

from bleu_app.frames import exercise as frames

from . import present, render

__all__ = ["PICK", "PROGRESS", "show"]

PICK = "learn.ex.item"
PROGRESS = "learn.ex.progress"  # item key -> {"answers": [str], "tries": {step: int}, "first": int, "last": str}


def _progress(key: str) -> dict[str, Any]:
    store: dict[str, dict[str, Any]] = st.session_state.setdefault(PROGRESS, {})
    return store.setdefault(key, {"answers": [], "tries": {}, "first": 0, "last": ""})


def _submit(item: frames.Item, box: str) -> None:
    prog = _progress(item.key)
    steps = frames.steps(item)
    at = len(prog["answers"])
    if at >= len(steps):
        return
    step = steps[at]
    answer = st.session_state.get(box) or ""
    verdict = frames.check(item, step, answer)
    tries = prog["tries"].get(step.key, 0)
    if verdict.right:
        prog["answers"].append(answer.strip())
        prog["first"] += tries == 0
        prog["last"] = ""
        st.session_state[box] = ""
    else:
        prog["tries"][step.key] = tries + 1
        prog["last"] = verdict.message


def show() -> None:
    """The item picker, the item's sentences, its answered steps, the current step and the score."""
    if present.item() in frames.ITEMS and PICK not in st.session_state:
        st.session_state[PICK] = present.item()  # ?tab=exercise&item=KEY
    key = st.selectbox("Item", list(frames.ITEMS), key=PICK, format_func=lambda k: frames.ITEMS[k].label)
    item = frames.ITEMS[key]
    steps = frames.steps(item)
    for k, e in enumerate(frames.explained(item)):
        if len(item.sentences) > 1:
            st.markdown(f"**Sentence {k + 1}**")
        st.markdown("Candidate, tokenized")
        render.tokens_line(e.hyp_tokens)
        st.markdown("References, tokenized")
        render.show_html(render.references_html(e, answers=False))
    prog = _progress(key)
    done = prog["answers"]
    for step, answer in zip(steps, done, strict=False):
        st.markdown(f"✔ **{step.label}** = {answer}")
    if len(done) < len(steps):
        step = steps[len(done)]
        box = f"learn.ex.{key}.{step.key}"
        with st.form(f"learn.ex.form.{key}", border=False, enter_to_submit=True):
            st.text_input(step.label, key=box)
            st.form_submit_button("Check", on_click=_submit, args=(item, box))
        tries = prog["tries"].get(step.key, 0)
        if prog["last"]:
            st.error(prog["last"], icon=":material/close:")
        if tries >= 2:
            st.info(f"Worked step: {frames.worked(item, step)}", icon=":material/lightbulb:")
        else:
            with st.expander("Hint"):
                st.markdown(step.hint)
    else:
        st.success(f"Item complete: {prog['first']} of {len(steps)} steps right at the first try.")
    store = st.session_state.get(PROGRESS, {})
    complete = [k for k in frames.ITEMS if len(store.get(k, {}).get("answers", [])) == len(steps)]
    first = sum(store.get(k, {}).get("first", 0) for k in complete)
    st.caption(
        f"Your score: {len(complete)} of {len(frames.ITEMS)} items complete, {first} of {len(complete) * len(steps)} "
        "of their steps right at the first try. Every item uses the paper's preset (its words, case folded, "
        "N = 4, no smoothing), whatever the sidebar says."
    )
