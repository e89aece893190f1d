"""A-vs-B buckets as frames: BLEU by reference length and compare-mt's word-frequency F-measure, each cell with
its 95% bootstrap interval (sacreBLEU's draws of the bucket's sentences, 1,000 resamples, seed 12345)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from bleu_app.frames import corpus as fc
from bleu_core.config import BleuConfig
from bleu_core.data.wordfreq import FreqBucket, freq_buckets

BUCKET = "bucket"
ORDER = "order"
SIDE = "system"
VALUE = "value"
LOW = "95% low"
HIGH = "95% high"
COUNT = "count"

FREQ_BUCKET = "reference frequency"
REF_WORDS = "reference words"
OUT_A, OUT_B = "words in A", "words in B"
F_A, F_B, F_DIFF = "F A", "F B", "B - A"
F_A_LOW, F_A_HIGH, F_B_LOW, F_B_HIGH = "F A low", "F A high", "F B low", "F B high"
F_DIFF_LOW, F_DIFF_HIGH = "B - A low", "B - A high"
F_COLUMNS: tuple[str, ...] = (FREQ_BUCKET, REF_WORDS, OUT_A, OUT_B, F_A, F_A_LOW, F_A_HIGH, F_B, F_B_LOW, F_B_HIGH)
F_COLUMNS += (F_DIFF, F_DIFF_LOW, F_DIFF_HIGH)


def length_table(matrix_a: np.ndarray, matrix_b: np.ndarray, config: BleuConfig) -> pd.DataFrame:
    """``frames.corpus.pair_buckets`` by reference length with every cell's interval."""
    return fc.pair_buckets(matrix_a, matrix_b, config, intervals=True)


def freq_table(counts_a: np.ndarray, counts_b: np.ndarray) -> pd.DataFrame:
    """compare-mt's word-frequency buckets (``bleu_core.data.wordfreq``), A against B, one row per bucket."""
    rows = [_freq_row(b) for b in freq_buckets(counts_a, counts_b)]
    return pd.DataFrame(rows, columns=list(F_COLUMNS))


def _freq_row(b: FreqBucket) -> list[object]:
    return [b.label, b.ref_words, b.out_a, b.out_b, b.f_a, *b.f_a_ci, b.f_b, *b.f_b_ci, b.diff, *b.diff_ci]


def long(table: pd.DataFrame, bucket: str, count: str, sides: Sequence[tuple[str, str, str, str]]) -> pd.DataFrame:
    """A chart's long frame: one row per (bucket, side) with the value and its interval. ``sides``: (label,
    value column, low column, high column) per side.

    Example:
        >>> t = pd.DataFrame({"b": ["x"], "n": [3], "a": [1.0], "al": [0.5], "ah": [2.0]})
        >>> long(t, "b", "n", [("A", "a", "al", "ah")]).values.tolist()
        [['x', 0, 3, 'A', 1.0, 0.5, 2.0]]
    """
    rows = [
        {BUCKET: r[bucket], ORDER: k, COUNT: r[count], SIDE: label, VALUE: r[v], LOW: r[lo], HIGH: r[hi]}
        for k, (_, r) in enumerate(table.iterrows())
        for label, v, lo, hi in sides
    ]
    return pd.DataFrame(rows, columns=[BUCKET, ORDER, COUNT, SIDE, VALUE, LOW, HIGH])
