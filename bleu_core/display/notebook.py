"""HTML for Jupyter: ``_repr_html_`` of scores, explanations, comparisons, rankings and
:class:`~bleu_core.teaching.every.EveryBleu`.

Plain strings built here (no pandas, no Streamlit); every piece of user text (tokens, signatures, labels) goes
through :func:`html.escape`, so a candidate such as ``<script>`` shows as text. Matched tokens carry an
underline as well as a colour (readable without colour, and in dark notebook themes).
"""

from __future__ import annotations

import html
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from bleu_core.rendering import register

if TYPE_CHECKING:
    from bleu_core.metrics.bleu import BleuScore
    from bleu_core.significance.paired import Comparison
    from bleu_core.significance.ranking import Ranking
    from bleu_core.teaching.every import EveryBleu
    from bleu_core.teaching.explain import SegmentExplanation

__all__ = ["comparison_html", "every_bleu_html", "explanation_html", "ranking_html", "score_html"]

# Okabe-Ito colours (colour-blind safe), translucent so that light and dark themes keep the text readable.
_STYLE = """<style>
.bleu-nb{font-family:inherit;line-height:1.5}
.bleu-nb table{border-collapse:collapse;margin:.3em 0}
.bleu-nb th,.bleu-nb td{border:1px solid rgba(128,128,128,.4);padding:2px 8px;text-align:right}
.bleu-nb th{font-weight:600}
.bleu-nb td.t,.bleu-nb th.t{text-align:left}
.bleu-nb code{font-size:90%;word-break:break-all}
.bleu-nb .tok{padding:0 2px;margin:0 1px;border-radius:3px}
.bleu-nb .m1{background:rgba(86,180,233,.30);text-decoration:underline}
.bleu-nb .m2{background:rgba(0,158,115,.30);text-decoration:underline}
.bleu-nb .m3{background:rgba(230,159,0,.35);text-decoration:underline double}
.bleu-nb .m4{background:rgba(204,121,167,.35);text-decoration:underline double}
.bleu-nb .m0{text-decoration:line-through rgba(213,94,0,.8)}
</style>"""


def _e(value: object) -> str:
    return html.escape(str(value), quote=True)


def _table(header: Sequence[str], rows: Iterable[Sequence[object]], text_cols: frozenset[int] = frozenset()) -> str:
    def cell(tag: str, i: int, v: object) -> str:
        cls = ' class="t"' if i in text_cols else ""
        return f"<{tag}{cls}>{_e(v)}</{tag}>"

    head = "".join(cell("th", i, h) for i, h in enumerate(header))
    body = "".join("<tr>" + "".join(cell("td", i, v) for i, v in enumerate(r)) + "</tr>" for r in rows)
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def _wrap(inner: str) -> str:
    return f'{_STYLE}<div class="bleu-nb">{inner}</div>'


def _score_block(s: BleuScore) -> str:
    rows = [
        (n + 1, f"{c:g}/{t:g}", f"{p:.2f}")
        for n, (c, t, p) in enumerate(zip(s.counts, s.totals, s.precisions, strict=True))
    ]
    return (
        f"<div><b>BLEU = {s.score:.2f}</b> &nbsp; BP = {s.bp:.4f}, c = {s.sys_len}, r = {s.ref_len}, "
        f"c/r = {s.ratio:.4f}</div>"
        + _table(("n", "matches / total", "p_n (%)"), rows)
        + f"<div>signature: <code>{_e(s.signature)}</code></div>"
    )


@register("BleuScore")
def score_html(score: BleuScore) -> str:
    """A score as an HTML card: BLEU, BP, lengths, the precision table and the signature.

    Example:
        >>> from bleu_core import corpus_bleu
        >>> out = score_html(corpus_bleu(["the cat <b>"], [["the cat <b>"]]))
        >>> "BLEU = 100.00" in out, "signature: <code>nrefs:1|" in out
        (True, True)
    """
    return _wrap(_score_block(score))


@register("SegmentExplanation")
def explanation_html(e: SegmentExplanation) -> str:
    """One candidate explained: its tokens highlighted by the longest matched n-gram covering each, the
    references, each order's clipping table and the score.

    Example:
        >>> from bleu_core import explain_segment
        >>> out = explanation_html(explain_segment("<script>alert(1)</script>", ["a <script> tag"]))
        >>> body = out.split("</style>", 1)[1]
        >>> "<script" in body, '">&lt;</span>' in body
        (False, True)
    """
    levels = e.token_max_order()
    cand = " ".join(
        f'<span class="tok m{min(k, 4)}" title="{_e(f"longest matched n-gram: {k}" if k else "unmatched")}">'
        f"{_e(t)}</span>"
        for t, k in zip(e.hyp_tokens, levels, strict=True)
    )
    refs = "".join(
        f"<li>{_e(' '.join(toks))} <i>({len(toks)} tokens{', best match length' if k == e.best_ref else ''})</i></li>"
        for k, toks in enumerate(e.ref_tokens)
    )
    ref_hdr = tuple(f"ref {k + 1}" for k in range(len(e.ref_tokens)))
    tables = "".join(
        f"<div><b>{o.n}-grams</b>: p_{o.n} = {o.matches}/{o.total}</div>"
        + _table(
            ("n-gram", "count", *ref_hdr, "max ref count", "clipped"),
            ((" ".join(r.ngram), r.count, *r.ref_counts, r.max_ref_count, r.clipped) for r in o.rows),
            frozenset({0}),
        )
        for o in e.orders
    )
    legend = (
        "<div><small>underlined: part of a matched n-gram (colour: its longest order, 1 to 4+); "
        "struck through: no match</small></div>"
    )
    return _wrap(
        f"<div>candidate ({e.hyp_len} tokens): {cand}</div>{legend}<div>references:</div><ol>{refs}</ol>"
        f"{tables}{_score_block(e.score)}"
    )


