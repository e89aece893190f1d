r"""A ranking as a LaTeX table a paper can print (booktabs, nothing else), with every name escaped.

One row per system, best first: rank (its range when it is not one rank), system, score, its 95% interval in a
column of its own, and the difference from the system it is compared with (the baseline, or the previous
checkpoint), marked when the run's one test says so; ``\midrule`` between significance clusters. The caption says
in words what the mark means and carries both signatures, ours and sacreBLEU's.

It fits: names lose what they all share (:func:`bleu_core.display.names.short_names`), the table is set in
``\small`` with narrow column gaps, and the layout is chosen by its estimated width (Computer Modern's glyph
widths, measured with pdflatex): ``table`` when it fits a column of :data:`COLUMN_PT`, ``table*`` across both
columns when it does not. Names pdflatex cannot print (Hebrew, CJK) are kept and the table says, in a comment and
in :attr:`LatexTable.warnings`, that xelatex or lualatex is needed; invisible characters (bidi controls) are
shown as ``[U+202E]``, never dropped.
"""

from __future__ import annotations

import math
import re
import unicodedata
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING, Final, Literal

from .names import short_names

if TYPE_CHECKING:
    from bleu_core.significance.ranking import RankedSystem, Ranking

__all__ = ["COLUMN_PT", "TEXT_PT", "LatexTable", "escape_latex", "latex_table", "pdflatex_safe", "ranking_table"]

COLUMN_PT: Final = 219.0
"""The column the ``table`` layout must fit, in points: ACL's (7.7 cm), the narrowest of the usual two-column
styles (a ``twocolumn`` article's is 229.5 pt, IEEE's 252 pt)."""

TEXT_PT: Final = 455.0
"""The text width ``table*`` spans (ACL's 16 cm); a table wider than this is warned about."""


# Computer Modern's advance widths at \small (9 pt), hundredths of a point, for U+0020..U+007E, measured with
# pdflatex (\settowidth of each character as escape_latex writes it); any other character is taken as wide as W.
# fmt: off
_SMALL: Final = (
    308, 257, 462, 771, 462, 771, 719, 257, 360, 360, 462, 719, 257, 308, 257, 462, 462, 462, 462, 462, 462, 462,
    462, 462, 462, 462, 257, 257, 719, 719, 719, 437, 719, 694, 655, 668, 707, 629, 604, 726, 694, 334, 475, 719,
    578, 848, 694, 719, 629, 719, 681, 514, 668, 694, 694, 951, 694, 694, 565, 257, 462, 257, 462, 333, 462, 462,
    514, 411, 514, 411, 283, 462, 514, 257, 283, 488, 257, 771, 514, 462, 514, 488, 362, 365, 360, 514, 488, 668,
    488, 488, 411, 462, 257, 462, 462
)
# fmt: on
_WIDEST: Final = 9.51

_SPECIAL: Final = {
    "\\": r"\textbackslash{}",
    "&": r"\&",
    "%": r"\%",
    "$": r"\$",
    "#": r"\#",
    "_": r"\_",
    "{": r"\{",
    "}": r"\}",
    "~": r"\textasciitilde{}",
    "^": r"\textasciicircum{}",
    "<": r"\textless{}",
    ">": r"\textgreater{}",
    "|": r"\textbar{}",
    "`": r"\textasciigrave{}",
}
# TeX's ligatures would print -- as an en dash and '' as a closing quote: a name is printed as typed
_LIGATURES: Final = re.compile(r"-(?=-)|'(?=')")
_SPACE_RE: Final = re.compile(r"\s+")
# what pdflatex's default setup prints: ASCII, Latin-1 and Latin Extended-A, and the usual typographic marks
_PDFLATEX_EXTRA: Final = frozenset("–—‘’‚“”„…•€")


def _visible(c: str) -> str:
    """A character as it is printed: an invisible control or format character (a bidi override reads one way on
    screen and another in a PDF) as its code point."""
    if unicodedata.category(c) in ("Cc", "Cf") and not c.isspace():
        return f"[U+{ord(c):04X}]"
    return c


