"""The compare page's test-set caches (issue 35), a sibling of ``cached`` (at its size limit): the minimum detectable
difference, read from the page's one pool of BLEU resamples so that it draws nothing of its own, the A-vs-B
sentences by their share of the gap, and the document-level corpus of a WMT upload."""

from __future__ import annotations

import numpy as np
import pandas as pd
import streamlit as st

from bleu_app.frames import difference as difference_frames
from bleu_app.frames.metrics import Shown
from bleu_app.ui.cached import _WHOLE, CI_DRAWS, DEFAULT_SEED, matrices, nrefs, pair_frame, resampled
from bleu_core.config import BleuConfig
from bleu_core.data.corpus import Corpus
from bleu_core.data.documents import join_documents
from bleu_core.metrics import Bleu
from bleu_core.significance.power import Power, power_analysis

__all__ = ["joined", "pair_by_share", "pair_power"]


@st.cache_data(max_entries=16, scope="session", show_spinner=False, hash_funcs=_WHOLE)
def pair_power(corpus: Corpus, a: str, b: str, config: BleuConfig, pool: int = CI_DRAWS) -> Power:
    """B against A's minimum detectable difference at 80% power (1,000 resamples, seed 12345: Card et al. 2020),
    read from the page's pool of BLEU resamples (``pool``: ``cached.pool_size``), drawn once for every system: the
    first 1,000 rows of a pool are the draws ``power_analysis`` makes for these two systems with that seed."""
    mats, shown = matrices(corpus, config), Shown("bleu", Bleu(config))
    width, names = shown.metric.width, list(mats)
    sums = resampled(corpus, shown, pool, DEFAULT_SEED)
    cols = [sums[:CI_DRAWS, names.index(n) * width : (names.index(n) + 1) * width] for n in (a, b)]
    return power_analysis(mats[a], [mats[b]], config, nrefs=nrefs(corpus), resampled=np.hstack(cols))[0]


def _digest(corpus: Corpus) -> str:
    return corpus.digest


@st.cache_resource(max_entries=4, show_spinner=False, hash_funcs={Corpus: _digest})
def joined(corpus: Corpus) -> Corpus:
    """``corpus`` with each document as one segment (its segments joined by a space: d-BLEU, d-chrF), for the
    compare page's document-level switch; read-only. The corpus must carry its documents."""
    assert corpus.documents is not None
    return join_documents(corpus, corpus.documents)[0]


@st.cache_data(max_entries=16, scope="session", show_spinner=False, hash_funcs=_WHOLE)
def pair_by_share(corpus: Corpus, a: str, b: str, config: BleuConfig) -> pd.DataFrame:
    """``cached.pair_frame`` with each sentence's share of the gap B - A, sorted by it (``frames.difference``)."""
    mats = matrices(corpus, config)
    return difference_frames.by_share(pair_frame(corpus, a, b, config), mats[a], mats[b], config)
