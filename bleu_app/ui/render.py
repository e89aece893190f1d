"""Output components shared by pages: score headline with signature, exact fractions, errors."""

from __future__ import annotations

import html
from dataclasses import replace
from typing import Any, Final, Literal

import pandas as pd
import streamlit as st

from bleu_app.frames import sentence as fs
from bleu_core.config import BleuConfig
from bleu_core.data.corpus import Corpus
from bleu_core.errors import InputError
from bleu_core.metrics.bleu import BleuScore, make_signature
from bleu_core.significance import testsize
from bleu_core.significance.trials import TRIALS_OFFERED
from bleu_core.teaching.explain import SegmentExplanation

from . import cached, docs, memory, state


def score_headline(label: str, score: BleuScore, *, paper_scale: bool = True) -> None:
    """A metric with BLEU on both scales and the signature right under it."""
    value = f"{score.score:.2f}"
    if paper_scale:
        value += f"  ({score.score / 100:.4f})"
    st.metric(label, value, help="BLEU on sacreBLEU's 0-100 scale (the paper's 0-1 scale in brackets).")
    signature(score.signature)


def _effective_score(hyp: str, refs: tuple[str, ...], config: BleuConfig, score: BleuScore) -> BleuScore | None:
    """The sentence's score with effective order on, when the settings have it off and it changes the score as
    shown (2 decimals): sacreBLEU's ``sentence_bleu()`` default and the Corpus and Compare tables' sentence BLEU."""
    if config.use_effective_order:
        return None
    other = cached.explain(hyp, refs, replace(config, use_effective_order=True)).score
    return None if f"{other.score:.2f}" == f"{score.score:.2f}" else other


def effective_order_note(hyp: str, refs: tuple[str, ...], config: BleuConfig, score: BleuScore) -> None:
    """When effective order is off and turning it on changes this sentence's score (a candidate shorter than N
    tokens): that score too, with its signature. It is sacreBLEU's ``sentence_bleu()`` default and the sentence
    BLEU of the Corpus and Compare tables, so the number of the row that opened this page is found here
    (review 29: a row's 63.00 opened a page that said only 0.00)."""
    other = _effective_score(hyp, refs, config, score)
    if other is None:
        return
    st.caption(
        "With effective order (orders with no n-grams left out: sacreBLEU's `sentence_bleu()` default, and the "
        f"sentence BLEU of the Corpus and Compare tables) this sentence scores **{other.score:.2f}**. "
        + "Signature: "
        + _sig_md(other.signature)
    )


def effective_order_suffix(hyp: str, refs: tuple[str, ...], config: BleuConfig, score: BleuScore) -> str:
    """Markdown after a short score label: the effective-order score when it differs (see ``effective_order_note``),
    else nothing (review 29: a scatter point at B = 100 opened a page that said "B — BLEU 0.00")."""
    other = _effective_score(hyp, refs, config, score)
    return "" if other is None else f" (with effective order, as in the tables: {other.score:.2f})"


def size_note(n_segments: int, widths: list[float], config: BleuConfig, nrefs: int) -> None:
    """The small-test-set note (``bleu_core.significance.testsize``) under a score: a warning when the set is small,
    else a caption; with the intervals' signature."""
    note = testsize.size_note(n_segments, widths)
    sig = make_signature(config, nrefs, bs=1000, rs=12345)
    (st.warning if note.small else st.caption)(
        f"{md_escape(note.text)}  \nIntervals: {md_escape(sig.replace('|', ' | '))}"  # wraps at " | ", not mid-word
    )


ROW_PX = 35  # a row of Streamlit's data grid, header included


def table_height(rows: int) -> int:
    """The px height of a data grid that shows ``rows`` rows and its header without an inner scroll."""
    return (rows + 1) * ROW_PX + 3


def grid(data: Any, *, key: str | None = None) -> None:
    """A read-only table without its index: a data grid, or in presenter mode a static table (the grid draws on a
    canvas at 14 px that the presenter's CSS cannot reach)."""
    if presenting():
        st.table(data, hide_index=True)
    else:
        st.dataframe(data, hide_index=True, width="stretch", key=key)


