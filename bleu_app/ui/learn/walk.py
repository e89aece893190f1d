"""Part I of the Learn page: the walk through the paper's section 2, one function per step (``steps`` draws each
one's heading and opening prose, then calls it), so that the page can show them all or one at a time (presenter
mode, ``?step=KEY``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

import streamlit as st
from streamlit.delta_generator import DeltaGenerator

from bleu_app import samples
from bleu_app.frames import sentence as frames
from bleu_app.ui import cached, cached_after, state
from bleu_app.ui.components import highlight, scores, tables, vega
from bleu_app.ui.learn.lecture import Lecture
from bleu_core.metrics.bleu import make_signature
from bleu_core.teaching.explain import SegmentExplanation

__all__ = [
    "BUILDS",
    "arrive",
    "bigrams",
    "bigrams_slide",
    "brevity",
    "brevity_slide",
    "build_button_key",
    "build_key",
    "clipping",
    "clipping_slide",
    "corpus",
    "decay",
    "decay_slide",
    "edit_key",
    "geomean",
    "logdomain",
    "logdomain_slide",
    "plain",
    "plain_slide",
    "recall",
    "short",
    "typed_key",
    "zero",
]

ex3, ex4a, ex4b = samples.SENTENCE_SAMPLES["ex3"], samples.SENTENCE_SAMPLES["ex4"], samples.SENTENCE_SAMPLES["ex4c2"]
BUILDS: Final = frozenset({"clipping"})  # the steps that build word by word in presenter mode
EDIT_MAX_CHARS: Final = 200  # a sentence: a slide's clipping table stays a few rows
NO_WORDS: Final = "The candidate has no words to score: type a sentence, or press Reset for the paper's."


def edit_key(step: str) -> str:
    """The widget key of a step's editable candidate (one per step: the page shows the steps together)."""
    return f"learn.edit.{step}"


def typed_key(step: str) -> str:
    """The state key of what was typed in a step's editable candidate (the box's own key is :func:`edit_key`)."""
    return f"learn.typed.{step}"


def _typed(step: str) -> None:
    """on_change: keep what the box holds."""
    state.put(typed_key(step), state.get(edit_key(step)))


def _candidate_box(
    step: str, key: str, w: Lecture, *, slide: bool, split: Sequence[float] = (6, 1)
) -> tuple[str, SegmentExplanation, list[DeltaGenerator]] | None:
    """A step's editable candidate (issue 34: the control in the figure): a box holding the paper's candidate of
    example ``key`` and a Reset button back to it; what is typed, explained against the example's own references
    under the page's settings (the text and its explanation). It writes no setting, so an edit cannot change the
    rest of the lecture. None, after one line saying so, when the text has no token to score. ``split``: the widths
    of the box, the button and any more columns of the row (returned third, empty, for the caller to fill)."""
    paper, widget = samples.SENTENCE_SAMPLES[key].hyp, edit_key(step)
    # what was typed lives under a key of its own, given to the box on every run: a box that was off screen (another
    # step shown) comes back with an empty copy in the browser, which the next rerun sent back and took for the text
    typed = state.put_absent(typed_key(step), paper)
    state.put(widget, typed)
    box, reset, *more = st.columns(list(split), vertical_alignment="bottom")
    box.text_input(
        "The candidate: edit it",
        key=widget,
        max_chars=EDIT_MAX_CHARS,
        on_change=_typed,
        args=(step,),
        label_visibility="collapsed" if slide else "visible",
        help="Press Enter: the numbers follow. The references stay the paper's; the settings do not change.",
    )
    reset.button(
        "Reset",
        key=f"{widget}.reset",
        on_click=state.put,
        args=(typed_key(step), paper),
        disabled=typed == paper,
        type="tertiary" if slide else "secondary",  # a slide: no taller than the box beside it
        icon=":material/restart_alt:",
        help="Back to the paper's candidate",
        width="stretch",
    )
    expl = cached_after.edited(key, typed, w.config)
    if expl.hyp_len == 0:
        st.info(NO_WORDS, icon=":material/edit:")
        return None
    return typed, expl, more


def recall_card(label: str, expl: SegmentExplanation) -> None:
    """A candidate of Example 4 with its naive recall beside its precisions."""
    hit, total = frames.naive_recall(expl)
    st.markdown(f"**{label}**")
    highlight.show_html(highlight.candidate_html(expl, n=1))
    st.metric("Naive recall of reference words", f"{hit}/{total}")
    st.caption(scores.precision_summary(expl))


