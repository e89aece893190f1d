"""The compare page's document-level switch (issue 35, ``--doc-level`` in the CLI): with a corpus that carries its
documents (a WMT XML or JSONL upload), every score, interval and paired test below can take each document as one
segment; the rows the bootstrap resamples are then documents."""

from __future__ import annotations

import streamlit as st

from bleu_app.ui import cached_power
from bleu_core.data.corpus import Corpus

__all__ = ["switch"]


def switch(page: str, corpus: Corpus) -> Corpus:
    """The corpus the page scores: ``corpus``, or with the switch on its document-level corpus (offered only when
    the corpus has documents)."""
    docs = corpus.documents
    if docs is None:
        return corpus
    on = st.toggle(
        "Score documents, not segments (d-BLEU, d-chrF)",
        key=f"{page}.doc_level",
        help="Each document's segments joined by a space and scored as one segment, as bleu-explorer's --doc-level "
        "does; the paired tests then resample documents.",
    )
    if not on:
        return corpus
    joined = cached_power.joined(corpus)
    st.caption(
        f"Document level: {joined.n_segments:,} documents, each scored as one segment (its segments joined by a "
        "space); every interval and paired test below resamples documents, not segments (a document-block "
        "bootstrap)."
    )
    return joined
