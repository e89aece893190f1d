"""Input components: the shared sidebar of BLEU settings (bound to the URL so a link carries them)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

import streamlit as st

from bleu_app import samples
from bleu_core.engine.tokenizers import TOKENIZERS
from bleu_core.metrics.bleu import make_signature

from . import render, state

_SMOOTH_HELP = {
    "none": "No smoothing: any order with no match makes BLEU 0 (the paper).",
    "exp": "sacreBLEU's default (mteval's): the k-th order with no match counts 1/2^k matches.",
    "floor": "An order with no match counts the floor value (default 0.1) as its matches.",
    "add-k": "Adds k (default 1) to matches and totals of orders 2 and up.",
}


def tokenizer_options() -> list[str]:
    """Tokenizers this installation can run (ja-mecab and ko-mecab only with their optional packages)."""
    return state.tokenizer_options()


_SETTING_NAMES: Final = {
    state.PRESET: "preset",
    state.TOKENIZE: "tokenizer",
    state.LOWERCASE: "lowercase",
    state.MAX_ORDER: "max n-gram order",
    state.SMOOTH: "smoothing",
    state.SMOOTH_VALUE: "smoothing value",
    state.EFFECTIVE: "effective order",
}


def ignored_settings_note() -> None:
    """Say which settings of a link were not valid and were left at the page's preset (issue 24.7)."""
    ignored = st.session_state.get(state.URL_IGNORED) or []
    if ignored:
        parts = [f"{_SETTING_NAMES.get(k, k)} ({k}={render.md_escape(v)})" for k, v in ignored]
        st.warning(
            "The link's " + ", ".join(parts) + f" {'is' if len(parts) == 1 else 'are'} not a setting this app "
            "offers: the page's preset value is used instead.",
            icon=":material/link_off:",
        )


def settings_sidebar() -> None:
    """Render the BLEU settings in the sidebar. Every page reads them through ``state.config()``."""
    with st.sidebar:
        st.subheader("BLEU settings")
        ignored_settings_note()
        st.selectbox(
            "Preset",
            [*state.PRESETS, state.CUSTOM],
            key=state.PRESET,
            format_func=lambda k: state.PRESETS[k].label if k in state.PRESETS else "Custom",
            on_change=state.apply_preset,
            bind="query-params",
            help="\n\n".join(f"**{p.label}**: {p.description}" for p in state.PRESETS.values()),
        )
        st.selectbox(
            "Tokenizer",
            tokenizer_options(),
            key=state.TOKENIZE,
            on_change=state.mark_custom,
            bind="query-params",
            help="\n\n".join(f"**{t.name}**: {t.description}" for t in TOKENIZERS.values()),
        )
        st.toggle(
            "Lowercase",
            key=state.LOWERCASE,
            on_change=state.mark_custom,
            bind="query-params",
            help="Fold case before tokenizing (the paper ignores capitalisation).",
        )
        st.slider(
            "Max n-gram order N",
            1,
            9,
            key=state.MAX_ORDER,
            on_change=state.mark_custom,
            bind="query-params",
            help="The paper uses N = 4 with uniform weights 1/N (section 2.3): 4 gave the best correlation with "
            "monolingual human judgments, 3 and 5 comparable results (section 2.1.3).",
        )
        st.selectbox(
            "Smoothing",
            ["none", "exp", "floor", "add-k"],
            key=state.SMOOTH,
            on_change=state.mark_custom,
            bind="query-params",
            help="\n\n".join(f"**{k}**: {v}" for k, v in _SMOOTH_HELP.items()),
        )
        if st.session_state.get(state.SMOOTH) in ("floor", "add-k"):
            st.number_input(
                "Smoothing value",
                min_value=0.0,
                max_value=10.0,
                step=0.05,
                key=state.SMOOTH_VALUE,
                on_change=state.mark_custom,
                bind="query-params",
            )
        st.toggle(
            "Effective order",
            key=state.EFFECTIVE,
            on_change=state.mark_custom,
            bind="query-params",
            help="Leave out orders for which the candidate has no n-grams (the default of sacreBLEU's "
            "`sentence_bleu()`; its `BLEU().sentence_score` keeps it off).",
        )
        cfg = state.config()
        st.caption("Signature of these settings (each score adds its number of references)")
        settings_part = make_signature(cfg, 0).split("|", 1)[1]  # nrefs belongs to the data, not the settings
        st.code(settings_part.replace("|", " | "), language=None, wrap_lines=True)


# --- the sentence page's inputs ----------------------------------------------------------------------
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


# --- the learn page's exercise ------------------------------------------------------------------------
