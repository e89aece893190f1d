"""Corpus and compare pages: bleu_core statistics matrices -> tidy DataFrames (column names are constants).

Every number here is arithmetic over per-segment statistics matrices (DESIGN.md section 2): a corpus score is the
metric's ``score_many`` of the column sums, a bucket or a block is a sum over its rows, leave-one-out is a
subtraction. Nothing re-tokenizes. The systems table and the significance matrix take any metric
(``bleu_core.metrics``; a ``BleuConfig`` is BLEU under it); what reads BLEU's own row ``[hyp_len, ref_len,
correct_1..N, total_1..N]`` (precisions, the brevity penalty, sentence BLEU, buckets by reference length) is BLEU
on purpose.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Final, Literal, cast

import numpy as np
import pandas as pd

from bleu_app.frames.sentence import fraction
from bleu_core.config import BleuConfig
from bleu_core.data.documents import Documents
from bleu_core.engine import MatchArrays, NgramDiff
from bleu_core.metrics import Bleu, Metric, as_metric
from bleu_core.metrics.bleu import brevity_penalties, brevity_penalty, make_signature, score_many, score_matrix
from bleu_core.significance import bootstrap_cis, difference_cis, pairwise_matrix
from bleu_core.significance.ranking import Ranking, rank_systems
from bleu_core.significance.resample import resample_sums
from bleu_core.teaching.explain import leave_one_out

# --- column names ----------------------------------------------------------------------------------------
SEGMENT = "segment"  # 1-based line number
SYSTEM = "system"
BLEU = "BLEU"
SENT_BLEU = "sentence BLEU"
LOO = "effect on BLEU"  # corpus BLEU with the segment minus without it (BLEU points)
HYP_LEN = "c (hyp len)"
REF_LEN = "r (ref len)"
RATIO = "c/r"
BP = "BP"
HYP = "hypothesis"
REF = "reference"
SOURCE = "source"
DOCUMENT = "document"  # the segment's document (a WMT file's <doc id>)
N = "n"
PRECISION = "precision"
MATCHES = "matches"
TOTAL = "total"
FRACTION = "fraction"


def text_first(columns: Sequence[str]) -> list[str]:
    """A sentence table's columns with the sentence's own text right after its key numbers (segment, sentence
    BLEU, leave-one-out): at 1280 px the ten count columns first left the hypothesis about ten characters."""
    lead = [c for c in (SEGMENT, DOCUMENT, SENT_BLEU, LOO, HYP, REF, SOURCE) if c in columns]
    return lead + [c for c in columns if c not in lead]


CI_LOW = "CI low"
CI_HIGH = "CI high"
BUCKET = "bucket"
COUNT = "segments"
BLOCK = "block"
MEAN = "mean"
STD = "std"
KIND = "kind"
BLEU_A = "BLEU A"
BLEU_B = "BLEU B"
DIFF = "B - A"
NGRAM = "n-gram"
ONLY_A = "only A matches"
ONLY_B = "only B matches"
LOG_ODDS = "z (log-odds)"
FAVOURS = "favours"
SEGMENTS_LIST = "segments with it"
ROW = "row system"
COL = "column system"
P_RAW = "p"
P_HOLM = "p (Holm)"
DELTA = "row - column"
SIGNIFICANT = "significant"
PLACE = "rank"  # 1 = best BLEU
RANK_RANGE = "ranks possible"
CLUSTER = "cluster"
HUMAN = "human score"
VS_BASELINE = "vs baseline"
VS_LOW, VS_HIGH = "vs baseline low", "vs baseline high"  # the difference's 95% interval (paired bootstrap)


def order_of(matrix: np.ndarray) -> int:
    """N, from a statistics matrix's width."""
    return int(matrix.shape[1] - 2) // 2


def corpus_score(matrix: np.ndarray, config: BleuConfig, nrefs: int) -> object:
    """The corpus BleuScore of a matrix (with counts, totals, BP and signature)."""
    return score_matrix(matrix, config, nrefs)


# --- one system ------------------------------------------------------------------------------------------


