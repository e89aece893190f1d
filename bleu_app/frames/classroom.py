"""A class room's data as frames (no Streamlit): the translations with their BLEU and the class's ratings, the
references scored against each other, the agreement between BLEU and the ratings, and the room as CSV rows."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from typing import Any

import pandas as pd

from bleu_app.store import Rating, Submission
from bleu_core.config import BleuConfig
from bleu_core.significance.agreement import Agreement, agreement
from bleu_core.teaching.explain import explain_segment

RANK, NICK, TEXT, BLEU, MEAN, N_RATINGS, HIDDEN, SUB_ID = (
    "rank",
    "nickname",
    "translation",
    "BLEU",
    "mean rating",
    "ratings",
    "hidden",
    "id",
)
ANONYMOUS = "(no nickname)"
RATING_LABELS = {1: "1 very bad", 2: "2", 3: "3", 4: "4", 5: "5 very good"}  # the paper's scale (section 4)


def config_to_dict(config: BleuConfig) -> dict[str, Any]:
    """A room keeps its settings as JSON.

    Example:
        >>> config_from_dict(config_to_dict(BleuConfig.sentence())) == BleuConfig.sentence()
        True
    """
    out = dataclasses.asdict(config)
    if out["weights"] is not None:
        out["weights"] = list(out["weights"])
    return out


def config_from_dict(values: dict[str, Any]) -> BleuConfig:
    names = {f.name for f in dataclasses.fields(BleuConfig)}
    kept = {k: v for k, v in values.items() if k in names}
    if kept.get("weights") is not None:
        kept["weights"] = tuple(kept["weights"])
    return BleuConfig(**kept)


def score(text: str, refs: Sequence[str], config: BleuConfig) -> float:
    return float(explain_segment(text, list(refs), config).score.score)


def ranked_frame(
    subs: Sequence[Submission],
    ratings: Sequence[Rating],
    refs: Sequence[str],
    config: BleuConfig,
    scorer: Callable[[str], float] | None = None,
) -> pd.DataFrame:
    """One row per translation, best BLEU first: rank, nickname, text, BLEU, mean rating and how many ratings.
    ``scorer`` (text -> BLEU) lets a caller cache the scores; by default each text is scored here.

    Example:
        >>> from bleu_app.store import Submission
        >>> subs = [Submission("a", "r", "s1", "", 1, "the cat", False, 0.0),
        ...         Submission("b", "r", "s2", "Bo", 1, "the cat sat", False, 1.0)]
        >>> df = ranked_frame(subs, [], ["the cat sat"], BleuConfig.sentence())
        >>> [(n, round(b, 2)) for n, b in df[[NICK, BLEU]].values.tolist()]  # the short one: BP = exp(1 - 3/2)
        [('Bo', 100.0), ('(no nickname)', 60.65)]
    """
    scorer = scorer or (lambda text: score(text, refs, config))
    by_sub: dict[str, list[int]] = {}
    for r in ratings:
        by_sub.setdefault(r.submission_id, []).append(r.rating)
    rows = [
        {
            SUB_ID: s.id,
            NICK: s.nickname or ANONYMOUS,
            TEXT: s.text,
            BLEU: scorer(s.text),
            MEAN: (sum(by_sub[s.id]) / len(by_sub[s.id])) if by_sub.get(s.id) else float("nan"),
            N_RATINGS: len(by_sub.get(s.id, [])),
            HIDDEN: s.hidden,
        }
        for s in subs
    ]
    df = pd.DataFrame(rows, columns=[SUB_ID, NICK, TEXT, BLEU, MEAN, N_RATINGS, HIDDEN])
    df = df.sort_values([BLEU, SUB_ID], ascending=[False, True], kind="stable").reset_index(drop=True)
    df.insert(0, RANK, range(1, len(df) + 1))
    return df


def rated_agreement(df: pd.DataFrame, *, trials: int = 1000) -> Agreement:
    """BLEU against the mean rating over the visible translations that have at least one rating."""
    rated = df[(df[N_RATINGS] > 0) & ~df[HIDDEN]]
    return agreement(rated[BLEU].tolist(), rated[MEAN].tolist(), trials=trials)


def references_frame(refs: Sequence[str], config: BleuConfig) -> pd.DataFrame:
    """Each reference scored as a candidate against the other references (needs two or more).

    Example:
        >>> df = references_frame(["the cat sat", "the cat sat", "a dog ran"], BleuConfig.sentence())
        >>> df["BLEU against the others"].round(2).tolist()
        [100.0, 100.0, 0.0]
    """
    rows = []
    if len(refs) >= 2:
        for i, ref in enumerate(refs):
            others = [r for j, r in enumerate(refs) if j != i]
            rows.append(
                {"reference": f"Reference {i + 1}", TEXT: ref, "BLEU against the others": score(ref, others, config)}
            )
    return pd.DataFrame(rows, columns=["reference", TEXT, "BLEU against the others"])


def export_frame(df: pd.DataFrame, ratings: Sequence[Rating]) -> pd.DataFrame:
    """The room for download: the ranked translations (with hidden ones, marked) and each rating as a count."""
    out = df.drop(columns=[SUB_ID]).copy()
    counts = {k: [0] * 5 for k in df[SUB_ID]}
    for r in ratings:
        if r.submission_id in counts:
            counts[r.submission_id][r.rating - 1] += 1
    for k in range(5):
        out[f"rated {k + 1}"] = [counts[s][k] for s in df[SUB_ID]]
    return out


def histogram_frame(df: pd.DataFrame, *, width: float = 10.0) -> pd.DataFrame:
    """Visible translations per BLEU bin of ``width`` points (0-10, ..., 90-100; 100 falls in the last).

    Example:
        >>> histogram_frame(pd.DataFrame({BLEU: [5.0, 95.0, 100.0], HIDDEN: [False] * 3}))["count"].tolist()
        [1, 0, 0, 0, 0, 0, 0, 0, 0, 2]
    """
    visible = df[~df[HIDDEN]][BLEU] if HIDDEN in df else df[BLEU]
    bins = int(100 / width)
    counts = [0] * bins
    for v in visible:
        counts[min(int(v // width), bins - 1)] += 1
    return pd.DataFrame(
        {"from": [i * width for i in range(bins)], "to": [(i + 1) * width for i in range(bins)], "count": counts}
    )
