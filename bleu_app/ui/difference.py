"""The compare page's "Why is B ahead of A?" section: the exact decomposition of the difference as a waterfall,
every system against the baseline, and the sentences that carry the gap (one click to the sentence view)."""

from __future__ import annotations

import streamlit as st

from bleu_app import report
from bleu_app.charts import difference as charts
from bleu_app.frames import difference as frames
from bleu_core.bleu import make_signature
from bleu_core.config import BleuConfig
from bleu_core.corpus import Corpus
from bleu_core.decomposition import decompose_matrices

from . import cached, corpus_input, docs, export, selection

TOP = 25  # sentences listed


def section(corpus: Corpus, config: BleuConfig, baseline: str, sys_a: str, sys_b: str) -> None:
    """Render the section for systems A and B of the compare page (and every system against ``baseline``)."""
    st.subheader("Why is B ahead of A?")
    mats = cached.matrices(corpus, config)
    d = decompose_matrices(mats[sys_a], mats[sys_b], config)
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
    sig = make_signature(config, cached.nrefs(corpus))
    if d.finite:
        st.markdown(
            f"**{_md(sys_b)} − {_md(sys_a)} = {d.bleu:+.2f} BLEU**: "
            + ", ".join(
                f"{t} {v:+.2f}"
                for t, v in zip(frames.term_names(config.max_ngram_order), [d.points_bp, *d.points_precision_terms])
            )
            + f" (log ratio {d.log_ratio:+.4f}, under {d.smoothing} smoothing)."
        )
        wf = frames.waterfall(d, sys_a, sys_b, unit)
        title = f"{sys_a} (A) → {sys_b} (B), {frames.UNIT_TITLES[unit]}"
        st.altair_chart(charts.waterfall_chart(wf, unit, title=title), key="compare.waterfall")
        if unit == "points":
            st.caption("The axis does not start at 0: the A and B bars are cut at the axis floor.")
    else:
        st.warning(
            f"{_md(sys_b)} − {_md(sys_a)} = {d.bleu:+.2f} BLEU, but the log ratio is not finite: {d.note}. "
            "Choose a smoothing method in the sidebar to see the terms.",
            icon=":material/warning:",
        )
    st.caption(f"Signature: {sig.replace('|', ' | ')}")

    others, skipped = frames.versus_baseline(mats, config, baseline, unit)
    if len(others):
        st.altair_chart(charts.versus_baseline_chart(others, unit, baseline), key="compare.diff_all")
    for name, note in skipped.items():
        st.caption(f"{_md(name)} against {_md(baseline)}: not finite ({note}).")

    gap = frames.gap_sentences(
        mats[sys_a],
        mats[sys_b],
        config,
        corpus.system(sys_a).lines,
        corpus.system(sys_b).lines,
        corpus.ref_streams,
        top=TOP,
        source=corpus.source.lines if corpus.source is not None else None,
    )
    top = gap
    st.caption(
        f"The {len(top)} sentences that carry most of the gap: each one's exact leave-one-out effect on B − A "
        "(positive: without it B's lead shrinks). Select a row to open it with both systems."
    )
    st.dataframe(
        top,
        hide_index=True,
        key="compare.gap",
        selection_mode="single-row",
        on_select=selection.row_opener("compare.gap", top[frames.SEGMENT].tolist(), sys_a, sys_b),
        column_config={
            frames.EFFECT: st.column_config.NumberColumn(format="%+.3f"),
            frames.BLEU_A: st.column_config.NumberColumn(format="%.1f"),
            frames.BLEU_B: st.column_config.NumberColumn(format="%.1f"),
        },
    )
    with st.expander("How the split works"):
        st.markdown(docs.text("difference", "corpus"))


def _md(text: str) -> str:
    return corpus_input._md_escape(text)


def report_button(
    corpus: Corpus, config: BleuConfig, baseline: str, sys_a: str, sys_b: str, method: str, trials: int, seed: int
) -> None:
    """A lazy download of the self-contained HTML report of this comparison (built only when clicked).

    The matrices are read here, while the page renders: Streamlit runs the callable in another thread, where
    a session-scoped cache may not be read.
    """
    mats = cached.matrices(corpus, config)
    sig = cached.significance_frame(corpus, config, method, trials, seed)  # the page's, from the cache
    options = report.ReportOptions(baseline=baseline, a=sys_a, b=sys_b, method=method, trials=trials, seed=seed)

    def make() -> str:
        return report.build_report(corpus, config, options, matrices=mats, significance=sig)

    def csv() -> str:
        return export.csv(
            frames.decomposition_table(mats, config, baseline)[0], make_signature(config, cached.nrefs(corpus))
        )

    export.downloads(
        "Report:",
        {
            "HTML (opens offline)": (make, "bleu_report.html", "text/html"),
            "decomposition CSV": (csv, "difference_decomposition.csv", "text/csv"),
        },
        "compare.report",
    )
