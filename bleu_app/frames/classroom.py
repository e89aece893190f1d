"""A class room's data as frames (no Streamlit): the translations with their BLEU and the class's ratings, the
references scored against each other, the agreement between BLEU and the ratings, and the room as CSV rows."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from typing import Any

import pandas as pd

from bleu_app.store import Rating, Submission
from bleu_app.store.model import clean_text
from bleu_core.config import BleuConfig
from bleu_core.significance.agreement import Agreement, agreement
from bleu_core.teaching.explain import explain_segment

RANK, NICK, TEXT, BLEU, MEAN, N_RATINGS, HIDDEN, SUB_ID, STUDENT = (
    "rank",
    "nickname",
    "translation",
    "BLEU",
    "mean rating",
    "ratings",
    "hidden",
    "id",
    "student",
)
INTERNAL = (SUB_ID, STUDENT)  # the store's ids: for the dashboard's controls, never shown or exported
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
            STUDENT: s.student_id,
            NICK: s.nickname or ANONYMOUS,
            TEXT: s.text,
            BLEU: scorer(s.text),
            MEAN: (sum(by_sub[s.id]) / len(by_sub[s.id])) if by_sub.get(s.id) else float("nan"),
            N_RATINGS: len(by_sub.get(s.id, [])),
            HIDDEN: s.hidden,
        }
        for s in subs
    ]
    df = pd.DataFrame(rows, columns=[SUB_ID, STUDENT, NICK, TEXT, BLEU, MEAN, N_RATINGS, HIDDEN])
    df = df.sort_values([BLEU, SUB_ID], ascending=[False, True], kind="stable").reset_index(drop=True)
    df.insert(0, RANK, range(1, len(df) + 1))
    return df


def shown(text: str, *, name: bool = False) -> str:
    """A person's text as a table or label shows it: without the bidi controls that reorder what is projected, and
    a nickname without any invisible format character but the joiners (the store's rule for new text, applied again
    to what a room kept from before it).

    Example:
        >>> shown("\u202eloot"), shown("Bo\u2060b", name=True)
        ('loot', 'Bob')
    """
    return clean_text(text, what="text", limit=len(text), name=name)


def teacher_frame(df: pd.DataFrame) -> pd.DataFrame:
    """The ranked translations on the teacher's own screen: every row, the hidden ones marked, no store ids."""
    out = df.drop(columns=list(INTERNAL)).copy()
    out[NICK] = [shown(n, name=True) for n in out[NICK]]
    out[TEXT] = [shown(t) for t in out[TEXT]]
    return out


def projected_frame(df: pd.DataFrame, *, names: bool) -> pd.DataFrame:
    """The ranked translations as projected: the hidden ones gone (they stay in the export), ranked again among the
    rest, nicknames only when ``names``.

    Example:
        >>> df = pd.DataFrame({RANK: [1, 2, 3], NICK: ["Ann", "Rude", "Bo"], TEXT: ["a", "b", "c"],
        ...                    BLEU: [9.0, 8.0, 7.0], MEAN: [1.0, 2.0, 3.0], N_RATINGS: [1, 1, 1],
        ...                    HIDDEN: [False, True, False]})
        >>> projected_frame(df, names=False)[[RANK, TEXT]].values.tolist()
        [[1, 'a'], [2, 'c']]
        >>> projected_frame(df.assign(**{BLEU: 53.72849, MEAN: 7 / 3}), names=False)[[BLEU, MEAN]].values.tolist()
        [[53.73, 2.3], [53.73, 2.3]]
        >>> list(projected_frame(df, names=True).columns)
        ['rank', 'nickname', 'translation', 'BLEU', 'mean rating', 'ratings']
    """
    out = df[~df[HIDDEN]].drop(columns=[HIDDEN, *(c for c in INTERNAL if c in df)]).reset_index(drop=True)
    out[RANK] = range(1, len(out) + 1)
    out[NICK] = [shown(n, name=True) for n in out[NICK]]
    out[TEXT] = [shown(t) for t in out[TEXT]]
    # as the teacher's table shows them: BLEU to 2 decimals, a mean rating to 1 (not "2.3333" beside "3")
    out[BLEU], out[MEAN] = out[BLEU].round(2), out[MEAN].round(1)
    return out if names else out.drop(columns=[NICK])


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
    out = df.drop(columns=list(INTERNAL)).copy()
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
