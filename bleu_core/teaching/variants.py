"""Named, labelled misimplementations of BLEU, each computed exactly, for teaching.

Each variant changes one thing and keeps the rest right, so the difference from the correct number is
that one mistake's doing. ``nltk`` is not a mistake but a different convention: it reproduces
``nltk.translate.bleu_score.corpus_bleu`` exactly on the same tokens, so the app can show why NLTK's
number differs from sacrebleu's.
"""

from __future__ import annotations

import math
import sys
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from functools import lru_cache
from typing import Final

import numpy as np

from bleu_core.config import BleuConfig
from bleu_core.engine.ngrams import ngram_counts, ngrams_of_order
from bleu_core.engine.stats import check_streams, closest_ref_len
from bleu_core.engine.tokenizers import preprocessor
from bleu_core.errors import InputError
from bleu_core.metrics.bleu import corpus_score, score_from_stats, score_many

__all__ = ["VARIANTS", "Tokenized", "Variant", "VariantResult", "run_variant", "tokenize_corpus"]


@dataclass(frozen=True, slots=True)
class Tokenized:
    """A tokenized corpus: candidate tokens and, per segment, the tokens of each reference."""

    hyps: tuple[tuple[str, ...], ...]
    refs: tuple[tuple[tuple[str, ...], ...], ...]


def tokenize_corpus(
    hypotheses: Sequence[str], references: Sequence[Sequence[str | None]], config: BleuConfig
) -> Tokenized:
    """Validate and tokenize a corpus given as sacrebleu streams."""
    hyps, streams = check_streams(hypotheses, references)

    tok = preprocessor(config.tokenize, lowercase=config.lowercase)

    return Tokenized(
        tuple(tok(h) for h in hyps),
        tuple(tuple(tok(r) for r in seg if r is not None) for seg in zip(*streams, strict=True)),
    )


@dataclass(frozen=True, slots=True)
class Variant:
    """A labelled variant.

    Attributes:
        key: its id.
        label: a short name.
        mistake: one sentence: what it does differently from the paper.
        who: who does it.
        compute: (tokenized corpus, config, nltk smoothing method) -> (score 0-100, detail).
    """

    key: str
    label: str
    mistake: str
    who: str
    compute: Callable[[Tokenized, BleuConfig, int], tuple[float, str]]


@dataclass(frozen=True, slots=True)
class VariantResult:
    """A variant's number beside the correct one.

    Attributes:
        variant: which variant.
        score: its BLEU (0-100).
        correct: corpus BLEU under the same config (0-100).
        detail: what it computed differently, with the numbers.
    """

    variant: Variant
    score: float
    correct: float
    detail: str

    @property
    def difference(self) -> float:
        """score - correct, in BLEU points."""
        return self.score - self.correct


def _clip_stats(data: Tokenized, order: int, clip: str) -> tuple[list[int], list[int], int, list[int]]:
    """Corpus matches/totals/c and per-segment closest r, with a given clipping rule."""
    correct, total, sys_len, closest = _counts(data, order).clip[clip]
    return list(correct), list(total), sys_len, list(closest)


@dataclass(frozen=True, slots=True)
class _Counts:
    """What the variants count, from one pass over a tokenized corpus.

    Attributes:
        clip: per clipping rule (max, none, sum): corpus matches, totals, c and each segment's closest r.
        rows: each segment's statistics row under max clipping (``stats.SegmentStats`` order).
        nltk_den: NLTK's corpus denominators: the sum over segments of ``max(1, total_n)``.
    """

    clip: dict[str, tuple[tuple[int, ...], tuple[int, ...], int, tuple[int, ...]]]
    rows: tuple[tuple[int, ...], ...]
    nltk_den: tuple[int, ...]


@lru_cache(maxsize=2)
def _counts(data: Tokenized, order: int) -> _Counts:
    # One pass for every variant of a corpus (and every_bleu's rows), kept for the last two corpora.
    rules = ("max", "none", "sum")
    correct = {rule: [0] * order for rule in rules}
    total = [0] * order
    nltk_den = [0] * order
    sys_len, closest, rows = 0, [], []
    for hyp, refs in zip(data.hyps, data.refs, strict=True):
        hc = ngram_counts(hyp, order)
        rcs = [ngram_counts(r, order) for r in refs]
        seg_correct, seg_total = [0] * order, [0] * order
        for g, c in hc.items():
            n = len(g) - 1
            seg_total[n] += c
            counts = [rc.get(g, 0) for rc in rcs]
            seg_correct[n] += min(c, max(counts, default=0))
            correct["none"][n] += c if any(counts) else 0
            correct["sum"][n] += min(c, sum(counts))
        r = closest_ref_len(len(hyp), [len(x) for x in refs])
        for n in range(order):
            correct["max"][n] += seg_correct[n]
            total[n] += seg_total[n]
            nltk_den[n] += max(1, seg_total[n])
        sys_len += len(hyp)
        closest.append(r)
        rows.append((len(hyp), r, *seg_correct, *seg_total))
    clip = {rule: (tuple(correct[rule]), tuple(total), sys_len, tuple(closest)) for rule in rules}
    return _Counts(clip, tuple(rows), tuple(nltk_den))


