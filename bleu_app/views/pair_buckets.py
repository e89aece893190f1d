"""The A-vs-B buckets as values: BLEU by reference length and compare-mt's word-frequency F-measure, A against
B, every cell with its 95% bootstrap interval; read by the compare page (``bleu_app.ui.corpus.difference``) and the
report (``bleu_app.report``), so the two cannot drift apart."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import altair as alt
import numpy as np
import pandas as pd

from bleu_app.charts import difference as charts
from bleu_app.frames import corpus as fc, pair_buckets as frames
from bleu_app.frames.names import labels
from bleu_core.config import BleuConfig
from bleu_core.data.corpus import Corpus
from bleu_core.data.wordfreq import freq_bucket_counts, ref_frequencies
from bleu_core.engine import tokenize_corpus
from bleu_core.metrics.bleu import make_signature

__all__ = ["FREQ_NOTE", "LENGTH_NOTE", "PairBucketsView", "pair_buckets_view"]

LENGTH_NOTE = (
    "Buckets of equal size by the best-match reference length of A's sentences; each cell is corpus BLEU on the "
    "bucket's sentences only, with its 95% interval (sacreBLEU's bootstrap: 1,000 resamples of the bucket's "
    "sentences, seed 12345; the same draws for A and B, so B − A's interval is that of the paired differences)."
)
FREQ_NOTE = (
    "compare-mt's word-frequency buckets: each word is bucketed by how often it occurs in all the references of "
    "this test set (compare-mt's cutoffs 1, 2, 3, 4, 5, 10, 100, 1000); per bucket the F-measure (percent) of "
    "the system's word matches against the first reference. A match is the clipped count of a word in a "
    "sentence (compare-mt aligns words by LCS instead). Intervals: 1,000 bootstrap resamples of the sentences, "
    "seed 12345, the same draws for A and B."
)


@dataclass(frozen=True)
class PairBucketsView:
    """The section: both tables, both charts, and the signature of the length buckets' BLEU.

    Attributes:
        a, b: the two systems.
        length: ``frames.corpus.pair_buckets(..., intervals=True)``.
        freq: ``frames.pair_buckets.freq_table``.
        length_chart, freq_chart: A and B per bucket with intervals.
        signature: the BLEU signature of the length buckets (with the resamples and seed).
    """

    a: str
    b: str
    length: pd.DataFrame
    freq: pd.DataFrame
    length_chart: alt.LayerChart | alt.FacetChart
    freq_chart: alt.LayerChart | alt.FacetChart
    signature: str


def _sides(a: str, b: str, pairs: tuple[tuple[str, str, str], tuple[str, str, str]]) -> list[tuple[str, str, str, str]]:
    (va, la, ha), (vb, lb, hb) = pairs
    return [(f"A: {a}", va, la, ha), (f"B: {b}", vb, lb, hb)]


def pair_buckets_view(
    corpus: Corpus, mats: Mapping[str, np.ndarray], config: BleuConfig, *, a: str, b: str
) -> PairBucketsView:
    """The section for systems ``a`` and ``b`` of ``corpus`` (``mats``: their statistics matrices)."""
    length = frames.length_table(mats[a], mats[b], config)
    ref_tokens = [tokenize_corpus(list(s), config.tokenize, lowercase=config.lowercase) for s in corpus.ref_streams]
    freq = ref_frequencies(ref_tokens)

    def counts(name: str) -> np.ndarray:
        hyp = tokenize_corpus(list(corpus.system(name).lines), config.tokenize, lowercase=config.lowercase)
        return freq_bucket_counts(hyp, ref_tokens[0], freq)

    table = frames.freq_table(counts(a), counts(b))
    (a_lo, a_hi), (b_lo, b_hi), _ = fc.PAIR_CI
    short = labels(list(corpus.names))  # the legends name A and B as every other chart does
    length_long = frames.long(
        length,
        fc.BUCKET,
        fc.COUNT,
        _sides(short[a], short[b], ((fc.BLEU_A, a_lo, a_hi), (fc.BLEU_B, b_lo, b_hi))),
    )
    freq_long = frames.long(
        table,
        frames.FREQ_BUCKET,
        frames.REF_WORDS,
        _sides(
            short[a],
            short[b],
            ((frames.F_A, frames.F_A_LOW, frames.F_A_HIGH), (frames.F_B, frames.F_B_LOW, frames.F_B_HIGH)),
        ),
    )
    return PairBucketsView(
        a,
        b,
        length,
        table,
        charts.pair_bucket_chart(length_long, x_title="reference length", y_title="BLEU"),
        charts.pair_bucket_chart(freq_long, x_title="word frequency in the references", y_title="F-measure"),
        make_signature(config, len(corpus.references), bs=fc.BUCKET_RESAMPLES, rs=fc.BUCKET_SEED),
    )