def escape_latex(text: str) -> str:
    r"""``text`` as LaTeX that prints it: specials escaped, TeX's ligatures broken, every run of whitespace (a
    blank line ends a paragraph and breaks a table) one space, invisible characters shown as their code points.

    Example:
        >>> print(escape_latex("a_b & 100% {x}\n\nnext\\ --v\u202e"))
        a\_b \& 100\% \{x\} next\textbackslash{} -{}-v[U+202E]
    """
    text = "".join(_visible(c) for c in _SPACE_RE.sub(" ", text).strip())
    text = "".join(_SPECIAL.get(c, c) for c in text)
    return _LIGATURES.sub(lambda m: m.group() + "{}", text)


def pdflatex_safe(text: str) -> bool:
    """Whether pdflatex's default fonts print every character of ``text`` (else xelatex or lualatex is needed).

    Example:
        >>> pdflatex_safe("Abhängig – ok"), pdflatex_safe("עברית"), pdflatex_safe("机器翻译")
        (True, False, False)
    """
    return all(ord(c) < 0x180 or c in _PDFLATEX_EXTRA for c in text)


def _width(plain: str) -> float:
    """Estimated width in points of plain text at ``\\small``."""
    return sum(_SMALL[ord(c) - 0x20] / 100 if 0x20 <= ord(c) < 0x7F else _WIDEST for c in plain)


@dataclass(frozen=True, slots=True)
class LatexTable:
    """A table and what a caller should tell its user.

    Attributes:
        text: the LaTeX (``table`` or ``table*``, booktabs).
        layout: ``column`` (fits :data:`COLUMN_PT`) or ``wide`` (``table*``, both columns).
        width_pt: the tabular's estimated width in points.
        warnings: sentences for the user (names that need xelatex or lualatex, invisible characters shown, a
            table wider than the text).
    """

    text: str
    layout: Literal["column", "wide"]
    width_pt: float
    warnings: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class _Cell:
    tex: str
    plain: str  # what it prints, for the width estimate


def _signed(value: float) -> _Cell:
    """A difference with a real minus sign (a hyphen is not one)."""
    sign = "$-$" if value < 0 else "$+$"
    return _Cell(f"{sign}{abs(value):.2f}", f"+{abs(value):.2f}")


