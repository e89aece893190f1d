"""The Learn page's misimplementation lab: a variant, its demonstration corpus and the prediction game.

Picking a variant loads its demonstration corpus (``frames.lab.DEMO``); both selectors say where a variant has no
effect. With the game on (the default; a teacher can turn it off), the variant's number stays hidden until the
student has predicted whether the mistake raises, lowers or does not change BLEU on this corpus; the answers are kept
in the session per (variant, corpus), and "Every variant at a glance" stays hidden until the round is answered (or
"Show all numbers" is pressed). ``?tab=lab&variant=KEY&corpus=KEY`` opens a variant on a corpus.
"""

from __future__ import annotations

from typing import Any

import pandas as pd
import streamlit as st

from bleu_app.frames import lab as frames
from bleu_app.frames.signs import signed
from bleu_core.config import BleuConfig
from bleu_core.errors import InputError
from bleu_core.metrics.bleu import make_signature
from bleu_core.teaching.variants import VARIANTS, VariantResult

from . import docs, present, render, shared, state

__all__ = ["ANSWERS", "CORPUS", "GAME", "NLTK", "SHOW_ALL", "VARIANT", "show"]

VARIANT = "learn.variant"
CORPUS = "learn.lab_corpus"
NLTK = "learn.nltk"
NLTK_KEPT = "learn.nltk_kept"  # the NLTK method picked, kept while the box is hidden (other variants)
HOW = "How the lab works"
GAME = "learn.lab.game"
ANSWERS = "learn.lab.answers"  # game key -> {"guess": "up"|"down"|"same", "right": bool}
SHOW_ALL = "learn.lab.show_all"  # corpus keys whose "every variant" table was opened without an answer
GUESS = "learn.lab.guess"  # + the round's key, so each round starts with no choice made


def _answers() -> dict[str, dict[str, Any]]:
    store: dict[str, dict[str, Any]] = st.session_state.setdefault(ANSWERS, {})
    return store


def _from_link() -> None:
    """``?variant=KEY&corpus=KEY`` (with ``?tab=lab``) picks the variant and corpus once per session."""
    ss = st.session_state
    if VARIANT not in ss:
        linked = present.link("variant")
        ss[VARIANT] = linked if linked in VARIANTS else next(iter(VARIANTS))
    if CORPUS not in ss:
        linked = present.link("corpus")
        ss[CORPUS] = linked if linked in frames.CORPORA else frames.DEMO[ss[VARIANT]]


def _variant_changed() -> None:
    st.session_state[CORPUS] = frames.DEMO[st.session_state[VARIANT]]  # its demonstration corpus


def _reveal(key: str, result: VariantResult, corpus: frames.LabCorpus) -> None:
    guess = st.session_state.get(GUESS + key)
    if guess in frames.CHOICES:
        _answers()[key] = {"guess": guess, "right": frames.verdict(guess, result, corpus).right}


def _show_all(corpus: str) -> None:
    st.session_state.setdefault(SHOW_ALL, set()).add(corpus)


def _forget() -> None:
    st.session_state.pop(ANSWERS, None)
    st.session_state.pop(SHOW_ALL, None)


def _set(key: str, value: Any) -> None:
    st.session_state[key] = value
    state.mark_custom()


def _signature(config: BleuConfig, corpus: frames.LabCorpus) -> str:
    counts = {sum(r[i] is not None for r in corpus.refs) for i in range(len(corpus.hyps))}
    return make_signature(config, counts.pop() if len(counts) == 1 else "var")


def _bp_line(corpus: frames.LabCorpus, config: BleuConfig) -> str:
    bp = frames.sentence_bps(corpus, config)
    if corpus.key == "short_bp":
        return frames.short_bp_text(bp)
    each = ", ".join(f"{b:.4f}" for b in bp.bps)
    return (
        f"Sentence BPs {each}: their mean is {bp.mean_bp:.4f}; the corpus BP (c = {bp.c}, r = {bp.r}) is "
        f"{bp.corpus_bp:.4f}."
    )