def sentence_table(
    matrix: np.ndarray,
    config: BleuConfig,
    hyps: Sequence[str],
    refs: Sequence[Sequence[str]],
    source: Sequence[str] | None = None,
    documents: Documents | None = None,
) -> pd.DataFrame:
    """One row per segment: sentence BLEU (effective order, as sacreBLEU's sentence_bleu), c, r, c/r,
    matches per order as fractions, and the exact leave-one-out effect on corpus BLEU; its document beside the
    segment's number when the corpus has documents (a WMT file).

    The effect on BLEU is corpus BLEU with the segment minus corpus BLEU without it (the opposite of
    ``bleu_core.teaching.explain.leave_one_out``, and the convention of the compare page's effect on B - A):
    negative when the segment pulls the corpus score down.
    """
    order = order_of(matrix)
    sent = score_many(matrix, _sentence_config(config)) if len(matrix) else np.zeros(0)
    loo = -leave_one_out(matrix, config)  # with minus without
    df = pd.DataFrame(
        {
            SEGMENT: np.arange(1, len(matrix) + 1),
            SENT_BLEU: sent,
            LOO: loo,
            HYP_LEN: matrix[:, 0],
            REF_LEN: matrix[:, 1],
            RATIO: np.divide(matrix[:, 0], matrix[:, 1], out=np.zeros(len(matrix)), where=matrix[:, 1] > 0),
        }
    )
    for n in range(1, order + 1):
        df[f"p{n}"] = _fractions(matrix[:, 1 + n], matrix[:, 1 + order + n])
    df[HYP] = text_column(hyps)
    df[REF] = text_column(refs[0]) if refs else ""
    if source is not None:
        df[SOURCE] = text_column(source)
    if documents is not None:
        df.insert(1, DOCUMENT, text_column(documents.doc_ids))
    return df


def text_column(lines: Sequence[str]) -> pd.Series:
    """The corpus's own strings as a column, shared rather than copied: ``object`` dtype holds pointers to
    the loaded lines, where pandas' default ``str`` dtype would copy every line into Arrow (issue 13: at
    50,000 segments that copy was the sentence table's largest cost in time and memory). Streamlit converts
    only the rows a page shows."""
    return pd.Series(list(lines), dtype=object)


def _fractions(matches: np.ndarray, totals: np.ndarray) -> pd.Series:
    """The fraction "matches/total" per segment, one string object per distinct pair (there are a few
    hundred, not one per segment).

    Example:
        >>> _fractions(np.array([1, 0, 1]), np.array([2, 3, 2])).tolist()
        ['1/2', '0/3', '1/2']
    """
    if not len(matches):
        return pd.Series([], dtype=object)
    base = int(totals.max()) + 1
    pairs, where = np.unique(matches.astype(np.int64) * base + totals, return_inverse=True)
    names = np.array([f"{k // base}/{k % base}" for k in pairs.tolist()], dtype=object)
    return pd.Series(names[where], dtype=object)


def _sentence_config(config: BleuConfig) -> BleuConfig:
    from dataclasses import replace

    return replace(config, use_effective_order=True)


def sentence_signature(config: BleuConfig, nrefs: int | str) -> str:
    """The signature of the sentence BLEU column and of its mean: the corpus settings with effective order."""
    return make_signature(_sentence_config(config), nrefs)


BUCKET_RESAMPLES: Final = 1000  # the bucket intervals: resamples and seed (the same for every bucket)
BUCKET_SEED: Final = 12345


def bucket_signature(config: BleuConfig, nrefs: int | str) -> str:
    """The signature of the BLEU-by-bucket charts: the corpus settings and their bootstrap (resamples, seed)."""
    return make_signature(config, nrefs, bs=BUCKET_RESAMPLES, rs=BUCKET_SEED)


