"""One segment's explanation as tidy DataFrames (learn and sentence pages).

Every column name is a module constant; tests hold the frames to these contracts. No Streamlit here.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import replace
from fractions import Fraction
from typing import Final

import pandas as pd

from bleu_app.frames.signs import signed
from bleu_core.config import BleuConfig
from bleu_core.engine.stats import closest_ref_len
from bleu_core.metrics.bleu import brevity_penalty, score_from_stats
from bleu_core.teaching.clipbuild import ClipStep
from bleu_core.teaching.explain import ClipRow, SegmentExplanation
from bleu_core.teaching.mteval import mteval_v13a_score
from bleu_core.teaching.variants import VariantResult

__all__ = [
    "BP",
    "BP_CURVE_COLUMNS",
    "CLIP",
    "CLIP_COLUMNS",
    "COUNT",
    "DELTA",
    "EXERCISE_COLUMNS",
    "FRACTION",
    "KIND",
    "LABEL",
    "LOG_COLUMNS",
    "MATCHES",
    "MAX_REF",
    "NGRAM",
    "OCCURRENCE_COLUMNS",
    "PRECISION_COLUMNS",
    "P_SCORE",
    "STATUS",
    "TOTAL",
    "VALUE",
    "C",
    "N",
    "P",
    "bp_curve_frame",
    "bp_marks_frame",
    "bp_points_frame",
    "build_clip_frame",
    "clip_frame",
    "fraction",
    "log_terms_frame",
    "missed_frame",
    "occurrence_frame",
    "overlap_frame",
    "precision_frame",
    "ref_col",
    "whatif_frame",
]


def fraction(matches: float, total: float) -> str:
    """The app's one way to write a fraction: ``17/18`` for integer counts, a decimal pair otherwise
    (add-k smoothing adds k).

    Example:
        >>> fraction(17, 18), fraction(2.0, 7.0), fraction(1.5, 6.5)
        ('17/18', '2/7', '1.5/6.5')
    """
    if float(matches).is_integer() and float(total).is_integer():
        return f"{int(matches)}/{int(total)}"
    return f"{matches:g}/{total:g}"


# --- column names --------------------------------------------------------------------------------------
N: Final = "n"
NGRAM: Final = "n-gram"
COUNT: Final = "Count"
MAX_REF: Final = "Max_Ref_Count"
CLIP: Final = "Count_clip"
MATCHES: Final = "matches"
TOTAL: Final = "total"
P: Final = "p_n"  # unsmoothed modified precision, 0-1
P_SCORE: Final = "p_n used"  # the precision that entered the score (smoothed where smoothing applied), 0-1
FRACTION: Final = "fraction"
AXIS: Final = "axis label"  # a chart's category label with its number, e.g. "p1 = 17/18"
LABEL: Final = "term"
VALUE: Final = "value"
KIND: Final = "kind"
STATUS: Final = "status"
START: Final = "position"
REFS: Final = "found in"
C: Final = "c"
BP: Final = "BP"
POINT: Final = "point"
DELTA: Final = "change"
BEFORE: Final = "before"
AFTER: Final = "after"
STEP: Final = "step"
EXPECTED: Final = "expected"
GIVEN: Final = "your answer"
OK: Final = "correct"
HINT: Final = "explanation"
WHO: Final = "matched by"


def ref_col(k: int) -> str:
    """The column of reference k's count (0-based k): ``Ref 1``, ``Ref 2``, ..."""
    return f"Ref {k + 1}"


CLIP_COLUMNS: Final = (NGRAM, COUNT, MAX_REF, CLIP)  # plus one ref_col(k) per reference, before MAX_REF
PRECISION_COLUMNS: Final = (N, MATCHES, TOTAL, P, P_SCORE, FRACTION, AXIS)
LOG_COLUMNS: Final = (LABEL, VALUE, KIND, AXIS)
OCCURRENCE_COLUMNS: Final = (START, NGRAM, STATUS, REFS)
BP_CURVE_COLUMNS: Final = (C, BP)
EXERCISE_COLUMNS: Final = (STEP, EXPECTED, GIVEN, OK, HINT)


