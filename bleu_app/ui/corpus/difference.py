"""The compare page's "Why do A and B differ?" section: the exact decomposition of the difference as a waterfall,
every system against the baseline, and the sentences that carry the gap (one click to the sentence view)."""

from __future__ import annotations

from collections.abc import Sequence

import streamlit as st

from bleu_app import report
from bleu_app.frames import (
    corpus as corpus_frames,
    difference as frames,
    metrics as metric_frames,
    pair_buckets as pb_frames,
)
from bleu_app.frames.metrics import Shown
from bleu_app.frames.names import labels, with_short_names
from bleu_app.frames.signs import signed, zero_unsigned
from bleu_app.markup import md_escape
from bleu_app.ui import cached, docs
from bleu_app.ui.components import export, tables, widgets
from bleu_app.ui.corpus import selection
from bleu_app.views.difference import AXIS_NOTE, DifferenceView, difference_view
from bleu_app.views.pair_buckets import FREQ_NOTE, LENGTH_NOTE
from bleu_core.config import BleuConfig
from bleu_core.data.corpus import Corpus
from bleu_core.metrics import Bleu
from bleu_core.significance.families import Family

TOP = 25  # sentences listed
BUCKETS_AUTO_SEGMENTS = 5_000


def section(corpus: Corpus, config: BleuConfig, baseline: str, sys_a: str, sys_b: str) -> None:
    """Render the section for systems A and B of the compare page (and every system against ``baseline``)."""
    st.subheader("Why do A and B differ?")
    mats = cached.matrices(corpus, config)
    choice = st.segmented_control(
        "Units",
        ["points", "log"],
        default="points",
        required=True,
        key="compare.diff_unit",
        format_func=lambda u: frames.UNIT_TITLES[u],
        help="BLEU points (the log terms scaled by the logarithmic mean of the two scores) or the exact log terms.",
    )
    unit: frames.Unit = "log" if choice == "log" else "points"
    view = difference_view(corpus, mats, config, baseline=baseline, a=sys_a, b=sys_b, unit=unit, top=TOP)
    d = view.decomposition
    short = labels(list(corpus.names))  # the names of the page's charts and tables (the pickers hold the full ones)
    name_a, name_b = md_escape(short[sys_a]), md_escape(short[sys_b])
    if view.waterfall is not None:
        st.markdown(
            f"**{name_b} − {name_a} = {signed(d.bleu)} BLEU**: "
            + ", ".join(f"{t} {signed(v)}" for t, v in view.terms)
            + f" (log ratio {signed(d.log_ratio, 4)}, under {d.smoothing} smoothing)."
        )
        st.altair_chart(view.waterfall, key="compare.waterfall")
        if unit == "points":
            st.caption(AXIS_NOTE)
    else:
        st.warning(
            f"{name_b} − {name_a} = {signed(d.bleu)} BLEU, but the log ratio is not finite: "
            f"{d.note}. Choose a smoothing method in the sidebar to see the terms.",
            icon=":material/warning:",
        )
    st.caption(f"Signature: {view.signature.replace('|', ' | ')}")

    if view.versus is not None:
        st.altair_chart(view.versus, key="compare.diff_all")
    for name, note in view.skipped.items():
        st.caption(f"{md_escape(short[name])} against {md_escape(short[baseline])}: not finite ({note}).")

    _gap(view, sys_a, sys_b, (name_a, name_b))
    with st.expander("How the split works"):
        st.markdown(docs.text("difference", "corpus"))
    buckets_section(corpus, config, sys_a, sys_b)


def _gap(view: DifferenceView, sys_a: str, sys_b: str, names: tuple[str, str]) -> None:
    """Each sentence's share of the gap between A and B: the cumulative curve of all the shares, then the sentences
    with the largest shares (a row opens its sentence with both systems). The curve comes first: a selectable
    table covered the top of the element after it. ``names``: A's and B's names as the page shows them (short,
    escaped)."""
    top, shares = view.gap, view.shares
    st.caption(frames.gap_caption(shares.gap, len(top), *names, shares=shares.finite))
    if not shares.finite:
        st.caption(f"No share of the gap is defined for this pair: {md_escape(shares.note)}.")
    if view.curve is not None:
        st.altair_chart(view.curve, key="compare.gap_curve")
        n = len(shares.points) if shares.points is not None else 0
        st.caption(
            f"The shares of the sentences added up, largest first: the line ends at B − A = {signed(shares.gap)}, "
            f"the shares of all {n:,} sentences together. It overshoots B − A while the sentences that work for the "
            "leader are added and comes back with those that work against it: the further it overshoots, the more "
            "sentences pull in opposite directions. Below, the sentences with the largest shares: select a row to "
            "open it with both systems."
        )
    shown = top.assign(**{c: zero_unsigned(top[c], 3) for c in (frames.SHARE, frames.EFFECT)})  # no "-0.000"
    shown = shown if shares.finite else shown.drop(columns=frames.SHARE)
    st.dataframe(
        shown,
        hide_index=True,
        key="compare.gap",
        selection_mode="single-row",
        on_select=selection.row_opener("compare.gap", top[frames.SEGMENT].tolist(), sys_a, sys_b),
        column_config={
            frames.SHARE: st.column_config.NumberColumn(
                "share of B − A (points)",
                help="The sentence's part of B − A; the shares of all sentences add up to B − A exactly",
                format="%.3f",
            ),
            frames.EFFECT: st.column_config.NumberColumn(
                "without it (points)", help="B − A with the sentence minus B − A without it", format="%.3f"
            ),
            frames.BLEU_A: st.column_config.NumberColumn(format="%.1f"),
            frames.BLEU_B: st.column_config.NumberColumn(format="%.1f"),
            **tables.side_by_side(numbers=list(shown.columns).index("A")),
        },
    )