def precision_frame(matrices: Mapping[str, np.ndarray]) -> pd.DataFrame:
    """Long format: system, n, matches, total, precision (0-1), fraction, for the decay and grouped bars."""
    rows = []
    for name, matrix in matrices.items():
        order = order_of(matrix)
        sums = matrix.sum(axis=0)
        for n in range(1, order + 1):
            m, t = int(sums[1 + n]), int(sums[1 + order + n])
            rows.append(
                {SYSTEM: name, N: n, MATCHES: m, TOTAL: t, PRECISION: m / t if t else 0.0, FRACTION: fraction(m, t)}
            )
    return pd.DataFrame(rows, columns=[SYSTEM, N, MATCHES, TOTAL, PRECISION, FRACTION])


def bp_curve(max_ratio: float = 1.6, points: int = 161) -> pd.DataFrame:
    """The brevity penalty as a function of c/r: exp(1 - r/c) below 1, 1 above."""
    x = np.linspace(0.02, max(max_ratio, 1.2), points)
    return pd.DataFrame({RATIO: x, BP: brevity_penalties(x, 1.0)})


def bp_frames(matrix: np.ndarray, config: BleuConfig) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The BP curve over the range of the points, and the points (see :func:`bp_points`)."""
    points = bp_points(matrix, config)
    return bp_curve(float(min(points[RATIO].max(), 3.0)) + 0.05), points


def bp_points(matrix: np.ndarray, config: BleuConfig) -> pd.DataFrame:
    """Every sentence's (c/r, BP) and the corpus point, with ``kind`` = sentence or corpus.

    The corpus point uses the summed c and r: BP is not the mean of the sentences' BPs.
    """
    c, r = matrix[:, 0].astype(float), matrix[:, 1].astype(float)
    ratio = np.divide(c, r, out=np.ones(len(c)), where=r > 0)
    bp = brevity_penalties(c, r)
    sent = pd.DataFrame({SEGMENT: np.arange(1, len(c) + 1), RATIO: ratio, BP: bp, KIND: "sentence"})
    cs, rs = float(c.sum()), float(r.sum())
    cbp = brevity_penalty(cs, rs)
    corpus = pd.DataFrame({SEGMENT: [0], RATIO: [cs / rs if rs else 1.0], BP: [cbp], KIND: ["corpus"]})
    return pd.concat([sent, corpus], ignore_index=True)


def _bucket_of(matrix: np.ndarray, by: str, n_buckets: int) -> tuple[np.ndarray, list[str]]:
    """Each segment's bucket (reference length quantiles, or fixed c/r ranges) and the buckets' labels."""
    r = matrix[:, 1].astype(float)
    if by == "ratio":
        ratio = np.divide(matrix[:, 0], r, out=np.ones(len(r)), where=r > 0)
        edges = [0.0, 0.8, 0.9, 1.0, 1.1, 1.25, np.inf]
        labels = ["< 0.8", "0.8-0.9", "0.9-1.0", "1.0-1.1", "1.1-1.25", ">= 1.25"]
        return np.digitize(ratio, edges[1:-1], right=False), labels
    qs = np.unique(np.quantile(r, np.linspace(0, 1, n_buckets + 1)[1:-1])) if len(r) else np.zeros(0)
    which = np.digitize(r, qs, right=True)
    bounds = [-np.inf, *qs.tolist(), np.inf]
    labels = []
    for k in range(len(bounds) - 1):
        lo_b = int(r[which == k].min()) if (which == k).any() else 0
        hi_b = int(r[which == k].max()) if (which == k).any() else 0
        labels.append(f"{lo_b} tokens" if lo_b == hi_b else f"{lo_b}-{hi_b} tokens")  # never "13-13 tokens"
    return which, labels


def bucket_resamples(matrix: np.ndarray, *, by: str = "ref_len", n_buckets: int = 5) -> list[np.ndarray]:
    """Each non-empty bucket's bootstrap sums (``bleu_core.resample_sums``, 1,000 draws, seed 12345): they
    depend on the tokens only, so a smoothing change reuses them (``buckets(resampled=...)``)."""
    which, labels = _bucket_of(matrix, by, n_buckets)
    subs = [matrix[which == k] for k in range(len(labels))]
    return [resample_sums([sub], BUCKET_RESAMPLES, BUCKET_SEED) for sub in subs if len(sub)]


def buckets(
    matrix: np.ndarray,
    config: BleuConfig,
    *,
    by: str = "ref_len",
    n_buckets: int = 5,
    resampled: Sequence[np.ndarray] | None = None,
) -> pd.DataFrame:
    """BLEU of the segments in each bucket (reference length, or length ratio c/r), with a bootstrap CI.

    Reference-length buckets are quantiles (equal-sized groups); ratio buckets are fixed ranges around 1.
    ``resampled``: :func:`bucket_resamples` of this matrix, read instead of drawing again.
    """
    which, labels = _bucket_of(matrix, by, n_buckets)
    rows = []
    pools = iter(resampled) if resampled is not None else None
    for k, label in enumerate(labels):
        sub = matrix[which == k]
        if not len(sub):
            continue
        bleu = float(score_many(sub.sum(axis=0)[None, :], config)[0])
        pool = next(pools) if pools is not None else None
        ((_, _, lo, hi),) = bootstrap_cis([sub], config, n_samples=BUCKET_RESAMPLES, seed=BUCKET_SEED, resampled=pool)
        rows.append({BUCKET: label, "order": k, COUNT: len(sub), BLEU: bleu, CI_LOW: lo, CI_HIGH: hi})
    return pd.DataFrame(rows, columns=[BUCKET, "order", COUNT, BLEU, CI_LOW, CI_HIGH])


BLEU_A, BLEU_B, B_MINUS_A = "BLEU A", "BLEU B", "B - A"


def pair_buckets(
    matrix_a: np.ndarray,
    matrix_b: np.ndarray,
    config: BleuConfig,
    *,
    by: str = "ref_len",
    n_buckets: int = 5,
    intervals: bool = False,
) -> pd.DataFrame:
    """A against B on the same lines of each bucket (A's buckets: with several references the best-match
    length depends on the candidate, so one assignment is used for both): lines, corpus BLEU of each, B - A.

    ``intervals``: also each cell's 95% bootstrap interval (columns :data:`PAIR_CI`): sacreBLEU's draws of the
    bucket's sentences (``bleu_core.resample_sums``, 1,000 resamples, seed 12345), one set for A and B, so B − A's
    interval is that of the paired differences.

    Example:
        >>> m = np.tile(np.array([[10, 10, 8, 9, 6, 8, 4, 7, 2, 6]]), (6, 1))
        >>> pair_buckets(m, m, BleuConfig())[B_MINUS_A].tolist()
        [0.0]
    """
    which, labels = _bucket_of(matrix_a, by, n_buckets)
    rows = []
    for k, label in enumerate(labels):
        keep = which == k
        if not keep.any():
            continue
        a = float(score_many(matrix_a[keep].sum(axis=0)[None, :], config)[0])
        b = float(score_many(matrix_b[keep].sum(axis=0)[None, :], config)[0])
        row: dict[str, object] = {BUCKET: label, COUNT: int(keep.sum()), BLEU_A: a, BLEU_B: b, B_MINUS_A: b - a}
        if intervals:
            sums = resample_sums([matrix_a[keep], matrix_b[keep]], BUCKET_RESAMPLES, BUCKET_SEED)
            w = matrix_a.shape[1]
            da, db = score_many(sums[:, :w], config), score_many(sums[:, w:], config)
            for (lo_col, hi_col), draws in zip(PAIR_CI, (da, db, db - da), strict=True):
                row[lo_col], row[hi_col] = order_interval(draws)
        rows.append(row)
    columns = [BUCKET, COUNT, BLEU_A, BLEU_B, B_MINUS_A]
    if intervals:
        columns += [c for pair in PAIR_CI for c in pair]
    return pd.DataFrame(rows, columns=columns)


PAIR_CI: Final = (("A low", "A high"), ("B low", "B high"), ("B - A low", "B - A high"))
"""The interval columns of :func:`pair_buckets` (``intervals=True``): A's, B's and B − A's."""


