"""The only ``st.cache_data`` wrappers: bounded, keyed on tuples of strings and frozen configs. The paper's
examples are the same for everyone and cached globally (see also ``shared``); uploads are cached per session.

Engine results are values (frozen dataclasses), so caching them is safe; an ``InputError`` raised inside is
not cached and reaches the caller, which shows it.
"""

from __future__ import annotations

import streamlit as st

from bleu_app import samples
from bleu_app.frames import sentence as sentence_frames
from bleu_core import VARIANTS, BleuConfig, SegmentExplanation, VariantResult, explain_segment, run_variant

# --- learn + sentence pages ------------------------------------------------------------------------------


@st.cache_data(max_entries=256, show_spinner=False)  # global: the paper's examples are the same for everyone
def explain(hyp: str, refs: tuple[str, ...], config: BleuConfig) -> SegmentExplanation:
    """``explain_segment`` for one candidate, cached per (candidate, references, settings)."""
    return explain_segment(hyp, list(refs), config)


@st.cache_data(max_entries=64, show_spinner=False)
def variant(
    key: str,
    hyps: tuple[str, ...],
    refs: tuple[tuple[str | None, ...], ...],
    config: BleuConfig,
    nltk_smoothing: int = 0,
) -> VariantResult:
    """``run_variant`` on a small corpus given as streams, cached per inputs and settings."""
    return run_variant(key, list(hyps), [list(r) for r in refs], config, nltk_smoothing=nltk_smoothing)


@st.cache_data(max_entries=64, show_spinner=False)
def all_variants(
    hyps: tuple[str, ...],
    refs: tuple[tuple[str | None, ...], ...],
    config: BleuConfig,
    nltk_smoothing: int = 0,
) -> tuple[VariantResult, ...]:
    """Every variant of ``bleu_core.VARIANTS`` on one small corpus, in their order."""
    return tuple(
        run_variant(k, list(hyps), [list(r) for r in refs], config, nltk_smoothing=nltk_smoothing) for k in VARIANTS
    )


def _short(label: str) -> str:
    return label.split(" (", maxsplit=1)[0]


@st.cache_data(max_entries=16, show_spinner=False)
def paper_corpus_explained(config: BleuConfig) -> tuple[tuple[str, SegmentExplanation], ...]:
    """Each candidate of the paper's six-sentence corpus (``samples.PAPER_CORPUS``) with its explanation."""
    return tuple((_short(s.label), explain_segment(s.hyp, list(s.refs), config)) for s in samples.PAPER_CORPUS)


@st.cache_data(max_entries=16, show_spinner=False)
def zero_order_cells(keys: tuple[str, ...], config: BleuConfig) -> dict[str, dict[str, SegmentExplanation]]:
    """For each sample key: its explanation under each of ``frames.sentence.what_if_configs(config)``."""
    configs = sentence_frames.what_if_configs(config)
    return {
        _short(samples.SENTENCE_SAMPLES[k].label): {
            name: explain_segment(samples.SENTENCE_SAMPLES[k].hyp, list(samples.SENTENCE_SAMPLES[k].refs), c)
            for name, c in configs.items()
        }
        for k in keys
    }


@st.cache_data(max_entries=16, show_spinner=False)
def nltk_methods(
    hyps: tuple[str, ...], refs: tuple[tuple[str | None, ...], ...], config: BleuConfig
) -> tuple[VariantResult, ...]:
    """NLTK's ``corpus_bleu`` with each SmoothingFunction method 0-4 on one small corpus."""
    return tuple(run_variant("nltk", list(hyps), [list(r) for r in refs], config, nltk_smoothing=m) for m in range(5))


# --- corpus and compare ---------------------------------------------------------------------------------
# Statistics matrices depend only on the text and the tokenization settings (tokenizer, case, max order):
# smoothing, effective order and weights reuse them, and a new system costs one matrix, never a
# re-tokenization of the others. Large texts go in as ``_``-prefixed arguments (not hashed); their content
# hashes (``System.digest``, ``Corpus.refs_digest``) are the keys.

import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

from bleu_app.frames import corpus as corpus_frames  # noqa: E402
from bleu_core import Corpus, RankedBlockTest, ReferenceSet, ranked_block_test  # noqa: E402

TokKey = tuple[str, bool, int]


def tok_key(config: BleuConfig) -> TokKey:
    """The settings a statistics matrix depends on."""
    return (config.tokenize, config.lowercase, config.max_ngram_order)


