"""The compare page's significance test: its trials kept within what one session may hold (issue 24.1)."""

from __future__ import annotations

from collections.abc import Sequence

import streamlit as st

from bleu_app.ui import cached, memory, state
from bleu_core.config import BleuConfig
from bleu_core.data.corpus import Corpus
from bleu_core.metrics import Metric
from bleu_core.significance.trials import TRIALS_OFFERED


def trials_in_budget(corpus: Corpus, metrics: Sequence[Metric] | BleuConfig, trials: int) -> int:
    """The significance test's trials, lowered with a note to what one session may hold (issue 24.1) with a pool
    of resamples per metric shown; the page stops with a message when not even the intervals' resamples fit."""
    n = len(corpus.systems)
    fit = memory.trials_that_fit(n, metrics, trials, TRIALS_OFFERED, cached.CI_DRAWS)
    need = memory.gib(memory.pool_bytes(n, metrics, max(trials, cached.CI_DRAWS)))
    budget = f"{memory.gib(memory.session_budget())}, 1/{memory.SESSION_SHARE} of this machine's memory"
    if fit is None:
        st.error(
            f"{n:,} systems are too many to compare here: even the intervals' {cached.CI_DRAWS:,} resamples need "
            f"about {need} of memory, more than one session may hold ({budget}). Load fewer systems.",
            icon=":material/error:",
        )
        st.stop()
    if fit < trials:
        state.put(state.COMPARE_TRIALS, fit)
        st.warning(
            f"{trials:,} trials over {n:,} systems would need about {need} of memory, more than one session may "
            f"hold ({budget}): the test below uses {fit:,} trials. Compare fewer systems to use more.",
            icon=":material/warning:",
        )
    return fit