def signature(sig: str, *, what: str = "") -> None:
    """Show a signature as a quiet caption (theme text colour: inline code was faint in the dark theme);
    ``what`` names the number it belongs to when that is not the one right above."""
    st.caption((f"{what}: signature " if what else "Signature: ") + _sig_md(sig))


def _sig_md(sig: str) -> str:
    """A signature as Markdown text: spaced at its bars (it wraps there), its _ and * literal."""
    return sig.replace("|", " | ").replace("_", "\\_").replace("*", "\\*")


def on_request(what: str, corpus: Corpus, key: str, limit: int) -> bool:
    """A toggle for a costly section: on by default up to ``limit`` sentences, above that the user asks for it.
    Keyed per corpus (``key`` plus its digest), so a newly loaded corpus starts at its own default."""
    return st.toggle(
        f"{what} ({corpus.n_segments:,} sentences)",
        value=corpus.n_segments <= limit,
        key=f"{key}.{corpus.digest[:16]}",
        help=f"Shown at once up to {limit:,} sentences; above that on request.",
    )


# --- highlighted text (escaped HTML through st.html) -------------------------------------------------
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
.bleu-tok sub { font-size: 0.62em; opacity: 0.85; margin-left: 0.1em; }
.bleu-keep { white-space: nowrap; }  /* a word and its reference tags stay on one line */
.bleu-legend { display: flex; flex-wrap: wrap; gap: 0.4em 1.2em; font-size: 0.95rem; margin: 0.2em 0 0.6em; }
.bleu-reflabel { font-size: 0.85rem; opacity: 0.8; margin-right: 0.4em; font-weight: 600; }
</style>
"""

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
    rank = {"unmatched": 0, "clipped": 1, "matched": 2}
    out = ["unmatched"] * expl.hyp_len
    if 1 <= n <= len(expl.orders):
        for occ in expl.orders[n - 1].occurrences:
            for i in range(occ.start, occ.start + occ.n):
                if rank[occ.status] > rank[out[i]]:
                    out[i] = occ.status
    return out


def candidate_html(
    expl: SegmentExplanation,
    *,
    mode: Literal["order", "longest"] = "order",
    n: int = 1,
    selected: tuple[int, int] | None = None,
) -> str:
    """The candidate's tokens as escaped HTML spans.

    Args:
        expl: the explanation.
        mode: ``order`` marks each token's status at order n; ``longest`` shades each token by the
            longest matched n-gram covering it (the number is written beside it too).
        n: the order for ``order`` mode.
        selected: (start, n) of an occurrence to outline.
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
        for i, (tok, st_) in enumerate(zip(expl.hyp_tokens, statuses, strict=True)):
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


def legend_html(*, refs: bool = False) -> str:
    """A legend: each status with its colour and underline shape."""
    items = [
        _span("matched", "matched legend"),
        _span("clipped (copies used up)", "clipped legend"),
        _span("in no reference", "unmatched legend"),
    ]
    if refs:
        items.append(_span("where the selected n-gram is in a reference", "ref-hit legend"))
    return f'<div class="bleu-legend">{"".join(items)}</div>'


def show_html(body: str) -> None:
    """Render already-escaped HTML with the highlight styles."""
    st.html(HIGHLIGHT_CSS + body)


SIDE_BY_SIDE_PX: Final = 230  # two sentence columns and the numbers before them fit the 820 px main column at 1280


def side_by_side(a: str = "A", b: str = "B") -> dict[str, Any]:
    """Column config for a table with system A's and system B's sentences: both columns the same fixed width,
    so B is not pushed out of view by a wide A (the reference and source follow, scrolled to)."""
    return {c: st.column_config.TextColumn(width=SIDE_BY_SIDE_PX) for c in (a, b)}


def clip_table(df: pd.DataFrame) -> None:
    """The paper's clipping table as a static table (readable when projected, searchable as text)."""
    st.table(df.set_index(df.columns[0]))


def vega_spec(chart: Any) -> dict[str, Any]:
    """An Altair chart as the Vega-Lite spec ``st.altair_chart`` would send (datasets as Arrow bytes, Altair's
    default theme off). Build it once and cache it: Altair's ``to_dict`` (schema validation, data merging) is
    the costly part of drawing a small chart; ``vega`` then only serializes the dict."""
    from streamlit.elements.vega_charts import _convert_altair_to_vega_lite_spec  # what st.altair_chart calls

    return _convert_altair_to_vega_lite_spec(chart)