@st.cache_resource(max_entries=4, scope="session", show_spinner=False)
def reference_set(
    refs_digest: str, tokenize: str, lowercase: bool, _streams: tuple[tuple[str, ...], ...]
) -> ReferenceSet:
    """The references tokenized once per (references, tokenizer, case) for the fast path (every max order
    and smoothing reuses them); read-only."""
    return ReferenceSet([list(s) for s in _streams], tokenize=tokenize, lowercase=lowercase)


@st.cache_data(max_entries=256, scope="session", show_spinner=False)
def stats_matrix(
    sys_digest: str, refs_digest: str, key: TokKey, _hyps: tuple[str, ...], _streams: tuple[tuple[str, ...], ...]
) -> np.ndarray:
    """One system's (segments x statistics) matrix, cached per (system text, references, tokenization)."""
    return reference_set(refs_digest, key[0], key[1], _streams).stats(list(_hyps), key[2])


def matrices(corpus: Corpus, config: BleuConfig) -> dict[str, np.ndarray]:
    """Every system's statistics matrix, by name (each from the cache when it is there)."""
    streams = tuple(tuple(r.lines) for r in corpus.references)
    key = tok_key(config)
    return {s.name: stats_matrix(s.digest, corpus.refs_digest, key, s.lines, streams) for s in corpus.systems}


def nrefs(corpus: Corpus) -> int:
    """References per segment for the signature."""
    return len(corpus.references)


def _digests(corpus: Corpus) -> tuple[tuple[str, str], ...]:
    return tuple((s.name, s.digest) for s in corpus.systems)


@st.cache_data(max_entries=32, scope="session", show_spinner=False)
def system_table(
    digests: tuple[tuple[str, str], ...],
    refs_digest: str,
    config: BleuConfig,
    baseline: str,
    human: tuple[tuple[str, float], ...],
    _matrices: dict[str, np.ndarray],
    n_refs: int,
) -> pd.DataFrame:
    """BLEU with bootstrap CIs, precisions and lengths per system."""
    return corpus_frames.system_table(
        _matrices, config, nrefs=n_refs, baseline=baseline, human=dict(human) if human else None
    )


def systems_frame(corpus: Corpus, config: BleuConfig, baseline: str = "") -> pd.DataFrame:
    """``system_table`` for a loaded corpus."""
    return system_table(
        _digests(corpus),
        corpus.refs_digest,
        config,
        baseline,
        tuple(corpus.human_scores().items()),
        matrices(corpus, config),
        nrefs(corpus),
    )


@st.cache_data(max_entries=32, scope="session", show_spinner=False)
def sentence_table(
    sys_digest: str, refs_digest: str, config: BleuConfig, _matrix: np.ndarray, _hyps: tuple[str, ...], _corpus: Corpus
) -> pd.DataFrame:
    """The per-sentence table of one system."""
    src = _corpus.source.lines if _corpus.source is not None else None
    return corpus_frames.sentence_table(_matrix, config, _hyps, _corpus.ref_streams, src)


def sentences(corpus: Corpus, name: str, config: BleuConfig) -> pd.DataFrame:
    """``sentence_table`` for a system of the loaded corpus."""
    s = corpus.system(name)
    return sentence_table(s.digest, corpus.refs_digest, config, matrices(corpus, config)[name], s.lines, corpus)


@st.cache_data(max_entries=32, scope="session", show_spinner=False)
def bucket_table(sys_digest: str, refs_digest: str, config: BleuConfig, by: str, _matrix: np.ndarray) -> pd.DataFrame:
    """BLEU by bucket with bootstrap CIs."""
    return corpus_frames.buckets(_matrix, config, by=by)


def bucket_frame(corpus: Corpus, name: str, config: BleuConfig, by: str) -> pd.DataFrame:
    """``bucket_table`` for a system of the loaded corpus."""
    return bucket_table(corpus.system(name).digest, corpus.refs_digest, config, by, matrices(corpus, config)[name])


@st.cache_data(max_entries=16, scope="session", show_spinner=False)
def significance(
    digests: tuple[tuple[str, str], ...],
    refs_digest: str,
    config: BleuConfig,
    method: str,
    trials: int,
    seed: int,
    _matrices: dict[str, np.ndarray],
) -> pd.DataFrame:
    """The N x N significance matrix (long format), Holm-corrected."""
    names = [n for n, _ in digests]
    p, ph, delta = corpus_frames.pairwise(
        [_matrices[n] for n in names], config, method=method, trials=trials, seed=seed
    )
    return corpus_frames.significance_frame(names, p, ph, delta)


