"""What every session shows the same, built once per server process: the paper's examples under given settings.

A class opening the Learn page at once would otherwise explain the same six sentences, build the same frames
and validate the same Altair charts fifty times over. Everything here is a pure function of (example key,
settings, order), cached with ``st.cache_resource`` (global scope, no copy per hit): the values are read-only;
a page that wants to change one copies it first. Charts are cached as Vega-Lite specs (dicts) whose datasets
are already Arrow bytes, so a run only serializes them; Altair (and its schema validation) runs once per
(example, settings). The pages keep their own texts and order: only the data is shared. This is the paper
examples' only cache layer: nothing here wraps another cache (``cached`` holds what a user types or uploads).
"""

from __future__ import annotations

import math
from typing import Any

import pandas as pd
import pyarrow as pa
import streamlit as st

from bleu_app import samples
from bleu_app.charts import sentence as charts
from bleu_app.frames import lab as lab_frames, sentence as frames
from bleu_core.config import BleuConfig
from bleu_core.teaching.explain import SegmentExplanation, explain_segment
from bleu_core.teaching.variants import VARIANTS, VariantResult, run_variant

from . import render

# max_entries: 6 examples x a few settings in use at once; a teacher's class shares one or two settings.
_N = 256


@st.cache_resource(max_entries=_N, show_spinner=False)
def example(key: str, config: BleuConfig) -> SegmentExplanation:
    """A paper example (``samples.SENTENCE_SAMPLES`` key) explained under ``config``; raises ``InputError``
    (uncached) when the settings cannot score it."""
    s = samples.SENTENCE_SAMPLES[key]
    return explain_segment(s.hyp, list(s.refs), config)


def _short(label: str) -> str:
    return label.split(" (", maxsplit=1)[0]


def _paper_corpus_explained(config: BleuConfig) -> tuple[tuple[str, SegmentExplanation], ...]:
    """Each candidate of the paper's six-sentence corpus (``samples.PAPER_CORPUS``) with its explanation."""
    return tuple((_short(s.label), explain_segment(s.hyp, list(s.refs), config)) for s in samples.PAPER_CORPUS)


def _arrow(df: pd.DataFrame) -> pa.Table:
    """A frame for ``st.table``/``st.dataframe`` as Arrow (index kept): Streamlit then only writes its bytes
    instead of converting pandas on every run."""
    return pa.Table.from_pandas(df)


@st.cache_resource(max_entries=_N, show_spinner=False)
def clip_table(key: str, config: BleuConfig, n: int) -> pa.Table:
    """The clipping table of order ``n``, indexed by n-gram as ``render.clip_table`` shows it (read-only)."""
    df = frames.clip_frame(example(key, config), n)
    return _arrow(df.set_index(df.columns[0]))


@st.cache_resource(max_entries=_N, show_spinner=False)
def decay_spec(key: str, config: BleuConfig, together: tuple[str, ...] = ()) -> dict[str, Any]:
    """The p_n decay chart of an example as a Vega-Lite spec (read-only); with ``together`` (the examples shown
    beside it) every one of them gets the same y axis, from the power of ten below their smallest p_n > 0."""
    low = None
    if together:
        ps = [p for k in together for p in frames.precision_frame(example(k, config))[frames.P_SCORE] if p > 0]
        low = 10 ** math.floor(math.log10(min(ps))) if ps else None
    return render.vega_spec(charts.decay_chart(frames.precision_frame(example(key, config)), low=low))


@st.cache_resource(max_entries=_N, show_spinner=False)
def log_terms(key: str, config: BleuConfig) -> tuple[dict[str, Any], pa.Table]:
    """The log-domain chart (spec) and its table of terms (label -> value, 4 decimals) (read-only)."""
    logs = frames.log_terms_frame(example(key, config))
    return render.vega_spec(charts.log_terms_chart(logs)), _arrow(logs.set_index(frames.LABEL)[[frames.VALUE]].round(4))


