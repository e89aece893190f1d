"""Imported segment scores: a TSV or JSON Lines file of another metric's per-segment numbers, checked against a
corpus and turned into :class:`~bleu_core.metrics.imported.SegmentScores` (one per metric column).

The format. A header (TSV: the first line; JSONL: each object's keys) names the columns. ``system`` names each
row's system (a name of the corpus, or its file name); without it the file scores the corpus's only system.
``segment`` gives each row's segment (1-based); without it a system's rows are its segments in order. The text
columns of COMET's JSON output (``src``, ``mt``, ``ref`` and their long names) are skipped. Every other column is
a metric, named by its header, and every one of its cells is a number (``0.8434``, ``-1.2e-3``). Anything else, and
a file that does not fit the corpus (a system it does not have, a segment too many or missing), is one
:class:`~bleu_core.errors.InputError` naming the file and the line.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from decimal import Decimal, InvalidOperation
from typing import Final

from bleu_core.errors import InputError
from bleu_core.metrics.imported import SegmentScores

from .corpus import Corpus, system_name
from .readers import DEFAULT_LIMIT_MB, check_size, decode_text, table_rows

__all__ = ["SCORE_TYPES", "SYSTEM_COLUMN", "parse_segment_scores"]

SYSTEM_COLUMN: Final = "system"
SEGMENT_COLUMN: Final = "segment"
TEXT_COLUMNS: Final = frozenset({"src", "mt", "ref", "source", "hyp", "hypothesis", "reference", "translation"})
"""Columns of text beside the scores (COMET's JSON output has ``src``, ``mt``, ``ref``): skipped."""
SCORE_TYPES: Final = (".tsv", ".txt", ".jsonl", ".json")

Row = tuple[int, dict[str, object]]  # (line, column -> cell)


def parse_segment_scores(
    data: bytes, name: str, corpus: Corpus, *, limit_mb: float = DEFAULT_LIMIT_MB
) -> tuple[SegmentScores, ...]:
    """The metric columns of a scores file, matched to ``corpus``'s systems and segments.

    Raises:
        InputError: not UTF-8, no header or no metric column, a cell that is not a number, a system the corpus
            does not have, a segment given twice, too many or too few rows; naming the file and the line.

    Example:
        >>> from bleu_core.data.corpus import System, TextFile
        >>> c = Corpus("t", (TextFile("ref", ("a", "b")),), (System("A", ("a", "b")), System("B", ("a", "c"))))
        >>> tsv = b"system\\tCOMET\\nA\\t0.9\\nA\\t0.7\\nB\\t0.5\\nB\\t0.25\\n"
        >>> [(s.metric.name, s.means()) for s in parse_segment_scores(tsv, "c.tsv", c)]
        [('COMET', {'A': 0.8, 'B': 0.375})]
        >>> parse_segment_scores(b"system\\tCOMET\\nA\\t0.9\\nA\\t0.7\\nA\\t0.1\\n", "c.tsv", c)
        Traceback (most recent call last):
        ...
        bleu_core.errors.InputError: c.tsv:4: a row too many for system A: the corpus has 2 segments
    """
    check_size(name, len(data), limit_mb)
    text = decode_text(data, name).removeprefix("\ufeff")
    header, rows = _jsonl(text, name) if name.lower().endswith((".jsonl", ".json")) else _tsv(text, name)
    columns = _metric_columns(header, name)
    system_col = next((h for h in header if h.strip().lower() == SYSTEM_COLUMN), None)
    segment_col = next((h for h in header if h.strip().lower() == SEGMENT_COLUMN), None)
    names = _system_names(corpus, system_col, name)
    n = corpus.n_segments
    cells: dict[str, dict[str, list[object]]] = {c: {s: [None] * n for s in corpus.names} for c in columns}
    filled = dict.fromkeys(corpus.names, 0)
    seen: dict[tuple[str, int], int] = {}
    last_line = dict.fromkeys(corpus.names, 0)
    for line, row in rows:
        where = f"{name}:{line}"
        system = names(row.get(system_col) if system_col else None, where)
        if segment_col is not None:
            segment = _segment(row[segment_col], n, where)
            if (system, segment) in seen:
                raise InputError(
                    f"segment {segment + 1} of system {system} is given twice (first on line {seen[system, segment]})",
                    where,
                )
            seen[system, segment] = line
        else:
            segment = filled[system]
            if segment >= n:
                raise InputError(f"a row too many for system {system}: the corpus has {n} segments", where)
        filled[system] += 1
        last_line[system] = line
        for c in columns:
            cells[c][system][segment] = _number(row[c], c, where)
    _check_complete(corpus, filled, last_line, n, name)
    return tuple(
        SegmentScores.from_decimals(c, name, {s: _decimals(cells[c][s]) for s in corpus.names}) for c in columns
    )


def _tsv(text: str, name: str) -> tuple[list[str], list[Row]]:
    """The header and the rows of a tab-separated file (blank lines at the end are not rows)."""
    lines = table_rows(text, name, tsv=True)
    while lines and not "".join(lines[-1][1]).strip():
        lines.pop()
    if not lines:
        raise InputError("the file is empty; expected a header naming the metric column(s)", name)
    header = [h.strip() for h in lines[0][1]]
    _check_header(header, f"{name}:{lines[0][0]}")
    rows: list[Row] = []
    for line, cells in lines[1:]:
        if len(cells) != len(header):
            raise InputError(
                f"has {len(cells)} cells but the header has {len(header)} (tab-separated)", f"{name}:{line}"
            )
        rows.append((line, dict[str, object](zip(header, cells, strict=True))))
    return header, rows


def _jsonl(text: str, name: str) -> tuple[list[str], list[Row]]:
    """The keys of the first object and every line's object (blank lines skipped)."""
    rows: list[Row] = []
    header: list[str] = []
    for i, line in enumerate(text.split("\n")):
        if not line.strip():
            continue
        where = f"{name}:{i + 1}"
        try:
            obj = json.loads(line, parse_float=Decimal, parse_int=Decimal)
        except json.JSONDecodeError as exc:
            raise InputError(f"not JSON ({exc.msg} at column {exc.colno})", where) from None
        except (RecursionError, ValueError):
            raise InputError("a JSON value cannot be read (expected one flat object per line)", where) from None
        if not isinstance(obj, dict):
            raise InputError("expected a JSON object per line", where)
        if not rows:
            header = [str(k) for k in obj]
            _check_header(header, where)
        elif set(obj) != set(header):
            raise InputError(f"has keys {sorted(obj)} but the first line has {sorted(header)}", where)
        rows.append((i + 1, obj))
    if not rows:
        raise InputError("the file is empty; expected one JSON object per segment", name)
    return header, rows


def _check_header(header: Sequence[str], where: str) -> None:
    if any(not h for h in header):
        raise InputError("a column of the header has no name", where)
    folded = [h.lower() for h in header]
    twice = next((h for h in header if folded.count(h.lower()) > 1), None)
    if twice is not None:
        raise InputError(f"the column {twice!r} is named twice", where)


def _metric_columns(header: Sequence[str], name: str) -> list[str]:
    reserved = {SYSTEM_COLUMN, SEGMENT_COLUMN, *TEXT_COLUMNS}
    columns = [h for h in header if h.strip().lower() not in reserved]
    if not columns:
        raise InputError(
            "no metric column: the header names only system, segment or text columns (name each metric's column)",
            name,
        )
    return columns


class _Names:
    """A row's system: its name in the corpus (a file name or a name with its extension matches too)."""

    def __init__(self, corpus: Corpus) -> None:
        self.corpus = corpus
        self.known: dict[str, str] = {}
        for s in corpus.systems:
            for alias in (s.file, s.file.replace("\\", "/").rsplit("/", 1)[-1], system_name(s.file) if s.file else ""):
                if alias:
                    self.known.setdefault(alias, s.name)
        for s in corpus.systems:  # a name itself wins over another system's file name
            self.known[s.name] = s.name

    def __call__(self, value: object, where: str) -> str:
        if value is None:
            return self.corpus.names[0]
        text = str(value).strip()
        found = self.known.get(text) or self.known.get(system_name(text))
        if found is None:
            shown = ", ".join(self.corpus.names[:8]) + (" ..." if len(self.corpus.names) > 8 else "")
            raise InputError(f"system {text!r} is not in the corpus (it has {shown})", where)
        return found


def _system_names(corpus: Corpus, system_col: str | None, name: str) -> _Names:
    if system_col is None and len(corpus.systems) != 1:
        raise InputError(
            f"no system column, and the corpus has {len(corpus.systems)} systems: name each row's system in a "
            "column called system",
            name,
        )
    return _Names(corpus)


def _segment(value: object, n: int, where: str) -> int:
    """A 1-based segment number as a 0-based index."""
    try:
        k = int(Decimal(str(value).strip()))
        whole = Decimal(str(value).strip()) == k
    except (InvalidOperation, ValueError):
        whole = False
    if not whole:
        raise InputError(f"segment {value!r} is not a whole number", where)
    if not 1 <= k <= n:
        raise InputError(f"segment {k} is outside the corpus's segments 1 to {n}", where)
    return k - 1


def _number(value: object, column: str, where: str) -> Decimal:
    if isinstance(value, bool) or not isinstance(value, (str, Decimal)):
        raise InputError(f"{column}: {value!r} is not a number", where)
    try:
        number = Decimal(value.strip()) if isinstance(value, str) else value
    except InvalidOperation:
        raise InputError(f"{column}: {value!r} is not a number", where) from None
    if not number.is_finite():
        raise InputError(f"{column}: {value!r} is not a finite number", where)
    return number


def _check_complete(corpus: Corpus, filled: dict[str, int], last_line: dict[str, int], n: int, name: str) -> None:
    for system in corpus.names:
        if filled[system] == 0:
            raise InputError(f"no rows for system {system} (every system of the corpus needs its scores)", name)
        if filled[system] < n:
            raise InputError(
                f"system {system} has {filled[system]} rows, the corpus {n} segments (one row per segment)",
                f"{name}:{last_line[system]}",
            )


def _decimals(cells: Sequence[object]) -> list[Decimal]:
    out = []
    for c in cells:
        assert isinstance(c, Decimal)  # every segment was filled (_check_complete)
        out.append(c)
    return out