def significance_frame(corpus: Corpus, config: BleuConfig, method: str, trials: int, seed: int) -> pd.DataFrame:
    """``significance`` for the loaded corpus."""
    return significance(_digests(corpus), corpus.refs_digest, config, method, trials, seed, matrices(corpus, config))


@st.cache_resource(max_entries=64, scope="session", show_spinner=False)
def matched(
    sys_digest: str, refs_digest: str, key: TokKey, _hyps: tuple[str, ...], _streams: tuple[tuple[str, ...], ...]
) -> corpus_frames.MatchedNgrams:
    """Per segment, the n-grams BLEU credited one system with (read-only)."""
    ref_set = reference_set(refs_digest, key[0], key[1], _streams)
    return corpus_frames.MatchedNgrams(tuple(ref_set.matches(list(_hyps), key[2])))


@st.cache_data(max_entries=32, scope="session", show_spinner=False)
def ngram_table(
    a: str, a_digest: str, b: str, b_digest: str, refs_digest: str, key: TokKey, min_support: int, _corpus: Corpus
) -> pd.DataFrame:
    """The n-gram differences between systems ``a`` and ``b`` (names of the loaded corpus)."""
    streams = tuple(tuple(r.lines) for r in _corpus.references)
    sa, sb = _corpus.system(a), _corpus.system(b)
    ma = matched(sa.digest, refs_digest, key, sa.lines, streams)
    mb = matched(sb.digest, refs_digest, key, sb.lines, streams)
    return corpus_frames.ngram_diff(ma, mb, min_support=min_support)


def ngram_frame(corpus: Corpus, a: str, b: str, config: BleuConfig, min_support: int = 2) -> pd.DataFrame:
    """``ngram_table`` keyed on the two systems' texts."""
    return ngram_table(
        a, corpus.system(a).digest, b, corpus.system(b).digest, corpus.refs_digest, tok_key(config), min_support, corpus
    )


@st.cache_data(max_entries=16, scope="session", show_spinner=False)
def block_table(
    digests: tuple[tuple[str, str], ...], refs_digest: str, config: BleuConfig, _matrices: dict[str, np.ndarray]
) -> RankedBlockTest:
    """The paper's block test on every system (blocks of 25 where the corpus allows, rank order)."""
    return ranked_block_test(list(_matrices.values()), config)


def block_test(corpus: Corpus, config: BleuConfig) -> RankedBlockTest:
    """``block_table`` for the loaded corpus (system indices follow ``corpus.names``)."""
    return block_table(_digests(corpus), corpus.refs_digest, config, matrices(corpus, config))


@st.cache_data(max_entries=32, scope="session", show_spinner=False)
def pair_table(
    a: str,
    a_digest: str,
    b: str,
    b_digest: str,
    refs_digest: str,
    config: BleuConfig,
    _ma: np.ndarray,
    _mb: np.ndarray,
    _corpus: Corpus,
) -> pd.DataFrame:
    """Sentence BLEU of A and B per segment, sorted by B - A."""
    return corpus_frames.pair_sentences(
        _ma, _mb, config, _corpus.system(a).lines, _corpus.system(b).lines, _corpus.ref_streams
    )


def pair_frame(corpus: Corpus, a: str, b: str, config: BleuConfig) -> pd.DataFrame:
    """``pair_table`` for two systems of the loaded corpus."""
    m = matrices(corpus, config)
    return pair_table(
        a, corpus.system(a).digest, b, corpus.system(b).digest, corpus.refs_digest, config, m[a], m[b], corpus
    )


def precision_long(corpus: Corpus, config: BleuConfig) -> pd.DataFrame:
    """p_n per system, long format."""
    return corpus_frames.precision_frame(matrices(corpus, config))


# --- the corpus page's "under every BLEU" section ------------------------------------------------------------

from bleu_core import EveryBleu, every_bleu  # noqa: E402


@st.cache_data(max_entries=8, scope="session", show_spinner="Scoring this system under every BLEU ...")
def every_bleu_result(
    sys_digest: str, refs_digest: str, _hyps: tuple[str, ...], _streams: tuple[tuple[str, ...], ...]
) -> EveryBleu:
    """``every_bleu`` of one system, cached per (system text, references): it ignores the sidebar settings."""
    return every_bleu(list(_hyps), [list(s) for s in _streams])


def every(corpus: Corpus, name: str) -> EveryBleu:
    """``every_bleu_result`` for a system of the loaded corpus."""
    s = corpus.system(name)
    return every_bleu_result(s.digest, corpus.refs_digest, s.lines, tuple(tuple(r.lines) for r in corpus.references))