def _score(correct: Sequence[float], total: Sequence[float], c: int, r: float, config: BleuConfig) -> float:
    return score_from_stats(correct, total, c, r, config).score  # type: ignore[arg-type]


def _shortest(data: Tokenized, config: BleuConfig, _: int) -> tuple[float, str]:
    correct, total, c, closest = _clip_stats(data, config.max_ngram_order, "max")
    r = sum(min((len(x) for x in refs), default=0) for refs in data.refs)
    return _score(correct, total, c, r, config), f"r = {r} (sum of shortest) instead of {sum(closest)} (closest)"


def _average(data: Tokenized, config: BleuConfig, _: int) -> tuple[float, str]:
    correct, total, c, closest = _clip_stats(data, config.max_ngram_order, "max")
    r = sum(sum(len(x) for x in refs) / len(refs) for refs in data.refs)
    return _score(correct, total, c, r, config), f"r = {r:g} (sum of averages) instead of {sum(closest)} (closest)"


def _no_clip(data: Tokenized, config: BleuConfig, _: int) -> tuple[float, str]:
    correct, total, c, closest = _clip_stats(data, config.max_ngram_order, "none")
    right = _clip_stats(data, config.max_ngram_order, "max")[0]
    return _score(correct, total, c, sum(closest), config), (
        f"p_1 = {correct[0]}/{total[0]} unclipped instead of {right[0]}/{total[0]}"
    )


def _sum_clip(data: Tokenized, config: BleuConfig, _: int) -> tuple[float, str]:
    correct, total, c, closest = _clip_stats(data, config.max_ngram_order, "sum")
    right = _clip_stats(data, config.max_ngram_order, "max")[0]
    return _score(correct, total, c, sum(closest), config), (
        f"p_1 = {correct[0]}/{total[0]} clipped by the sum over references instead of {right[0]}/{total[0]} (max)"
    )


def _arith(data: Tokenized, config: BleuConfig, _: int) -> tuple[float, str]:
    correct, total, c, closest = _clip_stats(data, config.max_ngram_order, "max")
    s = score_from_stats(correct, total, c, sum(closest), config)
    eff = s.eff_order or config.max_ngram_order
    weights = (config.weights or (1.0 / eff,) * eff)[:eff]
    if sum(weights) == 0:  # as score_from_stats: only zero-weight orders are left, weigh them alike
        weights = (1.0,) * eff
    mean = sum(w * p for w, p in zip(weights, s.precisions[:eff])) / sum(weights)
    geo = s.score / s.bp if s.bp else 0.0
    return s.bp * mean, f"arithmetic mean of p_n = {mean:.2f} instead of geometric {geo:.2f}"


def _sent_bp(data: Tokenized, config: BleuConfig, _: int) -> tuple[float, str]:
    correct, total, c, closest = _clip_stats(data, config.max_ngram_order, "max")
    geo = _score(correct, total, c, 0, config)  # r = 0: BP = 1, the geometric mean alone
    bps = []
    for hyp, r in zip(data.hyps, closest, strict=True):
        ci = len(hyp)
        bps.append(1.0 if ci > r else (math.exp(1 - r / ci) if ci else 0.0))
    mean_bp = float(np.mean(bps)) if bps else 0.0
    right_bp = score_from_stats(correct, total, c, sum(closest), config).bp
    return geo * mean_bp, f"BP = {mean_bp:.4f} (mean of sentence BPs) instead of {right_bp:.4f} (corpus)"


def _mean_sentence(data: Tokenized, config: BleuConfig, _: int) -> tuple[float, str]:
    # One change: each sentence is scored with the given settings, effective order as they say (the lecture's
    # 8.41 on the paper's six candidates); the detail gives the mean with effective order too, sacreBLEU's
    # sentence_bleu default, which moves it (25.09 there: "of the" scores on its two orders instead of 0).
    rows = _counts(data, config.max_ngram_order).rows
    stats = np.array(rows, dtype=np.int64)
    scores = score_many(stats, config) if rows else np.zeros(0)
    smoothing = "no smoothing" if config.smooth_method == "none" else f"{config.smooth_method} smoothing"
    order = "with" if config.use_effective_order else "without"
    detail = f"mean of {len(scores)} sentence BLEUs ({order} effective order, {smoothing})"
    if rows and not config.use_effective_order:
        other = float(score_many(stats, replace(config, use_effective_order=True)).mean())
        detail += f"; with effective order, as sacreBLEU's sentence_bleu scores a sentence, the mean is {other:.2f}"
    return float(scores.mean()) if len(scores) else 0.0, detail