def buckets_section(corpus: Corpus, config: BleuConfig, sys_a: str, sys_b: str) -> None:
    """A against B by reference length and by word frequency in the references, every cell with its interval
    (on request above ``BUCKETS_AUTO_SEGMENTS``: two bootstraps and every word's bucket, seconds at 50,000 lines,
    which every draw of the page would pay)."""
    what = "By sentence length and word frequency, with intervals"
    if not widgets.on_request(what, corpus, "compare.buckets_on", BUCKETS_AUTO_SEGMENTS):
        return
    view = cached.pair_buckets(corpus, sys_a, sys_b, config)
    short = labels(list(corpus.names))
    name_a, name_b = md_escape(short[sys_a]), md_escape(short[sys_b])
    st.markdown(f"**By reference length: {name_b} (B) vs {name_a} (A)**")
    (lo_a, hi_a), (lo_b, hi_b), (lo_d, hi_d) = corpus_frames.PAIR_CI
    two = {c: st.column_config.NumberColumn(format="%.2f") for c in (corpus_frames.BLEU_A, corpus_frames.BLEU_B)}
    two |= {c: st.column_config.NumberColumn(format="%.2f") for c in (lo_a, hi_a, lo_b, hi_b)}
    signed = {c: st.column_config.NumberColumn(format="%+.2f") for c in (corpus_frames.B_MINUS_A, lo_d, hi_d)}
    st.dataframe(view.length, hide_index=True, key="compare.pair_len", column_config={**two, **signed})
    st.caption(LENGTH_NOTE)
    st.caption(f"Signature: {view.signature.replace('|', ' | ')}")
    st.altair_chart(view.length_chart, key="compare.pair_len_chart")
    st.markdown(f"**By word frequency in the references: {name_b} (B) vs {name_a} (A)**")
    t = pb_frames
    cols = (t.F_A, t.F_A_LOW, t.F_A_HIGH, t.F_B, t.F_B_LOW, t.F_B_HIGH)
    fmt = {c: st.column_config.NumberColumn(format="%.2f") for c in cols}
    fmt |= {c: st.column_config.NumberColumn(format="%+.2f") for c in (t.F_DIFF, t.F_DIFF_LOW, t.F_DIFF_HIGH)}
    st.dataframe(view.freq, hide_index=True, key="compare.pair_freq", column_config=fmt)
    st.caption(FREQ_NOTE)
    st.altair_chart(view.freq_chart, key="compare.pair_freq_chart")


def report_button(
    corpus: Corpus,
    config: BleuConfig,
    baseline: str,
    sys_a: str,
    sys_b: str,
    test: tuple[str, int, int],
    others: Sequence[Shown] = (),
    *,
    family: Family = "all",
) -> None:
    """A lazy download of the self-contained HTML report of this comparison (built only when clicked): BLEU's
    sections, then one per metric of ``others`` (the other metrics the page shows). ``test``: the significance
    test's method, trials and seed.

    The matrices are read here, while the page renders: Streamlit runs the callable in another thread, where
    a session-scoped cache may not be read.
    """
    method, trials, seed = test
    mats = cached.matrices(corpus, config)
    sig = cached.significance_frame(corpus, metric_frames.bleu(config), method, trials, seed)  # the page's
    other_mats = {s.name: cached.metric_matrices(corpus, s) for s in others}
    options = report.ReportOptions(
        baseline=baseline,
        a=sys_a,
        b=sys_b,
        method=method,
        trials=trials,
        seed=seed,
        metrics=tuple(s.metric for s in others),
        family=family,
    )

    def make() -> str:
        return report.build_report(corpus, config, options, matrices=mats, significance=sig, metric_matrices=other_mats)

    def csv() -> str:
        sig = metric_frames.signed(Bleu(config), cached.nrefs(corpus))
        table = with_short_names(frames.decomposition_table(mats, config, baseline)[0], labels(list(corpus.names)))
        return export.csv(table, [sig])

    export.downloads(
        "Report:",
        {
            "HTML (opens offline)": (make, "bleu_report.html", "text/html"),
            "decomposition CSV": (csv, "difference_decomposition.csv", "text/csv"),
        },
        "compare.report",
    )