def order_interval(draws: np.ndarray) -> tuple[float, float]:
    """sacreBLEU's ``estimate_ci`` bounds of resampled scores: the 2.5% and 97.5% order statistics.

    Example:
        >>> order_interval(np.arange(1000.0))
        (25.0, 974.0)
    """
    ordered = np.sort(np.asarray(draws, dtype=float))
    lower = len(ordered) // 40
    return float(ordered[lower]), float(ordered[len(ordered) - lower - 1])


# --- many systems ----------------------------------------------------------------------------------------


def system_table(
    matrices: Mapping[str, np.ndarray],
    metric: Metric | BleuConfig,
    *,
    nrefs: int,
    baseline: str | None = None,
    human: Mapping[str, float] | None = None,
    resampled: np.ndarray | None = None,
) -> pd.DataFrame:
    """One row per system: its score (the column is the metric's name: ``BLEU``, ``chrF2``, ``TER``) with the
    bootstrap CI, the difference to the baseline with its paired bootstrap 95% interval (the same draws), and the
    human score when given; under BLEU also BP, c, r, c/r, p_1..p_N (percent) and fractions. ``resampled``:
    bootstrap sums to read the intervals from (``bleu_core.resample_sums`` of these matrices, seed 12345) instead of
    drawing."""
    metric = as_metric(metric)
    score_col = metric.name
    names = list(matrices)
    differences = None
    if matrices and len(next(iter(matrices.values()))):  # one set of draws for every system
        mats = list(matrices.values())
        base = names.index(baseline) if baseline is not None and baseline in matrices else None
        if resampled is None and base is not None:  # drawn once for both (the report's case), not once per call
            resampled = resample_sums(mats)
        intervals = bootstrap_cis(mats, metric, resampled=resampled)
        if base is not None:  # each difference's interval from the same draws
            differences = difference_cis(mats, base, metric, resampled=resampled)
    else:
        intervals = [(0.0, 0.0, 0.0, 0.0)] * len(matrices)
    rows = []
    base_score = None
    for (name, matrix), (_, _, lo, hi) in zip(matrices.items(), intervals, strict=True):
        parts = _bleu_columns(matrix, metric.config, nrefs) if isinstance(metric, Bleu) else {}
        score = parts.pop(BLEU) if parts else float(metric.score_many(matrix.sum(axis=0)[None, :])[0])
        row: dict[str, object] = {SYSTEM: name, score_col: score, CI_LOW: lo, CI_HIGH: hi, **parts}
        if human is not None:
            row[HUMAN] = human.get(name, np.nan)
        rows.append(row)
        if name == baseline:
            base_score = row[score_col]
    df = pd.DataFrame(rows)
    if base_score is not None and len(df):
        df[VS_BASELINE] = df[score_col] - base_score
        if differences is not None:
            df[VS_LOW] = [low for _, _, low, _ in differences]
            df[VS_HIGH] = [high for _, _, _, high in differences]
    return df


