"""Highlighted text: the candidate's and the references' tokens as escaped HTML spans (through ``st.html``), each
match status with its colour and its own underline shape."""

from __future__ import annotations

import html
from typing import Final, Literal

import streamlit as st

from bleu_core.teaching.clipbuild import ClipStep
from bleu_core.teaching.explain import SegmentExplanation

# Okabe & Ito's colour-blind-safe hues on semi-transparent backgrounds with `color: inherit`, so the text
# keeps the theme's own colour in light and dark mode; every status also has its own underline shape.
HIGHLIGHT_CSS: Final = """
<style>
.bleu-text { font-size: 1.2rem; line-height: 2.3; word-wrap: break-word; overflow-wrap: anywhere; }
.bleu-tok { color: inherit; padding: 0.1em 0.18em; margin: 0 0.06em; border-radius: 0.25em;
  border-bottom: 3px solid transparent; white-space: pre-wrap; }
.bleu-tok.matched { background: rgba(86, 180, 233, 0.30); border-bottom: 3px solid #0072B2; }
.bleu-tok.clipped { background: rgba(230, 159, 0, 0.30); border-bottom: 3px dashed #E69F00; }
.bleu-tok.unmatched { background: transparent; border-bottom: 3px dotted #D55E00; }
.bleu-tok.ref-hit { background: rgba(0, 158, 115, 0.30); border-bottom: 3px double #009E73; }
.bleu-tok.selected { outline: 3px solid #CC79A7; outline-offset: 1px; }
.bleu-tok.pending { opacity: 0.7; }  /* faded, still 4.5:1 in both themes */
.bleu-tok.used { background: rgba(0, 158, 115, 0.30); border-bottom: 3px double #009E73;
  text-decoration: line-through; }
.bleu-tok sub { font-size: 0.62em; opacity: 0.85; margin-left: 0.1em; }
.bleu-keep { white-space: nowrap; }  /* a word and its reference tags stay on one line */
.bleu-legend { display: flex; flex-wrap: wrap; gap: 0.4em 1.2em; font-size: 0.95rem; margin: 0.2em 0 0.6em; }
.bleu-reflabel { font-size: 0.85rem; opacity: 0.8; margin-right: 0.4em; font-weight: 600; }
</style>
"""

_RANK: Final = {"unmatched": 0, "clipped": 1, "matched": 2}  # a token covered by several n-grams shows the best
_STATUS_WORDS: Final = {
    "matched": "matched (counted)",
    "clipped": "clipped (the references' copies are used up)",
    "unmatched": "in no reference",
}


def _span(text: str, classes: str, title: str = "", sub: str = "") -> str:
    t = f' title="{html.escape(title, quote=True)}"' if title else ""
    s = f"<sub>{html.escape(sub)}</sub>" if sub else ""
    return f'<span class="bleu-tok {classes}"{t}>{html.escape(text)}{s}</span>'


def token_statuses(expl: SegmentExplanation, n: int) -> list[str]:
    """Each candidate token's status at order n: matched if a matched n-gram covers it, else clipped if
    a clipped one does, else unmatched (tokens beyond the last n-gram start are covered by earlier ones)."""
    out = ["unmatched"] * expl.hyp_len
    if 1 <= n <= len(expl.orders):
        for occ in expl.orders[n - 1].occurrences:
            for i in range(occ.start, occ.start + occ.n):
                if _RANK[occ.status] > _RANK[out[i]]:
                    out[i] = occ.status
    return out


def candidate_html(
    expl: SegmentExplanation,
    *,
    mode: Literal["order", "longest"] = "order",
    n: int = 1,
    selected: tuple[int, int] | None = None,
    plain: bool = False,
) -> str:
    """The candidate's tokens as escaped HTML spans.

    Args:
        expl: the explanation.
        mode: ``order`` marks each token's status at order n; ``longest`` shades each token by the
            longest matched n-gram covering it (the number is written beside it too).
        n: the order for ``order`` mode.
        selected: (start, n) of an occurrence to outline.
        plain: ``order`` mode before clipping is taught: a clipped token is drawn matched (plain precision counts
            every candidate word found in some reference), so no colour stands for what the lecture has not shown.
    """
    chosen = set(range(selected[0], selected[0] + selected[1])) if selected else set()
    parts = []
    if mode == "longest":
        longest = expl.token_max_order()
        top = max(len(expl.orders), 1)
        for i, (tok, m) in enumerate(zip(expl.hyp_tokens, longest, strict=True)):
            cls = ("matched" if m else "unmatched") + (" selected" if i in chosen else "")
            style = f' style="background: rgba(86, 180, 233, {0.12 + 0.5 * m / top:.2f})"' if m else ""
            span = _span(
                tok, cls, f"longest matched n-gram here: {m}" if m else "in no matched n-gram", str(m) if m else ""
            )
            parts.append(span.replace(">", f"{style}>", 1) if style else span)
    else:
        statuses = token_statuses(expl, n)
        where = _token_refs(expl, n)
        for i, (tok, status) in enumerate(zip(expl.hyp_tokens, statuses, strict=True)):
            st_ = "matched" if plain and status == "clipped" else status
            cls = st_ + (" selected" if i in chosen else "")
            parts.append(_span(tok, cls, f"{_STATUS_WORDS[st_]}{where.get(i, '')}"))
    return f'<div class="bleu-text" dir="auto">{" ".join(parts) or "<em>(no tokens)</em>"}</div>'


