"""The only ``st.cache_data`` wrappers: bounded, keyed on values (strings, frozen configs, and the corpus types
through ``hash_funcs`` on their content digests). The paper's examples are the same for everyone and cached
globally (see also ``shared``); uploads are cached per session.

Engine results are values (frozen dataclasses), so caching them is safe; an ``InputError`` raised inside is
not cached and reaches the caller, which shows it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import pandas as pd
import streamlit as st

from bleu_app.frames import corpus as corpus_frames
from bleu_app.views.pair_buckets import PairBucketsView, pair_buckets_view
from bleu_core.config import BleuConfig
from bleu_core.data.corpus import Corpus, System
from bleu_core.engine import Encoded, ReferenceSet
from bleu_core.significance import bootstrap_ci
from bleu_core.significance.resample import resample_sums
from bleu_core.teaching.blocktest import RankedBlockTest, ranked_block_test
from bleu_core.teaching.every import EveryBleu, every_bleu
from bleu_core.teaching.explain import SegmentExplanation, explain_segment

# --- learn + sentence pages ------------------------------------------------------------------------------


@st.cache_data(max_entries=256, show_spinner=False)  # global: the paper's examples are the same for everyone
def explain(hyp: str, refs: tuple[str, ...], config: BleuConfig) -> SegmentExplanation:
    """``explain_segment`` for one candidate, cached per (candidate, references, settings)."""
    return explain_segment(hyp, list(refs), config)


# --- corpus and compare ---------------------------------------------------------------------------------
# Keys are the values a body reads, given by ``hash_funcs``: a ``Corpus`` hashes to ``Corpus.digest``
# (references, source, systems' names and texts, human scores), or to ``Corpus.refs_digest`` where only the
# references are read; a ``System`` to its text's digest; a ``BleuConfig`` to the tokenization (tokenizer,
# case, max order) where only that is read. Statistics matrices depend only on the text and the
# tokenization: smoothing, effective order and weights reuse them, and a new system costs one matrix, never
# a re-tokenization of the others.


def tok_key(config: BleuConfig) -> tuple[str, bool, int]:
    """The settings a statistics matrix depends on."""
    return (config.tokenize, config.lowercase, config.max_ngram_order)


def _corpus_digest(corpus: Corpus) -> str:
    return corpus.digest


def _refs_digest(corpus: Corpus) -> str:
    return corpus.refs_digest


def _system_digest(system: System) -> str:
    return system.digest


CI_DRAWS = 1000  # the intervals' resamples (sacreBLEU's --confidence default), seed 12345
DEFAULT_SEED = 12345

HashFuncs = dict[str | type[Any], Callable[[Any], Any]]
_WHOLE: HashFuncs = {Corpus: _corpus_digest}
_TOKENS: HashFuncs = {Corpus: _refs_digest, System: _system_digest, BleuConfig: tok_key}


@st.cache_resource(max_entries=4, scope="session", show_spinner=False, hash_funcs={Corpus: _refs_digest})
def reference_set(corpus: Corpus, tokenize: str, lowercase: bool) -> ReferenceSet:
    """The references tokenized once per (references, tokenizer, case) (every max order and smoothing reuses
    them); read-only."""
    return ReferenceSet(corpus.ref_streams, tokenize=tokenize, lowercase=lowercase)


# keyed on the reference set itself (each holds its own vocabulary; an entry keeps its set alive, so the id
# cannot be reused while the entry exists)
@st.cache_resource(max_entries=4, scope="session", show_spinner=False, hash_funcs={ReferenceSet: id})
def _encodings(ref_set: ReferenceSet) -> dict[str, Encoded]:
    """The systems tokenized so far for a reference set, by text digest (filled by :func:`encoded_many`)."""
    return {}


def encoded_many(systems: Sequence[System], ref_set: ReferenceSet) -> list[Encoded]:
    """Systems' texts tokenized for a reference set (kernel: 4 bytes a token), each once per set however it
    is asked for: the ones not seen yet all at once, on every core (``ReferenceSet.encode_many``). Their
    matrices under every max order and their n-gram differences read these instead of tokenizing again;
    read-only."""
    known = _encodings(ref_set)
    missing = {s.digest: s for s in systems if s.digest not in known}
    if missing:
        fresh = ref_set.encode_many([list(s.lines) for s in missing.values()])
        known.update(zip(missing, fresh, strict=True))
    return [known[s.digest] for s in systems]


def encoded(system: System, ref_set: ReferenceSet) -> Encoded:
    """One system's :func:`encoded_many`."""
    return encoded_many([system], ref_set)[0]


@st.cache_data(max_entries=256, scope="session", show_spinner=False, hash_funcs=_TOKENS)
def stats_matrix(system: System, corpus: Corpus, config: BleuConfig) -> np.ndarray:
    """One system's (segments x statistics) matrix, per (system text, references, tokenization)."""
    ref_set = reference_set(corpus, config.tokenize, config.lowercase)
    return ref_set.stats(encoded(system, ref_set), config.max_ngram_order)


