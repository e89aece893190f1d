"""Sentence-level scores of many (hypothesis, references) pairs in one call, for any metric on the seam.

A metric on the seam (:class:`~bleu_core.metrics.base.Metric`) scores summed statistics, and a sentence's score
is the score of its own row: so the sentence scores of a whole corpus are :meth:`Metric.score_many` of the
per-segment statistics, one vectorised call after one pass of counting, instead of a ``sentence_*`` call per pair
(RL rewards, data filtering, the worst segments of a system). For chrF each score equals
:func:`bleu_core.metrics.chrf.sentence_chrf` of its pair, as sacreBLEU's ``sentence_score`` gives it; BLEU joins
with a BLEU metric set as ``sentence_bleu`` is (effective order on).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, cast

from bleu_core.engine.stats import check_streams

if TYPE_CHECKING:
    import numpy as np

    from .base import Metric

__all__ = ["sentence_scores"]


def sentence_scores(
    hypotheses: Sequence[str], references: Sequence[Sequence[str | None]], *, metric: Metric
) -> np.ndarray:
    """The sentence score of every segment: ``scores[i]`` is ``metric``'s score of hypothesis ``i`` against its
    references alone.

    Args:
        hypotheses: one string per segment.
        references: reference streams (``references[k][i]``: reference k of segment i; ``None`` where a segment
            has fewer references), as for the corpus functions.
        metric: the metric and its options, e.g. ``Chrf()`` or ``Chrf(word_order=2)`` for chrF++.

    Returns:
        A float64 array of one score per segment (0-100).

    Raises:
        InputError: streams of different lengths, a non-string line, a segment without references.

    Example:
        >>> from bleu_core.metrics.chrf import Chrf, sentence_chrf
        >>> hyps = ["The cat sat on a mat.", "A dog barked."]
        >>> refs = [["The cat sat on the mat.", "The dog barked."]]
        >>> scores = sentence_scores(hyps, refs, metric=Chrf())
        >>> [round(s, 4) for s in scores.tolist()]
        [65.8003, 73.4996]
        >>> scores.tolist() == [sentence_chrf(h, [r]).score for h, r in zip(hyps, refs[0])]
        True
    """
    hyps, streams = check_streams(hypotheses, references)
    # None marks a missing reference in sacreBLEU's streams (the seam's type leaves it out)
    return metric.score_many(metric.prepare(cast("list[list[str]]", streams)).stats(hyps))