# presenter mode (``?present=1``): chart text at least 18 px, in the theme's full text colour
LARGE_CHART_TEXT: Final = {"labelFontSize": 18, "titleFontSize": 20}
# Streamlit's own text colours per theme (12.6:1 on its light background, 17:1 on its dark one)
PRESENTER_INK: Final = {"light": "#31333F", "dark": "#FAFAFA"}


PRESENTING: Final = "learn.present"  # the session is in presenter mode (a rerun may rewrite the URL without it)


def presenting() -> bool:
    """Whether this session is in presenter mode: ``?present=1`` turns it on, ``present.leave`` off."""
    if st.query_params.get("present") == "1":
        st.session_state[PRESENTING] = True
    return bool(st.session_state.get(PRESENTING))


def vega(spec: dict[str, Any]) -> None:
    """Draw a spec from ``vega_spec`` full width (a shallow copy: Streamlit moves the datasets out of it); in
    presenter mode with chart labels and titles of at least 18 px."""
    out = dict(spec)
    if "autosize" not in out and not _composed(out):
        # Streamlit's default for a single or layered chart is "fit": the whole SVG, title and axes included,
        # squeezed into the spec's height. Vega places the title outside that box (it was cut at the top) and,
        # with presenter mode's 18-22 px text, left the plot a strip. "fit-x": the plot keeps its height and
        # the SVG grows by what the title and axes need.
        out["autosize"] = {"type": "fit-x", "contains": "padding"}
    if presenting():
        config = dict(out.get("config") or {})
        for part in ("axis", "legend", "header"):
            config[part] = {**(config.get(part) or {}), **LARGE_CHART_TEXT}
        config["title"] = {**(config.get("title") or {}), "fontSize": 22}
        config["text"] = {**(config.get("text") or {}), "fontSize": 18}
        ink = PRESENTER_INK.get(str(st.context.theme.type or ""))
        if ink:  # axis and legend text in the theme's full text colour: the default grey is 3.7:1 on white
            for part in ("axis", "legend", "header"):
                config[part] = {**config[part], "labelColor": ink, "titleColor": ink}
            config["title"] = {**config["title"], "color": ink}
        out = _at_least(out, 18)
        out["config"] = config
    st.vega_lite_chart(spec=out, width="stretch")


def _composed(spec: dict[str, Any]) -> bool:
    """A facet or concatenation (Streamlit sizes those itself: "fit-x" is not for them)."""
    if any(k in spec for k in ("facet", "concat", "hconcat", "vconcat", "repeat")):
        return True
    encoding = spec.get("encoding") or {}
    return any(k in encoding for k in ("row", "column", "facet"))


_SIZE_KEYS: Final = frozenset({"fontSize", "labelFontSize", "titleFontSize"})


def _at_least(node: Any, px: int) -> Any:
    """A copy of a spec with every font size a chart sets explicitly raised to ``px`` (datasets untouched)."""
    if isinstance(node, dict):
        return {
            k: (
                max(v, px)
                if k in _SIZE_KEYS and isinstance(v, int | float)
                else v
                if k == "datasets"
                else _at_least(v, px)
            )
            for k, v in node.items()
        }
    if isinstance(node, list):
        return [_at_least(v, px) for v in node]
    return node


def user_error(exc: Exception, *, what: str) -> None:
    """Show an input problem as a one-line error, never a traceback."""
    st.error(f"{what}: {exc}", icon=":material/error:")


def md_escape(text: str) -> str:
    """User text shown through Markdown (labels, captions, alerts): every character Markdown or LaTeX acts on
    escaped, and line breaks made spaces (a blank line would start a new block)."""
    out = []
    for ch in " ".join(text.splitlines()):
        out.append("\\" + ch if ch in "\\`*_{}[]()#+-.!|<>~$:=" else ch)
    return "".join(out)


