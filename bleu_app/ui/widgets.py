"""Input components: the shared sidebar of BLEU settings (bound to the URL so a link carries them)."""

from __future__ import annotations

from importlib.util import find_spec

import streamlit as st

from bleu_core import TOKENIZERS, make_signature

from . import state

_SMOOTH_HELP = {
    "none": "No smoothing: any order with no match makes BLEU 0 (the paper).",
    "exp": "sacreBLEU's default (mteval's): the k-th order with no match counts 1/2^k matches.",
    "floor": "An order with no match counts the floor value (default 0.1) as its matches.",
    "add-k": "Adds k (default 1) to matches and totals of orders 2 and up.",
}


def tokenizer_options() -> list[str]:
    """Tokenizers this installation can run (ja-mecab only with its optional packages)."""
    return [t for t in TOKENIZERS if t != "ja-mecab" or find_spec("MeCab") is not None]


def settings_sidebar() -> None:
    """Render the BLEU settings in the sidebar. Every page reads them through ``state.config()``."""
    with st.sidebar:
        st.subheader("BLEU settings")
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
        st.toggle("Lowercase", key=state.LOWERCASE, on_change=state.mark_custom, bind="query-params",
                  help="Fold case before tokenizing (the paper ignores capitalisation).")
        st.slider("Max n-gram order N", 1, 9, key=state.MAX_ORDER, on_change=state.mark_custom,
                  bind="query-params", help="The paper uses N = 4 with uniform weights 1/N.")
        st.selectbox(
            "Smoothing",
            ["none", "exp", "floor", "add-k"],
            key=state.SMOOTH,
            on_change=state.mark_custom,
            bind="query-params",
            help="\n\n".join(f"**{k}**: {v}" for k, v in _SMOOTH_HELP.items()),
        )
        if st.session_state.get(state.SMOOTH) in ("floor", "add-k"):
            st.number_input("Smoothing value", min_value=0.0, max_value=10.0, step=0.05, key=state.SMOOTH_VALUE,
                            on_change=state.mark_custom, bind="query-params")
        st.toggle("Effective order", key=state.EFFECTIVE, on_change=state.mark_custom, bind="query-params",
                  help="Leave out orders for which the candidate has no n-grams (sacreBLEU's sentence default).")
        cfg = state.config()
        st.caption("Signature of these settings")
        st.code(make_signature(cfg, "n").replace("|", " | "), language=None, wrap_lines=True)
