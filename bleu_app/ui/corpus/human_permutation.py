"""The compare page's test of which metric agrees with segment-level human scores better (imported scores, e.g.
WMT's MQM): a permutation test swapping segments (Deutsch et al. 2021's PERM-INPUTS) with mt-metrics-eval's
PermutationSigDiff statistic, for every pair of BLEU, chrF and the other
imported scores."""

from __future__ import annotations

import numpy as np
import streamlit as st

from bleu_app import markup
from bleu_app.frames import human_permutation as frames
from bleu_app.frames.metrics import Shown, segment_scores
from bleu_app.ui import cached, cached_human
from bleu_app.ui.components import scores
from bleu_core.config import BleuConfig
from bleu_core.data.corpus import Corpus
from bleu_core.metrics import METRICS, Bleu, Metric, get_metric
from bleu_core.metrics.imported import SegmentScores

TRIALS = 1000  # mt-metrics-eval's default k
NONE = "(none)"


def _rows(metric: Metric, mats: dict[str, np.ndarray], systems: list[str]) -> np.ndarray:
    return np.vstack([segment_scores(metric, mats[s]) for s in systems])


def _metrics(corpus: Corpus, config: BleuConfig, gold: SegmentScores, systems: list[str]) -> dict[str, np.ndarray]:
    """Each metric's segment scores, systems x segments: BLEU (the sidebar's), chrF, every other imported score."""
    out = {"BLEU": _rows(Bleu(config), cached.matrices(corpus, config), systems)}
    if "chrf" in METRICS:
        chrf = Shown("chrf", get_metric("chrf"))
        out[chrf.name] = _rows(chrf.metric, cached.metric_matrices(corpus, chrf), systems)
    for s in corpus.scores:
        if s.metric != gold.metric and all(n in s.systems for n in systems):
            out[s.metric.label] = _rows(s.metric, {n: s.matrix(n) for n in systems}, systems)
    return out


def section(corpus: Corpus, config: BleuConfig) -> None:
    """Render the test (nothing when no segment scores are imported)."""
    labels = [s.metric.label for s in corpus.scores]
    if not labels:
        return
    st.markdown("**Which metric agrees better with segment-level human scores**")
    default = frames.human_default(labels)
    options = [NONE, *labels]
    choice = st.selectbox(
        "Human scores per segment (imported)",
        options,
        index=options.index(default) if default else 0,
        key="compare.human_segments",
        help="Which imported scores are human judgements (MQM, DA): the gold of the test below.",
    )
    gold = corpus.imported(choice) if choice != NONE else None
    if gold is None:
        st.caption("Choose which imported scores are human judgements to test the metrics against them.")
        return
    systems = [n for n in corpus.names if n in gold.systems]
    if len(systems) < 3:
        st.info(f"{len(systems)} systems have {markup.md_escape(choice)} scores: a correlation needs at least 3.")
        return
    human = _rows(gold.metric, {n: gold.matrix(n) for n in systems}, systems).mean(axis=1)
    table = cached_human.pairs_table(human, _metrics(corpus, config, gold, systems), TRIALS, cached.DEFAULT_SEED)
    st.dataframe(
        table,
        hide_index=True,
        key="compare.human_pairs",
        column_config={
            c: st.column_config.NumberColumn(format="%.3f")
            for c in (frames.CORR_BETTER, frames.CORR_OTHER, frames.DELTA, frames.P)
        },
    )
    st.caption(
        f"p: the share of {TRIALS} draws in which swapping the two metrics' scores of randomly chosen segments gave "
        f"a difference at least the one seen (small p: the first metric agrees better, not by chance). Gold: the "
        f"mean {markup.md_escape(choice)} per system; a metric's system score is its mean segment score (BLEU and "
        "chrF: mean sentence scores, not the corpus scores above)."
    )
    sig = (
        f"test:perm-inputs|statistic:mt-metrics-eval-PermutationSigDiff|resample:segments|zscore:yes|draws:{TRIALS}|seed:{cached.DEFAULT_SEED}"
        f"|systems:{len(systems)}|segments:{gold.n_segments}"
    )
    scores.signature(
        sig, what="segment-level permutation test (PERM-INPUTS; mt-metrics-eval's PermutationSigDiff statistic)"
    )
