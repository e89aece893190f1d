"""The sentence page's pieces: the candidate and references it explains (kept across page switches, mirrored into
the URL), the n-gram picked in its occurrence table, the tokens as scored and the what-if editor."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

import pandas as pd
import streamlit as st

from bleu_app import samples
from bleu_app.frames import sentence as fs
from bleu_app.ui import cached, state
from bleu_app.ui.components import highlight, scores
from bleu_core.config import BleuConfig
from bleu_core.errors import InputError

MAX_SENTENCE_CHARS: Final = 20_000  # one segment; a longer paste belongs on the corpus page


@dataclass(frozen=True, slots=True)
class SentenceInput:
    """What the sentence page explains.

    Attributes:
        hyp: the candidate as typed.
        refs: the non-blank references, in order.
        other_hyp: a second system's candidate (from the compare page), or None.
        label: where it came from ("" when typed).
        example: the paper example's key when the text is one of them unchanged, else "".
        too_long: the text exceeds ``MAX_SENTENCE_CHARS``.
        source: the source line of a sentence sent from a corpus page, or None.
    """

    hyp: str
    refs: tuple[str, ...]
    other_hyp: str | None
    label: str
    example: str
    too_long: bool
    source: str | None = None


def _load_example() -> None:
    s = samples.sample(state.get(state.EXAMPLE_PICK) or "")
    if s is not None:
        state.load_sentence(s.hyp, list(s.refs), example=s.key, label=s.label)


def _read_sources() -> None:
    """A handoff from another page wins; then, once per session, a shared link; then Example 1."""
    handoff = state.take_handoff()
    if handoff is not None:
        refs = [r for r in handoff.get("refs") or [] if isinstance(r, str)]
        other = handoff.get("other_hyp")
        source = handoff.get("source")
        state.load_sentence(
            handoff["hyp"],
            refs,
            other=other if isinstance(other, str) else None,
            label=str(handoff.get("label") or "sent from another page"),
            source=source if isinstance(source, str) else None,
        )
        return
    if state.first_url_read():
        qp = st.query_params
        hyp, refs = qp.get(state.URL_HYP), qp.get_all(state.URL_REF)
        if hyp is not None or refs:
            state.load_sentence(hyp or "", refs, label="from a shared link")
            return
        s = samples.sample(qp.get(state.URL_EXAMPLE) or "")
        if s is not None:
            state.load_sentence(s.hyp, list(s.refs), example=s.key, label=s.label)
            return
    if state.get(state.SENTENCE_HYP) is None:
        s = samples.sample(state.get(state.SENTENCE_EXAMPLE) or "ex1") or samples.SENTENCE_SAMPLES["ex1"]
        state.load_sentence(s.hyp, list(s.refs), example=s.key, label=s.label)
    state.restore_sentence_boxes()


def _write_url(hyp: str, refs: list[str], example: str) -> bool:
    """Put the example id, or short text, in the URL; returns whether the text fit."""
    qp = st.query_params
    for key in (state.URL_EXAMPLE, state.URL_HYP, state.URL_REF):
        if key in qp:
            del qp[key]
    if example:
        qp[state.URL_EXAMPLE] = example
        return True
    if len(hyp) + sum(len(r) for r in refs) > state.URL_TEXT_LIMIT:
        return False
    if hyp:
        qp[state.URL_HYP] = hyp
    if any(refs):
        qp[state.URL_REF] = [r for r in refs if r]
    return True


def _sample_buttons() -> None:
    st.caption("Samples: start blank, or load a short sentence that shows one of BLEU's behaviours.")
    row = st.columns(1 + len(samples.CLASSROOM_SAMPLES))
    row[0].button(
        "Start blank",
        key="sentence.blank",
        on_click=state.load_sentence,
        args=("", [""]),
        kwargs={"label": ""},
        help="One empty candidate and one empty reference: nothing of the example stays behind.",
        icon=":material/note_add:",
        width="stretch",
    )
    for col, (key, (label, sample_hyp, sample_refs)) in zip(row[1:], samples.CLASSROOM_SAMPLES.items(), strict=True):
        col.button(
            label,
            key=f"sentence.sample.{key}",
            on_click=state.load_sentence,
            args=(sample_hyp, list(sample_refs)),
            kwargs={"label": f"sample: {label}"},
            width="stretch",
        )


def _candidate_box() -> str:
    st.selectbox(
        "Load an example from the paper",
        list(samples.SENTENCE_SAMPLES),
        index=None,
        key=state.EXAMPLE_PICK,
        format_func=lambda k: samples.SENTENCE_SAMPLES[k].label,
        on_change=_load_example,
        placeholder="Pick one of the paper's examples ...",
    )
    hyp = st.text_area(
        "Candidate (the machine translation)",
        key=state.HYP_BOX,
        height=120,
        max_chars=MAX_SENTENCE_CHARS,
        help="Detokenized text, as a system outputs it. The sidebar's tokenizer splits it.",
    )
    return hyp or ""


def _reference_boxes() -> list[str]:
    refs = state.sentence_refs()
    st.markdown("**References** (BLEU clips each n-gram by its largest count in any single one of them)")
    for i in range(len(refs)):
        # the delete button only where there is another reference to keep, in a column wide enough for its icon
        box, btn = st.columns([6, 1], vertical_alignment="center", gap="small") if len(refs) > 1 else (st, None)
        refs[i] = (
            box.text_area(
                f"Reference {i + 1}",
                key=state.ref_box(i),
                height=68,
                max_chars=MAX_SENTENCE_CHARS,
                label_visibility="collapsed",
                placeholder=f"Reference {i + 1}",
            )
            or ""
        )
        if btn is not None:
            btn.button(
                "",
                icon=":material/delete:",
                key=f"sentence.del_ref.{i}",
                on_click=state.remove_sentence_ref,
                args=(i,),
                type="tertiary",
                help=f"Remove reference {i + 1}",
            )
    st.button("Add a reference", key="sentence.add_ref", icon=":material/add:", on_click=state.add_sentence_ref)
    return refs


def sentence_inputs() -> SentenceInput:
    """The candidate, any number of references (add/remove) and an example picker.

    Keeps the text in shared state (so it survives page switches), accepts a handoff from the corpus and
    compare pages, and mirrors the example id or short text into the URL so a link reproduces the page.
    """
    _read_sources()
    _sample_buttons()
    cand_col, refs_col = st.columns(2, gap="medium")
    with cand_col:
        hyp = _candidate_box()
    with refs_col:
        refs = _reference_boxes()
    example = state.keep_sentence(hyp, refs)
    too_long = len(hyp) + sum(len(r) for r in refs) > MAX_SENTENCE_CHARS
    fits = _write_url(hyp, refs, example)
    if not fits:
        st.caption("The text is too long to put in a link: a shared link carries the settings only.")
    label = state.get(state.SENTENCE_LABEL) or ""
    return SentenceInput(
        hyp=hyp,
        refs=tuple(r for r in refs if r.strip()),
        other_hyp=state.get(state.SENTENCE_OTHER_HYP),
        label=label,
        example=example,
        too_long=too_long,
        source=state.get(state.SENTENCE_SOURCE) if label else None,
    )


def selected_occurrence(event: object, df: pd.DataFrame, n: int) -> tuple[int, int] | None:
    """(start, n) of the occurrence selected in an ``occurrence_frame`` table, or None."""
    rows = getattr(getattr(event, "selection", None), "rows", None) or []
    if not rows or rows[0] >= len(df):
        return None
    return int(df.iloc[rows[0]][fs.START]) - 1, n


def tokens_line(tokens: tuple[str, ...]) -> None:
    """The tokens exactly as scored, separated by a visible middle dot (so tokenization shows)."""
    st.code(" · ".join(tokens) if tokens else "(no tokens)", language=None, wrap_lines=True)


@st.fragment
def whatif_editor(hyp: str, refs: tuple[str, ...], config: BleuConfig, *, key: str) -> None:
    """Edit the candidate and see every p_n, BP and BLEU change at once (reruns only this fragment).

    Args:
        hyp: the candidate being explained.
        refs: its references.
        config: the settings.
        key: the page-prefixed key of the edit box.
    """

    state.start_edit(key, hyp)
    edited = st.text_input("Change a word (or several) and press Enter", key=key)
    try:
        before = cached.explain(hyp, refs, config)
        after = cached.explain(edited or "", refs, config)
    except InputError as exc:
        scores.user_error(exc, what="What-if")
        return
    df = fs.whatif_frame(before, after)
    cols = st.columns(len(df))
    for col, row in zip(cols, df.itertuples(index=False), strict=True):
        label, after_v, delta = row[0], row[2], row[3]
        col.metric(str(label), f"{after_v:.3f}", delta=f"{delta:+.3f}" if delta else None, help=str(row[4]) or None)
    highlight.show_html(highlight.candidate_html(after, n=1))
    if edited == hyp:
        st.caption("Edit the text above: the numbers show the new values and the change from the original.")