def _bleu_columns(matrix: np.ndarray, config: BleuConfig, nrefs: int) -> dict[str, object]:
    """BLEU and what it is made of: BP, c, r, c/r, and each order's precision (percent) and fraction."""
    s = score_matrix(matrix, config, nrefs)
    row: dict[str, object] = {BLEU: s.score, BP: s.bp, HYP_LEN: s.sys_len, REF_LEN: s.ref_len, RATIO: s.ratio}
    for n, (m, t) in enumerate(zip(s.counts, s.totals, strict=True), start=1):
        row[f"p{n}"] = 100.0 * m / t if t else 0.0
        row[f"p{n} fraction"] = fraction(m, t)
    return row


def significance_frame(
    names: Sequence[str], p_raw: np.ndarray, p_holm: np.ndarray, delta: np.ndarray, *, alpha: float = 0.05
) -> pd.DataFrame:
    """Long format of an N x N comparison: row system, column system, BLEU difference, raw and Holm p."""
    rows = []
    for i, a in enumerate(names):
        for j, b in enumerate(names):
            same = i == j
            rows.append(
                {
                    ROW: a,
                    COL: b,
                    DELTA: 0.0 if same else float(delta[i, j]),
                    P_RAW: np.nan if same else float(p_raw[i, j]),
                    P_HOLM: np.nan if same else float(p_holm[i, j]),
                    SIGNIFICANT: False if same else bool(p_holm[i, j] < alpha),
                }
            )
    return pd.DataFrame(rows, columns=[ROW, COL, DELTA, P_RAW, P_HOLM, SIGNIFICANT])