def _gram(tokens: Sequence[str]) -> str:
    return " ".join(tokens)


def clip_frame(expl: SegmentExplanation, n: int) -> pd.DataFrame:
    """The paper's clipping table for order n: one row per distinct candidate n-gram, in reading order.

    Columns: NGRAM, COUNT, one ``ref_col(k)`` per reference, MAX_REF, CLIP.
    """
    return _clip_rows(expl, expl.orders[n - 1].rows if 1 <= n <= len(expl.orders) else ())


def _clip_rows(expl: SegmentExplanation, rows: Sequence[ClipRow]) -> pd.DataFrame:
    refs = [ref_col(k) for k in range(len(expl.ref_tokens))]
    cols = [NGRAM, COUNT, *refs, MAX_REF, CLIP]
    if not rows:
        return pd.DataFrame(columns=cols)
    table = [
        {
            NGRAM: _gram(r.ngram),
            COUNT: r.count,
            **dict(zip(refs, r.ref_counts)),
            MAX_REF: r.max_ref_count,
            CLIP: r.clipped,
        }
        for r in rows
    ]
    return pd.DataFrame(table, columns=cols).astype(dict.fromkeys(cols[1:], "int64"))


def build_clip_frame(expl: SegmentExplanation, step: ClipStep) -> pd.DataFrame:
    """:func:`clip_frame` after ``step`` (``bleu_core.teaching.clipbuild``): the n-grams counted so far, with Count
    and Count_clip so far; the references' counts and Max_Ref_Count are the whole references'. After the last
    step it is :func:`clip_frame` itself.

    Example:
        >>> from bleu_core.config import BleuConfig
        >>> from bleu_core.teaching.clipbuild import clip_steps
        >>> from bleu_core.teaching.explain import explain_segment
        >>> e = explain_segment("the cat the cat the", ["the cat", "a cat on the mat"], BleuConfig.paper())
        >>> build_clip_frame(e, clip_steps(e, 1)[3]).to_dict("records")  # doctest: +NORMALIZE_WHITESPACE
        [{'n-gram': 'the', 'Count': 2, 'Ref 1': 1, 'Ref 2': 1, 'Max_Ref_Count': 1, 'Count_clip': 1},
         {'n-gram': 'cat', 'Count': 1, 'Ref 1': 1, 'Ref 2': 1, 'Max_Ref_Count': 1, 'Count_clip': 1}]
    """
    return _clip_rows(expl, step.rows)


REF_COUNTS: Final = "Refs"
MAX_SHORT: Final = "Max"
NARROW_CLIP_COLUMNS: Final = (NGRAM, COUNT, REF_COUNTS, MAX_SHORT, CLIP)
NARROW_CLIP_NOTE: Final = (
    "Count: times in the translation · Refs: times in each reference · Max: Max_Ref_Count, the most in any one "
    "reference · Count_clip: min(Count, Max), the matches that count"
)


def narrow_clip_frame(expl: SegmentExplanation, n: int) -> pd.DataFrame:
    """:func:`clip_frame` narrow enough for a phone (issue 34: at 390 px, three references pushed Count_clip off
    the table): the references' counts in one column (``1 · 0 · 2``) and Max_Ref_Count as ``Max``
    (``NARROW_CLIP_NOTE`` names them)."""
    wide = clip_frame(expl, n)
    refs = [ref_col(k) for k in range(len(expl.ref_tokens))]
    joined = [" · ".join(str(c) for c in counts) for counts in wide[refs].itertuples(index=False)]
    return wide.assign(**{REF_COUNTS: joined, MAX_SHORT: wide[MAX_REF]})[list(NARROW_CLIP_COLUMNS)]


