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

HYP_BOX: Final = "sentence.hyp_box"
EXAMPLE_PICK: Final = "sentence.example_pick"
MAX_SENTENCE_CHARS: Final = 20_000  # one segment; a longer paste belongs on the corpus page


def _ref_box(i: int) -> str:
    return f"sentence.ref_box.{i}"


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


def _load(
    hyp: str,
    refs: list[str],
    *,
    example: str = "",
    other: str | None = None,
    label: str = "",
    source: str | None = None,
) -> None:
    ss = st.session_state
    ss[state.SENTENCE_SOURCE] = source
    refs = refs or [""]
    old = len(ss.get(state.SENTENCE_REFS) or [])
    ss[state.SENTENCE_HYP] = hyp
    ss[state.SENTENCE_REFS] = list(refs)
    ss[state.SENTENCE_EXAMPLE] = example
    ss[state.SENTENCE_OTHER_HYP] = other
    ss[state.SENTENCE_LABEL] = label
    ss[HYP_BOX] = hyp
    for i, r in enumerate(refs):
        ss[_ref_box(i)] = r
    for i in range(len(refs), old):
        ss.pop(_ref_box(i), None)


def _load_example() -> None:
    s = samples.sample(st.session_state.get(EXAMPLE_PICK) or "")
    if s is not None:
        _load(s.hyp, list(s.refs), example=s.key, label=s.label)


def _add_ref() -> None:
    refs = _current_refs()
    refs.append("")
    st.session_state[state.SENTENCE_REFS] = refs
    st.session_state[_ref_box(len(refs) - 1)] = ""


def _remove_ref(i: int) -> None:
    refs = _current_refs()
    if len(refs) > 1:
        del refs[i]
        for j, r in enumerate(refs):
            st.session_state[_ref_box(j)] = r
        st.session_state.pop(_ref_box(len(refs)), None)
        st.session_state[state.SENTENCE_REFS] = refs


def _current_refs() -> list[str]:
    ss = st.session_state
    mirror = list(ss.get(state.SENTENCE_REFS) or [""])
    return [ss.get(_ref_box(i), r) or "" for i, r in enumerate(mirror)]


def _read_sources() -> None:
    """A handoff from another page wins; then, once per session, a shared link; then Example 1."""
    ss = st.session_state
    handoff = ss.get(state.HANDOFF)
    if isinstance(handoff, dict) and isinstance(handoff.get("hyp"), str):
        refs = [r for r in handoff.get("refs") or [] if isinstance(r, str)]
        other = handoff.get("other_hyp")
        source = handoff.get("source")
        _load(
            handoff["hyp"],
            refs,
            other=other if isinstance(other, str) else None,
            label=str(handoff.get("label") or "sent from another page"),
            source=source if isinstance(source, str) else None,
        )
        ss[state.HANDOFF] = None
        ss[state.SENTENCE_URL_READ] = True
        return
    if not ss.get(state.SENTENCE_URL_READ):
        ss[state.SENTENCE_URL_READ] = True
        qp = st.query_params
        hyp, refs = qp.get(state.URL_HYP), qp.get_all(state.URL_REF)
        if hyp is not None or refs:
            _load(hyp or "", refs, label="from a shared link")
            return
        s = samples.sample(qp.get(state.URL_EXAMPLE) or "")
        if s is not None:
            _load(s.hyp, list(s.refs), example=s.key, label=s.label)
            return
    if ss.get(state.SENTENCE_HYP) is None:
        s = samples.sample(ss.get(state.SENTENCE_EXAMPLE) or "ex1") or samples.SENTENCE_SAMPLES["ex1"]
        _load(s.hyp, list(s.refs), example=s.key, label=s.label)
    # Widget state is dropped when the page is not shown: restore the boxes from the mirror.
    ss.setdefault(HYP_BOX, ss.get(state.SENTENCE_HYP) or "")
    for i, r in enumerate(ss.get(state.SENTENCE_REFS) or [""]):
        ss.setdefault(_ref_box(i), r)


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


def sentence_inputs() -> SentenceInput:
    """The candidate, any number of references (add/remove) and an example picker.

    Keeps the text in shared state (so it survives page switches), accepts a handoff from the corpus and
    compare pages, and mirrors the example id or short text into the URL so a link reproduces the page.
    """
    _read_sources()
    ss = st.session_state
    st.caption("Samples: start blank, or load a short sentence that shows one of BLEU's behaviours.")
    row = st.columns(1 + len(samples.CLASSROOM_SAMPLES))
    row[0].button(
        "Start blank",
        key="sentence.blank",
        on_click=_load,
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
            on_click=_load,
            args=(sample_hyp, list(sample_refs)),
            kwargs={"label": f"sample: {label}"},
            width="stretch",
        )
    cand_col, refs_col = st.columns(2, gap="medium")
    with cand_col:
        st.selectbox(
            "Load an example from the paper",
            list(samples.SENTENCE_SAMPLES),
            index=None,
            key=EXAMPLE_PICK,
            format_func=lambda k: samples.SENTENCE_SAMPLES[k].label,
            on_change=_load_example,
            placeholder="Pick one of the paper's examples ...",
        )
        hyp = st.text_area(
            "Candidate (the machine translation)",
            key=HYP_BOX,
            height=120,
            help="Detokenized text, as a system outputs it. The sidebar's tokenizer splits it.",
        )
    refs = _current_refs()
    with refs_col:
        st.markdown("**References** (BLEU clips each n-gram by its largest count in any single one of them)")
        for i in range(len(refs)):
            # the delete button only where there is another reference to keep, in a column wide enough for its icon
            box, btn = st.columns([6, 1], vertical_alignment="center", gap="small") if len(refs) > 1 else (st, None)
            refs[i] = (
                box.text_area(
                    f"Reference {i + 1}",
                    key=_ref_box(i),
                    height=68,
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
                    on_click=_remove_ref,
                    args=(i,),
                    type="tertiary",
                    help=f"Remove reference {i + 1}",
                )
        st.button("Add a reference", key="sentence.add_ref", icon=":material/add:", on_click=_add_ref)

    hyp = hyp or ""
    ss[state.SENTENCE_HYP] = hyp
    ss[state.SENTENCE_REFS] = refs
    example = ss.get(state.SENTENCE_EXAMPLE) or ""
    s = samples.sample(example)
    if s is None or s.hyp != hyp or tuple(refs) != s.refs:
        example = ""
        ss[state.SENTENCE_EXAMPLE] = ""
        if s is not None and ss.get(state.SENTENCE_LABEL) == s.label:
            ss[state.SENTENCE_LABEL] = ""
    too_long = len(hyp) + sum(len(r) for r in refs) > MAX_SENTENCE_CHARS
    fits = _write_url(hyp, refs, example)
    if not fits:
        st.caption("The text is too long to put in a link: a shared link carries the settings only.")
    return SentenceInput(
        hyp=hyp,
        refs=tuple(r for r in refs if r.strip()),
        other_hyp=ss.get(state.SENTENCE_OTHER_HYP),
        label=ss.get(state.SENTENCE_LABEL) or "",
        example=example,
        too_long=too_long,
        source=ss.get(state.SENTENCE_SOURCE) if ss.get(state.SENTENCE_LABEL) else None,
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

    base_key = f"{key}.base"
    if st.session_state.get(base_key) != hyp:
        st.session_state[base_key] = hyp
        st.session_state[key] = hyp
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
