"""A score as the pages show it: BLEU on both scales with its signature right under it, the notes that qualify it
(effective order, a small test set) and the one-line messages for input that cannot be scored."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

import streamlit as st

from bleu_app import markup
from bleu_app.frames import answers as answer_frames, metrics as metric_frames
from bleu_app.frames.metrics import Shown
from bleu_app.ui import cached
from bleu_core.config import BleuConfig
from bleu_core.metrics.bleu import BleuScore, make_signature
from bleu_core.significance import testsize
from bleu_core.teaching.explain import SegmentExplanation


def score_headline(label: str, score: BleuScore, *, paper_scale: bool = True) -> None:
    """A metric with BLEU on both scales and the signature right under it."""
    value = f"{score.score:.2f}"
    if paper_scale:
        value += f"  ({score.score / 100:.4f})"
    st.metric(label, value, help="BLEU on sacreBLEU's 0-100 scale (the paper's 0-1 scale in brackets).")
    signature(score.signature)


def _effective_score(hyp: str, refs: tuple[str, ...], config: BleuConfig, score: BleuScore) -> BleuScore | None:
    """The sentence's score with effective order on, when the settings have it off and it changes the score as
    shown (2 decimals): sacreBLEU's ``sentence_bleu()`` default and the Corpus and Compare tables' sentence BLEU."""
    if config.use_effective_order:
        return None
    other = cached.explain(hyp, refs, replace(config, use_effective_order=True)).score
    return None if f"{other.score:.2f}" == f"{score.score:.2f}" else other


def effective_order_note(hyp: str, refs: tuple[str, ...], config: BleuConfig, score: BleuScore) -> None:
    """When effective order is off and turning it on changes this sentence's score (a candidate shorter than N
    tokens): that score too, with its signature. It is sacreBLEU's ``sentence_bleu()`` default and the sentence
    BLEU of the Corpus and Compare tables, so the number of the row that opened this page is found here
    (review 29: a row's 63.00 opened a page that said only 0.00)."""
    other = _effective_score(hyp, refs, config, score)
    if other is None:
        return
    st.caption(
        "With effective order (orders with no n-grams left out: sacreBLEU's `sentence_bleu()` default, and the "
        f"sentence BLEU of the Corpus and Compare tables) this sentence scores **{other.score:.2f}**. "
        + "Signature: "
        + _sig_md(other.signature)
    )


def effective_order_suffix(hyp: str, refs: tuple[str, ...], config: BleuConfig, score: BleuScore) -> str:
    """Markdown after a short score label: the effective-order score when it differs (see ``effective_order_note``),
    else nothing (review 29: a scatter point at B = 100 opened a page that said "B — BLEU 0.00")."""
    other = _effective_score(hyp, refs, config, score)
    return "" if other is None else f" (with effective order, as in the tables: {other.score:.2f})"


def size_note(
    n_segments: int, widths: list[float], config: BleuConfig, nrefs: int, *, signature: str | None = None
) -> None:
    """The small-test-set note (``bleu_core.significance.testsize``) under a score: a warning when the set is small,
    else a caption; with the intervals' signature (BLEU's under ``config``, or ``signature``: the note's widths
    are BLEU points, so another metric gives none)."""
    note = testsize.size_note(n_segments, widths)
    sig = signature or make_signature(config, nrefs, bs=1000, rs=12345)
    (st.warning if note.small else st.caption)(
        # wraps at " | ", not mid-word
        f"{markup.md_escape(note.text)}  \nIntervals: {markup.md_escape(sig.replace('|', ' | '))}"
    )


def signature(sig: str, *, what: str = "") -> None:
    """Show a signature as a quiet caption (theme text colour: inline code was faint in the dark theme);
    ``what`` names the number it belongs to when that is not the one right above."""
    st.caption((f"{what}: signature " if what else "Signature: ") + _sig_md(sig))


def _sig_md(sig: str) -> str:
    """A signature as Markdown text: spaced at its bars (it wraps there), its _ and * literal."""
    return sig.replace("|", " | ").replace("_", "\\_").replace("*", "\\*")


def user_error(exc: Exception, *, what: str) -> None:
    """Show an input problem as a one-line error, never a traceback."""
    st.error(f"{what}: {exc}", icon=":material/error:")


def warnings(items: list[str]) -> None:
    """One warning box per input problem."""
    for w in items:
        st.warning(w, icon=":material/warning:")


def answers(expl: SegmentExplanation, *, sidebar: bool = False) -> None:
    """What a student asks of a surprising score, answered under it: why it is 0 (or what smoothing did with a
    zero precision) and, for Chinese, Japanese, Korean or Thai references, which tokenizer to use."""
    why = answer_frames.why_zero(expl, sidebar=sidebar)
    if why:
        st.info(why, icon=":material/help:")
    hint = answer_frames.tokenizer_hint(expl, sidebar=sidebar)
    if hint:
        st.warning(hint, icon=":material/translate:")


def precision_summary(expl: SegmentExplanation) -> str:
    """``p1 17/18 · p2 10/17 · ...`` for a caption."""
    return " · ".join(f"p{o.n} = {o.matches}/{o.total}" for o in expl.orders)


def metric_cards(hyp: str, refs: tuple[str, ...], shown: Sequence[Shown], *, label: str = "Sentence") -> None:
    """A card per chosen metric (chrF, TER: not BLEU, whose card is the page's own): the sentence's score as
    sacreBLEU's ``sentence_chrf`` / ``sentence_ter`` give it, with our signature and sacreBLEU's."""
    if not shown:
        return
    cols = st.columns(max(len(shown), 3))
    for col, s in zip(cols, shown, strict=False):
        with col:
            value = cached.sentence_score(hyp, refs, s)
            lower = " Lower is better." if not s.metric.higher_is_better else ""
            st.metric(
                f"{label} {s.name}",
                f"{value:.2f}",
                help=f"sacreBLEU's sentence_{s.metric.sacrebleu_name}() with its default options.{lower}",
            )
            ours, theirs = metric_frames.signatures(s.metric, len(refs))
            signature(ours)
            if theirs is not None:
                signature(theirs, what="sacreBLEU")


def metric_scores_text(hyp: str, refs: tuple[str, ...], shown: Sequence[Shown]) -> str:
    """`` · chrF2 45.67 · TER 50.00``: the chosen metrics' sentence scores after a short BLEU label."""
    return "".join(f" · {s.name} {cached.sentence_score(hyp, refs, s):.2f}" for s in shown)
