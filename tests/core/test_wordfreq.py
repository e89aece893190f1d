"""bleu_core.data.wordfreq's per-sentence bucket counts, held against the plain definition (each word's bucket from
its frequency in the references: the first cutoff above it) on real WMT22 lines."""

from __future__ import annotations

from collections import Counter

from bleu_core.data.wordfreq import CUTOFFS, freq_bucket_counts, ref_frequencies


def _plain(hyp_tokens, ref_tokens, freq, cutoffs=CUTOFFS):
    k = len(cutoffs) + 1

    def bucket(f: int) -> int:
        return next((i for i, c in enumerate(cutoffs) if f < c), len(cutoffs))

    rows = []
    for hyp, ref in zip(hyp_tokens, ref_tokens, strict=True):
        row = [0] * (3 * k)
        h, r = Counter(hyp), Counter(ref)
        for w, c in r.items():
            row[3 * bucket(freq[w])] += min(c, h[w])
            row[3 * bucket(freq[w]) + 1] += c
        for w, c in h.items():
            row[3 * bucket(freq[w]) + 2] += c
        rows.append(row)
    return rows


def test_bucket_counts_equal_the_plain_definition(data_dir):
    root = data_dir / "wmt22-general-zh-en"
    ref = [line.split() for line in (root / "reference.A.en").read_text(encoding="utf-8").splitlines()]
    hyp = [line.split() for line in (root / "systems" / "Online-A.en").read_text(encoding="utf-8").splitlines()]
    freq = ref_frequencies([ref])
    got = freq_bucket_counts(hyp, ref, freq)
    assert got.tolist() == _plain(hyp, ref, freq)
    assert got.shape == (len(hyp), 3 * (len(CUTOFFS) + 1))
    assert got[:, 2::3].sum() == sum(len(h) for h in hyp)  # every output word lands in one bucket