def latex_table(
    ranking: Ranking,
    *,
    intervals: Mapping[str, tuple[float, float]] | None,
    baseline: str | None,
    marks: Mapping[str, float],
    mark_words: str,
    signature: str,
    sacrebleu_signature: str | None = None,
    against: Mapping[str, str] | None = None,
    names: Mapping[str, str] | None = None,
    metric: str = "BLEU",
    clusters: bool = True,
    in_order: bool = False,
    layout: Literal["auto", "column", "wide"] = "auto",
    label: str = "tab:bleu",
) -> LatexTable:
    r"""The booktabs table of ``ranking``, with one meaning of its mark. Every value is looked up by system name,
    never by position: a caller's table may be in another order than the ranking's input (researcher-walk W1).

    Args:
        ranking: the systems in order with their clusters.
        intervals: each system's 95% interval (low, high) by name, or None.
        baseline: the baseline's name (its difference reads "baseline"); None where there is none (checkpoints).
        marks: by name, the p-value of the run's one test that decides the mark (below ``ranking.alpha``).
        mark_words: what the mark means, in plain words ("Holm-corrected p < 0.05 against the baseline ...").
        signature: ours; ``sacrebleu_signature``: sacreBLEU's (None: it has none for this setting).
        against: by name, the system a difference is taken from (default: the baseline; ``---`` where none).
        names: display names by system name (default: the names without what they all share).
        metric: the score's name, in the header and the caption.
        clusters: rank ranges and cluster lines from every pair's test (False: ranks by score alone, no lines).
        in_order: rows in the systems' input order (checkpoints), not best first; no cluster lines.
        layout: ``column``, ``wide`` (``table*``) or ``auto``: ``column`` when the estimate fits :data:`COLUMN_PT`.
        label: the ``\label``.

    Example:
        >>> from bleu_core.significance.ranking import rank_systems
        >>> r = rank_systems(["run.A_1", "run.B"], [30.0, 20.0], [[math.nan, 0.001], [0.001, math.nan]])
        >>> t = latex_table(r, intervals={"run.B": (18.5, 21.5), "run.A_1": (28.0, 32.0)}, baseline="run.B",
        ...                 marks={"run.A_1": 0.001}, mark_words="p < 0.05", signature="s")
        >>> print(t.layout, t.text.split("\\midrule")[1].strip())
        column 1 & A\_1 & 30.00 & [28.00, 32.00] & $+$10.00$^{*}$ \\
    """
    plan = _arrange(ranking, intervals, baseline, against, names, marks, metric, clusters=clusters, in_order=in_order)
    cells = partial(_cells, plan)
    fit = _choose_fit(cells, layout)
    rows = cells(fit)
    width = _table_width(rows, fit)
    warnings = _warnings(plan.shown.values(), width)
    rank_words = "" if plan.clusters else "Rows in the systems' order; rank" if in_order else "Rank"
    caption = _caption(metric, intervals is not None, rank_words, mark_words, signature, sacrebleu_signature)
    boundaries = ranking.boundaries if plan.clusters else ()
    lines = [*_head_lines(fit, len(rows[0]), warnings), *_body(rows, boundaries), caption]
    lines += [f"\\label{{{escape_latex(label)}}}", f"\\end{{{fit.env}}}"]
    return LatexTable("\n".join(lines) + "\n", fit.layout, round(width, 1), warnings)


@dataclass(frozen=True, slots=True)
class _Plan:
    """What every layout of the table shows: the systems in row order, their shown names, the system each
    difference is taken from, and what decides the marks."""

    listed: tuple[RankedSystem, ...]
    shown: Mapping[str, str]
    ref: Mapping[str, str]
    intervals: Mapping[str, tuple[float, float]] | None
    marks: Mapping[str, float]
    alpha: float
    metric: str
    baseline: str | None
    clusters: bool


def _arrange(
    ranking: Ranking,
    intervals: Mapping[str, tuple[float, float]] | None,
    baseline: str | None,
    against: Mapping[str, str] | None,
    names: Mapping[str, str] | None,
    marks: Mapping[str, float],
    metric: str,
    *,
    clusters: bool,
    in_order: bool,
) -> _Plan:
    """The table's :class:`_Plan`.

    Raises:
        ValueError: a baseline or intervals that do not name the ranked systems, or neither baseline nor against.
    """
    by_name = {s.name: s for s in ranking.systems}
    if baseline is not None and baseline not in by_name:
        raise ValueError(f"the baseline {baseline!r} is not one of the ranked systems")
    if intervals is not None and set(intervals) != set(by_name):
        raise ValueError("intervals must name exactly the ranked systems")
    if against is None and baseline is None:
        raise ValueError("give a baseline or the system each difference is taken from (against)")
    listed = tuple(sorted(ranking.systems, key=lambda s: s.index) if in_order else ranking.systems)
    order = [s.name for s in listed]
    shown = dict(zip(order, short_names(order), strict=True)) if names is None else {n: names.get(n, n) for n in order}
    ref = {n: str(baseline) for n in order if n != baseline} if against is None else dict(against)
    alpha, grouped = ranking.alpha, clusters and not in_order
    return _Plan(listed, shown, ref, intervals, marks, alpha, metric, baseline, grouped)


def _cells(plan: _Plan, fit: _Fit) -> list[list[_Cell]]:
    """The header and one row per system, as ``fit`` sets them."""
    head = [_Cell("Rank", "Rank"), _Cell("System", "System"), _Cell(escape_latex(plan.metric), plan.metric)]
    if plan.intervals is not None:
        head.append(_Cell(r"95\% CI", "95% CI"))
    head.append(_Cell(r"$\Delta$", "D"))
    by_name = {s.name: s for s in plan.listed}
    return [head, *(_row(s, plan, by_name, fit) for s in plan.listed)]