def pair_matrix(significance: pd.DataFrame, names: Sequence[str], column: str) -> list[list[float]]:
    """The N x N matrix of one column of :func:`significance_frame` (``P_RAW``, ``P_HOLM``) in the order of
    ``names``; NaN on the diagonal and for a pair the frame lacks.

    Example:
        >>> sig = significance_frame(["a", "b"], np.full((2, 2), 0.01), np.full((2, 2), 0.02), np.zeros((2, 2)))
        >>> pair_matrix(sig, ["b", "a"], P_HOLM)
        [[nan, 0.02], [0.02, nan]]
    """
    index = {n: i for i, n in enumerate(names)}
    out = np.full((len(names), len(names)), np.nan)
    for r, c, p in zip(significance[ROW], significance[COL], significance[column], strict=True):
        if r in index and c in index and r != c:
            out[index[r], index[c]] = p
    return [[float(v) for v in row] for row in out]


def ranking(
    systems: pd.DataFrame,
    significance: pd.DataFrame,
    *,
    alpha: float = 0.05,
    score: str = BLEU,
    higher_is_better: bool = True,
) -> Ranking:
    """The systems ranked by their ``score`` column in significance clusters (``bleu_core.significance.ranking``;
    an error rate such as TER with ``higher_is_better=False``: lowest first), from the system table and the long
    Holm-corrected matrix of :func:`significance_frame`.

    Example:
        >>> sys = pd.DataFrame({SYSTEM: ["a", "b", "c"], BLEU: [20.0, 30.0, 29.0]})
        >>> sig = significance_frame(["a", "b", "c"], np.full((3, 3), 0.001), np.array(
        ...     [[1, 0.001, 0.001], [0.001, 1, 0.5], [0.001, 0.5, 1]]), np.zeros((3, 3)))
        >>> [(s.name, s.rank_range, s.cluster) for s in ranking(sys, sig).systems]
        [('b', (1, 2), 1), ('c', (1, 2), 1), ('a', (3, 3), 2)]
    """
    names = list(systems[SYSTEM])
    index = {n: i for i, n in enumerate(names)}
    holm = np.full((len(names), len(names)), np.nan)
    for r, c, p in zip(significance[ROW], significance[COL], significance[P_HOLM], strict=True):
        if r in index and c in index:
            holm[index[r], index[c]] = p
    return rank_systems(
        names, [float(b) for b in systems[score]], holm.tolist(), alpha, higher_is_better=higher_is_better
    )


def in_order(df: pd.DataFrame, order: Sequence[str], column: str = SYSTEM) -> pd.DataFrame:
    """The rows of ``df`` with their ``column`` in the order of ``order`` (others last, as they were).

    Example:
        >>> in_order(pd.DataFrame({SYSTEM: ["a", "b", "c"]}), ["c", "a"])[SYSTEM].tolist()
        ['c', 'a', 'b']
    """
    where = {v: i for i, v in enumerate(order)}
    keys = [where.get(v, len(where)) for v in df[column]]
    return df.iloc[np.argsort(keys, kind="stable")].reset_index(drop=True)


def ranking_frame(systems: pd.DataFrame, ranked: Ranking, *, score: str = BLEU) -> pd.DataFrame:
    """One row per system, best first: rank, the ranks it could take, cluster, the score (column ``score``) and
    its interval."""
    by_name = systems.set_index(SYSTEM)
    rows = [
        {
            PLACE: s.rank,
            RANK_RANGE: str(s.rank_range[0])
            if s.rank_range[0] == s.rank_range[1]
            else f"{s.rank_range[0]}–{s.rank_range[1]}",
            CLUSTER: s.cluster,
            SYSTEM: s.name,
            score: s.score,
            CI_LOW: float(by_name.loc[s.name, CI_LOW]) if CI_LOW in by_name else np.nan,
            CI_HIGH: float(by_name.loc[s.name, CI_HIGH]) if CI_HIGH in by_name else np.nan,
        }
        for s in ranked.systems
    ]
    return pd.DataFrame(rows, columns=[PLACE, RANK_RANGE, CLUSTER, SYSTEM, score, CI_LOW, CI_HIGH])


