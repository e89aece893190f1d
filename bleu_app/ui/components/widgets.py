"""Input components: the shared sidebar of BLEU settings (bound to the URL so a link carries them), and the toggle
that puts a costly section on request."""

from __future__ import annotations

from typing import Final

import streamlit as st

from bleu_app import markup
from bleu_app.frames import metrics as metric_frames
from bleu_app.ui import state
from bleu_core.data.corpus import Corpus
from bleu_core.engine.tokenizers import TOKENIZERS
from bleu_core.metrics.bleu import make_signature

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
    ignored = state.get(state.URL_IGNORED) or []
    if ignored:
        parts = [f"{_SETTING_NAMES.get(k, k)} ({k}={markup.md_escape(v)})" for k, v in ignored]
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
        _smoothing_and_effective_order()
        _settings_signature()


METRIC_PAGES: Final = ("sentence", "corpus", "compare")
"""The pages that show the metrics chosen in the sidebar (Learn and Class teach BLEU)."""


def metrics_sidebar(page: str) -> None:
    """The metrics the page shows, chosen in the sidebar above the BLEU settings (the corpus pages and the sentence
    page: Learn and Class teach BLEU): every registered metric, and the loaded corpus's imported scores."""
    if page not in METRIC_PAGES:
        return
    corpus = state.get(state.CORPUS)
    options = metric_frames.options(corpus)
    state.metrics_box(options)
    with st.sidebar:
        st.multiselect(
            "Metrics",
            options,
            key=state.METRICS_BOX,
            format_func=metric_frames.label,
            on_change=state.choose_metrics,
            placeholder="BLEU when none is chosen",
            help="The scores each page shows, side by side: BLEU under the settings below, chrF and TER as "
            "sacreBLEU computes them by default, and segment scores imported on the Corpus or Compare page "
            "(the mean of the file's scores). Tables and charts name the metric they show.",
        )


def _smoothing_and_effective_order() -> None:
    """The settings' second half: smoothing (with its value where the method takes one) and effective order."""
    st.selectbox(
        "Smoothing",
        ["none", "exp", "floor", "add-k"],
        key=state.SMOOTH,
        on_change=state.mark_custom,
        bind="query-params",
        help="\n\n".join(f"**{k}**: {v}" for k, v in _SMOOTH_HELP.items()),
    )
    if state.get(state.SMOOTH) in ("floor", "add-k"):
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


def _settings_signature() -> None:
    """The signature of the settings as they stand (each score adds its number of references)."""
    cfg = state.config()
    st.caption("Signature of these settings (each score adds its number of references)")
    settings_part = make_signature(cfg, 0).split("|", 1)[1]  # nrefs belongs to the data, not the settings
    st.code(settings_part.replace("|", " | "), language=None, wrap_lines=True)


def on_request(what: str, corpus: Corpus, key: str, limit: int) -> bool:
    """A toggle for a costly section: on by default up to ``limit`` sentences, above that the user asks for it.
    Keyed per corpus (``key`` plus its digest), so a newly loaded corpus starts at its own default."""
    return st.toggle(
        f"{what} ({corpus.n_segments:,} sentences)",
        value=corpus.n_segments <= limit,
        key=f"{key}.{corpus.digest[:16]}",
        help=f"Shown at once up to {limit:,} sentences; above that on request.",
    )