def _token_refs(expl: SegmentExplanation, n: int) -> dict[int, str]:
    if not 1 <= n <= len(expl.orders):
        return {}
    out: dict[int, str] = {}
    for occ in expl.orders[n - 1].occurrences:
        if occ.refs and occ.start not in out:
            out[occ.start] = (
                " — '"
                + " ".join(occ.ngram)
                + "' in "
                + "; ".join(
                    f"Ref {k + 1} at token {', '.join(str(p + 1) for p in occ.ref_positions[k])}" for k in occ.refs
                )
            )
    return out


def references_html(
    expl: SegmentExplanation,
    selected: tuple[int, int] | None = None,
    *,
    answers: bool = True,
    best_match: bool = True,
) -> str:
    """Each reference's tokens; the selected candidate n-gram's matches in them highlighted.

    The best-match reference (the one whose length is r) is labelled, with each reference's length; with
    ``answers=False`` (the exercise, which asks for them) neither is shown; with ``best_match=False`` (the
    walk before the brevity-penalty step defines r) only the lengths are.
    """
    hits: list[set[int]] = [set() for _ in expl.ref_tokens]
    if selected is not None and 1 <= selected[1] <= len(expl.orders):
        start, n = selected
        occ = next((o for o in expl.orders[n - 1].occurrences if o.start == start), None)
        if occ is not None:
            for k, positions in enumerate(occ.ref_positions):
                for p in positions:
                    hits[k].update(range(p, p + n))
    rows = []
    for k, toks in enumerate(expl.ref_tokens):
        best = ", best match length r" if best_match and k == expl.best_ref else ""
        label = f"Ref {k + 1} ({len(toks)} tokens{best})"
        label = label if answers else f"Ref {k + 1}"
        spans = " ".join(_span(t, "ref-hit" if i in hits[k] else "plain") for i, t in enumerate(toks))
        rows.append(
            f'<div class="bleu-text" dir="auto"><span class="bleu-reflabel">{html.escape(label)}</span>{spans}</div>'
        )
    return "".join(rows)


def build_html(expl: SegmentExplanation, step: ClipStep, n: int = 1) -> str:
    """Clipping as a process (``bleu_core.teaching.clipbuild``): the candidate with its first ``step.counted``
    n-grams coloured by what became of them (the last one outlined) and the rest faded; each reference with the
    copies used up so far struck through (the one the last n-gram used outlined)."""
    counted = dict(zip(_starts(expl, n), step.statuses, strict=False))
    cover: dict[int, str] = {}
    for i, status in counted.items():  # a token's status: the best of the counted n-grams covering it
        for t in range(i, i + n):
            if _RANK[status] > _RANK.get(cover.get(t, ""), -1):
                cover[t] = status
    last = set(range(step.start, step.start + n)) if step.start is not None else set()
    spans = []
    for t, tok in enumerate(expl.hyp_tokens):
        now = cover.get(t)
        cls = (now or "pending") + (" selected" if t in last else "")
        spans.append(_span(tok, cls, _STATUS_WORDS[now] if now else "not counted yet"))
    rows = [f'<div class="bleu-text" dir="auto">{" ".join(spans) or "<em>(no tokens)</em>"}</div>']
    for k, toks in enumerate(expl.ref_tokens):
        used = {t for p in step.used[k] for t in range(p, p + n)}
        at = step.took[k]
        took = set(range(at, at + n)) if at is not None else set()
        ref = " ".join(
            _span(
                tok,
                ("used" if t in used else "plain") + (" selected" if t in took else ""),
                "used up by a candidate word" if t in used else "",
            )
            for t, tok in enumerate(toks)
        )
        label = html.escape(f"Ref {k + 1} ({len(toks)} tokens)")
        rows.append(f'<div class="bleu-text" dir="auto"><span class="bleu-reflabel">{label}</span>{ref}</div>')
    return "".join(rows)


def _starts(expl: SegmentExplanation, n: int) -> list[int]:
    return [o.start for o in expl.orders[n - 1].occurrences] if 1 <= n <= len(expl.orders) else []


def legend_html(*, refs: bool = False, longest: bool = False, used: bool = False) -> str:
    """A legend: each status with its colour and underline shape; with ``longest``, the legend of
    ``candidate_html(mode="longest")``, which says what the number beside each word is; with ``used``, the
    build-up's (:func:`build_html`) two more."""
    if longest:
        items = [
            _span("matched", "matched legend", sub="2"),
            _span("in no reference", "unmatched legend"),
            '<span class="bleu-legend-note">the number beside a word: the longest matched n-gram it is part of '
            "(1: the word alone, 4: four words in a row in a reference); the darker, the longer</span>",
        ]
        return f'<div class="bleu-legend">{"".join(items)}</div>'
    items = [
        _span("matched", "matched legend"),
        _span("clipped (copies used up)", "clipped legend"),
        _span("in no reference", "unmatched legend"),
    ]
    if refs:
        items.append(_span("where the selected n-gram is in a reference", "ref-hit legend"))
    if used:
        items += [_span("a reference copy used up", "used legend"), _span("not counted yet", "pending legend")]
    return f'<div class="bleu-legend">{"".join(items)}</div>'


def show_html(body: str) -> None:
    """Render already-escaped HTML with the highlight styles."""
    st.html(HIGHLIGHT_CSS + body)
