"""The teacher's dashboard as one value: a room's translations ranked by BLEU with the class's ratings, the BLEU
histogram, the ratings against BLEU and their agreement. Built once per version of the room (``cached.class_board``:
the projected page redraws every 3 s, and most redraws find the room as it was), so that a redraw only sends it."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pandas as pd

from bleu_app.charts import classroom as charts
from bleu_app.frames import classroom as frames
from bleu_app.store import Rating, Room, RoomState
from bleu_core.significance.agreement import Agreement
from bleu_core.teaching.explain import explain_segment

__all__ = ["ClassBoard", "class_board"]

Spec = dict[str, Any]


@dataclass(frozen=True)
class ClassBoard:
    """What the dashboard shows of one version of a room (read-only: shared by every redraw).

    Attributes:
        room: the room as read with the rest (its ``version`` is the board's).
        students: students joined.
        ratings: every rating, oldest first.
        ranked: ``frames.ranked_frame``: one row per translation, best BLEU first (empty: no translation yet).
        table: ``ranked`` as the teacher's own screen shows it (``frames.teacher_frame``; the projector shows
            ``frames.projected_frame``).
        labels: each translation's label in the hide picker (submission id -> "#rank nickname: text").
        histogram: the BLEU histogram (a chart spec, or None with no translation).
        scatter: ratings against BLEU (a chart spec, or None with no rating).
        agreement: Pearson r and its interval over the rated translations.
        signature: the sentence BLEU's signature (with the room's settings), "" with no translation.
    """

    room: Room
    students: int
    ratings: tuple[Rating, ...]
    ranked: pd.DataFrame
    table: pd.DataFrame
    labels: dict[str, str]
    histogram: Spec | None
    scatter: Spec | None
    agreement: Agreement
    signature: str


def class_board(state: RoomState, *, scorer: Callable[[str], float], spec: Callable[[Any], Spec]) -> ClassBoard:
    """The dashboard of ``state`` (``store.room_state``): ``scorer`` gives a text's sentence BLEU under the room's
    settings (a caller keeps the scores of a room across its versions), ``spec`` turns an Altair chart into what
    is drawn."""
    room = state.room
    config = frames.config_from_dict(room.config)
    df = frames.ranked_frame(state.submissions, state.ratings, room.refs, config, scorer=scorer)
    agree = frames.rated_agreement(df)
    labels = {
        row[frames.SUB_ID]: f"#{row[frames.RANK]} {frames.shown(row[frames.NICK], name=True)}: "
        + frames.shown(row[frames.TEXT])[:60]
        + (" (hidden)" if row[frames.HIDDEN] else "")
        for row in df.to_dict("records")
    }
    signature = ""
    if state.submissions:
        signature = explain_segment(state.submissions[0].text, list(room.refs), config).score.signature
    return ClassBoard(
        room=room,
        students=state.students,
        ratings=state.ratings,
        ranked=df,
        table=frames.teacher_frame(df),
        labels=labels,
        histogram=spec(charts.histogram(frames.histogram_frame(df))) if not df.empty else None,
        scatter=spec(charts.ratings_scatter(df)) if agree.n > 0 else None,
        agreement=agree,
        signature=signature,
    )
