"""Short display names: the core's (:mod:`bleu_core.display.names`), which the CLI's LaTeX table uses too, and the
tables and CSVs that show them (the full name kept in a column beside the short one)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Final

import pandas as pd

from bleu_core.display.names import labels, short_names

__all__ = ["FULL_NAME", "full_name_column", "labels", "short_names", "with_short_names"]

FULL_NAME: Final = "full name"  # the system's own name beside its short one


def full_name_column(column: str) -> str:
    """The header of the full names beside ``column``: ``full name`` for ``system``, else ``<column> full name``.

    Example:
        >>> full_name_column("system"), full_name_column("row system")
        ('full name', 'row system full name')
    """
    return FULL_NAME if column == "system" else f"{column} {FULL_NAME}"


def with_short_names(
    frame: pd.DataFrame, labels: Mapping[str, str], columns: Sequence[str] = ("system",)
) -> pd.DataFrame:
    """``frame`` with each of ``columns`` showing the short names of ``labels`` (the charts' axes) and, when a name
    was shortened, the full names in columns at the end (:func:`full_name_column`; at the end, so that in a narrow
    window the numbers stay beside the short names, as in the block test): the same names in every table, legend,
    chart and export, and the file's own name kept. A column ``frame`` lacks is skipped.

    Example:
        >>> t = pd.DataFrame({"system": ["nt.A.de", "nt.B.de"], "BLEU": [30.0, 20.0]})
        >>> with_short_names(t, labels(["nt.A.de", "nt.B.de"])).columns.tolist()
        ['system', 'BLEU', 'full name']
    """
    present = [c for c in columns if c in frame.columns]
    shortened = [c for c in present if any(labels.get(v, v) != v for v in frame[c])]
    if not shortened:
        return frame
    out = frame.copy()
    for c in shortened:
        out[full_name_column(c)] = out[c]
    for c in shortened:
        out[c] = [labels.get(v, v) for v in out[c]]
    return out
