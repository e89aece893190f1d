"""The cache of the compare page's permutation tests against segment-level human scores (a sibling of ``cached``,
which is at the size limit): keyed on the scores themselves, so the same data is tested once; and of the paper's
systems against its judges (Part II's chart)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd
import streamlit as st

from bleu_app.charts import paper as paper_charts
from bleu_app.frames import human_permutation as frames, part2
from bleu_app.ui import cached

__all__ = ["pairs_table", "systems_spec"]


@st.cache_data(max_entries=16, show_spinner="Permutation tests ...")
def pairs_table(gold: np.ndarray, metrics: dict[str, np.ndarray], trials: int, seed: int) -> pd.DataFrame:
    """Every pair of metrics tested against the human scores (``frames.human_permutation.pairs_frame``)."""
    return frames.pairs_frame(gold, metrics, trials=trials, seed=seed)


@st.cache_resource(show_spinner=False)
def systems_spec() -> dict[str, Any]:
    """Part II's chart of the paper's five systems (Tables 1 and 2): the paper's numbers, one spec per process."""
    return cached.vega_spec(paper_charts.systems_chart(part2.systems_frame()))