def trials_in_budget(corpus: Corpus, config: BleuConfig, trials: int) -> int:
    """The significance test's trials, lowered with a note to what one session may hold (issue 24.1); the page
    stops with a message when not even the intervals' resamples fit."""
    n = len(corpus.systems)
    fit = memory.trials_that_fit(n, config, trials, TRIALS_OFFERED, cached.CI_DRAWS)
    need = memory.gib(memory.pool_bytes(n, config, max(trials, cached.CI_DRAWS)))
    budget = f"{memory.gib(memory.session_budget())}, 1/{memory.SESSION_SHARE} of this machine's memory"
    if fit is None:
        st.error(
            f"{n:,} systems are too many to compare here: even the intervals' {cached.CI_DRAWS:,} resamples need "
            f"about {need} of memory, more than one session may hold ({budget}). Load fewer systems.",
            icon=":material/error:",
        )
        st.stop()
    if fit < trials:
        st.session_state[state.COMPARE_TRIALS] = fit
        st.warning(
            f"{trials:,} trials over {n:,} systems would need about {need} of memory, more than one session may "
            f"hold ({budget}): the test below uses {fit:,} trials. Compare fewer systems to use more.",
            icon=":material/warning:",
        )
    return fit


# --- the sentence page's pieces --------------------------------------------------------------------------
def selected_occurrence(event: object, df: pd.DataFrame, n: int) -> tuple[int, int] | None:
    """(start, n) of the occurrence selected in an ``occurrence_frame`` table, or None."""
    rows = getattr(getattr(event, "selection", None), "rows", None) or []
    if not rows or rows[0] >= len(df):
        return None
    return int(df.iloc[rows[0]][fs.START]) - 1, n


def tokens_line(tokens: tuple[str, ...]) -> None:
    """The tokens exactly as scored, separated by a visible middle dot (so tokenization shows)."""
    st.code(" · ".join(tokens) if tokens else "(no tokens)", language=None, wrap_lines=True)


def warnings(items: list[str]) -> None:
    """One warning box per input problem."""
    for w in items:
        st.warning(w, icon=":material/warning:")


def precision_summary(expl: SegmentExplanation) -> str:
    """``p1 17/18 · p2 10/17 · ...`` for a caption."""
    return " · ".join(f"p{o.n} = {o.matches}/{o.total}" for o in expl.orders)


@st.fragment
def whatif_editor(hyp: str, refs: tuple[str, ...], config: BleuConfig, *, key: str) -> None:
    """Edit the candidate and see every p_n, BP and BLEU change at once (reruns only this fragment).

    Args:
        hyp: the candidate being explained.
        refs: its references.
        config: the settings.
        key: the page-prefixed key of the edit box.
    """

    base_key = f"{key}.base"
    if st.session_state.get(base_key) != hyp:
        st.session_state[base_key] = hyp
        st.session_state[key] = hyp
    edited = st.text_input("Change a word (or several) and press Enter", key=key)
    try:
        before = cached.explain(hyp, refs, config)
        after = cached.explain(edited or "", refs, config)
    except InputError as exc:
        user_error(exc, what="What-if")
        return
    df = fs.whatif_frame(before, after)
    cols = st.columns(len(df))
    for col, row in zip(cols, df.itertuples(index=False), strict=True):
        label, after_v, delta = row[0], row[2], row[3]
        col.metric(str(label), f"{after_v:.3f}", delta=f"{delta:+.3f}" if delta else None, help=str(row[4]) or None)
    show_html(candidate_html(after, n=1))
    if edited == hyp:
        st.caption("Edit the text above: the numbers show the new values and the change from the original.")


def recall_card(label: str, expl: SegmentExplanation) -> None:
    """A candidate of Example 4 with its naive recall beside its precisions."""
    hit, total = fs.naive_recall(expl)
    st.markdown(f"**{label}**")
    show_html(candidate_html(expl, n=1))
    st.metric("Naive recall of reference words", f"{hit}/{total}")
    st.caption(precision_summary(expl))


def _use_sacrebleu_preset(tokenize: str = "13a") -> None:
    st.session_state[state.PRESET] = "sacrebleu"
    state.apply_preset()
    if tokenize != "13a":  # sacreBLEU's default for this target (-l xx-zh): its tokenizer, the rest as the preset
        st.session_state[state.TOKENIZE] = tokenize
        st.session_state[state.PRESET] = state.matching_preset()


