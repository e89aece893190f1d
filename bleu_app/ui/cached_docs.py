"""Document-level corpora for the compare page (issue 35): each document's segments joined into one segment, built
once per corpus and shared by every session that asks (a sibling of ``cached``, at its size limit)."""

from __future__ import annotations

import streamlit as st

from bleu_core.data.corpus import Corpus
from bleu_core.data.documents import join_documents

__all__ = ["joined"]


def _digest(corpus: Corpus) -> str:
    return corpus.digest


@st.cache_resource(max_entries=4, show_spinner=False, hash_funcs={Corpus: _digest})
def joined(corpus: Corpus) -> Corpus:
    """``corpus`` with each document as one segment (its segments joined by a space: d-BLEU, d-chrF); read-only.
    The corpus must carry its documents."""
    assert corpus.documents is not None
    return join_documents(corpus, corpus.documents)[0]
