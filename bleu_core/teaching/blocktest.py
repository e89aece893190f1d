"""The paper's block test (section 3, "The BLEU Evaluation", Table 2) and the t distribution it reads.

The paper "divided the test corpus into 20 blocks of 25 sentences each, and computed the BLEU metric on these
blocks individually", reported each system's mean and standard deviation over the blocks, and a paired
t-statistic of each system against "its left neighbor in the table"; "a paired t-statistic of 1.7 or above
is 95% significant". How the paper cut its blocks it does not say; here they are consecutive runs of
segments. 1.7 fits 20 blocks (df = 19, whose one-sided 95% point is 1.729); each pair here carries the
one-sided 95% point for its own df (:func:`student_t_critical`), and the paper's 1.7 is kept as a note.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

import numpy as np

from bleu_core.config import BleuConfig
from bleu_core.errors import InputError
from bleu_core.metrics.bleu import Bleu, score_many
from bleu_core.significance.estimates import check_matrices, matrix_score

__all__ = [
    "PAPER_BLOCK_SIZE",
    "PAPER_T_NOTE",
    "PAPER_T_THRESHOLD",
    "BlockPair",
    "BlockTestResult",
    "RankedBlockTest",
    "block_test",
    "paper_block_count",
    "ranked_block_test",
    "student_t_critical",
    "student_t_two_sided",
]

PAPER_BLOCK_SIZE: Final = 25  # section 3: "20 blocks of 25 sentences each"
PAPER_T_THRESHOLD: Final = 1.7  # section 3: "a paired t-statistic of 1.7 or above is 95% significant"
PAPER_T_NOTE: Final = (
    'The paper (section 3) used 1.7 for its 20 blocks (df = 19): "a paired t-statistic of 1.7 or above is 95% '
    'significant". That 1.7 is the one-sided 95% point of t with 19 degrees of freedom (1.729) is our reading.'
)


@dataclass(frozen=True, slots=True)
class BlockPair:
    """The paired t-test of two adjacent systems over blocks.

    Attributes:
        first: index of the first system.
        second: index of the second.
        mean_difference: mean of (second - first) block BLEU.
        t: the paired t statistic.
        df: degrees of freedom (blocks - 1).
        p_value: two-sided p-value.
        critical: the one-sided 95% point of t with ``df`` degrees of freedom (2.015 at df = 5, 1.729 at
            df = 19): the second system is significantly better at 95% (one-sided, as the paper) when
            ``t >= critical``.
    """

    first: int
    second: int
    mean_difference: float
    t: float
    df: int
    p_value: float
    critical: float = math.nan

    @property
    def significant(self) -> bool:
        """``t >= critical``: one-sided 95% significance at this pair's df."""
        return self.t >= self.critical

    @property
    def p_one_sided(self) -> float:
        """P(T >= t) with ``df`` degrees of freedom: the one-sided p the decision uses (``significant`` is
        ``p_one_sided <= 0.05`` up to the critical value's 1e-12).

        Example:
            >>> pair = BlockPair(0, 1, 1.0, 1.8, 19, student_t_two_sided(1.8, 19), student_t_critical(19))
            >>> round(pair.p_value, 4), round(pair.p_one_sided, 4), pair.significant
            (0.0878, 0.0439, True)
            >>> round(BlockPair(0, 1, -1.0, -1.8, 19, pair.p_value).p_one_sided, 4)
            0.9561
        """
        if math.isnan(self.t):
            return math.nan
        half = self.p_value / 2
        return half if self.t >= 0 else 1.0 - half


@dataclass(frozen=True, slots=True)
class BlockTestResult:
    """The paper's Table 2: BLEU on contiguous blocks, mean and standard deviation, paired t.

    Attributes:
        block_sizes: segments per block.
        scores: per system, its BLEU on each block.
        means: per system, the mean block BLEU.
        stds: per system, the sample standard deviation of block BLEU.
        pairs: the t-test of each adjacent pair, in the given order.
    """

    block_sizes: tuple[int, ...]
    scores: tuple[tuple[float, ...], ...]
    means: tuple[float, ...]
    stds: tuple[float, ...]
    pairs: tuple[BlockPair, ...]


# --- Student's t ------------------------------------------------------------------------------------------