def _double_count(data: Tokenized, config: BleuConfig, _: int) -> tuple[float, str]:
    # _ARTICLE's modified_precision loops over word *occurrences* and adds the type's whole count each
    # time: a type seen c times adds c*min(c, m) to the numerator and c*c to the denominator.
    order = config.max_ngram_order
    correct, total = [0] * order, [0] * order
    sys_len, closest = 0, []
    for hyp, refs in zip(data.hyps, data.refs, strict=True):
        for n in range(1, order + 1):
            hc = Counter(ngrams_of_order(hyp, n))
            rcs = [Counter(ngrams_of_order(r, n)) for r in refs]
            for g, cnt in hc.items():
                m = max((rc.get(g, 0) for rc in rcs), default=0)
                correct[n - 1] += cnt * min(cnt, m)
                total[n - 1] += cnt * cnt
        sys_len += len(hyp)
        closest.append(closest_ref_len(len(hyp), [len(r) for r in refs]))
    return _score(correct, total, sys_len, sum(closest), config), (
        f"p_1 = {correct[0]}/{total[0]} ({total[0]} = the sum of c×c over each candidate's word types; "
        f"the right denominator is its {sys_len} words)"
    )


def nltk_corpus_bleu(data: Tokenized, weights: Sequence[float], method: int, epsilon: float = 0.1, k: int = 5) -> float:
    """``nltk.translate.bleu_score.corpus_bleu`` (NLTK 3.9/3.10) on these tokens, 0-1 scale.

    Reproduces its arithmetic: each segment's denominator is ``max(1, count)``; smoothing is applied to
    the corpus precisions; method 0 replaces a zero precision by ``sys.float_info.min`` (so the score is
    tiny, not 0); method 4 uses the corpus candidate length.
    """
    order = len(weights)
    # NLTK clips as the paper (num), takes the closest reference length with ties to the shorter (as
    # sacrebleu) and counts max(1, total) per segment in the denominator
    counts = _counts(data, order)
    num, _, hyp_lengths, closest = counts.clip["max"]
    den, ref_lengths = counts.nltk_den, sum(closest)
    if hyp_lengths > ref_lengths:
        bp = 1.0
    elif hyp_lengths == 0:
        bp = 0.0
    else:
        bp = math.exp(1 - ref_lengths / hyp_lengths)
    if num[0] == 0:
        return 0.0
    p: list[float | Fraction] = [Fraction(a, b) for a, b in zip(num, den)]
    if method == 0:
        p = [x if a != 0 else sys.float_info.min for x, a in zip(p, num)]
    elif method == 1:
        p = [(a + epsilon) / b if a == 0 else x for x, a, b in zip(p, num, den)]
    elif method == 2:
        p = [p[0], *(Fraction(a + 1, b + 1) for a, b in zip(num[1:], den[1:]))]
    elif method == 3:
        inc = 1
        for i, a in enumerate(num):
            if a == 0:
                p[i] = 1 / (2**inc * den[i])
                inc += 1
    elif method == 4:
        inc = 1
        for i, a in enumerate(num):
            if a == 0 and hyp_lengths > 1:
                p[i] = (1 / (2**inc * k / math.log(hyp_lengths))) / den[i]
                inc += 1
    else:
        raise InputError(f"NLTK smoothing method must be 0-4, got {method}", "nltk_smoothing")
    s = (w * math.log(x) for w, x in zip(weights, p) if x > 0)
    return bp * math.exp(math.fsum(s))


def _nltk(data: Tokenized, config: BleuConfig, method: int) -> tuple[float, str]:
    order = config.max_ngram_order
    weights = config.weights or (1 / order,) * order
    if config.weights is None and order == 4:
        weights = (0.25, 0.25, 0.25, 0.25)
    return 100 * nltk_corpus_bleu(data, weights, method), (
        f"NLTK corpus_bleu, SmoothingFunction().method{method}: empty orders count 1 in the denominator"
        + (", a zero precision becomes 2.2e-308 instead of 0" if method == 0 else "")
    )


# Where four of the mistakes below come from (a tutorial; its title, author and date as it gives them)
_ARTICLE: Final = 'Feng Li\'s article "Intuition Behind BLEU Score" (Apr 2023)'