def precision_frame(expl: SegmentExplanation) -> pd.DataFrame:
    """p_n per order: clipped matches, total, the exact fraction, and the precision the score used."""
    used = expl.score.precisions
    rows = [
        {
            N: o.n,
            MATCHES: o.matches,
            TOTAL: o.total,
            P: o.precision,
            P_SCORE: (used[o.n - 1] / 100) if o.n - 1 < len(used) else o.precision,
            FRACTION: f"{o.matches}/{o.total}",
            AXIS: f"p{o.n} = {o.matches}/{o.total}",
        }
        for o in expl.orders
    ]
    return pd.DataFrame(rows, columns=list(PRECISION_COLUMNS))


def log_terms_frame(expl: SegmentExplanation) -> pd.DataFrame:
    """The paper's log domain: one row per w_n log p_n, one for log BP, one for their sum, log BLEU.

    An order with no match has log p_n = -inf; its VALUE is NaN (nothing to draw) and the sum is NaN too.
    KIND is ``precision``, ``brevity`` or ``total``.
    """
    return _log_terms_rows(*expl.log_terms())


def corpus_log_terms_frame(expls: Sequence[SegmentExplanation], config: BleuConfig) -> pd.DataFrame:
    """``log_terms_frame`` for a corpus of explained sentences: the pooled counts, c and r (sums over the
    sentences), one BP; the terms sum to the log of the corpus BLEU under ``config``."""
    order = config.max_ngram_order
    correct = [sum(e.orders[n].matches for e in expls) for n in range(order)]
    total = [sum(e.orders[n].total for e in expls) for n in range(order)]
    c, r = sum(e.hyp_len for e in expls), sum(e.closest_ref_len for e in expls)
    s = score_from_stats(correct, total, c, r, config)
    eff = s.eff_order or order
    weights = (config.weights or (1.0 / eff,) * eff)[:eff]
    norm = sum(weights) or 1.0
    terms = tuple(
        (w / norm) * (math.log(p / 100) if p > 0 else -math.inf)
        for w, p in zip(weights, s.precisions[:eff], strict=False)
    )
    return _log_terms_rows(terms, math.log(s.bp) if s.bp > 0 else -math.inf)


def _log_terms_rows(terms: Sequence[float], log_bp: float) -> pd.DataFrame:
    rows = [{LABEL: f"w{n} log p{n}", VALUE: t, KIND: "precision"} for n, t in enumerate(terms, start=1)]
    rows.append({LABEL: "log BP", VALUE: log_bp, KIND: "brevity"})
    total = sum(terms) + log_bp
    rows.append({LABEL: "log BLEU", VALUE: total, KIND: "total"})
    df = pd.DataFrame(rows, columns=[LABEL, VALUE, KIND])
    df[VALUE] = df[VALUE].astype(float).where(df[VALUE].map(math.isfinite))
    # Numbers go into the axis labels (which follow the theme's text colour) as "label|value" lines; the weight
    # gets a line of its own so that six labels fit side by side in a phone-width window.
    df[AXIS] = [
        f"{lab.replace(' log ', '|log ')}|{v:.3f}".replace("-", "−")
        if not math.isnan(v)
        else f"{lab.replace(' log ', '|log ')}|−∞"
        for lab, v in zip(df[LABEL], df[VALUE], strict=True)
    ]
    return df


def bp_curve_frame(r: int, *, c_max: int | None = None, points: int = 200) -> pd.DataFrame:
    """BP(c) = 1 if c > r else exp(1 - r/c), sampled on (0, c_max] for a best match length r."""
    r = max(int(r), 1)
    top = max(c_max or 0, 2 * r, 4)
    cs = [top * (i + 1) / points for i in range(points)]
    return pd.DataFrame({C: cs, BP: [brevity_penalty(c, r) for c in cs]})