def _body(rows: list[list[_Cell]], boundaries: Iterable[int]) -> list[str]:
    """The header row, the rows, a rule under the header and between clusters (after the ``boundaries``)."""
    lines = [" & ".join(c.tex for c in rows[0]) + r" \\"]
    cut = set(boundaries)
    for pos, row in enumerate(rows[1:], start=1):
        if pos == 1 or pos - 1 in cut:
            lines.append(r"\midrule")
        lines.append(" & ".join(c.tex for c in row) + r" \\")
    return [*lines, r"\bottomrule", r"\end{tabular}"]


@dataclass(frozen=True, slots=True)
class _Fit:
    """One way to set the table: its type size (``scale``: its width against ``\\small``'s), the interval's
    decimals, the gap between columns, and the float (``table`` or ``table*``)."""

    size: str
    scale: float
    ci_digits: int
    sep: float
    layout: Literal["column", "wide"]

    @property
    def env(self) -> str:
        return "table*" if self.layout == "wide" else "table"


# tried in order until the table fits a column; cmr8 is relatively wider than cmr9 scaled, hence 0.92 > 8/9
_COLUMN_FITS: Final = (
    _Fit("small", 1.0, 2, 4.0, "column"),
    _Fit("small", 1.0, 1, 3.0, "column"),
    _Fit("footnotesize", 0.92, 1, 3.0, "column"),
)
_WIDE: Final = _Fit("small", 1.0, 2, 4.0, "wide")


def _choose_fit(cells: Callable[[_Fit], list[list[_Cell]]], layout: str) -> _Fit:
    """The first of the column layouts whose estimated width fits :data:`COLUMN_PT` (``auto``), else ``table*``."""
    if layout == "wide":
        return _WIDE
    for fit in _COLUMN_FITS:
        if _table_width(cells(fit), fit) <= COLUMN_PT:
            return fit
    return _COLUMN_FITS[-1] if layout == "column" else _WIDE


def _row(s: RankedSystem, plan: _Plan, by_name: Mapping[str, RankedSystem], fit: _Fit) -> list[_Cell]:
    low, high = s.rank_range if plan.clusters else (s.rank, s.rank)
    rank = _Cell(str(low), str(low)) if low == high else _Cell(f"{low}--{high}", f"{low}-{high}")
    shown = plan.shown[s.name]
    cells = [rank, _Cell(escape_latex(shown), "".join(_visible(c) for c in shown)), _Cell(f"{s.score:.2f}", "00.00")]
    if plan.intervals is not None:
        lo, hi = plan.intervals[s.name]
        ci = f"[{lo:.{fit.ci_digits}f}, {hi:.{fit.ci_digits}f}]"
        cells.append(_Cell(ci, ci))
    if s.name == plan.baseline:
        cells.append(_Cell("baseline", "baseline"))
    elif s.name not in plan.ref:
        cells.append(_Cell("---", "--"))
    else:
        delta = _signed(s.score - by_name[plan.ref[s.name]].score)
        p = float(plan.marks.get(s.name, math.nan))
        if not math.isnan(p) and p < plan.alpha:
            delta = _Cell(delta.tex + "$^{*}$", delta.plain + "*")
        cells.append(delta)
    return cells


def _table_width(rows: list[list[_Cell]], fit: _Fit) -> float:
    """The tabular's estimated width: the widest cell of each column and the gaps between them (the outer ones are
    cut with ``@{}``)."""
    cols = len(rows[0])
    return fit.scale * sum(max(_width(r[k].plain) for r in rows) for k in range(cols)) + (cols - 1) * 2 * fit.sep