def pair_sentences(
    matrix_a: np.ndarray,
    matrix_b: np.ndarray,
    config: BleuConfig,
    hyps_a: Sequence[str],
    hyps_b: Sequence[str],
    refs: Sequence[Sequence[str]],
    source: Sequence[str] | None = None,
    documents: Documents | None = None,
) -> pd.DataFrame:
    """Sentence BLEU of A and B per segment and B - A, sorted by the difference (largest first); with the source
    line beside each sentence when there is one, and its document when the corpus has documents."""
    sc = _sentence_config(config)
    a = score_many(matrix_a, sc) if len(matrix_a) else np.zeros(0)
    b = score_many(matrix_b, sc) if len(matrix_b) else np.zeros(0)
    df = pd.DataFrame(
        {
            SEGMENT: np.arange(1, len(a) + 1),
            BLEU_A: a,
            BLEU_B: b,
            DIFF: b - a,
            "A": text_column(hyps_a),
            "B": text_column(hyps_b),
            REF: text_column(refs[0]) if refs else "",
        }
    )
    if source is not None:
        df[SOURCE] = text_column(source)
    if documents is not None:
        df.insert(1, DOCUMENT, text_column(documents.doc_ids))
    return df.sort_values(DIFF, ascending=False, kind="stable").reset_index(drop=True)


def _top_of_each_side(z: np.ndarray, top: int, name: Callable[[int], str]) -> list[int]:
    """The positions of the ``top`` largest |z| favouring A (z > 0), then B's, ties broken by the n-gram's text."""
    shown: list[int] = []
    for favours_a in (True, False):
        side = np.flatnonzero(z > 0) if favours_a else np.flatnonzero(z <= 0)
        if not len(side):
            continue
        cut = np.sort(np.abs(z[side]))[::-1][min(top, len(side)) - 1]
        near = side[np.abs(z[side]) >= cut]  # every candidate that could be in the top (ties included)
        shown += sorted(near.tolist(), key=lambda j: (-abs(z[j]), name(j)))[:top]
    return shown


def ngram_diff(
    a: NgramDiff | MatchArrays,
    b: MatchArrays | None = None,
    *,
    min_support: int = 2,
    alpha: float = 0.5,
    top: int = 25,
    orders: Sequence[int] | None = None,
) -> pd.DataFrame:
    """n-grams that one system matches and the other does not, ranked by a smoothed log-odds z-score.

    For each n-gram, ``only A`` counts the matches A earned in a segment beyond B's there (and the other
    way round). Ranking by the z-score of the log-odds ratio with an add-``alpha`` prior (Monroe et al.,
    2008) rather than by raw ratio keeps one-off flukes (1 vs 0) from dominating, and rather than by raw
    count keeps frequent n-grams that both systems mostly match from filling the list; n-grams seen fewer
    than ``min_support`` times are dropped.

    ``a`` is what ``ReferenceSet.ngram_diff`` counted (in the kernel: one array entry per n-gram that
    differs); two systems' ``MatchArrays`` from the same references are counted first
    (``NgramDiff.from_match_arrays``). Only the rows shown are named.
    """
    diff = a if isinstance(a, NgramDiff) else NgramDiff.from_match_arrays(a, cast(MatchArrays, b))
    cols = [NGRAM, N, ONLY_A, ONLY_B, LOG_ODDS, FAVOURS, SEGMENTS_LIST]
    only_a, only_b = diff.only_a, diff.only_b
    order = (diff.grams >= 0).sum(axis=1)
    na, nb = float(only_a.sum()), float(only_b.sum())
    keep = (only_a + only_b >= min_support) & (only_a + only_b > 0)
    if orders is not None:
        keep &= np.isin(order, list(orders))
    idx = np.flatnonzero(keep)
    if not len(idx):
        return pd.DataFrame(columns=cols)
    ca, cb = only_a[idx], only_b[idx]
    la = np.log((ca + alpha) / (na - ca + alpha))
    lb = np.log((cb + alpha) / (nb - cb + alpha))
    z = (la - lb) / np.sqrt(1 / (ca + alpha) + 1 / (cb + alpha))

    rows = []
    for j in _top_of_each_side(z, top, lambda j: diff.name(int(idx[j]))):
        g = int(idx[j])
        rows.append(
            {
                NGRAM: diff.name(g),
                N: int(order[g]),
                ONLY_A: int(ca[j]),
                ONLY_B: int(cb[j]),
                LOG_ODDS: float(z[j]),
                FAVOURS: "A" if z[j] > 0 else "B",
                SEGMENTS_LIST: tuple((diff.segments_of(g) + 1).tolist()),
            }
        )
    return pd.DataFrame(rows, columns=cols)