def bp_points_frame(expl: SegmentExplanation) -> pd.DataFrame:
    """The marks on the BP curve: this candidate (c, BP) and the best match length r (BP = 1)."""
    return bp_marks_frame(expl.hyp_len, expl.closest_ref_len)


def bp_marks_frame(c: int, r: int) -> pd.DataFrame:
    """:func:`bp_points_frame` from the two lengths alone (all the chart depends on: a typed candidate of the same
    length draws the same chart)."""
    bp = brevity_penalty(c, r)
    return pd.DataFrame(
        [{POINT: f"this candidate (c = {c})", C: c, BP: bp}, {POINT: f"best match length (r = {r})", C: r, BP: 1.0}],
        columns=[POINT, C, BP],
    )


def occurrence_frame(expl: SegmentExplanation, n: int) -> pd.DataFrame:
    """Every n-gram occurrence in the candidate, in order: where, what, its fate, the references holding it."""
    if not 1 <= n <= len(expl.orders):
        return pd.DataFrame(columns=list(OCCURRENCE_COLUMNS))
    rows = [
        {
            START: o.start + 1,
            NGRAM: _gram(o.ngram),
            STATUS: o.status,
            REFS: "; ".join(f"Ref {k + 1} @ {', '.join(str(p + 1) for p in o.ref_positions[k])}" for k in o.refs)
            or "-",
        }
        for o in expl.orders[n - 1].occurrences
    ]
    return pd.DataFrame(rows, columns=list(OCCURRENCE_COLUMNS))


def missed_frame(expl: SegmentExplanation, n: int) -> pd.DataFrame:
    """The recall view: reference n-grams of order n that the candidate never produced."""
    refs = [ref_col(k) for k in range(len(expl.ref_tokens))]
    cols = [NGRAM, *refs]
    if not 1 <= n <= len(expl.orders):
        return pd.DataFrame(columns=cols)
    rows = [{NGRAM: _gram(m.ngram), **dict(zip(refs, m.ref_counts))} for m in expl.orders[n - 1].missed]
    return pd.DataFrame(rows, columns=cols)


def whatif_frame(before: SegmentExplanation, after: SegmentExplanation) -> pd.DataFrame:
    """Each p_n, BP and BLEU before and after an edit, with the change (0-1 scale; BLEU too)."""
    rows = []
    for b, a in zip(before.orders, after.orders, strict=False):
        rows.append(
            {
                LABEL: f"p{b.n}",
                BEFORE: b.precision,
                AFTER: a.precision,
                DELTA: a.precision - b.precision,
                FRACTION: f"{b.matches}/{b.total} -> {a.matches}/{a.total}",
            }
        )
    rows.append(
        {
            LABEL: "BP",
            BEFORE: before.score.bp,
            AFTER: after.score.bp,
            DELTA: after.score.bp - before.score.bp,
            FRACTION: f"c={before.hyp_len}, r={before.closest_ref_len} -> c={after.hyp_len}, r={after.closest_ref_len}",
        }
    )
    sb, sa = before.score.score / 100, after.score.score / 100
    rows.append({LABEL: "BLEU", BEFORE: sb, AFTER: sa, DELTA: sa - sb, FRACTION: ""})
    return pd.DataFrame(rows, columns=[LABEL, BEFORE, AFTER, DELTA, FRACTION])


def overlap_frame(a: SegmentExplanation, b: SegmentExplanation, n: int) -> pd.DataFrame:
    """Matched n-gram types of two candidates against the same references: both, only A, only B."""

    def matched(e: SegmentExplanation) -> dict[str, None]:
        if not 1 <= n <= len(e.orders):
            return {}
        return dict.fromkeys(_gram(r.ngram) for r in e.orders[n - 1].rows if r.clipped)

    ma, mb = matched(a), matched(b)
    rows = [{NGRAM: g, WHO: "both" if g in mb else "only A"} for g in ma]
    rows += [{NGRAM: g, WHO: "only B"} for g in mb if g not in ma]
    return pd.DataFrame(rows, columns=[NGRAM, WHO])