def plain(w: Lecture) -> None:
    if state.is_paper_config():
        with st.container(border=True):
            w.doc("counted")
    plain_slide(w)


def plain_slide(w: Lecture) -> None:
    """Example 2 and its plain precision (the page's box on what is counted is the notes')."""
    e2 = w.e2
    st.markdown("**Example 2.** The candidate and its two references:")
    # matched or not only: clipping (the next step) has no colour yet
    highlight.show_html(highlight.candidate_html(e2, n=1, plain=True) + highlight.references_html(e2, best_match=False))
    st.metric(
        "Plain precision (no clipping)",
        frames.fraction(*frames.plain_precision(e2, 1)),
        help="Every candidate word that occurs in some reference counts.",
    )


def build_key(step: str) -> str:
    """The state key of a step's build-up: how many candidate words are counted (None: all of them)."""
    return f"learn.build.{step}"


def arrive(step: str, *, forward: bool) -> None:
    """Presenter mode moved to ``step``: a build-up starts with no word counted when the lecture comes forward to
    it, and whole when it comes back (as slides build)."""
    if step in BUILDS:
        state.put(build_key(step), 0 if forward else None)


def _build_to(step: str, counted: int) -> None:
    """on_click of ◀ and ▶: ``counted`` words."""
    state.put(build_key(step), counted)


def build_button_key(step: str, which: str, to: int) -> str:
    """The widget key of a build's ◀ (``prev``) or ▶ (``next``) that goes to ``to`` words: one per place it goes, so
    that a click that reaches the server again after the count moved (a clicker's press the keys sent twice,
    ``present.KEYS_JS``) finds no such button and counts nothing (a button's callback takes the arguments of its
    last drawing: "one more" again)."""
    return f"learn.build_{which}.{step}.{to}"


def _counted(step: str, total: int) -> int:
    """How many words of a build-up are counted: every word when the state holds none (or more than the
    candidate has)."""
    at = state.get(build_key(step))
    return total if at is None else max(0, min(int(at), total))


def _build_buttons(step: str, total: int, counted: int, row: Sequence[DeltaGenerator], *, slide: bool) -> None:
    """◀ and ▶ in two columns of the candidate's row (a clicker's keys press them first: ``present.KEYS_JS``)."""
    back, on = row
    before, after = max(counted - 1, 0), min(counted + 1, total)
    back.button(
        "◀",
        key=build_button_key(step, "prev", before),
        disabled=counted <= 0,
        on_click=_build_to,
        args=(step, before),
        help="One word back",
        type="tertiary" if slide else "secondary",  # a slide: no taller than the box beside them
        width="stretch",
    )
    on.button(
        "▶",
        key=build_button_key(step, "next", after),
        disabled=counted >= total,
        on_click=_build_to,
        args=(step, after),
        help="Count the next word",
        type="tertiary" if slide else "secondary",
        width="stretch",
    )


def _clipped(w: Lecture, *, slide: bool) -> None:
    """Example 2 with its candidate editable and its clipping built word by word (issue 34: a reference word used
    up): the highlights, p₁ and the clipping table follow what is typed and how many words are counted (on a
    slide, no legend, and Example 1's two p₁ under p₁ once the table is whole: the slide stays one screen)."""
    left, right = st.columns([3, 1], vertical_alignment="center")
    with left:
        edited = _candidate_box("clipping", "ex2", w, slide=slide, split=(5, 1.2, 0.8, 0.8))
        if edited is None:
            return
        typed, e2, row = edited
        total = e2.orders[0].total
        counted = _counted("clipping", total)
        _build_buttons("clipping", total, counted, row, slide=slide)
        step = cached_after.clip_step("ex2", typed, w.config, counted)
        highlight.show_html(highlight.build_html(e2, step) + ("" if slide else highlight.legend_html(used=True)))
    whole = counted == total
    with right:
        st.metric(
            ("Modified p₁" if slide else "Modified precision p₁") if whole else "p₁ so far",
            frames.fraction(step.matches, counted) if counted else "–",
            help="Each word's count clipped by Max_Ref_Count."
            if whole
            else "Count_clip so far over the words counted.",
        )
        if slide and whole:
            c1, c2 = (frames.fraction(c.orders[0].matches, c.orders[0].total) for c in (w.c1, w.c2))
            st.caption(f"Example 1: **{c1}** and **{c2}**")
        else:
            st.caption(f"{counted} of {total} words counted")
    if whole:
        st.table(cached_after.edited_clip_table("ex2", typed, w.config, 1), hide_index=False)
    else:
        st.table(cached_after.built_clip_table("ex2", typed, w.config, counted), hide_index=False)


