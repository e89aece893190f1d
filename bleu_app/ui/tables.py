"""Tables as the pages show them: filtered, sorted and cut into pages (the frames give whole tables)."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from html import escape

import numpy as np
import pandas as pd

from bleu_app.frames import corpus as f
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


RANKING_CSS = """
<style>
.bleu-ranking-wrap { overflow-x: auto; max-width: 100%; }
.bleu-ranking { border-collapse: collapse; font-variant-numeric: tabular-nums; margin: 0.2em 0 0.6em; }
.bleu-ranking th, .bleu-ranking td { padding: 0.25em 0.8em; text-align: right; color: inherit; }
.bleu-ranking th { font-weight: 600; border-bottom: 2px solid currentColor; }
.bleu-ranking td.name { text-align: left; white-space: nowrap; }
.bleu-ranking tr.cut td { border-top: 2px solid currentColor; }
.bleu-ranking tr.base td.name { font-weight: 700; }
</style>
"""


def ranking_html(ranking: pd.DataFrame, labels: Mapping[str, str], baseline: str) -> str:
    """The ranked systems as an HTML table with a rule between significance clusters, every name escaped (the
    full name on hover when the shown one is shortened)."""
    head = ["rank", "ranks possible", "system", "BLEU", "95% CI", "cluster"]
    rows = []
    previous = None
    for _, r in ranking.iterrows():
        cut = previous is not None and r[f.CLUSTER] != previous
        classes = [c for c, on in (("cut", cut), ("base", r[f.SYSTEM] == baseline)) if on]
        previous = r[f.CLUSTER]
        name = str(r[f.SYSTEM])
        shown = labels.get(name, name)
        ci = "—" if math.isnan(r[f.CI_LOW]) else f"{r[f.CI_LOW]:.2f} – {r[f.CI_HIGH]:.2f}"
        cells = [
            f"<td>{int(r[f.PLACE])}</td>",
            f"<td>{escape(str(r[f.RANK_RANGE]))}</td>",
            f'<td class="name" title="{escape(name)}">{escape(shown)}{" (baseline)" if name == baseline else ""}</td>',
            f"<td>{r[f.BLEU]:.2f}</td>",
            f"<td>{ci}</td>",
            f"<td>{int(r[f.CLUSTER])}</td>",
        ]
        rows.append(f'<tr class="{" ".join(classes)}">{"".join(cells)}</tr>')
    header = "".join(f"<th>{h}</th>" for h in head)
    body = "".join(rows)
    table = f'<table class="bleu-ranking"><thead><tr>{header}</tr></thead><tbody>{body}</tbody></table>'
    return f'{RANKING_CSS}<div class="bleu-ranking-wrap">{table}</div>'
