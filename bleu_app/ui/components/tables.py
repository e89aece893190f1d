"""Tables as the pages show them: filtered, sorted and cut into pages (the frames give whole tables)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from bleu_app.frames.corpus import HYP, REF, SEGMENT


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