VARIANTS: Final[dict[str, Variant]] = {
    v.key: v
    for v in (
        Variant(
            "shortest_ref",
            "Shortest reference length",
            "Uses the shortest reference's length for r instead of the closest one (the best match length).",
            f"{_ARTICLE}, Hugging Face evaluate's `bleu` (tensorflow/nmt code), "
            "and NIST mteval up to v12 (v11b's `score_segment` keeps the shortest reference length); "
            "mteval v13 and v13a default to the closest and keep shortest only as `--brevity-penalty shortest`.",
            _shortest,
        ),
        Variant(
            "average_ref",
            "Average reference length",
            "Uses the mean of the reference lengths for r instead of the closest one.",
            'coco-caption\'s `BleuScorer.compute_score(option="average")` (its options: shortest, average, closest; '
            "its `Bleu` metric itself calls it with `closest`).",
            _average,
        ),
        Variant(
            "no_clipping",
            "No clipping",
            "Counts every candidate n-gram that appears in any reference, however often it repeats "
            "(the paper's 7/7 for 'the the the ...').",
            "The straw man the paper itself uses (section 2.1: Example 2's 7/7); also the first step of "
            f"{_ARTICLE}, before it fixes it.",
            _no_clip,
        ),
        Variant(
            "sum_clipping",
            "Clipping by the sum over references",
            "Clips each count by its total over all references instead of its largest count in any one.",
            "Code that merges reference counts with Counter addition (`+`) instead of maximum (`|`).",
            _sum_clip,
        ),
        Variant(
            "arithmetic_mean",
            "Arithmetic mean of precisions",
            "Averages p_1..p_N arithmetically instead of geometrically (in the log domain). How bad: the paper "
            "found the geometric mean's correlation with human judgments only slightly stronger (footnote 6, "
            "section 2.1.3), but one p_n of 0 no longer makes BLEU 0.",
            "The paper's own first try (section 2.1.3: a weighted linear average gave 'encouraging results'); also "
            f"a step of {_ARTICLE} (its `ngram_modified_precision`, `res / n`) before it moves to the geometric mean.",
            _arith,
        ),
        Variant(
            "sentence_bp",
            "Per-sentence brevity penalty, averaged",
            "Computes BP for each sentence and averages them instead of one BP from corpus c and r.",
            'Code that scores sentence by sentence. The paper (section 2.2.2) warns that then "length deviations '
            'on short sentences would be punished harshly": one word short of three gives a sentence BP of 0.61. '
            "But averaging cuts both ways: a very short sentence counts no more than any other, so on the paper's "
            "six candidates (where 'of the' is 14 words short) the averaged BP is higher than the corpus BP.",
            _sent_bp,
        ),
        Variant(
            "mean_sentence_bleu",
            "Mean of sentence BLEU called corpus BLEU",
            "Averages sentence-level BLEU instead of pooling the n-gram counts of the corpus (each sentence scored "
            "with the given settings).",
            "Evaluation scripts that loop `sentence_bleu` over a test set and report the mean.",
            _mean_sentence,
        ),
        Variant(
            "double_count",
            "Each word counted once per occurrence",
            "Loops over the candidate's words and, at each occurrence, adds that word's whole count again: a word "
            "seen c times adds c×c to the denominator (and c×min(c, m) to the numerator) instead of c, so p_1's "
            "denominator is the sum of c×c over each candidate's word types.",
            f"{_ARTICLE}: its `modified_precision`, which loops over words instead of word types.",
            _double_count,
        ),
        Variant(
            "nltk",
            "NLTK's corpus_bleu",
            "Not a mistake but another convention: an order with no n-grams counts 1 in the "
            "denominator, and without smoothing a zero precision gives a tiny positive score.",
            "nltk.translate.bleu_score.corpus_bleu, on the same tokens.",
            _nltk,
        ),
    )
}


def run_variant(
    key: str,
    hypotheses: Sequence[str],
    references: Sequence[Sequence[str | None]],
    config: BleuConfig | None = None,
    *,
    nltk_smoothing: int = 0,
) -> VariantResult:
    """Compute a variant and the correct score on the same corpus and settings.

    Args:
        key: a key of ``VARIANTS``.
        hypotheses: candidates, one per segment.
        references: reference streams (as ``corpus_bleu``).
        config: settings (default sacrebleu's corpus defaults).
        nltk_smoothing: for ``nltk``, SmoothingFunction method 0-4.

    Example:
        >>> from bleu_core.teaching.paper import EXAMPLE_1
        >>> refs = [[r] for r in EXAMPLE_1.references]
        >>> r = run_variant("shortest_ref", EXAMPLE_1.candidates[:1], refs, BleuConfig.paper())
        >>> r.detail
        'r = 16 (sum of shortest) instead of 18 (closest)'
    """
    if key not in VARIANTS:
        raise InputError(f"unknown variant {key!r} (known: {', '.join(VARIANTS)})", "variant")
    config = config or BleuConfig()
    data = tokenize_corpus(hypotheses, references, config)
    score, detail = VARIANTS[key].compute(data, config, nltk_smoothing)
    correct = corpus_score(hypotheses, references, config).score
    return VariantResult(VARIANTS[key], float(score), correct, detail)
