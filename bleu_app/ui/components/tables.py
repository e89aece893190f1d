"""Tables as the pages show them: filtered, sorted and cut into pages (the frames give whole tables), grids
sized to their rows, static tables in presenter mode, and two sentence columns side by side."""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final

import numpy as np
import pandas as pd
import streamlit as st

from bleu_app import markup
from bleu_app.frames.corpus import HYP, REF, SEGMENT
from bleu_app.ui import state


@dataclass(frozen=True, slots=True)
class TablePage:
    """One page of a filtered, sorted table."""

    rows: pd.DataFrame
    page: int
    pages: int
    matching: int


def table_page(
    df: pd.DataFrame,
    *,
    query: str = "",
    columns: Sequence[str] = (HYP, REF),
    sort_by: str | None = None,
    ascending: bool = True,
    page: int = 1,
    page_size: int = 50,
    segments: Sequence[int] | None = None,
) -> TablePage:
    """Filter (case-insensitive substring in ``columns``; optional segment subset), sort and cut a page."""
    out = df
    if segments is not None:
        out = out[out[SEGMENT].isin(set(segments))]
    q = query.strip().lower()
    if q:
        hit = np.zeros(len(out), dtype=bool)
        for c in columns:
            if c in out:
                hit |= out[c].astype(str).str.lower().str.contains(q, regex=False).to_numpy()
        out = out[hit]
    if sort_by and sort_by in out:
        out = out.sort_values(sort_by, ascending=ascending, kind="stable")
    pages = max(1, math.ceil(len(out) / page_size))
    page = min(max(1, page), pages)
    return TablePage(out.iloc[(page - 1) * page_size : page * page_size].reset_index(drop=True), page, pages, len(out))


ROW_PX = 35  # a row of Streamlit's data grid, header included


def table_height(rows: int) -> int:
    """The px height of a data grid that shows ``rows`` rows and its header without an inner scroll."""
    return (rows + 1) * ROW_PX + 3


def grid(data: Any, *, key: str | None = None) -> None:
    """A read-only table without its index: a data grid, or in presenter mode a static table (the grid draws on a
    canvas at 14 px that the presenter's CSS cannot reach) shown as :func:`as_text` writes it."""
    if state.presenting():
        st.table(as_text(data), hide_index=True)
    else:
        st.dataframe(data, hide_index=True, width="stretch", key=key)


_MARKER: Final = re.compile(r"^([-+*]|\d+[.)])(\s)")  # what Markdown reads as a list item's start


def as_text(data: Any) -> pd.DataFrame:
    """A table (a frame, Arrow, records) as a static table shows it: each float column with as many decimals as its
    values need (at most 4: a frame rounded to 2 shows 21.70, not 21.7000), its header's Markdown list marker
    escaped (a static table renders headers as Markdown: "+ both" was a bullet) and every text cell escaped (its
    cells too: a student's "**x**" or "$x$" on the projected class table is shown as typed).

    Example:
        >>> shown = as_text(pd.DataFrame({"+ both": [21.7, 22.18], "n": [1, 2], "who": ["**x**", "$y$"]}))
        >>> print(*shown.columns)
        \\+ both n who
        >>> shown.iloc[:, 0].tolist(), shown["who"].tolist()
        (['21.70', '22.18'], ['\\\\*\\\\*x\\\\*\\\\*', '\\\\$y\\\\$'])
    """
    df = data.to_pandas() if hasattr(data, "to_pandas") else pd.DataFrame(data)
    out = df.copy()
    for column in df.columns:
        if pd.api.types.is_float_dtype(df[column]):
            values = df[column].dropna()
            decimals = max((len(f"{v:.4f}".rstrip("0").split(".")[1]) for v in values), default=0)
            out[column] = df[column].map(lambda v, d=decimals: "" if pd.isna(v) else f"{v:.{d}f}")
        elif not pd.api.types.is_numeric_dtype(df[column]):
            out[column] = df[column].map(lambda v: markup.md_escape(v) if isinstance(v, str) else v)
    out.columns = [_MARKER.sub(r"\\\1\2", str(c)) for c in df.columns]
    return out


SIDE_BY_SIDE_PX: Final = 230  # two sentence columns and the numbers before them fit the 820 px main column at 1280


MAIN_COLUMN_PX: Final = 820  # the page's main column at a 1280 px window
NUMBER_PX: Final = 80  # about what a number column takes
SELECT_PX: Final = 33  # a selectable table's row box


def side_by_side(a: str = "A", b: str = "B", *, numbers: int = 3) -> dict[str, Any]:
    """Column config for a table with system A's and system B's sentences after ``numbers`` number columns: both
    sentence columns the same fixed width, so B is not pushed out of view by a wide A (the reference and source
    follow, scrolled to), narrower when more numbers come first so that B still fits the main column at 1280 px."""
    room = (MAIN_COLUMN_PX - SELECT_PX - NUMBER_PX * numbers) // 2
    return {c: st.column_config.TextColumn(width=min(SIDE_BY_SIDE_PX, room)) for c in (a, b)}


def clip_table(df: pd.DataFrame) -> None:
    """The paper's clipping table as a static table (readable when projected, searchable as text); its n-grams
    escaped (a static table renders its cells as Markdown, and on the Sentence page they are the user's words)."""
    shown = df.assign(**{df.columns[0]: df[df.columns[0]].map(lambda v: markup.md_escape(str(v)))})
    st.table(shown.set_index(df.columns[0]))
