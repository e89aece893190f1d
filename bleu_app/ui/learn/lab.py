"""The Learn page's misimplementation lab: a variant, its demonstration corpus and the prediction game.

Picking a variant loads its demonstration corpus (``lessons.lab.DEMO``); both selectors say where a variant has no
effect. With the game on (the default; a teacher can turn it off), the variant's number stays hidden until the
student has predicted whether the mistake raises, lowers or does not change BLEU on this corpus; the answers are kept
in the session per (variant, corpus), and "Every variant at a glance" shows the rows of the rounds answered on
this corpus only (or all of them once "Show all numbers" is pressed). ``?tab=lab&variant=KEY&corpus=KEY`` opens a
variant on a corpus.

Where the correct BLEU is 0, "Smooth with exp" and "Use N = 2" score the lab's rounds so (``&fix=exp,n2`` in its
link): the lab's own settings on top of the sidebar's, which they never change (issue 34: they wrote the sidebar's,
and the rest of the lecture was scored with them).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Final

import pandas as pd
import streamlit as st

from bleu_app.frames.signs import signed
from bleu_app.lessons import lab as lesson
from bleu_app.ui import cached, state
from bleu_app.ui.components import scores, tables
from bleu_app.ui.learn import links
from bleu_app.ui.learn.lecture import Lecture
from bleu_core.config import BleuConfig
from bleu_core.errors import InputError
from bleu_core.metrics.bleu import make_signature
from bleu_core.teaching.variants import VARIANTS, VariantResult

__all__ = ["FIXES", "HOW", "lab_config", "show"]

HOW = "How the lab works"
FIX: Final = "fix"  # the lab's link: ``&fix=exp,n2``
FIXES: Final = {"exp": "exp smoothing", "n2": "N = 2"}  # the lab's own ways past a zero, as its link names them


def _fixes() -> list[str]:
    fixes: list[str] = state.get(state.LAB_FIX, [])
    return [f for f in FIXES if f in fixes]


def lab_config(config: BleuConfig, fixes: list[str]) -> BleuConfig:
    """The lab's settings: the sidebar's ``config`` with the lab's own ``fixes`` on top.

    Example:
        >>> fixed = lab_config(BleuConfig.paper(), ["exp", "n2"])
        >>> fixed.smooth_method, fixed.max_ngram_order, BleuConfig.paper().smooth_method
        ('exp', 2, 'none')
    """
    if "exp" in fixes:
        config = replace(config, smooth_method="exp", smooth_value=None)
    if "n2" in fixes:
        config = replace(config, max_ngram_order=2)
    return config


def _fix(key: str) -> None:
    state.put(state.LAB_FIX, [*_fixes(), key])


def _unfix() -> None:
    state.drop(state.LAB_FIX)


def _answers() -> dict[str, dict[str, Any]]:
    answers: dict[str, dict[str, Any]] = state.put_absent(state.LAB_ANSWERS, {})
    return answers


def _from_link() -> None:
    """``?variant=KEY&corpus=KEY`` (with ``?tab=lab``) picks the variant and corpus once per session."""
    if not state.has(state.LAB_VARIANT):
        linked = links.link("variant")
        state.put(state.LAB_VARIANT, linked if linked in VARIANTS else next(iter(VARIANTS)))
    if not state.has(state.LAB_CORPUS):
        linked = links.link("corpus")
        state.put(state.LAB_CORPUS, linked if linked in lesson.CORPORA else lesson.DEMO[state.get(state.LAB_VARIANT)])
        fixes = (links.link(FIX) or "").split(",")
        state.put(state.LAB_FIX, [f for f in FIXES if f in fixes])


def _variant_changed() -> None:
    state.put(state.LAB_CORPUS, lesson.DEMO[state.get(state.LAB_VARIANT)])  # its demonstration corpus


def _reveal(key: str, result: VariantResult, corpus: lesson.LabCorpus) -> None:
    guess = state.get(state.lab_guess(key))
    if guess in lesson.CHOICES:
        _answers()[key] = {"guess": guess, "right": lesson.verdict(guess, result, corpus).right}


def _show_all(corpus: str) -> None:
    state.put_absent(state.LAB_SHOW_ALL, set()).add(corpus)


def _forget() -> None:
    state.drop(state.LAB_ANSWERS, state.LAB_SHOW_ALL)


def _signature(config: BleuConfig, corpus: lesson.LabCorpus) -> str:
    counts = {sum(r[i] is not None for r in corpus.refs) for i in range(len(corpus.hyps))}
    return make_signature(config, counts.pop() if len(counts) == 1 else "var")


def _bp_line(corpus: lesson.LabCorpus, config: BleuConfig) -> str:
    bp = lesson.sentence_bps(corpus, config)
    if corpus.key == "short_bp":
        return lesson.short_bp_text(bp)
    each = ", ".join(f"{b:.4f}" for b in bp.bps)
    return (
        f"Sentence BPs {each}: their mean is {bp.mean_bp:.4f}; the corpus BP (c = {bp.c}, r = {bp.r}) is "
        f"{bp.corpus_bp:.4f}."
    )


@dataclass(frozen=True, slots=True)
class _Round:
    """One round of the lab: a variant on a corpus (and NLTK's smoothing method), its result and the game's state."""

    variant: str
    which: str
    nltk: int
    result: VariantResult
    table: Any
    answer: dict[str, Any] | None
    hidden: bool

    @property
    def corpus(self) -> lesson.LabCorpus:
        return lesson.CORPORA[self.which]

    @property
    def key(self) -> str:
        return lesson.game_key(self.variant, self.which, self.nltk)


def show(w: Lecture) -> None:
    """The lab's tab."""
    st.header("Misimplementation lab")
    w.doc("lab")
    _from_link()
    config = lab_config(w.config, _fixes())
    game = st.toggle(
        "Prediction game: hide each number until the class has predicted it",
        value=True,
        key=state.LAB_GAME,
        help="Turn it off to show every number straight away (for a teacher who explains instead).",
    )
    try:
        results = {k: cached.lab(k, config, int(state.get(state.LAB_NLTK_KEPT, 0)))[0] for k in lesson.CORPORA}
    except InputError as exc:
        scores.user_error(exc, what="The lab cannot run")
        return
    variant, nltk = _variant_picker(results)
    which = _corpus_picker(results, variant)
    everything, table = cached.lab(which, config, nltk)
    result = everything[list(VARIANTS).index(variant)]
    answer = _answers().get(lesson.game_key(variant, which, nltk))
    now = _Round(variant, which, nltk, result, table, answer, hidden=game and answer is None)
    _corpus_box(now.corpus)
    _numbers(now, config, w)
    st.markdown(f"**What it does:** {result.variant.mistake}")
    if now.hidden:
        _prediction(now)
    else:
        _explanation(now, config, w)
    _tally()
    fixed = f"&{FIX}={','.join(_fixes())}" if _fixes() else ""
    st.caption(f"A link to this variant on this corpus: `?tab=lab&variant={variant}&corpus={which}{fixed}`")
    with st.expander(HOW, icon=":material/help:"):
        w.doc("lab_how")
    _every_variant(now, config, game=game)


def _variant_picker(results: dict[str, tuple[VariantResult, ...]]) -> tuple[str, int]:
    """The variant select (each marked where it has no effect on the chosen corpus) and, for NLTK's, its
    smoothing method; the variant and the method."""
    order = list(VARIANTS)
    here = results[state.get(state.LAB_CORPUS)]

    def variant_label(k: str) -> str:
        note = lesson.mark(here[order.index(k)])
        return VARIANTS[k].label + (f" — {note}" if note else "")

    key = st.selectbox("Variant", order, key=state.LAB_VARIANT, format_func=variant_label, on_change=_variant_changed)
    nltk = int(state.get(state.LAB_NLTK_KEPT, 0))
    if key == "nltk":  # the only variant it changes: not shown (as a disabled box) for the others
        state.put_absent(state.LAB_NLTK, nltk)
        picked = st.selectbox(
            "NLTK smoothing (SmoothingFunction)",
            [0, 1, 2, 3, 4],
            key=state.LAB_NLTK,
            format_func=lambda m: f"method{m}" + (" (none)" if m == 0 else ""),
        )
        nltk = int(picked or 0)
        state.put(state.LAB_NLTK_KEPT, nltk)
    return str(key), nltk


def _corpus_picker(results: dict[str, tuple[VariantResult, ...]], variant: str) -> str:
    """The corpus select, each marked as the variant's demonstration or where the variant has no effect."""
    at = list(VARIANTS).index(variant)

    def corpus_label(k: str) -> str:
        notes = []
        if k == lesson.DEMO[variant]:
            notes.append("this variant's demonstration")
        if lesson.mark(results[k][at]):
            notes.append("no effect for this variant")
        return lesson.CORPORA[k].label + (f" ({'; '.join(notes)})" if notes else "")

    return str(st.selectbox("Corpus", list(lesson.CORPORA), key=state.LAB_CORPUS, format_func=corpus_label))


def _corpus_box(corpus: lesson.LabCorpus) -> None:
    if corpus.built_in:
        st.caption(corpus.about)
    with st.expander(f"The corpus: {len(corpus.hyps)} candidate{'s' * (len(corpus.hyps) > 1)} and their references"):
        rows = [
            {"candidate": h, **{f"reference {k + 1}": r[i] or "" for k, r in enumerate(corpus.refs)}}
            for i, h in enumerate(corpus.hyps)
        ]
        tables.grid(pd.DataFrame(rows))


def _numbers(now: _Round, config: BleuConfig, w: Lecture) -> None:
    """The correct BLEU and the variant's ("?" until the round is answered), with their signature."""
    result = now.result
    right_col, wrong_col = st.columns(2)
    right_col.metric("Correct BLEU", f"{result.correct:.2f}")
    if now.hidden:
        wrong_col.metric(result.variant.label, "?")
    else:
        way = lesson.direction(result)
        wrong_col.metric(
            result.variant.label,
            f"{result.score:.2f}",
            delta="no change" if way == "same" else f"{signed(result.difference)} BLEU points",
            delta_color="off",
            delta_arrow="off" if way == "same" else "up" if way == "up" else "down",  # no arrow on 0 (W19)
        )
    # under the numbers, shown before the reveal too (review 29 item 8: it sat under the table the game hides)
    scores.signature(_signature(config, now.corpus), what="Correct BLEU (every variant changes one thing in it)")
    fixes = _fixes()
    if f"{result.correct:.2f}" == "0.00":
        st.caption(
            w.expand(
                "The correct score is 0 here (a precision is 0/k or 0/0, step {step:zero}), and most mistakes keep "
                "it at 0: pick a corpus the selector does not mark, or score the lab with smoothing or N = 2 (the "
                "sidebar's settings stay as they are):"
            )
        )
        smooth, two = st.columns(2)
        smooth.button("Smooth with exp", key="learn.lab.exp", on_click=_fix, args=("exp",), disabled="exp" in fixes)
        two.button("Use N = 2", key="learn.lab.n2", on_click=_fix, args=("n2",), disabled="n2" in fixes)
    if fixes:
        left, right = st.columns([3, 1], vertical_alignment="center")
        left.caption(f"The lab scores with {' and '.join(FIXES[f] for f in fixes)} on top of the sidebar's settings.")
        right.button("The sidebar's settings", key="learn.lab.unfix", on_click=_unfix, icon=":material/undo:")


def _prediction(now: _Round) -> None:
    """The game: raise, lower or no change, then Reveal."""
    with st.container(border=True, key="lab-game"):
        guess = st.radio(
            "Will this mistake raise, lower or not change BLEU on this corpus?",
            list(lesson.CHOICES),
            index=None,
            format_func=lesson.CHOICES.get,
            key=state.lab_guess(now.key),
            horizontal=True,
        )
        st.button(
            "Reveal",
            key="learn.lab.reveal",
            type="primary",
            disabled=guess is None,
            on_click=_reveal,
            args=(now.key, now.result, now.corpus),
        )


def _explanation(now: _Round, config: BleuConfig, w: Lecture) -> None:
    """After the round: the verdict on the prediction, why, who makes the mistake, and the numbers."""
    result, corpus = now.result, now.corpus
    if now.answer is not None:
        v = lesson.verdict(now.answer["guess"], result, corpus)
        (st.success if v.right else st.warning)(v.headline)
    w.markdown(f"**Why:** {lesson.why(result, corpus)}")
    st.markdown(f"**Who does it:** {result.variant.who}")
    st.markdown(f"**The numbers:** {result.detail}")
    if now.variant == "sentence_bp":
        st.markdown(f"**Brevity penalties:** {_bp_line(corpus, config)}")
    scores.signature(_signature(config, corpus))
    if now.variant == "nltk":
        tables.grid(cached.nltk_table(now.which, config), key="learn.nltk_methods")


def _tally() -> None:
    answers = _answers()
    if answers:
        right = sum(a["right"] for a in answers.values())
        st.caption(f"Your predictions: {right} right of {len(answers)}.")
        st.button("Forget my predictions", key="learn.lab.forget", on_click=_forget)


def _every_variant(now: _Round, config: BleuConfig, *, game: bool) -> None:
    """Every variant's number on this corpus; in the game, only the rounds already answered (the others' numbers
    would give them away) until "Show all numbers"."""
    st.subheader("Every variant at a glance")
    table = now.table
    if game and now.which not in state.get(state.LAB_SHOW_ALL, set()):
        rows = lesson.answered(_answers().keys(), now.which, now.nltk)
        left = len(VARIANTS) - len(rows)
        if left:
            st.caption(
                f"{left} round{'s' * (left > 1)} on this corpus still to answer: each row appears once its round "
                "is answered (the table would give its number away)."
            )
            st.button("Show all numbers", key="learn.lab.show_all_button", on_click=_show_all, args=(now.which,))
        if not rows:
            return
        table = table.take(rows)
    tables.grid(table)
    scores.signature(
        _signature(config, now.corpus), what="The table (the correct BLEU's settings, one thing changed a row)"
    )
