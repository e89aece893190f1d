"""The Learn page's caches beyond ``cached`` (at its size limit): the "After BLEU" steps (issue 33), fixed content
computed once per process, and the walk's editable candidates (issue 34), shared by every session that types the
same text."""

from __future__ import annotations

import pyarrow as pa
import streamlit as st

from bleu_app import markup, samples
from bleu_app.frames import after as frames, sentence as sentence_frames
from bleu_app.ui.cached import _N, _arrow, clip_table, example, explain
from bleu_core.config import BleuConfig
from bleu_core.teaching import clipbuild
from bleu_core.teaching.chrf_lab import ZERO_OVERLAP
from bleu_core.teaching.explain import SegmentExplanation

__all__ = [
    "built_clip_table",
    "chrf_lab",
    "chrf_table",
    "clip_step",
    "edited",
    "edited_clip_table",
    "people_table",
    "ter_table",
]


@st.cache_resource(max_entries=64, show_spinner=False)
def chrf_table(config: BleuConfig) -> pa.Table:
    """Sentence BLEU under the lecture's settings beside sentence chrF (read-only)."""
    return pa.Table.from_pandas(frames.chrf_frame(config))


@st.cache_resource(show_spinner=False)
def ter_table() -> tuple[pa.Table, dict[str, str]]:
    """TER's edits on Candidate 2 and the numbers the step quotes (read-only)."""
    return pa.Table.from_pandas(frames.ter_frame()), frames.ter_summary()


@st.cache_resource(show_spinner=False)
def people_table() -> pa.Table:
    """The share of judges expected to agree with a difference, per metric (read-only)."""
    return pa.Table.from_pandas(frames.people_frame())


@st.cache_resource(show_spinner=False)
def chrf_lab() -> tuple[pa.Table, pa.Table]:
    """The chrF prediction round: its answer (scores right and misimplemented) and its corpus (read-only)."""
    corpus = {"reference": list(ZERO_OVERLAP.references)}
    corpus |= {name: list(hyps) for name, hyps in ZERO_OVERLAP.systems[:2]}
    return pa.Table.from_pandas(frames.chrf_lab_frame()), pa.table(corpus)


def edited(key: str, hyp: str, config: BleuConfig) -> SegmentExplanation:
    """A paper example (``samples.SENTENCE_SAMPLES`` key) with its candidate replaced by ``hyp`` (the walk's
    editable candidates), explained against the example's own references: the example itself while ``hyp`` is the
    paper's text, else :func:`explain` (both cached)."""
    s = samples.SENTENCE_SAMPLES[key]
    return example(key, config) if hyp == s.hyp else explain(hyp, tuple(s.refs), config)


@st.cache_resource(max_entries=_N, show_spinner=False)
def edited_clip_table(key: str, hyp: str, config: BleuConfig, n: int) -> pa.Table:
    """:func:`clip_table` of :func:`edited` (the paper's table itself while ``hyp`` is the paper's text); typed
    n-grams Markdown-escaped, since a static table renders its cells as Markdown (``**x**`` would be bold)."""
    if hyp == samples.SENTENCE_SAMPLES[key].hyp:
        return clip_table(key, config, n)
    df = sentence_frames.clip_frame(edited(key, hyp, config), n)
    df[df.columns[0]] = df[df.columns[0]].map(markup.md_escape)
    return _arrow(df.set_index(df.columns[0]))


@st.cache_resource(max_entries=_N, show_spinner=False)
def _clip_steps(key: str, hyp: str, config: BleuConfig) -> tuple[clipbuild.ClipStep, ...]:
    """Every step of :func:`edited`'s unigram clipping, word by word (read-only)."""
    return tuple(clipbuild.clip_steps(edited(key, hyp, config), 1))


def clip_step(key: str, hyp: str, config: BleuConfig, counted: int) -> clipbuild.ClipStep:
    """:func:`edited`'s unigram clipping after its first ``counted`` words (all of them, past the last)."""
    steps = _clip_steps(key, hyp, config)
    return steps[max(0, min(counted, len(steps) - 1))]


@st.cache_resource(max_entries=_N, show_spinner=False)
def built_clip_table(key: str, hyp: str, config: BleuConfig, counted: int) -> pa.Table:
    """The clipping table after :func:`clip_step` (its n-grams Markdown-escaped, as :func:`edited_clip_table`'s)."""
    df = sentence_frames.build_clip_frame(edited(key, hyp, config), clip_step(key, hyp, config, counted))
    df[df.columns[0]] = df[df.columns[0]].map(markup.md_escape)
    return _arrow(df.set_index(df.columns[0]))
