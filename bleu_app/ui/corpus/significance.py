"""The compare page's significance test: its trials kept within what one session may hold (issue 24.1)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import cast

import streamlit as st

from bleu_app.ui import cached, memory, state
from bleu_core.config import BleuConfig
from bleu_core.data.corpus import Corpus
from bleu_core.metrics import Metric
from bleu_core.significance.families import FAMILIES, Family
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


FAMILY_WORDS: dict[str, str] = {
    "all": "against the baseline, Holm over all pairs",
    "baseline": "against the baseline, Holm over those only",
    "consecutive": "against the previous checkpoint",
}


def family() -> Family:
    """Which comparisons the rankings' ``*`` marks (the widget's, further down the page; all pairs at first)."""
    chosen = state.get(state.COMPARE_FAMILY)
    return cast(Family, chosen) if chosen in FAMILIES else "all"


def family_picker() -> None:
    """The choice of the marks' test: the CLI's default, ``--baseline-only`` or ``--consecutive``."""
    st.segmented_control(
        "Mark * by",
        list(FAMILIES),
        key=state.COMPARE_FAMILY,
        default="all",
        required=True,
        format_func=FAMILY_WORDS.__getitem__,
        help="Which comparison each system's * in the rankings (and the LaTeX ranking) is about: the CLI's "
        "default (every pair tested, as the clusters need), --baseline-only (Holm over the N-1 comparisons with "
        "the baseline) or --consecutive (checkpoints in natural order, each against the one before).",
    )
