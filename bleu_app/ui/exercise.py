"""The Learn page's exercise, in three parts: computing BLEU by hand (one item at a time, its steps unlocked one
by one, the worked step after two wrong tries, a score at the end; checked by ``frames.exercise``), spotting the
errors in Feng Li's article (``frames.spot``) and conceptual questions (``frames.quiz``). Every answer is kept in
the session, not in widgets, so switching items or parts loses nothing.

Deep links: ``?tab=exercise&item=KEY`` opens a computing item; ``item=spot`` / ``item=spot-KEY`` an excerpt of
Spot the errors; ``item=quiz`` / ``item=quiz-KEY`` a question."""

from __future__ import annotations

from typing import Any

import streamlit as st

from bleu_app.frames import exercise as frames, quiz, spot
from bleu_core.metrics.bleu import make_signature

from . import docs, present, render

__all__ = ["PART", "PARTS", "PICK", "PROGRESS", "QUIZ_PICK", "QUIZ_PROGRESS", "SPOT_PICK", "SPOT_PROGRESS", "show"]

PART = "learn.ex.part"
PARTS = {"compute": "Compute BLEU by hand", "spot": "Spot the errors", "quiz": "Questions"}
PICK = "learn.ex.item"
SPOT_PICK = "learn.spot.item"
SPOT_PROGRESS = "learn.spot.progress"  # excerpt key -> {"tries": int, "right": bool, "last": str, "pick": str}
QUIZ_PICK = "learn.quiz.item"
QUIZ_PROGRESS = "learn.quiz.progress"  # question key -> {"tries": int, "right": bool, "pick": int}
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
    """The exercise's three parts; a link's ``item=`` picks the part and the item (once per session)."""
    ss = st.session_state
    if PART not in ss:
        linked = present.item() or ""
        part, _, key = linked.partition("-")
        if part == "spot" and (not key or key in spot.SPOTS):
            ss[PART] = "spot"
            if key:
                ss[SPOT_PICK] = key
        elif part == "quiz" and (not key or key in _questions()):
            ss[PART] = "quiz"
            if key:
                ss[QUIZ_PICK] = key
        else:
            ss[PART] = "compute"
    st.header("Exercise")
    part = st.radio("Part", list(PARTS), key=PART, format_func=PARTS.__getitem__, horizontal=True)
    if part == "spot":
        show_spot()
    elif part == "quiz":
        show_quiz()
    else:
        show_compute()


def show_compute() -> None:
    """The item picker, the item's sentences, its answered steps, the current step and the score."""
    st.subheader("Compute BLEU by hand")
    docs.show("exercise")
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
    score = (
        f"{len(complete)} of {len(frames.ITEMS)} items complete, {first} of {len(complete) * len(steps)} of their "
        "steps right at the first try"
        if complete
        else f"no item complete yet (0 of {len(frames.ITEMS)})"  # not "0 of 0 of their steps" (review 29 item 9)
    )
    st.caption(
        f"Your score: {score}. Every item uses the paper's preset (its words, case folded, N = 4, no smoothing), "
        "whatever the sidebar says."
    )


# --- Spot the errors ----------------------------------------------------------------------------------------------


def _spot_progress(key: str) -> dict[str, Any]:
    store: dict[str, dict[str, Any]] = st.session_state.setdefault(SPOT_PROGRESS, {})
    return store.setdefault(key, {"tries": 0, "right": False, "last": "", "pick": None})


def _spot_check(item: spot.Spot, box: str) -> None:
    prog = _spot_progress(item.key)
    kind = st.session_state.get(box)
    if kind is None:
        prog["last"] = "Pick an answer first."
        return
    right, message = spot.check(item, kind)
    prog["pick"] = kind
    prog["last"] = message
    if not prog["right"]:
        prog["tries"] += 1
        prog["right"] = right


def _quote(section: str, text: str) -> str:
    """A quotation of the paper with its section, as Markdown (our constant text, not user text)."""
    where = section if section.startswith("footnote") else f"section {section}"
    return f"The paper, {where}: “{text}”"


def _decider(item: spot.Spot) -> None:
    for section, text in item.paper:
        st.markdown(_quote(section, text))
    st.markdown(("**The code fact:** " if not item.paper else "**What decides it:** ") + item.fact)
    lines = _live(item.key)
    if lines:
        st.markdown("**Computed now:**\n" + "\n".join(f"- {line}" for line in lines))
        render.signature(make_signature(spot.CONFIG, "var"))


def spot_source(where: str, text: str) -> str:
    """The attribution line above an excerpt: word for word, and where the excerpt holds math, that it is the
    article's LaTeX source (the article renders it as a formula; the app keeps the source, as code, verbatim)."""
    if "$" in text:
        return (
            f"Quoted from the article ({where}), as written in the article's source (LaTeX): the article renders "
            "the part between dollar signs as a formula. The article's words, not the app's."
        )
    return f"Quoted from the article ({where}), word for word: the article's words, not the app's."