def _warnings(shown: Iterable[str], width: float) -> tuple[str, ...]:
    names = list(shown)
    out = []
    beyond = [n for n in names if not pdflatex_safe(n)]
    if beyond:
        out.append(
            f"{len(beyond)} name(s) have characters pdflatex's fonts lack (e.g. {beyond[0]!r}): compile the table "
            "with xelatex or lualatex and a font that has them"
        )
    hidden = sorted({f"U+{ord(c):04X}" for n in names for c in n if _visible(c) != c})
    if hidden:
        out.append(f"invisible characters in names ({', '.join(hidden)}) are printed as their code points")
    if width > TEXT_PT:
        out.append(f"the table is about {width:.0f} pt wide, wider than a page's text ({TEXT_PT:g} pt): shorten names")
    return tuple(out)


def _head_lines(fit: _Fit, cols: int, warnings: tuple[str, ...]) -> list[str]:
    env = fit.env
    spec = "@{}rl" + "r" * (cols - 2) + "@{}"
    notes = [f"% {w}" for w in warnings if "xelatex" in w or "code points" in w]
    return [
        *notes,
        f"\\begin{{{env}}}[t]",
        r"\centering",
        f"\\{fit.size}",
        f"\\setlength{{\\tabcolsep}}{{{fit.sep:g}pt}}",
        f"\\begin{{tabular}}{{{spec}}}",
        r"\toprule",
    ]


def _breakable(signature: str) -> str:  # a long signature may break after each |
    return escape_latex(signature).replace(r"\textbar{}", r"\textbar{}\allowbreak{}")


def _caption(metric: str, has_ci: bool, rank_words: str, mark_words: str, signature: str, sacre: str | None) -> str:
    """The caption: what the columns are, what the mark means (in words), and both signatures. ``rank_words``: how
    ranks and rows without clusters are ordered ("" when the clusters' lines are drawn)."""
    parts = [f"{escape_latex(metric)}" + (" with 95\\% bootstrap confidence intervals (CI)." if has_ci else ".")]
    if not rank_words:
        parts.append("Rank: the ranks a system can take given the significant pairs; lines separate clusters.")
    else:
        parts.append(f"{rank_words}: by score (no clusters: not every pair was tested).")
    parts.append(f"$^{{*}}$: {escape_latex(mark_words)}.")
    parts.append(f"Signature: \\texttt{{{_breakable(signature)}}}.")
    if sacre is not None:
        parts.append(f"sacreBLEU: \\texttt{{{_breakable(sacre)}}}.")
    return "\\caption{" + " ".join(parts) + "}"


def ranking_table(
    ranking: Ranking,
    *,
    intervals: Mapping[str, tuple[float, float]] | None,
    baseline: str,
    adjusted: Mapping[tuple[str, str], float],
    signature: str,
    names: Mapping[str, str] | None = None,
    sacrebleu_signature: str | None = None,
    label: str = "tab:bleu",
) -> str:
    r""":func:`latex_table` marking each system whose Holm-corrected p-value against the baseline, corrected over
    every pair (``adjusted``, either order of the pair; the clusters' test), is below ``ranking.alpha``.

    Example:
        >>> from bleu_core.significance.ranking import rank_systems
        >>> r = rank_systems(["A", "B"], [30.0, 20.0], [[math.nan, 0.001], [0.001, math.nan]])
        >>> tex = ranking_table(r, intervals=None, baseline="B", adjusted={("A", "B"): 0.001}, signature="s")
        >>> tex.split("\\midrule")[1].split("\\\\")[0].strip()
        '1 & A & 30.00 & $+$10.00$^{*}$'
    """
    marks = {
        s.name: float(adjusted.get((s.name, baseline), adjusted.get((baseline, s.name), math.nan)))
        for s in ranking.systems
    }
    n = len(ranking.systems)
    words = (
        f"significantly different from the baseline (Holm-corrected over all {n * (n - 1) // 2} pairs, "
        f"p < {ranking.alpha:g})"
    )
    return latex_table(
        ranking,
        intervals=intervals,
        baseline=baseline,
        marks=marks,
        mark_words=words,
        signature=signature,
        sacrebleu_signature=sacrebleu_signature,
        names=names,
        label=label,
    ).text