def clipping(w: Lecture) -> None:
    config, c1, c2 = w.config, w.c1, w.c2
    _clipped(w, slide=False)
    w.doc("clipping_edit")
    st.markdown("**Example 1.** The three references:")
    w.doc("clipping_example1")
    highlight.show_html(highlight.references_html(c1, best_match=False))
    st.markdown(
        f"**Candidate 1** — modified unigram precision "
        f"**p₁ = {frames.fraction(c1.orders[0].matches, c1.orders[0].total)}**"
    )
    highlight.show_html(highlight.legend_html() + highlight.candidate_html(c1, n=1))
    st.table(cached.clip_table("ex1", config, 1), hide_index=False)
    st.markdown(f"**Candidate 2** — **p₁ = {frames.fraction(c2.orders[0].matches, c2.orders[0].total)}**")
    highlight.show_html(highlight.candidate_html(c2, n=1))
    with st.expander("Candidate 2's clipping table"):
        st.table(cached.clip_table("ex1c2", config, 1), hide_index=False)


def clipping_slide(w: Lecture) -> None:
    """Example 2 clipped, its candidate editable (its table and p₁ follow), and Example 1's two p₁."""
    _clipped(w, slide=True)


def bigrams(w: Lecture) -> None:
    bigrams_slide(w)
    config = w.config
    with st.expander("The bigram clipping tables"):
        st.markdown("**Candidate 1**")
        st.table(cached.clip_table("ex1", config, 2), hide_index=False)
        st.markdown("**Candidate 2**")
        st.table(cached.clip_table("ex1c2", config, 2), hide_index=False)


def bigrams_slide(w: Lecture) -> None:
    """Both candidates' bigrams highlighted, with p₂ (and Example 2's)."""
    c1, c2, e2 = w.c1, w.c2, w.e2
    left, right = st.columns(2)
    with left:
        st.markdown(
            f"**Candidate 1: p₂ = {frames.fraction(c1.orders[1].matches, c1.orders[1].total)}**"
            if len(c1.orders) > 1
            else "Max order is 1: no bigrams."
        )
        highlight.show_html(highlight.candidate_html(c1, n=2))
    with right:
        st.markdown(
            f"**Candidate 2: p₂ = {frames.fraction(c2.orders[1].matches, c2.orders[1].total)}**"
            if len(c2.orders) > 1
            else ""
        )
        highlight.show_html(highlight.candidate_html(c2, n=2))
    if len(e2.orders) > 1:
        st.markdown(f"**Example 2: p₂ = {frames.fraction(e2.orders[1].matches, e2.orders[1].total)}**")


def corpus(w: Lecture) -> None:
    st.table(w.pooled, hide_index=False)


def decay(w: Lecture) -> None:
    config, c1, c2 = w.config, w.c1, w.c2
    left, right = st.columns(2)
    with left:
        st.markdown(f"**Candidate 1:** {scores.precision_summary(c1)}")
        vega.vega(cached.decay_spec("ex1", config, together=("ex1", "ex1c2")))
    with right:
        st.markdown(f"**Candidate 2:** {scores.precision_summary(c2)}")
        vega.vega(cached.decay_spec("ex1c2", config, together=("ex1", "ex1c2")))


def decay_slide(w: Lecture) -> None:
    """The two decay charts side by side (their p_n are on the chart; the lines above them are the page's)."""
    config = w.config
    left, right = st.columns(2)
    with left:
        vega.vega(cached.decay_spec("ex1", config, together=("ex1", "ex1c2")))
    with right:
        vega.vega(cached.decay_spec("ex1c2", config, together=("ex1", "ex1c2")))


def geomean(w: Lecture) -> None:
    c1, c2 = w.c1, w.c2
    for name, ex in (("Candidate 1", c1), ("Candidate 2", c2)):
        expr, geo = frames.geometric_mean(ex)
        geo_text = "0" if geo is None else f"{geo:.4f}"
        st.markdown(
            f"**{name}:** geometric mean {expr} = **{geo_text}**; arithmetic mean {frames.arithmetic_mean(ex):.4f}"
        )


def short(w: Lecture) -> None:
    e3 = w.e3
    st.markdown(f"**Example 3** — candidate *{ex3.hyp}*: {scores.precision_summary(e3)}")