def corpus_settings_hint(config: BleuConfig, published: str = "13a") -> None:
    """On corpus pages: say when the settings are not the ones published scores use, and offer them.

    ``published`` is sacreBLEU's tokenizer for the references' language (``zh`` for Chinese references, as
    ``sacrebleu -l xx-zh``; ``13a`` for most languages)."""
    if config.tokenize == published and not config.lowercase and config.smooth_method == "exp":
        return
    default = (
        "sacreBLEU's default (13a, mixed case, exp smoothing)"
        if published == "13a"
        else f"sacreBLEU's default for this target language ({published} tokenizer, mixed case, exp smoothing)"
    )
    with st.container(horizontal=True, vertical_alignment="center"):
        st.caption(
            "These scores use the sidebar's settings (tokenizer **"
            + config.tokenize
            + "**"
            + (", lowercased" if config.lowercase else "")
            + ", smoothing **"
            + config.smooth_method
            + "**). "
            f"Published corpus BLEU is nearly always {default}."
        )
        st.button(
            "Use sacreBLEU default",
            key="render.use_sacrebleu",
            on_click=_use_sacrebleu_preset,
            args=(published,),
            icon=":material/tune:",
        )


def block_test_section(corpus: Corpus, config: BleuConfig, *, key: str, on_demand: bool = False) -> None:
    """The paper's block test (section 3, Table 2) on every system of a corpus: how the corpus was cut, the
    block scores, and the table of means, standard deviations and paired t in rank order.

    ``on_demand`` (the one-system corpus page): run only once a toggle asks for it, since it scores every
    system, where the rest of that page scores one (issue 13: a third of its first draw at 50,000 lines x 4).
    """
    from bleu_app.charts import corpus as corpus_charts
    from bleu_app.frames import corpus as corpus_frames

    st.subheader("The paper's block test")
    st.markdown(docs.text("block_test", "corpus"))
    n = len(corpus.systems)
    if on_demand and not st.toggle(
        f"Run the block test on all {n} system{'s' if n != 1 else ''} of the corpus",
        key=f"{key}.run",
        help="It scores every system of the corpus; the compare page always shows it.",
    ):
        return
    try:
        test = cached.block_test(corpus, config)
    except InputError as exc:
        user_error(exc, what="The block test cannot run on this corpus")
        return
    names = list(corpus.names)
    st.caption(corpus_frames.block_test_description(test, corpus.n_segments))
    from bleu_app.frames.names import labels

    chart = corpus_charts.block_chart(corpus_frames.blocks(test, names), labels=labels(names))
    st.altair_chart(chart, key=f"{key}.chart")
    # the table under the chart at full width, so t and df (its point) are not cut off; the lowest system has
    # no t, df or p: "—", not pandas' None
    table = corpus_frames.block_test_shown(corpus_frames.block_test_table(test, names))
    # no fixed widths: a "small" column cut its own header ("mean of blo…"); Streamlit sizes each to its header
    right = {c: st.column_config.TextColumn(alignment="right") for c in corpus_frames.BLOCK_TEST_FORMATS}
    right |= {c: st.column_config.TextColumn(help=h, alignment="right") for c, h in corpus_frames.BLOCK_HELP.items()}
    st.dataframe(
        table,
        hide_index=True,
        width="stretch",
        height=table_height(len(table)),  # every system in sight: an inner scroll hid the two best at 1280 px
        key=f"{key}.table",
        column_config={
            **right,
            corpus_frames.BLEU: st.column_config.TextColumn("corpus BLEU", alignment="right"),
            corpus_frames.MEAN: st.column_config.TextColumn("block mean", alignment="right"),
            corpus_frames.STD: st.column_config.TextColumn("block SD", alignment="right"),
        },
    )
    st.caption(
        "t vs next: paired t against the system ranked just below; p: its one-sided p, P(T ≥ t); t crit: the "
        "one-sided 95% point of t for its df; sig.: t ≥ t crit, the same as p ≤ 0.05 (one-sided, as the paper)."
    )
    st.caption(test.paper_note)
    signature(make_signature(config, cached.nrefs(corpus)))
    st.caption(
        "BLEU on the 0-100 scale (the paper's Table 2 uses 0-1: its means 0.051 ... 0.256 are 5.1 ... 25.6 here); "
        "t does not depend on the scale."
    )