def _betacf(a: float, b: float, x: float) -> float:
    # continued fraction of the regularized incomplete beta function (modified Lentz)
    tiny = 1e-300
    qab, qap, qam = a + b, a + 1.0, a - 1.0
    c, d = 1.0, 1.0 - qab * x / qap
    d = 1.0 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 300):
        m2 = 2 * m
        aa = m * (b - m) * x / ((qam + m2) * (a + m2))
        d = 1.0 + aa * d
        d = 1.0 / (d if abs(d) > tiny else tiny)
        c = 1.0 + aa / c if abs(1.0 + aa / c) > tiny else tiny
        h *= d * c
        aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))
        d = 1.0 + aa * d
        d = 1.0 / (d if abs(d) > tiny else tiny)
        c = 1.0 + aa / c if abs(1.0 + aa / c) > tiny else tiny
        delta = d * c
        h *= delta
        if abs(delta - 1.0) < 1e-15:
            break
    return h


def _betainc(a: float, b: float, x: float) -> float:
    if x <= 0.0:
        return 0.0
    if x >= 1.0:
        return 1.0
    front = math.exp(math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x))
    if x < (a + 1.0) / (a + b + 2.0):
        return front * _betacf(a, b, x) / a
    return 1.0 - front * _betacf(b, a, 1.0 - x) / b


def student_t_two_sided(t: float, df: int) -> float:
    """Two-sided p-value of Student's t with ``df`` degrees of freedom.

    Example:
        >>> round(student_t_two_sided(2.093, 19), 4)  # the 5% critical value for 19 df
        0.05
    """
    if math.isnan(t):
        return 1.0
    if math.isinf(t):
        return 0.0
    return _betainc(df / 2.0, 0.5, df / (df + t * t))


def student_t_critical(df: int, alpha: float = 0.05) -> float:
    """The one-sided ``1 - alpha`` point of Student's t with ``df`` degrees of freedom: P(T >= t) = alpha.

    Found by bisection on :func:`student_t_two_sided` (P(|T| >= t) = 2 alpha), to 1e-12.

    Example:
        >>> round(student_t_critical(5), 3), round(student_t_critical(19), 3), round(student_t_critical(1), 3)
        (2.015, 1.729, 6.314)
    """
    if isinstance(df, bool) or not isinstance(df, int) or df < 1:
        raise InputError(f"must be a whole number >= 1, got {df!r}", "df")
    if not 0.0 < alpha < 0.5:
        raise InputError(f"must be between 0 and 0.5, got {alpha!r}", "alpha")
    low, high = 0.0, 1.0
    while student_t_two_sided(high, df) > 2 * alpha:
        low, high = high, 2 * high
    while high - low > 1e-12:
        mid = (low + high) / 2
        low, high = (mid, high) if student_t_two_sided(mid, df) > 2 * alpha else (low, mid)
    return (low + high) / 2


# --- the test ---------------------------------------------------------------------------------------------


def block_test(
    matrices: Sequence[np.ndarray], config: BleuConfig = BleuConfig(), *, n_blocks: int = 20
) -> BlockTestResult:
    """The paper's block test (section 3, "The BLEU Evaluation", Table 2): BLEU on contiguous blocks.

    The corpus is cut into ``n_blocks`` contiguous blocks (sizes differing by at most one); each
    system is scored on each block; per system the mean and sample standard deviation of the block
    scores; for each adjacent pair in the given order, a paired t-test on the block scores, with the
    one-sided 95% point of t for its df (:func:`student_t_critical`).

    Example:
        >>> import numpy as np
        >>> good = np.array([[4, 4, 4, 3, 2, 1, 4, 3, 2, 1]] * 4)
        >>> r = block_test([good, good], BleuConfig(), n_blocks=2)
        >>> r.block_sizes, [round(m, 9) for m in r.means], r.stds, r.pairs[0].t, r.pairs[0].p_value
        ((2, 2), [100.0, 100.0], (0.0, 0.0), 0.0, 1.0)
    """
    mats = check_matrices(matrices, Bleu(config))
    n = len(mats[0])
    if isinstance(n_blocks, bool) or not isinstance(n_blocks, int) or not 2 <= n_blocks <= n:
        raise InputError(f"must be between 2 and the number of segments ({n}), got {n_blocks!r}", "n_blocks")
    sizes = [len(b) for b in np.array_split(np.arange(n), n_blocks)]
    starts = np.concatenate(([0], np.cumsum(sizes)[:-1]))
    scores = np.array([score_many(np.add.reduceat(m, starts, axis=0), config) for m in mats])
    means = scores.mean(axis=1)
    stds = scores.std(axis=1, ddof=1)
    df = n_blocks - 1
    critical = student_t_critical(df)
    pairs = []
    for i in range(len(mats) - 1):
        d = scores[i + 1] - scores[i]
        mean_d, sd = float(d.mean()), float(d.std(ddof=1))
        if sd == 0.0:
            t = 0.0 if mean_d == 0.0 else math.copysign(math.inf, mean_d)
        else:
            t = mean_d / (sd / math.sqrt(n_blocks))
        pairs.append(BlockPair(i, i + 1, mean_d, t, df, student_t_two_sided(t, df), critical))
    return BlockTestResult(
        tuple(sizes),
        tuple(tuple(float(x) for x in row) for row in scores),
        tuple(float(x) for x in means),
        tuple(float(x) for x in stds),
        tuple(pairs),
    )