def recall(w: Lecture) -> None:
    e4a, e4b = w.e4a, w.e4b
    left, right = st.columns(2)
    with left:
        recall_card(ex4a.label, e4a)
    with right:
        recall_card(ex4b.label, e4b)
    highlight.show_html(highlight.references_html(e4a, best_match=False))


def _bp_figure(w: Lecture, *, slide: bool) -> SegmentExplanation | None:
    """Example 3 with its candidate editable: c, r, BP and the candidate's BLEU beside the BP curve, all following
    what is typed (the references stay Example 1's); the explanation shown, or None when nothing can be scored."""
    left, right = st.columns([1, 1] if slide else [2, 3])
    with left:
        edited = _candidate_box("brevity", "ex3", w, slide=slide, split=(3, 1))
        if edited is None:
            return None
        e = edited[1]
        c, r = st.columns(2)
        c.metric("c (candidate)" if slide else "c (candidate length)", e.hyp_len)
        r.metric(
            "r (best match)" if slide else "r (best match length)",
            e.closest_ref_len,
            help=f"Reference lengths {list(e.ref_lens)}",
        )
        bp, bleu = st.columns(2)
        # which case of the formula applies (section 2.3): the label follows the typed length
        bp.metric("BP = 1 (c > r)" if e.hyp_len > e.closest_ref_len else "BP = exp(1 − r/c)", f"{e.score.bp:.5f}")
        bleu.metric("BLEU", f"{e.score.score:.2f}", help="sacreBLEU's 0-100 scale; the paper's 0-1 is this / 100.")
        # the precisions beside BLEU's signature: a BLEU of 0 is a p_n of 0 (the zero step says why)
        scores.signature(e.score.signature, what=f"{scores.precision_summary(e)} · BLEU")
    with right:
        vega.vega(cached.bp_spec(e.hyp_len, e.closest_ref_len))
    return e


def brevity_slide(w: Lecture) -> None:
    """Example 3's lengths, BP and BLEU beside the BP curve, its candidate editable (the references and the
    best-match table are the page's)."""
    _bp_figure(w, slide=True)


def brevity(w: Lecture) -> None:
    st.markdown(f"**Example 3** — candidate *{ex3.hyp}* and Example 1's references; edit the candidate:")
    e = _bp_figure(w, slide=False) or w.e3
    w.doc("brevity_edit")
    highlight.show_html(highlight.references_html(e))
    st.subheader("The best match length: 12, 15 and 17 words")
    w.doc("brevity_best_match")
    lens = samples.BEST_MATCH_EXAMPLE[1]
    st.table(cached.best_match_table(tuple(lens), (10, 12, 13, 14, 16, 17, 20)), hide_index=False)


def _corpus_vs_mean(w: Lecture) -> None:
    corpus, mean = cached.corpus_vs_mean(w.config)
    w.markdown(
        f"The toy corpus's BLEU is **{corpus:.2f}**. The mean of its six sentence scores, **{mean:.2f}**, is "
        "not BLEU: the sentences' counts are pooled first (step {step:corpus})."
    )


def logdomain(w: Lecture) -> None:
    config, c1 = w.config, w.c1
    log_spec, log_table = cached.log_terms("ex1", config)
    left, right = st.columns([3, 2])
    with left:
        vega.vega(log_spec)
    with right:
        st.markdown("**Candidate 1's terms**")
        st.table(log_table, hide_index=False)
        scores.score_headline("BLEU = exp(log BLEU)", c1.score)
        w.markdown("**The toy corpus's terms** (step {step:corpus})")
        st.table(cached.corpus_log_terms(config), hide_index=False)
        _corpus_vs_mean(w)


def logdomain_slide(w: Lecture) -> None:
    """Candidate 1's terms as bars beside its BLEU, and the toy corpus's BLEU against the mean of its sentences."""
    log_spec, _ = cached.log_terms("ex1", w.config)
    left, right = st.columns([3, 2])
    with left:
        vega.vega(log_spec)
    with right:
        scores.score_headline("Candidate 1: BLEU = exp(log BLEU)", w.c1.score)
        _corpus_vs_mean(w)


def zero(w: Lecture) -> None:
    """Each fix alone and both together: a data grid on the page, a large-type table on a slide (without the
    precisions column, which the page keeps)."""
    config = w.config
    table = w.zero_orders
    if state.presenting():
        table = table.drop_columns(["precisions"])
    tables.grid(table, key="learn.zero_orders")
    scores.signature(make_signature(config, 3))
