"""n-gram extraction and clipped matching (the paper's section 2.1)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence

__all__ = ["Ngram", "clipped_matches", "max_ref_counts", "ngram_counts", "ngrams_of_order"]

Ngram = tuple[str, ...]


def ngrams_of_order(tokens: Sequence[str], n: int) -> list[Ngram]:
    """The n-grams of one order, in text order.

    Example:
        >>> ngrams_of_order(["a", "b", "c"], 2)
        [('a', 'b'), ('b', 'c')]
    """
    return [tuple(tokens[i : i + n]) for i in range(len(tokens) - n + 1)]


def ngram_counts(tokens: Sequence[str], max_order: int) -> Counter[Ngram]:
    """Counts of every n-gram of order 1..max_order (sacrebleu's ``extract_all_word_ngrams``).

    Example:
        >>> ngram_counts(["the", "the"], 2)
        Counter({('the',): 2, ('the', 'the'): 1})
    """
    toks = tuple(tokens)
    return Counter(toks[i : i + n] for n in range(1, max_order + 1) for i in range(len(toks) - n + 1))


def max_ref_counts(refs: Iterable[Sequence[str]], max_order: int) -> Counter[Ngram]:
    """For every n-gram, the largest count in any single reference (the paper's Max_Ref_Count).

    Example:
        >>> max_ref_counts([["the", "cat"], ["the", "the"]], 1)[("the",)]
        2
    """
    merged: Counter[Ngram] = Counter()
    for ref in refs:
        for ngram, count in ngram_counts(ref, max_order).items():
            if count > merged[ngram]:  # noqa: PLR1730 - a compare beats max() in this hot loop
                merged[ngram] = count
    return merged


def clipped_matches(hyp_counts: Counter[Ngram], ref_max: Counter[Ngram], max_order: int) -> tuple[list[int], list[int]]:
    """Per order: matches (sum of Count_clip = min(Count, Max_Ref_Count)) and totals (sum of Count).

    Example:
        >>> hyp = ngram_counts("the the the the the the the".split(), 1)
        >>> refs = max_ref_counts(["the cat is on the mat".split(), "there is a cat on the mat".split()], 1)
        >>> clipped_matches(hyp, refs, 1)
        ([2], [7])
    """
    correct = [0] * max_order
    total = [0] * max_order
    for ngram, count in hyp_counts.items():
        n = len(ngram) - 1
        total[n] += count
        ref = ref_max.get(ngram)
        if ref:
            correct[n] += count if count < ref else ref
    return correct, total
