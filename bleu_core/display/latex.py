r"""A ranking as a LaTeX table a paper can print (booktabs, nothing else), with every name escaped.

One row per system, best first: rank (with its range when it is not one rank), system, BLEU with its 95%
interval, the difference from the baseline with a mark when it is significant, and ``\midrule`` between
significance clusters. The signature goes in the caption, so the table carries what produced it.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from typing import TYPE_CHECKING, Final

if TYPE_CHECKING:
    from bleu_core.significance.ranking import RankedSystem, Ranking

__all__ = ["escape_latex", "ranking_table"]

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
}
_SPECIAL_RE: Final = re.compile("|".join(re.escape(c) for c in _SPECIAL))
_SPACE_RE: Final = re.compile(r"\s+")


def escape_latex(text: str) -> str:
    r"""``text`` as LaTeX that prints it: specials escaped, every run of whitespace (a blank line ends a
    paragraph and breaks a table) one space, control characters dropped.

    Example:
        >>> print(escape_latex("a_b & 100% {x}\n\nnext\\"))
        a\_b \& 100\% \{x\} next\textbackslash{}
    """
    text = "".join(c for c in text if c.isprintable() or c.isspace())
    return _SPECIAL_RE.sub(lambda m: _SPECIAL[m.group()], _SPACE_RE.sub(" ", text).strip())


def _breakable(signature: str) -> str:  # a long signature may break after each |
    return escape_latex(signature).replace(r"\textbar{}", r"\textbar{}\allowbreak{}")


def _rank(low: int, high: int) -> str:
    return str(low) if low == high else f"{low}--{high}"


def ranking_table(
    ranking: Ranking,
    *,
    intervals: Mapping[str, tuple[float, float]] | None,
    baseline: str,
    adjusted: Mapping[tuple[str, str], float],
    signature: str,
    names: Mapping[str, str] | None = None,
    caption: str = "BLEU with 95\\% bootstrap confidence intervals",
    label: str = "tab:bleu",
) -> str:
    r"""The booktabs table of ``ranking``.

    Everything is looked up by system name, never by position: a caller's table may be in another order than
    the ranking's input (the app's systems table is sorted by score), and a positional lookup put other
    systems' intervals and marks on the rows (researcher-walk W1).

    Args:
        ranking: the systems in order with their clusters.
        intervals: each system's (low, high) by name, or None.
        baseline: the baseline system's name.
        adjusted: the Holm-corrected p-value of each pair of names (either order).
        signature: what produced the numbers; set in the caption in ``\texttt``.
        names: display names by system name (default: the names themselves).
        caption: the caption's text before the signature (LaTeX, not escaped).
        label: the ``\label``.

    Example:
        >>> from bleu_core.significance.ranking import rank_systems
        >>> p = [[math.nan, 0.001], [0.001, math.nan]]
        >>> r = rank_systems(["A_1", "B"], [30.0, 20.0], p)
        >>> tex = ranking_table(r, intervals={"B": (18.5, 21.5), "A_1": (28.0, 32.0)}, baseline="B",
        ...                     adjusted={("A_1", "B"): 0.001}, signature="s")
        >>> print(tex.split("\\midrule")[1].strip())
        1 & A\_1 & 30.00 {\small [28.00, 32.00]} & +10.00$^{*}$ \\
    """
    by_name = {s.name: s for s in ranking.systems}
    if baseline not in by_name:
        raise ValueError(f"the baseline {baseline!r} is not one of the ranked systems")
    if intervals is not None and set(intervals) != set(by_name):
        raise ValueError("intervals must name exactly the ranked systems")
    head = ["Rank", "System", "BLEU", r"$\Delta$"]
    lines = [r"\begin{table}[t]", r"\centering", r"\begin{tabular}{rlrr}", r"\toprule", " & ".join(head) + r" \\"]
    for pos, s in enumerate(ranking.systems, start=1):
        if pos == 1 or pos - 1 in ranking.boundaries:
            lines.append(r"\midrule")
        shown = names.get(s.name, s.name) if names is not None else s.name
        bleu = _score(s.score, None if intervals is None else intervals[s.name])
        delta = _delta(s, by_name[baseline], adjusted, ranking.alpha)
        lines.append(f"{_rank(*s.rank_range)} & {escape_latex(shown)} & {bleu} & {delta} \\\\")
    lines += [r"\bottomrule", r"\end{tabular}", _caption(caption, ranking.alpha, signature)]
    lines += [f"\\label{{{escape_latex(label)}}}", r"\end{table}"]
    return "\n".join(lines) + "\n"


def _caption(caption: str, alpha: float, signature: str) -> str:
    """The caption: ``caption``, how to read the table, and the signature (which may break after each ``|``)."""
    return (
        f"\\caption{{{caption}. Rank: the ranks a system can take given the significant pairs; "
        f"lines separate significance clusters; $^{{*}}$: significantly different from the baseline "
        f"(Holm-corrected $p < {alpha:g}$). Signature: \\texttt{{{_breakable(signature)}}}}}"
    )


def _score(score: float, interval: tuple[float, float] | None) -> str:
    """A score, with its interval in small type when there is one."""
    if interval is None:
        return f"{score:.2f}"
    lo, hi = interval
    return f"{score:.2f} {{\\small [{lo:.2f}, {hi:.2f}]}}"


def _delta(s: RankedSystem, base: RankedSystem, adjusted: Mapping[tuple[str, str], float], alpha: float) -> str:
    """The difference from the baseline, marked when its Holm-corrected p-value (either order of the pair) is below
    ``alpha``."""
    if s.name == base.name:
        return "baseline"
    p = float(adjusted.get((s.name, base.name), adjusted.get((base.name, s.name), math.nan)))
    mark = "$^{*}$" if not math.isnan(p) and p < alpha else ""
    return f"{s.score - base.score:+.2f}{mark}"
