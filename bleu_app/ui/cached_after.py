"""The cache of the Learn page's "After BLEU" steps (issue 33): fixed content, computed once per process and
shared by every session (a sibling of ``cached``, which is at the size limit)."""

from __future__ import annotations

import pyarrow as pa
import streamlit as st

from bleu_app.frames import after as frames
from bleu_core.config import BleuConfig

__all__ = ["chrf_table", "people_table", "ter_table"]


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