def _parse(text: str) -> Fraction | None:
    text = (text or "").strip().replace(" ", "")
    if not text:
        return None
    try:
        if "/" in text:
            num, den = text.split("/", 1)
            return Fraction(int(num), int(den))
        return Fraction(text)
    except (ValueError, ZeroDivisionError):
        return None


# --- warnings about the input ----------------------------------------------------------------------------
_INVISIBLE: Final = {
    "\u200b": "zero-width space",
    "\u200c": "zero-width non-joiner",
    "\u200d": "zero-width joiner",
    "\u2060": "word joiner",
    "\ufeff": "byte-order mark",
    "\u200e": "left-to-right mark",
    "\u200f": "right-to-left mark",
    "\u202a": "bidi embedding",
    "\u202b": "bidi embedding",
    "\u202c": "bidi pop",
    "\u202d": "bidi override",
    "\u202e": "bidi override",
    "\u2066": "bidi isolate",
    "\u2067": "bidi isolate",
    "\u2068": "bidi isolate",
    "\u2069": "bidi isolate",
}
_TOKENIZED_HINTS: Final = (" .", " ,", " ?", " !", " 's", " n't", " ;", " :", "( ", " )", "&quot;", "&amp;")


def input_warnings(hyp: str, expl: SegmentExplanation) -> list[str]:
    """Things about this candidate that make its score surprising, in plain words (Markdown).

    Looks for text that seems tokenized already (sacreBLEU expects detokenized text), a candidate shorter
    than the max order (some orders have no n-grams at all), and invisible characters that split or join
    tokens unseen.
    """
    out = []
    text = hyp.rstrip()
    if any(h in text for h in _TOKENIZED_HINTS) or text.endswith((" .", " ?", " !")):
        out.append(
            "The candidate **looks tokenized already** (e.g. a space before punctuation). sacreBLEU expects "
            "detokenized text and tokenizes it itself; scoring pre-tokenized text with `13a` can change the "
            "tokens and makes the number incomparable with published scores. Paste detokenized text, or set "
            "the tokenizer to `none` if you really mean these tokens."
        )
    order = expl.config.max_ngram_order
    if expl.hyp_len < order:
        empty = ", ".join(str(n) for n in range(expl.hyp_len + 1, order + 1))
        cfg = expl.config
        now = (
            "Effective order is on, so those orders are left out of the mean."
            if cfg.use_effective_order
            else f"With smoothing `{cfg.smooth_method}` and effective order off, "
            + ("those empty orders make BLEU 0." if cfg.smooth_method == "none" else "they are smoothed, not left out.")
        )
        out.append(
            f"The candidate has **{expl.hyp_len} token(s)**, fewer than the max order N = {order}: it has no "
            f"{empty}-grams at all. {now} *Effective order* drops orders with no n-grams from the geometric "
            "mean (the default of sacreBLEU's sentence_bleu()); *smoothing* (exp, floor, add-k) replaces a zero "
            "precision "
            "by a small number instead."
        )
    found = sorted({name for ch, name in _INVISIBLE.items() if ch in hyp})
    if found:
        out.append(
            f"The candidate contains **invisible characters** ({', '.join(found)}). They are part of the tokens, "
            "so a word that looks identical to a reference word may not match it."
        )
    return out


# --- learn page helpers ----------------------------------------------------------------------------------
R: Final = "r"
SHORTEST_BP: Final = "BP shortest"
VARIANT: Final = "variant"
WRONG: Final = "its BLEU"
RIGHT: Final = "correct BLEU"
DETAIL: Final = "numbers"


CLOSEST_R: Final = "r closest"
CLOSEST_BP: Final = "BP closest"
SHORTEST_R: Final = "r shortest"
AVERAGE_R: Final = "r average"
AVERAGE_BP: Final = "BP average"
DIFFERS: Final = "differs from closest"
NOTE: Final = "note"
BEST_MATCH_COLUMNS: Final = (C, CLOSEST_R, CLOSEST_BP, SHORTEST_R, SHORTEST_BP, AVERAGE_R, AVERAGE_BP, DIFFERS, NOTE)