# --- significance ----------------------------------------------------------------------------------------


def pairwise(
    matrices: Sequence[np.ndarray],
    metric: Metric | BleuConfig,
    *,
    method: str = "bs",
    trials: int = 1000,
    seed: int = 12345,
    resampled: np.ndarray | None = None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """All pairs as N x N arrays: (raw p, Holm p, score difference row - column), 1 on the diagonal.

    The tests are ``bleu_core.pairwise_matrix``'s: paired bootstrap (``bs``, Koehn 2004) or paired
    approximate randomization (``ar``, Riezler & Maxwell 2005), as sacreBLEU runs them, with Holm's
    correction over the N(N-1)/2 pairs; identical scores get p = 1 (``tie_p``: no evidence of a difference).
    """
    metric = as_metric(metric)
    k = len(matrices)
    if k < 2 or len(matrices[0]) == 0:
        full = np.array([metric.score_many(m.sum(axis=0)[None, :])[0] if len(m) else 0.0 for m in matrices])
        return np.ones((k, k)), np.ones((k, k)), full[:, None] - full[None, :]
    test = cast('Literal["bs", "ar"]', method)  # pairwise_matrix refuses any other name
    r = pairwise_matrix(
        list(matrices),
        [str(i) for i in range(k)],
        metric,
        method=test,
        trials=trials,
        seed=seed,
        tie_p=1.0,
        resampled=resampled,
    )
    p = np.nan_to_num(np.array(r.p_values, dtype=float), nan=1.0)
    ph = np.nan_to_num(np.array(r.adjusted, dtype=float), nan=1.0)
    delta = -np.array(r.differences, dtype=float)  # theirs is column - row
    return p, ph, delta


def order_rows(matrix: np.ndarray, config: BleuConfig, nrefs: int) -> pd.DataFrame:
    """The score card's rows: per order n, matches/total as a fraction and the precision."""
    s = score_matrix(matrix, config, nrefs)
    return pd.DataFrame(
        {
            N: list(range(1, len(s.counts) + 1)),
            FRACTION: [fraction(m, t) for m, t in zip(s.counts, s.totals, strict=True)],
            PRECISION: [p / 100 for p in s.precisions],
        }
    )


def factorisation(score: object) -> tuple[float, float]:
    """BLEU = (geometric mean of the precisions) x BP, on the paper's 0-1 scale: returns (mean term, BP)."""
    bleu = float(score.score) / 100  # type: ignore[attr-defined]
    bp = float(score.bp)  # type: ignore[attr-defined]
    return (bleu / bp if bp > 0 else 0.0), bp


def mean_vs_corpus(sentences: pd.DataFrame, corpus_bleu: float) -> tuple[float, float, float]:
    """(corpus BLEU, mean of sentence BLEU, their difference)."""
    mean = float(sentences[SENT_BLEU].mean()) if len(sentences) else 0.0
    return corpus_bleu, mean, mean - corpus_bleu