@st.cache_data(max_entries=64, scope="session", show_spinner=False, hash_funcs=_TOKENS)
def interval(system: System, corpus: Corpus, config: BleuConfig) -> tuple[float, float]:
    """One system's 95% bootstrap interval (low, high): sacreBLEU's 1,000 resamples, seed 12345."""
    _, _, low, high = bootstrap_ci(stats_matrix(system, corpus, config), config)
    return low, high


def _systems_key(corpus: Corpus) -> tuple[str, ...]:
    return tuple(s.digest for s in corpus.systems)


def _texts_key(corpus: Corpus) -> tuple[str, tuple[str, ...]]:
    return corpus.refs_digest, _systems_key(corpus)


@st.cache_resource(
    max_entries=8, scope="session", show_spinner=False, hash_funcs={Corpus: _texts_key, BleuConfig: tok_key}
)
def _all_matrices(corpus: Corpus, config: BleuConfig) -> tuple[np.ndarray, ...]:
    """Every system's statistics matrix, in corpus order, counted on all cores at once
    (``ReferenceSet.stats_many``); keyed on the texts and the tokenization (names and smoothing do not
    matter); read-only arrays."""
    refs = reference_set(corpus, config.tokenize, config.lowercase)
    out = tuple(refs.stats_many(encoded_many(corpus.systems, refs), config.max_ngram_order))
    for m in out:
        m.flags.writeable = False
    return out


def matrices(corpus: Corpus, config: BleuConfig) -> dict[str, np.ndarray]:
    """Every system's statistics matrix, by name (read-only: the compare page's systems share them)."""
    return dict(zip(corpus.names, _all_matrices(corpus, config), strict=True))


def nrefs(corpus: Corpus) -> int:
    """References per segment for the signature."""
    return len(corpus.references)


@st.cache_data(max_entries=32, scope="session", show_spinner=False, hash_funcs=_WHOLE)
def systems_frame(corpus: Corpus, config: BleuConfig, baseline: str = "", pool: int = CI_DRAWS) -> pd.DataFrame:
    """BLEU with bootstrap CIs, precisions and lengths per system (human scores where loaded); the intervals
    read the first 1,000 rows of a pool of ``pool`` resamples (:func:`pool_size`: the one the page's matrix
    reads too)."""
    human = corpus.human_scores()
    return corpus_frames.system_table(
        matrices(corpus, config),
        config,
        nrefs=nrefs(corpus),
        baseline=baseline,
        human=human or None,
        resampled=resampled(corpus, config, pool, DEFAULT_SEED) if corpus.n_segments else None,
    )


def pool_size(method: str, trials: int, seed: int) -> int:
    """How many resamples the compare page draws once (seed 12345) for its intervals (the first 1,000) and,
    when it runs the bootstrap with that seed, for its matrix (the first ``trials``): the first k rows of a
    pool are k resamples, so both read one pool, and smoothing changes reuse it."""
    return max(CI_DRAWS, trials) if method == "bs" and seed == DEFAULT_SEED else CI_DRAWS


@st.cache_resource(
    max_entries=8, scope="session", show_spinner=False, hash_funcs={Corpus: _corpus_digest, BleuConfig: tok_key}
)
def resampled(corpus: Corpus, config: BleuConfig, n_samples: int, seed: int) -> np.ndarray:
    """Bootstrap column sums of every system (``resample_sums``), keyed on the texts and the tokenization
    only; read-only."""
    return resample_sums(list(matrices(corpus, config).values()), n_samples, seed)


# The two per-segment tables are cache_resource, read-only (``tables.table_page`` filters into new frames):
# st.cache_data would keep a pickled copy of every text and unpickle another on every rerun (issue 13: at
# 50,000 segments, 37 MB kept and 0.05 s per rerun for the sentence table alone).
@st.cache_resource(max_entries=8, scope="session", show_spinner=False, hash_funcs=_WHOLE)
def sentences(corpus: Corpus, name: str, config: BleuConfig) -> pd.DataFrame:
    """The per-sentence table of one system (with the source, when the corpus has one); read-only."""
    src = corpus.source.lines if corpus.source is not None else None
    system = corpus.system(name)
    return corpus_frames.sentence_table(
        stats_matrix(system, corpus, config), config, system.lines, corpus.ref_streams, src
    )


@st.cache_data(max_entries=32, scope="session", show_spinner=False, hash_funcs=_WHOLE)
def bucket_frame(corpus: Corpus, name: str, config: BleuConfig, by: str) -> pd.DataFrame:
    """BLEU by bucket with bootstrap CIs, for one system (the draws from ``bucket_pools``)."""
    matrix = stats_matrix(corpus.system(name), corpus, config)
    return corpus_frames.buckets(matrix, config, by=by, resampled=bucket_pools(corpus.system(name), corpus, config, by))


@st.cache_resource(max_entries=16, scope="session", show_spinner=False, hash_funcs=_TOKENS)
def bucket_pools(system: System, corpus: Corpus, config: BleuConfig, by: str) -> list[np.ndarray]:
    """Each bucket's bootstrap sums for one system, keyed on its text and the tokenization (a smoothing change
    draws nothing); read-only."""
    return corpus_frames.bucket_resamples(stats_matrix(system, corpus, config), by=by)


