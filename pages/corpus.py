"""Placeholder until the corpus page lands."""

import streamlit as st

from bleu_app.ui import render, state
from bleu_core import explain_segment
from bleu_core.paper import EXAMPLE_1

st.title("corpus")
e = explain_segment(EXAMPLE_1.candidates[0], EXAMPLE_1.references, state.config())
render.score_headline("BLEU of the paper's Example 1, Candidate 1", e.score)
st.table([{"n": o.n, "p_n": render.fraction(o.matches, o.total)} for o in e.orders])
