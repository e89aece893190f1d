"""The compare page's line on statistical power: the smallest BLEU difference this test set detects with 80%
power, beside the difference of the two systems shown (``bleu_core.significance.power``; Card et al. 2020)."""

from __future__ import annotations

import html
from collections.abc import Callable

from bleu_app import markup
from bleu_core.significance.power import Power

__all__ = ["mde_html", "mde_line"]


def mde_line(power: Power, a: str, b: str) -> str:
    """One Markdown line: the MDE, B − A, whether the difference reaches it, the method and its assumptions (names
    escaped).

    Example:
        >>> p = Power(1002, "segment", 1.5, 0.5, 0.05, 0.8, "bs", 1.24, 1000, 12345, "nrefs:1|bs:1000")
        >>> print(mde_line(p, "A*", "B"))  # doctest: +NORMALIZE_WHITESPACE
        This test set detects differences of about **1.24 BLEU** with 80% power; B − A\\* = **+1.50** (at least the
        MDE). Paired bootstrap at alpha 0.05 (one-tailed, as sacreBLEU's), the spread of B − A\\* over 1000
        resamples of the 1002 segments; it assumes independent segments and a near-normal difference (Card et
        al. 2020, "With Little Power Comes Great Responsibility").
    """
    return _sentence(power, f"{markup.md_escape(b)} − {markup.md_escape(a)}", lambda x: f"**{x}**")


def mde_html(power: Power, a: str, b: str) -> str:
    """The same line as :func:`mde_line` in HTML (the offline report's), names escaped.

    Example:
        >>> p = Power(1002, "segment", 1.5, 0.5, 0.05, 0.8, "bs", 1.24, 1000, 12345, "nrefs:1|bs:1000")
        >>> print(mde_html(p, "A<1>", "B").split(". ")[0])  # doctest: +NORMALIZE_WHITESPACE
        This test set detects differences of about <strong>1.24 BLEU</strong> with 80% power;
        B − A&lt;1&gt; = <strong>+1.50</strong> (at least the MDE)
    """
    return _sentence(power, f"{html.escape(b)} − {html.escape(a)}", lambda x: f"<strong>{x}</strong>")


def _sentence(power: Power, pair: str, bold: Callable[[str], str]) -> str:
    verdict = "at least the MDE" if abs(power.difference) >= power.mde else "below the MDE: often missed"
    tail = "one-tailed, as sacreBLEU's" if power.test == "bs" else "two-tailed"
    mde, diff = bold(f"{power.mde:.2f} BLEU"), bold(f"{power.difference:+.2f}")
    return (
        f"This test set detects differences of about {mde} with {power.power:.0%} power; "
        f"{pair} = {diff} ({verdict}). Paired bootstrap at alpha {power.alpha:g} ({tail}), "
        f"the spread of {pair} over {power.n_samples} resamples of the {power.n} {power.unit}s; it assumes "
        f'independent {power.unit}s and a near-normal difference (Card et al. 2020, "With Little Power Comes '
        'Great Responsibility").'
    )