@st.cache_data(max_entries=16, scope="session", show_spinner=False, hash_funcs=_WHOLE)
def significance_frame(corpus: Corpus, config: BleuConfig, method: str, trials: int, seed: int) -> pd.DataFrame:
    """The N x N significance matrix (long format), Holm-corrected."""
    mats = matrices(corpus, config)
    pool = None
    if method == "bs" and corpus.n_segments:
        # the page's shared pool with the default seed (pool_size), the test's own draws with any other
        pool = resampled(corpus, config, pool_size(method, trials, seed) if seed == DEFAULT_SEED else trials, seed)
    p, ph, delta = corpus_frames.pairwise(
        list(mats.values()), config, method=method, trials=trials, seed=seed, resampled=pool
    )
    return corpus_frames.significance_frame(list(mats), p, ph, delta)


@st.cache_data(
    max_entries=32, scope="session", show_spinner=False, hash_funcs={Corpus: _corpus_digest, BleuConfig: tok_key}
)
def ngram_frame(corpus: Corpus, a: str, b: str, config: BleuConfig, min_support: int = 2) -> pd.DataFrame:
    """The n-gram differences between systems ``a`` and ``b`` (names of the loaded corpus): counted in one pass
    over both systems (``ReferenceSet.ngram_diff``); only the shown rows are kept."""
    ref_set = reference_set(corpus, config.tokenize, config.lowercase)
    sa, sb = encoded_many([corpus.system(a), corpus.system(b)], ref_set)  # the matrices' tokens
    return corpus_frames.ngram_diff(ref_set.ngram_diff(sa, sb, config.max_ngram_order), min_support=min_support)


@st.cache_data(max_entries=16, scope="session", show_spinner=False, hash_funcs=_WHOLE)
def block_test(corpus: Corpus, config: BleuConfig) -> RankedBlockTest:
    """The paper's block test on every system (blocks of 25 where the corpus allows, rank order); system
    indices follow ``corpus.names``."""
    return ranked_block_test(list(matrices(corpus, config).values()), config)


@st.cache_resource(max_entries=8, scope="session", show_spinner=False, hash_funcs=_WHOLE)
def pair_buckets(corpus: Corpus, a: str, b: str, config: BleuConfig) -> PairBucketsView:
    """A against B by reference length and by word frequency, with intervals (``views.pair_buckets``); read-only."""
    return pair_buckets_view(corpus, matrices(corpus, config), config, a=a, b=b)


@st.cache_resource(max_entries=8, scope="session", show_spinner=False, hash_funcs=_WHOLE)
def pair_frame(corpus: Corpus, a: str, b: str, config: BleuConfig) -> pd.DataFrame:
    """Sentence BLEU of A and B per segment, sorted by B - A; read-only."""
    sa, sb = corpus.system(a), corpus.system(b)
    mats = matrices(corpus, config)  # the compare page's: already counted for every system
    return corpus_frames.pair_sentences(
        mats[a],
        mats[b],
        config,
        sa.lines,
        sb.lines,
        corpus.ref_streams,
        corpus.source.lines if corpus.source is not None else None,
    )


def precision_long(corpus: Corpus, config: BleuConfig) -> pd.DataFrame:
    """p_n per system, long format."""
    return corpus_frames.precision_frame(matrices(corpus, config))


# --- the corpus page's "under every BLEU" section ------------------------------------------------------------


@st.cache_data(
    max_entries=8,
    scope="session",
    show_spinner="Scoring this system under every BLEU ...",
    hash_funcs={Corpus: _refs_digest, System: _system_digest},
)
def every(system: System, corpus: Corpus) -> EveryBleu:
    """``every_bleu`` of one system of the corpus, per (system text, references): it ignores the sidebar
    settings."""
    return every_bleu(list(system.lines), corpus.ref_streams)


# --- slices and diagnostics (corpus and compare pages) -----------------------------------------------------

from bleu_app.frames import slices as slice_frames  # noqa: E402
from bleu_core.data.diagnostics import Diagnostics  # noqa: E402
from bleu_core.data.slices import Slice  # noqa: E402


@st.cache_resource(max_entries=4, scope="session", show_spinner="Looking for degenerate lines ...", hash_funcs=_WHOLE)
def diagnostics(corpus: Corpus, tokenize: str) -> Diagnostics:
    """Every system's flags (``bleu_core.data.diagnostics``) under a tokenizer; read-only."""
    return slice_frames.corpus_diagnostics(corpus, tokenize)


@st.cache_resource(max_entries=8, scope="session", show_spinner=False, hash_funcs=_WHOLE)
def sliced(corpus: Corpus, where: str, tokenize: str) -> tuple[Corpus, Slice]:
    """The corpus cut to the lines ``where`` chooses, and the slice; an ``InputError`` (a bad expression) is
    not cached and reaches the caller."""
    chosen = slice_frames.choose(corpus, where, tokenize, lambda: diagnostics(corpus, tokenize))
    return slice_frames.cut(corpus, chosen), chosen