def show(config: BleuConfig) -> None:
    """The lab's tab."""
    st.header("Misimplementation lab")
    docs.show("lab")
    _from_link()
    ss = st.session_state
    game = st.toggle(
        "Prediction game: hide each number until the class has predicted it",
        value=True,
        key=GAME,
        help="Turn it off to show every number straight away (for a teacher who explains instead).",
    )
    try:
        results = {k: shared.lab(k, config, int(ss.get(NLTK_KEPT, 0)))[0] for k in frames.CORPORA}
    except InputError as exc:
        render.user_error(exc, what="The lab cannot run")
        return
    order = list(VARIANTS)
    here = results[ss[CORPUS]]

    def variant_label(k: str) -> str:
        note = frames.mark(here[order.index(k)])
        return VARIANTS[k].label + (f" — {note}" if note else "")

    key = st.selectbox("Variant", order, key=VARIANT, format_func=variant_label, on_change=_variant_changed)
    nltk = int(ss.get(NLTK_KEPT, 0))
    if key == "nltk":  # the only variant it changes: not shown (as a disabled box) for the others
        ss.setdefault(NLTK, nltk)
        picked = st.selectbox(
            "NLTK smoothing (SmoothingFunction)",
            [0, 1, 2, 3, 4],
            key=NLTK,
            format_func=lambda m: f"method{m}" + (" (none)" if m == 0 else ""),
        )
        nltk = ss[NLTK_KEPT] = int(picked or 0)

    def corpus_label(k: str) -> str:
        notes = []
        if k == frames.DEMO[key]:
            notes.append("this variant's demonstration")
        if frames.mark(results[k][order.index(key)]):
            notes.append("no effect for this variant")
        return frames.CORPORA[k].label + (f" ({'; '.join(notes)})" if notes else "")

    which = st.selectbox("Corpus", list(frames.CORPORA), key=CORPUS, format_func=corpus_label)
    corpus = frames.CORPORA[which]
    everything, everything_table = shared.lab(which, config, nltk)
    result = everything[order.index(key)]
    if corpus.built_in:
        st.caption(corpus.about)
    with st.expander(f"The corpus: {len(corpus.hyps)} candidate{'s' * (len(corpus.hyps) > 1)} and their references"):
        rows = [
            {"candidate": h, **{f"reference {k + 1}": r[i] or "" for k, r in enumerate(corpus.refs)}}
            for i, h in enumerate(corpus.hyps)
        ]
        render.grid(pd.DataFrame(rows))

    round_key = frames.game_key(key, which, nltk)
    answer = _answers().get(round_key)
    hidden = game and answer is None
    right_col, wrong_col = st.columns(2)
    right_col.metric("Correct BLEU", f"{result.correct:.2f}")
    if hidden:
        wrong_col.metric(result.variant.label, "?")
    else:
        way = frames.direction(result)
        wrong_col.metric(
            result.variant.label,
            f"{result.score:.2f}",
            delta="no change" if way == "same" else f"{signed(result.difference)} BLEU points",
            delta_color="off",
            delta_arrow="off" if way == "same" else "up" if way == "up" else "down",  # no arrow on 0 (W19)
        )
    # under the numbers, shown before the reveal too (review 29 item 8: it sat under the table the game hides)
    render.signature(_signature(config, corpus), what="Correct BLEU (every variant changes one thing in it)")
    if f"{result.correct:.2f}" == "0.00":
        st.caption(
            "The correct score is 0 here (a precision is 0/k or 0/0, step 11), and most mistakes keep it at 0: "
            "pick a corpus the selector does not mark, or score with smoothing or N = 2:"
        )
        smooth, two = st.columns(2)
        smooth.button("Smooth with exp", key="learn.lab.exp", on_click=_set, args=(state.SMOOTH, "exp"))
        two.button("Use N = 2", key="learn.lab.n2", on_click=_set, args=(state.MAX_ORDER, 2))
    st.markdown(f"**What it does:** {result.variant.mistake}")
    if hidden:
        with st.container(border=True, key="lab-game"):
            guess = st.radio(
                "Will this mistake raise, lower or not change BLEU on this corpus?",
                list(frames.CHOICES),
                index=None,
                format_func=frames.CHOICES.get,
                key=GUESS + round_key,
                horizontal=True,
            )
            st.button(
                "Reveal",
                key="learn.lab.reveal",
                type="primary",
                disabled=guess is None,
                on_click=_reveal,
                args=(round_key, result, corpus),
            )
    else:
        if answer is not None:
            v = frames.verdict(answer["guess"], result, corpus)
            (st.success if v.right else st.warning)(v.headline)
        st.markdown(f"**Why:** {frames.why(result, corpus)}")
        st.markdown(f"**Who does it:** {result.variant.who}")
        st.markdown(f"**The numbers:** {result.detail}")
        if key == "sentence_bp":
            st.markdown(f"**Brevity penalties:** {_bp_line(corpus, config)}")
        render.signature(_signature(config, corpus))
        if key == "nltk":
            render.grid(shared.nltk_table(which, config), key="learn.nltk_methods")
    answers = _answers()
    if answers:
        right = sum(a["right"] for a in answers.values())
        st.caption(f"Your predictions: {right} right of {len(answers)}.")
        st.button("Forget my predictions", key="learn.lab.forget", on_click=_forget)
    st.caption(f"A link to this variant on this corpus: `?tab=lab&variant={key}&corpus={which}`")
    with st.expander(HOW, icon=":material/help:"):
        docs.show("lab_how")

    st.subheader("Every variant at a glance")
    if hidden and which not in ss.get(SHOW_ALL, set()):
        st.caption("Hidden until you have answered: the table gives every variant's number on this corpus away.")
        st.button("Show all numbers", key="learn.lab.show_all_button", on_click=_show_all, args=(which,))
        return
    render.grid(everything_table)
    render.signature(
        _signature(config, corpus), what="The table (the correct BLEU's settings, one thing changed a row)"
    )