@register("Comparison")
def comparison_html(c: Comparison) -> str:
    """A comparison as a table: the baseline, then each system with its interval and p-value.

    Example:
        >>> import numpy as np
        >>> from bleu_core.significance import compare
        >>> base = np.array([[4, 4, 4, 3, 2, 1, 4, 3, 2, 1], [5, 6, 3, 1, 0, 0, 5, 4, 3, 2]] * 50)
        >>> out = comparison_html(compare(base, [base], trials=100))
        >>> out.count("<tr>")
        3
    """
    rows: list[tuple[object, ...]] = []
    if c.baseline_ci is not None:
        mean, half, _, _ = c.baseline_ci
        rows.append(("baseline", f"{c.baseline_score:.2f}", f"{mean:.2f} ± {half:.2f}", "", ""))
    else:
        rows.append(("baseline", f"{c.baseline_score:.2f}", "", "", ""))
    for i, r in enumerate(c.results, start=1):
        star = "*" if r.p_value < 0.05 else ""
        rows.append(
            (
                f"system {i}",
                f"{r.score:.2f}",
                f"{r.mean:.2f} ± {r.half_width:.2f}",
                f"{r.difference:+.2f}",
                f"{r.p_value:.4f}{star}",
            )
        )
    return _wrap(
        _table(("system", "BLEU", "mean ± 95% CI", "vs baseline", "p-value"), rows, frozenset({0}))
        + "<div><small>* p &lt; 0.05 against the baseline</small></div>"
        + f"<div>signature: <code>{_e(c.signature)}</code></div>"
    )


@register("EveryBleu")
def every_bleu_html(result: EveryBleu) -> str:
    """One corpus under every BLEU: a table of the rows, each with its difference, signature and who.

    Example:
        >>> from bleu_core import every_bleu
        >>> out = every_bleu_html(every_bleu(["the cat sat"], [["the cat sat down"]]))
        >>> "sacreBLEU default" in out, "spread" in out
        (True, True)
    """
    rows = (
        (f"{r.score:.2f}", f"{r.difference:+.2f}", r.label, r.signature, r.who, r.detail or r.changes)
        for r in result.rows
    )
    skipped = "".join(f"<div><small>not shown: {_e(k)}: {_e(why)}</small></div>" for k, why in result.skipped)
    return _wrap(
        f"<div><b>{len(result.rows)} BLEUs of one corpus</b> ({result.n_segments} segments): from "
        f"{result.lowest.score:.2f} to {result.highest.score:.2f}, a spread of {result.spread:.2f} points; "
        f"sacreBLEU's default is {result.default.score:.2f}</div>"
        + _table(
            ("BLEU", "vs default", "BLEU computed as", "signature", "who computes it this way", "what differs"),
            rows,
            frozenset({2, 3, 4, 5}),
        )
        + skipped
    )


@register("Ranking")
def ranking_html(r: Ranking) -> str:
    """A ranking as a table, best first, a thick line between significance clusters.

    Example:
        >>> from bleu_core.significance.ranking import rank_systems
        >>> html_ = ranking_html(rank_systems(["<b>", "y"], [30.0, 20.0], [[float("nan"), 0.01], [0.01, float("nan")]]))
        >>> "&lt;b&gt;" in html_, html_.count("border-top")
        (True, 1)
    """
    rows = []
    for pos, s in enumerate(r.systems, start=1):
        cut = ' style="border-top:3px solid currentColor"' if pos > 1 and pos - 1 in r.boundaries else ""
        lo, hi = s.rank_range
        cells = [str(s.rank), str(lo) if lo == hi else f"{lo}–{hi}", s.name, f"{s.score:.2f}", str(s.cluster)]
        rows.append(
            f"<tr{cut}>"
            + "".join(f"<td{' class=t' if i == 2 else ''}>{_e(c)}</td>" for i, c in enumerate(cells))
            + "</tr>"
        )
    head = "".join(f"<th>{h}</th>" for h in ("rank", "ranks possible", "system", "BLEU", "cluster"))
    note = (
        "<p>Clusters: every system above a line is significantly better than every system below it "
        f"(Holm-corrected p &lt; {r.alpha:g}).</p>"
    )
    return _wrap(f"<table><thead><tr>{head}</tr></thead><tbody>{''.join(rows)}</tbody></table>{note}")
