"""The cache of the Learn page's "After BLEU" steps (issue 33): fixed content, computed once per process and
shared by every session (a sibling of ``cached``, which is at the size limit)."""

from __future__ import annotations

import pyarrow as pa
import streamlit as st

from bleu_app.frames import after as frames
from bleu_core.config import BleuConfig
from bleu_core.teaching.chrf_lab import ZERO_OVERLAP

__all__ = ["chrf_lab", "chrf_table", "people_table", "ter_table"]


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