def paper_block_count(n_segments: int, block_size: int = PAPER_BLOCK_SIZE) -> int:
    """How many blocks the test cuts ``n_segments`` into (the paper: "20 blocks of 25 sentences each").

    ``n_segments // block_size`` when that makes at least two blocks (each then has ``block_size`` segments,
    or one more where the remainder is spread); a smaller corpus gets blocks of about 5 segments (at least
    2 blocks, at most 20), and the caller says so.

    Example:
        >>> paper_block_count(500), paper_block_count(1002), paper_block_count(30), paper_block_count(3)
        (20, 40, 6, 2)
    """
    if isinstance(n_segments, bool) or not isinstance(n_segments, int) or n_segments < 2:
        raise InputError(f"the block test needs at least 2 segments, got {n_segments!r}", "segments")
    if n_segments >= 2 * block_size:
        return n_segments // block_size
    return max(2, min(20, n_segments // 5))


@dataclass(frozen=True, slots=True)
class RankedBlockTest:
    """The paper's Table 2 on N systems: in rank order, lowest corpus BLEU first; each system's paired t is
    against its left neighbour (the system ranked just below it).

    Attributes:
        order: system indices (into the given matrices), lowest corpus BLEU first.
        corpus_scores: the corpus BLEU of each, in that order.
        result: :func:`block_test` on the systems in that order (``result.pairs[i]`` compares rank i + 1
            with rank i).
        block_size: the block size aimed at (the paper's 25).
        threshold: the paper's t threshold, 1.7, for its 20 blocks (df = 19): a note, not the test here
            (:attr:`critical` is, for the df of these blocks).
        paper_note: that note in words, quoting section 3.
    """

    order: tuple[int, ...]
    corpus_scores: tuple[float, ...]
    result: BlockTestResult
    block_size: int = PAPER_BLOCK_SIZE
    threshold: float = PAPER_T_THRESHOLD
    paper_note: str = PAPER_T_NOTE

    @property
    def paper_sized(self) -> bool:
        """Whether every block has at least ``block_size`` segments."""
        return min(self.result.block_sizes) >= self.block_size

    @property
    def df(self) -> int:
        """Degrees of freedom of every pair's t: blocks - 1."""
        return len(self.result.block_sizes) - 1

    @property
    def critical(self) -> float:
        """The one-sided 95% point of t at :attr:`df` (2.015 for 6 blocks; the paper's 1.7 is for 20)."""
        return student_t_critical(self.df)


def ranked_block_test(
    matrices: Sequence[np.ndarray], config: BleuConfig = BleuConfig(), *, block_size: int = PAPER_BLOCK_SIZE
) -> RankedBlockTest:
    """The block test as the paper ran it (section 3, Table 2): blocks of ``block_size`` segments (here
    consecutive) where the corpus allows (:func:`paper_block_count`), the systems in rank order of corpus
    BLEU, and the paired t of each against the one ranked just below it.

    Example:
        >>> import numpy as np
        >>> good = np.array([[4, 4, 4, 3, 2, 1, 4, 3, 2, 1]] * 60)
        >>> bad = good.copy(); bad[::2, 2] -= 2
        >>> r = ranked_block_test([good, bad])
        >>> r.order, r.result.block_sizes, r.paper_sized, r.result.pairs[0].df, round(r.critical, 3)
        ((1, 0), (30, 30), True, 1, 6.314)
    """
    bleu = Bleu(config)
    mats = check_matrices(matrices, bleu)
    scores = [matrix_score(m, bleu) for m in mats]
    order = tuple(sorted(range(len(mats)), key=lambda i: (scores[i], i)))
    n_blocks = paper_block_count(len(mats[0]), block_size)
    result = block_test([mats[i] for i in order], config, n_blocks=n_blocks)
    return RankedBlockTest(order, tuple(scores[i] for i in order), result, block_size)
