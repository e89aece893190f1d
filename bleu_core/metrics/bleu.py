"""BLEU: the metric (:class:`Bleu`), its score from sufficient statistics, and the sacrebleu-compatible
``corpus_bleu`` / ``sentence_bleu``.

The arithmetic is sacrebleu 2.6's ``BLEU.compute_bleu`` step for step (same order of operations, same
``log(0) = -9999999999`` floor, same in-place add-k), so scores agree to the last bits; ``score_many``
is the same function vectorised over rows of a statistics matrix and is tested against it.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Final, Literal, cast

from bleu_core._version import __version__
from bleu_core.config import SMOOTH_DEFAULTS, BleuConfig, SmoothMethod
from bleu_core.engine.references import ReferenceSet
from bleu_core.engine.stats import SegmentStats, check_streams
from bleu_core.engine.tokenizers import get_tokenizer
from bleu_core.errors import InputError

from .signature import sacrebleu_signature

if TYPE_CHECKING:
    import numpy as np

    from bleu_core.engine.choose import Engine

__all__ = [
    "Bleu",
    "BleuScore",
    "brevity_penalties",
    "brevity_penalty",
    "corpus_bleu",
    "make_signature",
    "score_from_stats",
    "score_many",
    "score_matrix",
    "sentence_bleu",
]

_LOG_ZERO: Final = -9999999999.0  # sacrebleu.utils.my_log


def _my_log(x: float) -> float:
    return _LOG_ZERO if x == 0.0 else math.log(x)


@dataclass(frozen=True, slots=True, eq=False)
class BleuScore:
    """A BLEU score with what it was computed from.

    ``counts``, ``totals`` and ``precisions`` are lists, as in sacrebleu, so results compare equal to
    sacrebleu's field for field.

    Attributes:
        score: BLEU on sacrebleu's 0-100 scale.
        counts: clipped matches per order (with add-k: after adding k, as sacrebleu reports them).
        totals: candidate n-grams per order.
        precisions: p_n in percent (smoothed where smoothing applied).
        bp: brevity penalty.
        sys_len: c, candidate tokens.
        ref_len: r, effective reference length.
        signature: what produced the number (sacrebleu's format, with ``order`` and our version).
        eff_order: the number of orders that entered the geometric mean.
        segment_matrix: the per-segment statistics it was summed from (``segments`` as values).
    """

    score: float
    counts: list[float]
    totals: list[float]
    precisions: list[float]
    bp: float
    sys_len: int
    ref_len: int
    signature: str = ""
    eff_order: int = 0
    _segment_data: object = field(default=None, repr=False)

    @property
    def segment_matrix(self) -> np.ndarray | None:
        """The (segments x (2 + 2N)) int64 statistics matrix the score was summed from.

        Small corpora are counted without numpy (so the CLI starts fast); their rows become an array on
        first access.
        """
        data = self._segment_data
        if data is None or hasattr(data, "shape"):
            return data  # type: ignore[return-value]
        import numpy as np

        rows = list(data)  # type: ignore[call-overload]
        arr = np.array(rows, dtype=np.int64).reshape(len(rows), 2 + 2 * len(self.counts))
        object.__setattr__(self, "_segment_data", arr)
        return arr

    @property
    def ratio(self) -> float:
        """c / r (0 when r is 0), as sacrebleu reports it."""
        return self.sys_len / self.ref_len if self.ref_len else 0.0

    @property
    def segments(self) -> tuple[SegmentStats, ...]:
        """The per-segment statistics, as values."""
        data = self._segment_data
        if data is None:
            return ()
        rows = data.tolist() if hasattr(data, "tolist") else data
        return tuple(SegmentStats.from_row(r) for r in rows)  # type: ignore[union-attr]

    def format(self, width: int = 2) -> str:
        """sacrebleu's one-line report, e.g. ``BLEU = 42.00 70.0/50.0/40.0/30.0 (BP = 1.000 ...)``."""
        prec = "/".join(f"{p:.1f}" for p in self.precisions)
        return (
            f"BLEU = {self.score:.{width}f} {prec} (BP = {self.bp:.3f} ratio = {self.ratio:.3f} "
            f"hyp_len = {self.sys_len:d} ref_len = {self.ref_len:d})"
        )

    def to_dict(self) -> dict[str, object]:
        """The CLI's JSON object (DESIGN.md section 3)."""
        return {
            "score": self.score,
            "counts": list(self.counts),
            "totals": list(self.totals),
            "precisions": list(self.precisions),
            "bp": self.bp,
            "sys_len": self.sys_len,
            "ref_len": self.ref_len,
            "signature": self.signature,
        }

    def __str__(self) -> str:
        return self.format()

    def _repr_html_(self) -> str:  # Jupyter: the score card as HTML (renderer: bleu_core.display.notebook)
        from bleu_core.rendering import to_html

        return to_html(self)


def make_signature(config: BleuConfig, nrefs: int | str, **extra: object) -> str:
    """sacrebleu's signature format, with ``order`` (and ``w`` for custom weights) and our version.

    Example:
        >>> make_signature(BleuConfig(), 1)  # doctest: +ELLIPSIS
        'nrefs:1|case:mixed|eff:no|tok:13a|smooth:exp|order:4|version:bleu-explorer-...'
    """
    smooth: str = config.smooth_method
    value = config.effective_smooth_value
    if SMOOTH_DEFAULTS[smooth] is not None and value is not None:  # sacrebleu shows a value for floor/add-k only
        smooth += f"[{value:.2f}]"
    parts = [
        f"nrefs:{'var' if nrefs == -1 else nrefs}",
        *(f"{k}:{v}" for k, v in extra.items() if v is not None),
        f"case:{'lc' if config.lowercase else 'mixed'}",
        f"eff:{'yes' if config.use_effective_order else 'no'}",
        f"tok:{get_tokenizer(config.tokenize).signature}",
        f"smooth:{smooth}",
        f"order:{config.max_ngram_order}",
    ]
    if config.weights is not None:
        parts.append("w:" + ",".join(f"{w:g}" for w in config.weights))
    parts.append(f"version:bleu-explorer-{__version__}")
    return "|".join(parts)


def brevity_penalty(sys_len: float, ref_len: float) -> float:
    """The paper's BP (section 2.2.2): 1 when c >= r, exp(1 - r/c) when c < r; 0 for an empty candidate
    (as sacrebleu). The one definition the package and the app use.

    Example:
        >>> brevity_penalty(18, 16), round(brevity_penalty(14, 18), 4), brevity_penalty(0, 3)
        (1.0, 0.7515, 0.0)
    """
    if sys_len < ref_len:
        return math.exp(1 - ref_len / sys_len) if sys_len > 0 else 0.0
    return 1.0


def brevity_penalties(sys_len: np.ndarray, ref_len: np.ndarray | float) -> np.ndarray:
    """:func:`brevity_penalty` elementwise (arrays of c and r).

    Example:
        >>> import numpy as np
        >>> brevity_penalties(np.array([18.0, 14.0, 0.0]), np.array([16.0, 18.0, 3.0])).round(4).tolist()
        [1.0, 0.7515, 0.0]
    """
    import numpy as np

    c = np.asarray(sys_len, dtype=np.float64)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        return np.where(c < ref_len, np.where(c > 0, np.exp(1 - ref_len / np.where(c > 0, c, 1.0)), 0.0), 1.0)


def score_from_stats(
    correct: Sequence[float],
    total: Sequence[float],
    sys_len: int,
    ref_len: int,
    config: BleuConfig = BleuConfig(),
    *,
    signature: str = "",
) -> BleuScore:
    """BLEU from corpus statistics, exactly as sacrebleu's ``BLEU.compute_bleu``.

    Args:
        correct: clipped matches per order.
        total: candidate n-grams per order.
        sys_len: c.
        ref_len: r.
        config: smoothing, effective order, max order and weights.
        signature: copied into the result.

    Example:
        >>> s = score_from_stats([17, 10, 7, 4], [18, 17, 16, 15], 18, 16, BleuConfig.paper())
        >>> round(s.score / 100, 4), s.bp
        (0.5046, 1.0)
    """
    order = config.max_ngram_order
    correct = list(correct)
    total = list(total)
    smooth_value = config.effective_smooth_value
    bp = brevity_penalty(sys_len, ref_len)
    precisions = [0.0] * order
    if not any(correct):  # sacrebleu #141: no match at all is 0, whatever the smoothing
        return BleuScore(0.0, correct, total, precisions, bp, sys_len, ref_len, signature, 0)
    smooth_mteval = 1.0
    eff_order = order
    method: SmoothMethod = config.smooth_method
    for n in range(1, order + 1):
        if method == "add-k" and n > 1:
            correct[n - 1] += smooth_value  # type: ignore[operator]
            total[n - 1] += smooth_value  # type: ignore[operator]
        if total[n - 1] == 0:
            break
        if config.use_effective_order:
            eff_order = n
        if correct[n - 1] == 0:
            if method == "exp":
                smooth_mteval *= 2
                precisions[n - 1] = 100.0 / (smooth_mteval * total[n - 1])
            elif method == "floor":
                precisions[n - 1] = 100.0 * smooth_value / total[n - 1]  # type: ignore[operator]
        else:
            precisions[n - 1] = 100.0 * correct[n - 1] / total[n - 1]
    if config.weights is None:
        score = bp * math.exp(sum([_my_log(p) for p in precisions[:eff_order]]) / eff_order)
    else:
        w = config.weights[:eff_order]
        if sum(w) == 0:  # effective order kept only zero-weight orders: renormalising is 0/0, weigh them alike
            w = (1.0,) * eff_order
        score = bp * math.exp(sum(wi * _my_log(p) for wi, p in zip(w, precisions, strict=False)) / sum(w))
    return BleuScore(score, correct, total, precisions, bp, sys_len, ref_len, signature, eff_order)


def score_many(matrix: np.ndarray, config: BleuConfig = BleuConfig()) -> np.ndarray:
    """BLEU (0-100) for every row of a matrix of summed statistics; the vectorised ``score_from_stats``.

    Each row is ``[sys_len, ref_len, correct_1..N, total_1..N]`` (already summed over segments).

    Example:
        >>> import numpy as np
        >>> m = np.array([[18, 16, 17, 10, 7, 4, 18, 17, 16, 15], [14, 18, 8, 1, 0, 0, 14, 13, 12, 11]])
        >>> [round(x, 4) for x in score_many(m, BleuConfig.paper()).tolist()]
        [50.4567, 0.0]
    """
    import numpy as np

    m = np.asarray(matrix, dtype=np.float64)
    if m.ndim == 1:
        m = m[None, :]
    order = config.max_ngram_order
    sys_len, ref_len = m[:, 0], m[:, 1]
    correct = m[:, 2 : 2 + order].copy()
    total = m[:, 2 + order : 2 + 2 * order].copy()
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        bp = brevity_penalties(sys_len, ref_len)
        any_match = (correct != 0).any(axis=1)
        method = config.smooth_method
        k = float(config.effective_smooth_value or 0.0)
        if method == "add-k" and order > 1:
            correct[:, 1:] += k
            total[:, 1:] += k
        alive = np.cumprod(total != 0, axis=1).astype(bool)  # sacrebleu stops at the first empty order
        zero = (correct == 0) & alive
        if method == "exp":
            doublings = np.cumsum(zero, axis=1)
            smoothed = 100.0 / (np.power(2.0, doublings) * total)
        elif method == "floor":
            smoothed = 100.0 * k / total
        else:
            smoothed = np.zeros_like(total)
        prec = np.where(zero, smoothed, 100.0 * correct / total)
        prec = np.where(alive, prec, 0.0)
        logs = np.where(prec == 0.0, _LOG_ZERO, np.log(np.where(prec == 0.0, 1.0, prec)))
        eff = alive.sum(axis=1) if config.use_effective_order else np.full(len(m), order)
        eff = np.maximum(eff, 1)
        cols = np.arange(order)[None, :] < eff[:, None]
        if config.weights is None:
            acc = np.zeros(len(m))
            for n in range(order):  # left-to-right, as sacrebleu's sum()
                acc = acc + np.where(cols[:, n], logs[:, n], 0.0)
            score = bp * np.exp(acc / eff)
        else:
            w = np.asarray(config.weights)[None, :] * cols
            w = np.where((w.sum(axis=1) == 0)[:, None], cols.astype(np.float64), w)  # as score_from_stats
            acc = np.zeros(len(m))
            for n in range(order):
                acc = acc + np.where(cols[:, n], w[:, n] * logs[:, n], 0.0)
            score = bp * np.exp(acc / w.sum(axis=1))
    return np.where(any_match, score, 0.0)


@dataclass(frozen=True, slots=True)
class Bleu:
    """BLEU under one :class:`~bleu_core.config.BleuConfig`, as the metric seam sees it
    (:class:`~bleu_core.metrics.base.Metric`): the statistics row ``[c, r, correct_1..N, total_1..N]`` per segment,
    counted by a :class:`~bleu_core.engine.references.ReferenceSet`, and :func:`score_many` of their sums.

    Example:
        >>> bleu = Bleu(BleuConfig(max_ngram_order=2))
        >>> bleu.name, bleu.sacrebleu_name, bleu.width, bleu.higher_is_better
        ('BLEU', 'bleu', 6, True)
        >>> stats = bleu.prepare([["the cat sat on the mat"]]).stats(["the cat sat on a mat"])
        >>> stats.tolist()
        [[6, 6, 5, 3, 6, 5]]
        >>> hyps, refs = ["the cat sat on a mat"], [["the cat sat on the mat"]]
        >>> bleu.scalar_score(stats.sum(axis=0)) == corpus_bleu(hyps, refs, max_ngram_order=2).score
        True
        >>> bleu.signature(1, bs=1000, rs=12345).split("|")[:3], bleu.sacrebleu_signature(1)
        (['nrefs:1', 'bs:1000', 'rs:12345'], None)
    """

    config: BleuConfig = field(default_factory=BleuConfig)

    @classmethod
    def from_options(cls, **options: object) -> Bleu:
        """BLEU with :class:`~bleu_core.config.BleuConfig`'s options (``tokenize``, ``max_ngram_order``...)."""
        return cls(BleuConfig(**options))  # type: ignore[arg-type]

    @property
    def name(self) -> str:
        return "BLEU"

    @property
    def sacrebleu_name(self) -> str:
        return "bleu"

    @property
    def higher_is_better(self) -> bool:
        return True

    @property
    def width(self) -> int:
        """``2 + 2N``: c, r, then the clipped matches and the candidate n-grams of each order."""
        return 2 + 2 * self.config.max_ngram_order

    def prepare(self, references: Sequence[Sequence[str]]) -> ReferenceSet:
        """The references tokenized and counted once (a :class:`~bleu_core.engine.references.ReferenceSet` that
        counts to this configuration's order)."""
        return ReferenceSet.from_config(references, self.config)

    def score_many(self, sums: np.ndarray) -> np.ndarray:
        return score_many(sums, self.config)

    def scalar_score(self, sums: np.ndarray) -> float:
        """sacreBLEU's corpus BLEU of one row of summed statistics (:func:`score_from_stats`, which :func:`score_many`
        can miss in the last bits: numpy's SIMD ``log`` and ``exp`` are not ``math``'s)."""
        s = [int(x) for x in sums.tolist()]
        n = self.config.max_ngram_order
        return score_from_stats(s[2 : 2 + n], s[2 + n :], s[0], s[1], self.config).score

    def signature(self, nrefs: int | str, **test: object) -> str:
        return make_signature(self.config, nrefs, **test)

    def sacrebleu_signature(
        self,
        nrefs: int | str,
        *,
        test: str | None = None,
        trials: int | None = None,
        seed: int | None = None,
        confidence_trials: int | None = None,
        short: bool = False,
    ) -> str | None:
        """sacreBLEU's own signature (``short``: ``--short``'s), or None where sacreBLEU cannot express the setting
        (the reason: :func:`~bleu_core.metrics.signature.sacrebleu_signature`'s ``why_none``);
        ``confidence_trials``: ``--confidence``'s resamples (signed ``bs:N|seed:S``)."""
        if test not in (None, "bs", "ar"):
            raise InputError(f"unknown test {test!r} (known: bs, ar)", "test")
        method = cast('Literal["bs", "ar"] | None', test)
        sig = sacrebleu_signature(
            self.config, nrefs, test=method, trials=trials, seed=seed, confidence_trials=confidence_trials
        )
        return sig.short if short else sig.long


def _config(
    smooth_method: str,
    smooth_value: float | None,
    force: bool,
    lowercase: bool,
    tokenize: str,
    use_effective_order: bool,
    max_ngram_order: int,
    weights: Sequence[float] | None,
) -> BleuConfig:
    return BleuConfig(
        tokenize=tokenize,
        lowercase=lowercase,
        smooth_method=smooth_method,  # type: ignore[arg-type]
        smooth_value=smooth_value,
        use_effective_order=use_effective_order,
        max_ngram_order=max_ngram_order,
        weights=None if weights is None else tuple(weights),
        force=force,
    )


def corpus_score(
    hypotheses: Sequence[str],
    references: Sequence[Sequence[str | None]],
    config: BleuConfig,
    *,
    engine: Engine = "auto",
) -> BleuScore:
    """Corpus BLEU under a :class:`BleuConfig` (what ``corpus_bleu`` calls).

    Args:
        hypotheses: one candidate per segment.
        references: reference streams.
        config: the settings.
        engine: ``kernel`` (the C kernel), ``explain`` (line by line with ``Counter``s, as the paper
            describes) or ``auto``; :func:`bleu_core.engine.choose` decides. All give the same matrix.

    Example:
        >>> hyps, refs = ["the cat sat on the mat ."], [["the cat sat on a mat ."]]
        >>> fast = corpus_score(hyps, refs, BleuConfig(), engine="auto")
        >>> slow = corpus_score(hyps, refs, BleuConfig(), engine="explain")
        >>> fast.score == slow.score, (fast.segment_matrix == slow.segment_matrix).all()
        (True, np.True_)
    """
    from bleu_core.engine.counting import count  # numpy and the kernel load only when a corpus is counted

    hyps, streams = check_streams(hypotheses, references)
    matrix, nrefs = count(hyps, streams, config, engine)
    return score_matrix(matrix, config, nrefs)


def score_matrix(matrix: np.ndarray | Sequence[Sequence[int]], config: BleuConfig, nrefs: int | str) -> BleuScore:
    """Corpus BLEU of per-segment statistics (an array or a list of rows), keeping them in the result."""
    order = config.max_ngram_order
    width = 2 + 2 * order
    data: object
    if hasattr(matrix, "shape"):
        arr: np.ndarray = matrix  # type: ignore[assignment]
        if arr.shape[1] != width:
            raise InputError(f"matrix has {arr.shape[1]} columns, expected {width}", "matrix")
        sums = [int(x) for x in arr.sum(axis=0).tolist()] if len(arr) else [0] * width
        data = arr
    else:
        rows = list(matrix)
        if any(len(r) != width for r in rows):
            raise InputError(f"rows must have {width} values", "matrix")
        sums = [int(sum(col)) for col in zip(*rows, strict=True)] if rows else [0] * width
        data = rows
    result = score_from_stats(
        sums[2 : 2 + order], sums[2 + order :], sums[0], sums[1], config, signature=make_signature(config, nrefs)
    )
    object.__setattr__(result, "_segment_data", data)
    return result


def corpus_bleu(
    hypotheses: Sequence[str],
    references: Sequence[Sequence[str | None]],
    *,
    smooth_method: str = "exp",
    smooth_value: float | None = None,
    force: bool = False,
    lowercase: bool = False,
    tokenize: str = "13a",
    use_effective_order: bool = False,
    max_ngram_order: int = 4,
    weights: Sequence[float] | None = None,
) -> BleuScore:
    """Corpus BLEU, a drop-in for ``sacrebleu.corpus_bleu`` (same arguments, defaults and numbers).

    Args:
        hypotheses: one candidate string per segment.
        references: reference *streams*: ``references[k][i]`` is reference k of segment i; ``None``
            where a segment has fewer references.
        smooth_method: ``none``, ``floor``, ``add-k`` or ``exp``.
        smooth_value: the value for ``floor`` (0.1) and ``add-k`` (1).
        force: accepted for compatibility (sacrebleu only uses it to silence a warning).
        lowercase: case-fold before tokenizing.
        tokenize: a name from ``TOKENIZERS``.
        use_effective_order: leave out orders with no candidate n-grams.
        max_ngram_order: N, 1 to 9.
        weights: one weight per order, summing to 1 (default: uniform 1/N).

    Returns:
        The :class:`BleuScore`, with the per-segment statistics it was summed from.

    Raises:
        InputError: bad options, a flat list of references, streams of different lengths.

    Example:
        >>> hyp = ["It is a guide to action which ensures that the military always obeys the commands of the party."]
        >>> refs = [["It is a guide to action that ensures that the military will forever heed Party commands."],
        ...         ["It is the guiding principle which guarantees the military forces always being under the "
        ...          "command of the Party."],
        ...         ["It is the practical guide for the army always to heed the directions of the party."]]
        >>> s = corpus_bleu(hyp, refs, tokenize="paper", lowercase=True)
        >>> s.counts, s.totals
        ([17, 10, 7, 4], [18, 17, 16, 15])
    """
    config = _config(
        smooth_method, smooth_value, force, lowercase, tokenize, use_effective_order, max_ngram_order, weights
    )
    return corpus_score(hypotheses, references, config)


def sentence_bleu(
    hypothesis: str,
    references: Sequence[str],
    *,
    smooth_method: str = "exp",
    smooth_value: float | None = None,
    force: bool = False,
    lowercase: bool = False,
    tokenize: str = "13a",
    use_effective_order: bool = True,
    max_ngram_order: int = 4,
    weights: Sequence[float] | None = None,
) -> BleuScore:
    """Sentence BLEU, a drop-in for ``sacrebleu.sentence_bleu``: one candidate, its references.

    Example:
        >>> round(sentence_bleu("the cat sat on the mat", ["the cat sat on the mat"]).score, 6)
        100.0
    """
    if not isinstance(hypothesis, str):
        raise InputError(f"must be a string, got {type(hypothesis).__name__}", "hypothesis")
    if isinstance(references, str) or not isinstance(references, Sequence):
        raise InputError("must be a list of reference strings for this sentence", "references")
    config = _config(
        smooth_method, smooth_value, force, lowercase, tokenize, use_effective_order, max_ngram_order, weights
    )
    return corpus_score([hypothesis], [[r] for r in references], config)