def best_match_frame(ref_lens: Sequence[int], candidate_lens: Sequence[int]) -> pd.DataFrame:
    """For each candidate length c, the three rules side by side: the closest reference length (the paper's best
    match length; ties to the shorter, a convention), the shortest, and the average, each with its BP.

    DIFFERS names the rules whose BP differs from the closest rule's; NOTE marks a tie between two references.
    """
    lens = tuple(ref_lens)
    shortest, average = min(lens), sum(lens) / len(lens)
    rows = []
    for c in candidate_lens:
        r = closest_ref_len(c, lens)
        bp, bp_short, bp_avg = brevity_penalty(c, r), brevity_penalty(c, shortest), brevity_penalty(c, average)
        differs = [name for name, b in (("shortest", bp_short), ("average", bp_avg)) if not math.isclose(b, bp)]
        tied = sorted({x for x in lens if abs(x - c) == abs(r - c)})
        note = (
            f"tie: {' and '.join(map(str, tied))} are equally close; the shorter by convention" if len(tied) > 1 else ""
        )
        rows.append(
            {
                C: c,
                CLOSEST_R: r,
                CLOSEST_BP: bp,
                SHORTEST_R: shortest,
                SHORTEST_BP: bp_short,
                AVERAGE_R: average,  # exact: shown to 4 decimals (44/3 is 14.6667, not 14.67 padded)
                AVERAGE_BP: bp_avg,
                DIFFERS: " and ".join(differs) or "neither",
                NOTE: note,
            }
        )
    return pd.DataFrame(rows, columns=list(BEST_MATCH_COLUMNS))


# --- the walk: a corpus (section 2.1.1), the geometric mean, orders with no n-grams ------------------------
SENTENCE: Final = "sentence"
PRECISIONS: Final = "precisions"
CORPUS_ROW: Final = "corpus: the sums"


def pooling_frame(labelled: Sequence[tuple[str, SegmentExplanation]]) -> pd.DataFrame:
    """Section 2.1.1 as a table: each sentence's clipped matches / candidate n-grams per order, then a last row
    with the column sums, whose quotients are the corpus p_n (the sentences' precisions are never averaged)."""
    order = max((len(e.orders) for _, e in labelled), default=0)
    cols = [f"p{n}" for n in range(1, order + 1)]
    matches, totals = [0] * order, [0] * order
    rows = []
    for label, e in labelled:
        row: dict[str, str] = {SENTENCE: label}
        for o in e.orders:
            row[f"p{o.n}"] = f"{o.matches}/{o.total}"
            matches[o.n - 1] += o.matches
            totals[o.n - 1] += o.total
        rows.append(row)
    rows.append({SENTENCE: CORPUS_ROW, **{c: f"{m}/{t}" for c, m, t in zip(cols, matches, totals, strict=True)}})
    return pd.DataFrame(rows, columns=[SENTENCE, *cols])


def geometric_mean(expl: SegmentExplanation) -> tuple[str, float | None]:
    """The geometric mean of the precisions as the paper defines it (weights w_n, here uniform): the expression
    ``(17/18 · 10/17 · 7/16 · 4/15)^(1/4)`` and its value, or None when a precision is 0 (or 0/0)."""
    n = len(expl.orders)
    factors = " · ".join(f"{o.matches}/{o.total}" for o in expl.orders)
    if n == 0 or any(o.matches == 0 for o in expl.orders):
        return f"({factors})^(1/{n})", None
    logs = [math.log(o.matches / o.total) for o in expl.orders]
    return f"({factors})^(1/{n})", math.exp(sum(logs) / n)