def show_spot() -> None:
    """One excerpt of the article at a time: its text as quoted, the kinds to pick from, the verdict."""
    st.subheader("Spot the errors")
    st.markdown(
        f"Short excerpts of {spot.ARTICLE}, quoted word for word. Some are right; some carry one error. For each, "
        "say which kind: the BLEU paper (Papineni et al., 2002) decides, quoted with its section, or a fact about "
        "the code. Read tutorials against the source."
    )
    keys = list(spot.SPOTS)
    store = st.session_state.get(SPOT_PROGRESS, {})

    def label(k: str) -> str:
        done = " ✔" if store.get(k, {}).get("right") else ""
        return f"{keys.index(k) + 1} · {spot.SPOTS[k].label}{done}"

    key = st.selectbox("Excerpt", keys, key=SPOT_PICK, format_func=label)
    item = spot.SPOTS[key]
    prog = _spot_progress(key)
    with st.container(border=True, key=f"spot-{key}"):
        st.caption(spot_source(item.where, item.text))
        st.code(item.text, language="python" if item.code else None, wrap_lines=True)
    box = f"learn.spot.{key}.pick"
    if box not in st.session_state and prog["pick"] is not None:
        st.session_state[box] = prog["pick"]
    st.radio("What is it?", list(spot.KINDS), key=box, format_func=spot.KINDS.__getitem__, index=None)
    st.button("Check", key=f"learn.spot.{key}.check", on_click=_spot_check, args=(item, box))
    if prog["right"]:
        st.success(f"Right: “{spot.KINDS[item.answer]}”.", icon=":material/check:")
        _decider(item)
    elif prog["last"]:
        st.error(prog["last"], icon=":material/close:")
        if prog["tries"] >= 2:
            st.info(f"The answer: “{spot.KINDS[item.answer]}”.", icon=":material/lightbulb:")
            _decider(item)
    store = st.session_state.get(SPOT_PROGRESS, {})
    right = sum(1 for k in keys if store.get(k, {}).get("right"))
    first = sum(1 for k in keys if store.get(k, {}).get("right") and store[k]["tries"] == 1)
    st.caption(f"Spot the errors: {right} of {len(keys)} excerpts answered right, {first} at the first try.")


# --- Questions ----------------------------------------------------------------------------------------------------


@st.cache_resource(show_spinner=False)
def _live(key: str) -> list[str]:
    """An excerpt's live numbers (fixed settings and sentences): computed once per process."""
    return spot.live(key)


@st.cache_resource(show_spinner=False)
def _questions() -> dict[str, quiz.Question]:
    return quiz.questions()


def _quiz_progress(key: str) -> dict[str, Any]:
    store: dict[str, dict[str, Any]] = st.session_state.setdefault(QUIZ_PROGRESS, {})
    return store.setdefault(key, {"tries": 0, "right": False, "pick": None, "checked": None})


def _quiz_check(question: quiz.Question, box: str) -> None:
    prog = _quiz_progress(question.key)
    picked = st.session_state.get(box)
    prog["checked"] = picked
    prog["empty"] = picked is None
    if picked is None:
        return
    prog["pick"] = picked
    if not prog["right"]:
        prog["tries"] += 1
        prog["right"] = question.options[picked].right


def show_quiz() -> None:
    """One question at a time: its options, and why the picked one is right or wrong."""
    st.subheader("Questions")
    st.markdown(
        "Multiple choice. Every number is computed now with the paper's preset (its words, case folded, N = 4, no "
        "smoothing); after a right answer, each wrong option says why it is wrong."
    )
    questions = _questions()
    keys = list(questions)
    store = st.session_state.get(QUIZ_PROGRESS, {})

    def label(k: str) -> str:
        done = " ✔" if store.get(k, {}).get("right") else ""
        return f"{keys.index(k) + 1} · {questions[k].label}{done}"

    key = st.selectbox("Question", keys, key=QUIZ_PICK, format_func=label)
    q = questions[key]
    prog = _quiz_progress(key)
    box = f"learn.quiz.{key}.pick"
    if box not in st.session_state and prog["pick"] is not None:
        st.session_state[box] = prog["pick"]
    with st.container(border=True, key=f"quiz-{key}"):
        st.markdown(q.prompt)
        st.radio(
            "Your answer", list(range(len(q.options))), key=box, format_func=lambda i: q.options[i].text, index=None
        )
        st.button("Check", key=f"learn.quiz.{key}.check", on_click=_quiz_check, args=(q, box))
    checked = prog["checked"]
    if prog.get("empty"):
        st.error("Pick an answer first.", icon=":material/close:")
    elif checked is not None:
        option = q.options[checked]
        if option.right:
            st.success(f"Right. {option.why}", icon=":material/check:")
            st.markdown(
                "**Why not the others:**\n" + "\n".join(f"- *{o.text}* — {o.why}" for o in q.options if not o.right)
            )
            for section, text in q.paper:
                st.markdown(_quote(section, text))
        else:
            st.error(f"Not this one. {option.why}", icon=":material/close:")
        render.signature(q.signature)
    store = st.session_state.get(QUIZ_PROGRESS, {})
    right = sum(1 for k in keys if store.get(k, {}).get("right"))
    first = sum(1 for k in keys if store.get(k, {}).get("right") and store[k]["tries"] == 1)
    st.caption(f"Questions: {right} of {len(keys)} answered right, {first} at the first try.")
