"""The cache of the compare page's permutation tests against segment-level human scores (a sibling of ``cached``,
which is at the size limit): keyed on the scores themselves, so the same data is tested once."""

from __future__ import annotations

import numpy as np
import pandas as pd
import streamlit as st

from bleu_app.frames import human_permutation as frames

__all__ = ["pairs_table"]


@st.cache_data(max_entries=16, show_spinner="Permutation tests ...")
def pairs_table(gold: np.ndarray, metrics: dict[str, np.ndarray], trials: int, seed: int) -> pd.DataFrame:
    """Every pair of metrics tested against the human scores (``frames.human_permutation.pairs_frame``)."""
    return frames.pairs_frame(gold, metrics, trials=trials, seed=seed)