@st.cache_resource(max_entries=_N, show_spinner=False)
def corpus_log_terms(config: BleuConfig) -> pa.Table:
    """The six-sentence corpus's log-domain terms (label -> value, 4 decimals) (read-only)."""
    logs = frames.corpus_log_terms_frame([e for _, e in _paper_corpus_explained(config)], config)
    return _arrow(logs.set_index(frames.LABEL)[[frames.VALUE]].round(4))


@st.cache_resource(max_entries=_N, show_spinner=False)
def corpus_vs_mean(config: BleuConfig) -> tuple[float, float]:
    """The six-sentence corpus's BLEU and the mean of its six sentence scores (0-100), under ``config``."""
    explained = [e for _, e in _paper_corpus_explained(config)]
    logs = frames.corpus_log_terms_frame(explained, config)
    total = logs.set_index(frames.LABEL).loc["log BLEU", frames.VALUE]
    corpus = 100 * math.exp(total) if math.isfinite(total) else 0.0
    return corpus, sum(e.score.score for e in explained) / len(explained)


@st.cache_resource(max_entries=_N, show_spinner=False)
def bp_spec(key: str, config: BleuConfig) -> dict[str, Any]:
    """The brevity-penalty curve with the example's point and its best match length (read-only spec)."""
    e = example(key, config)
    return render.vega_spec(
        charts.bp_curve_chart(frames.bp_curve_frame(e.closest_ref_len, c_max=e.hyp_len), frames.bp_points_frame(e))
    )


@st.cache_resource(max_entries=16, show_spinner=False)
def best_match_table(ref_lens: tuple[int, ...], candidate_lens: tuple[int, ...]) -> pa.Table:
    """The best-match-length table (c -> r, BP, BP with the shortest reference), 4 decimals (read-only)."""
    return _arrow(frames.best_match_frame(ref_lens, candidate_lens).set_index(frames.C).round(4))


@st.cache_resource(max_entries=_N, show_spinner=False)
def pooling_table(config: BleuConfig) -> pa.Table:
    """The six-sentence corpus: each candidate's counts and the pooled sums, indexed by sentence (read-only)."""
    return _arrow(frames.pooling_frame(_paper_corpus_explained(config)).set_index(frames.SENTENCE))


@st.cache_resource(max_entries=_N, show_spinner=False)
def zero_orders_table(keys: tuple[str, ...], config: BleuConfig) -> pa.Table:
    """Why Examples 3 and 4 score 0: each example under the what-if settings, 2 decimals (read-only)."""
    configs = frames.what_if_configs(config)
    cells = {
        _short(samples.SENTENCE_SAMPLES[k].label): {
            name: explain_segment(samples.SENTENCE_SAMPLES[k].hyp, list(samples.SENTENCE_SAMPLES[k].refs), c)
            for name, c in configs.items()
        }
        for k in keys
    }
    return _arrow(frames.zero_orders_frame(cells).round(2))


@st.cache_resource(max_entries=_N, show_spinner=False)
def nltk_table(which: str, config: BleuConfig) -> pa.Table:
    """NLTK's smoothing methods 0-4 on the lab's corpus, 2 decimals (read-only)."""
    hyps, refs = _lab_streams(which)
    methods = tuple(
        run_variant("nltk", list(hyps), [list(r) for r in refs], config, nltk_smoothing=m) for m in range(5)
    )
    return _arrow(frames.nltk_methods_frame(methods).round(2))


def _lab_streams(which: str) -> tuple[tuple[str, ...], tuple[tuple[str | None, ...], ...]]:
    corpus = lab_frames.CORPORA[which]
    return corpus.hyps, corpus.refs


@st.cache_resource(max_entries=_N, show_spinner=False)
def lab(which: str, config: BleuConfig, nltk_smoothing: int) -> tuple[tuple[VariantResult, ...], pa.Table]:
    """The misimplementation lab on one of its corpora (``frames.lab.CORPORA``: ``paper`` is all six candidates as
    one corpus): every variant's result in ``VARIANTS`` order and their table, 2 decimals (read-only)."""
    hyps, refs = _lab_streams(which)
    results = tuple(
        run_variant(k, list(hyps), [list(r) for r in refs], config, nltk_smoothing=nltk_smoothing) for k in VARIANTS
    )
    return results, _arrow(frames.variants_shown(results))
