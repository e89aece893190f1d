"""The corpus page's "BLEU by bucket" section: one system's BLEU by reference length and by length ratio c/r,
each bucket with its own bootstrap interval (sacreBLEU's 1,000 resamples of the bucket's lines, seed 12345)."""

from __future__ import annotations

import streamlit as st

from bleu_app.charts import corpus as charts
from bleu_app.frames import corpus as frames
from bleu_core.config import BleuConfig
from bleu_core.data.corpus import Corpus

from . import cached, difference, docs, render


def section(corpus: Corpus, system: str, config: BleuConfig) -> None:
    """Heading, explanation and the two bucket charts with their signature; above the compare page's limit
    for its A-vs-B buckets (``difference.BUCKETS_AUTO_SEGMENTS``) on request, as there: every bucket of both
    charts is resampled 1,000 times (10^8 draws at 50,000 lines, about a third of this page's server time after
    an upload), which every first draw would pay."""
    st.subheader("BLEU by bucket")
    st.caption(docs.text("buckets", "corpus"))
    what = "By reference length and by length ratio, with intervals"
    if not render.on_request(what, corpus, "corpus.buckets_on", difference.BUCKETS_AUTO_SEGMENTS):
        return
    b1, b2 = st.columns(2)
    b1.altair_chart(charts.bucket_chart(cached.bucket_frame(corpus, system, config, "ref_len"), "reference length"))
    b2.altair_chart(charts.bucket_chart(cached.bucket_frame(corpus, system, config, "ratio"), "length ratio c/r"))
    render.signature(frames.bucket_signature(config, cached.nrefs(corpus)))
