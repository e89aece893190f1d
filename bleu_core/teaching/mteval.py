"""NIST mteval-v13a's sentence BLEU rule, for comparison with the paper's and sacreBLEU's.

``mteval-v13a.pl`` (NIST's scoring script; the copy read here is the one Moses ships) scores with its
``bleu_score`` unless given ``--no-smoothing``. For n = 1..4 it takes log p_n as:

- 0 when the candidate has no n-grams of that order (a 0/0 order counts as precision 1);
- log(1 / (2^i * total_n)) for the i-th order that has n-grams but no match (i = 1, 2, ...);
- log(matches_n / total_n) otherwise;

then ``exp(sum / 4) * BP`` with ``BP = exp(min(0, 1 - r / c))`` (0 when c = 0) and r the closest reference
length, ties to the shorter (its ``brevity_penalty_closest``). No order ends the computation early.
sacreBLEU's ``exp`` smoothing uses the same 1/2^i for 0/k orders but stops at the first 0/0 order, which then
counts as 0 (or is left out with effective order), so the two disagree on short sentences.

This module computes that rule from the app's own counts (its tokenization, not mteval's).
"""

from __future__ import annotations

import math

from bleu_core.engine.stats import SegmentStats

__all__ = ["MTEVAL_ORDER", "mteval_v13a_score"]

MTEVAL_ORDER = 4  # mteval reports BLEU over orders 1..4 whatever its internal maximum


def mteval_v13a_score(stats: SegmentStats) -> float | None:
    """mteval-v13a's default (smoothed) BLEU of one segment's counts, on 0-100; None when the counts stop
    below order 4 (mteval always uses four orders)."""
    if len(stats.matches) < MTEVAL_ORDER:
        return None
    c, r = stats.hyp_len, stats.ref_len
    if c == 0:
        return 0.0
    log_sum = 0.0
    smooth = 1
    for n in range(MTEVAL_ORDER):
        total, matches = stats.totals[n], stats.matches[n]
        if total == 0:
            continue  # log 1
        if matches == 0:
            smooth *= 2
            log_sum += math.log(1 / (smooth * total))
        else:
            log_sum += math.log(matches / total)
    bp = math.exp(min(0.0, 1 - r / c))
    return 100 * math.exp(log_sum / MTEVAL_ORDER) * bp