def arithmetic_mean(expl: SegmentExplanation) -> float:
    """The (wrong) arithmetic mean of the unsmoothed precisions, uniform weights: what the geometric mean replaces."""
    return math.fsum(o.matches / o.total if o.total else 0.0 for o in expl.orders) / max(len(expl.orders), 1)


def what_if_configs(config: BleuConfig) -> dict[str, BleuConfig]:
    """The sidebar's settings, then each later fix for orders with no n-grams on its own, then both."""
    eff = replace(config, use_effective_order=True)
    exp = replace(config, smooth_method="exp", smooth_value=None)
    return {
        "these settings": config,
        "+ effective order": eff,
        "+ exp smoothing": exp,
        "+ both": replace(exp, use_effective_order=True),  # sacreBLEU sentence_bleu's defaults
    }


MTEVAL: Final = "mteval-v13a's rule"


def zero_orders_frame(cells: Mapping[str, Mapping[str, SegmentExplanation]]) -> pd.DataFrame:
    """Per candidate: its precisions, then its BLEU (0-100) under each of ``what_if_configs``, then under NIST
    mteval-v13a's default rule on the same counts (``bleu_core.teaching.mteval``)."""
    rows = []
    for label, by_setting in cells.items():
        first = next(iter(by_setting.values()))
        row: dict[str, object] = {
            SENTENCE: label,
            PRECISIONS: " · ".join(f"p{o.n} = {o.matches}/{o.total}" for o in first.orders),
        }
        row.update({name: e.score.score for name, e in by_setting.items()})
        row[MTEVAL] = mteval_v13a_score(first.stats)  # its own rule on the same counts; None below order 4
        rows.append(row)
    df = pd.DataFrame(rows)
    return df.drop(columns=MTEVAL) if df[MTEVAL].isna().all() else df  # mteval always takes four orders


def naive_recall(expl: SegmentExplanation) -> tuple[int, int]:
    """(reference word types the candidate uses, all reference word types): the paper's naive recall."""
    if not expl.orders:
        return 0, 0
    hit = sum(1 for row in expl.orders[0].rows if row.max_ref_count)
    return hit, hit + len(expl.orders[0].missed)


def variants_frame(results: Sequence[VariantResult]) -> pd.DataFrame:
    """Each variant's number beside the correct one (0-100), with the difference and what it did."""
    rows = [
        {VARIANT: r.variant.label, WRONG: r.score, RIGHT: r.correct, DELTA: r.difference, DETAIL: r.detail}
        for r in results
    ]
    return pd.DataFrame(rows, columns=[VARIANT, WRONG, RIGHT, DELTA, DETAIL])


def variants_shown(results: Sequence[VariantResult]) -> pd.DataFrame:
    """:func:`variants_frame` as the lab shows it: BLEU to 2 decimals, the change signed with a real minus."""
    df = variants_frame(results)
    for col in (WRONG, RIGHT):
        df[col] = [f"{x:.2f}" for x in df[col]]
    df[DELTA] = [signed(x) for x in df[DELTA]]  # the real minus; a change that rounds to 0 is "0.00"
    return df


METHOD: Final = "NLTK smoothing"


def nltk_methods_frame(results: Sequence[VariantResult]) -> pd.DataFrame:
    """NLTK's corpus BLEU (0-100) for SmoothingFunction method 0, 1, 2, ... (one result each, in order)."""
    rows = [{METHOD: f"method{m}", WRONG: r.score, RIGHT: r.correct} for m, r in enumerate(results)]
    return pd.DataFrame(rows, columns=[METHOD, WRONG, RIGHT])


def plain_precision(expl: SegmentExplanation, n: int) -> tuple[int, int]:
    """(candidate n-grams found in some reference, all candidate n-grams): precision without clipping."""
    if not 1 <= n <= len(expl.orders):
        return 0, 0
    o = expl.orders[n - 1]
    return sum(row.count for row in o.rows if row.max_ref_count), o.total
