"""BLEU Explorer (placeholder frame until the app lands): the paper's Example 1, scored exactly."""

import streamlit as st

from bleu_core import BleuConfig, explain_segment
from bleu_core.paper import EXAMPLE_1

st.set_page_config(page_title="BLEU Explorer", layout="wide")
st.title("BLEU Explorer")
e = explain_segment(EXAMPLE_1.candidates[0], EXAMPLE_1.references, BleuConfig.paper())
st.metric("BLEU, Example 1, Candidate 1", f"{e.score.score / 100:.4f}")
st.caption(e.score.signature)
st.table([{"n": o.n, "p_n": f"{o.matches}/{o.total}"} for o in e.orders])
