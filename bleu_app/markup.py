"""HTML pieces shared by the pages (through ``st.html``) and the offline report: every user string escaped."""

from __future__ import annotations

import math
from collections.abc import Mapping
from html import escape

import pandas as pd

from bleu_app.frames import corpus as f

__all__ = ["RANKING_CSS", "md_escape", "ranking_html"]


RANKING_CSS = """
<style>
.bleu-ranking-wrap { overflow-x: auto; max-width: 100%; }
.bleu-ranking { border-collapse: collapse; font-variant-numeric: tabular-nums; margin: 0.2em 0 0.6em; }
.bleu-ranking th, .bleu-ranking td { padding: 0.25em 0.8em; text-align: right; color: inherit; white-space: nowrap; }
.bleu-ranking th { font-weight: 600; border-bottom: 2px solid currentColor; }
.bleu-ranking td.name { text-align: left; }
.bleu-ranking tr.cut td { border-top: 2px solid currentColor; }
.bleu-ranking tr.base td.name { font-weight: 700; }
</style>
"""


def ranking_html(
    ranking: pd.DataFrame,
    labels: Mapping[str, str],
    baseline: str,
    *,
    score: str = f.BLEU,
    digits: int = 2,
    vs: Mapping[str, str] | None = None,
    vs_head: str = "vs baseline",
) -> str:
    """The ranked systems as an HTML table with a rule between significance clusters, every name escaped (the
    full name on hover when the shown one is shortened); ``score`` is the metric's column (and header); ``vs``:
    by name, the marked difference (``RankingView.vs``) in a column headed ``vs_head``."""
    head = ["rank", "ranks possible", "system", escape(score), "95% CI", *([escape(vs_head)] if vs else []), "cluster"]
    rows = []
    previous = None
    for _, r in ranking.iterrows():
        cut = previous is not None and r[f.CLUSTER] != previous
        classes = [c for c, on in (("cut", cut), ("base", r[f.SYSTEM] == baseline)) if on]
        previous = r[f.CLUSTER]
        name = str(r[f.SYSTEM])
        shown = labels.get(name, name)
        ci = "—" if math.isnan(r[f.CI_LOW]) else f"{r[f.CI_LOW]:.{digits}f} – {r[f.CI_HIGH]:.{digits}f}"
        cells = [
            f"<td>{int(r[f.PLACE])}</td>",
            f"<td>{escape(str(r[f.RANK_RANGE]))}</td>",
            f'<td class="name" title="{escape(name)}">{escape(shown)}{" (baseline)" if name == baseline else ""}</td>',
            f"<td>{r[score]:.{digits}f}</td>",
            f"<td>{ci}</td>",
            *([f'<td class="vs">{escape(vs.get(name, "—"))}</td>'] if vs else []),
            f"<td>{int(r[f.CLUSTER])}</td>",
        ]
        rows.append(f'<tr class="{" ".join(classes)}">{"".join(cells)}</tr>')
    header = "".join(f"<th>{h}</th>" for h in head)
    body = "".join(rows)
    table = f'<table class="bleu-ranking"><thead><tr>{header}</tr></thead><tbody>{body}</tbody></table>'
    # a box that scrolls sideways on a narrow screen: focusable, and named, so that a keyboard can scroll it
    # (WCAG 2.1.1; axe's scrollable-region-focusable, issue 34)
    wrap = f'<div class="bleu-ranking-wrap" tabindex="0" role="region" aria-label="Ranking by {escape(score)}">'
    return f"{RANKING_CSS}{wrap}{table}</div>"


def md_escape(text: str) -> str:
    r"""User text shown through Markdown (labels, captions, alerts): every character Markdown or LaTeX acts on
    escaped, and line breaks made spaces (a blank line would start a new block).

    Example:
        >>> md_escape("a*b [x](y)\nz")
        'a\\*b \\[x\\]\\(y\\) z'
    """
    out = []
    for ch in " ".join(text.splitlines()):
        out.append("\\" + ch if ch in "\\`*_{}[]()#+-.!|<>~$:=" else ch)
    return "".join(out)
