"""The cache layer: every ``st.cache_data`` and ``st.cache_resource`` of the app is here, bounded and keyed on
values (strings, frozen configs, and the corpus types through ``hash_funcs`` on their content digests).

- What every session shows the same is cached once per server process (global scope, no copy per hit): the
  paper's examples under given settings (their explanations, tables as Arrow, charts as Vega-Lite specs, so that
  Altair and its schema validation run once per (example, settings)), the Learn page's fixed screens (the opening,
  Part II's tables, the cards, the exercise's numbers, the lab), the handout and a room's QR code, and
  :func:`explain` of one sentence (a class explains the same few). A class room's dashboard is built once per
  version of the room (:func:`class_board`), for the teacher and any projector alike.
- What depends on the user's data is cached per session: the corpus pages' statistics matrices, intervals,
  tables and tests (keyed on digests: see the note above :func:`tok_key`).

Values are read-only: a caller that wants to change one copies it first. Engine results are values (frozen
dataclasses), so caching them is safe; an ``InputError`` raised inside is not cached and reaches the caller, which
shows it. Outside this module the app keeps only plain ``functools.lru_cache`` memos of pure functions: the prose
files (``bleu_app.prose``, per file version), the references' script (``corpus.settings``) and Part II's fixed
numbers (``frames.part2``).
"""

from __future__ import annotations

import io
import math
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa
import segno
import streamlit as st

from bleu_app import handout, samples
from bleu_app.charts import sentence as charts
from bleu_app.frames import (
    classroom as class_frames,
    corpus as corpus_frames,
    metrics as metric_frames,
    part2 as part2_frames,
    sentence as frames,
    slices as slice_frames,
)
from bleu_app.frames.metrics import Shown
from bleu_app.lessons import cards as card_lessons, lab as lab_lessons, opening as opening_lessons, quiz, spot
from bleu_app.store import SqlStore
from bleu_app.ui.deck import Deck
from bleu_app.views.classroom import ClassBoard, class_board as class_board_view
from bleu_app.views.pair_buckets import PairBucketsView, pair_buckets_view
from bleu_core.config import BleuConfig
from bleu_core.data.corpus import Corpus, System
from bleu_core.data.diagnostics import Diagnostics
from bleu_core.data.slices import Slice
from bleu_core.engine import Encoded, ReferenceSet, corpus_chars as engine_chars
from bleu_core.metrics import Bleu, PreparedReferences
from bleu_core.metrics.imported import Imported
from bleu_core.significance import bootstrap_cis
from bleu_core.significance.resample import resample_sums_each
from bleu_core.teaching.blocktest import RankedBlockTest, ranked_block_test
from bleu_core.teaching.every import EveryBleu, every_bleu
from bleu_core.teaching.explain import SegmentExplanation, explain_segment
from bleu_core.teaching.paper import EXAMPLE_1
from bleu_core.teaching.variants import VARIANTS, VariantResult, run_variant

# --- the same for every session: one sentence, the paper's examples -------------------------------------------


@st.cache_data(max_entries=256, show_spinner=False)  # global: the paper's examples are the same for everyone
def explain(hyp: str, refs: tuple[str, ...], config: BleuConfig) -> SegmentExplanation:
    """``explain_segment`` for one candidate, cached per (candidate, references, settings)."""
    return explain_segment(hyp, list(refs), config)


def vega_spec(chart: Any) -> dict[str, Any]:
    """An Altair chart as the Vega-Lite spec ``st.altair_chart`` would send (datasets as Arrow bytes, Altair's
    default theme off). Build it once and cache it: Altair's ``to_dict`` (schema validation, data merging) is
    the costly part of drawing a small chart; ``vega`` then only serializes the dict."""
    from streamlit.elements.vega_charts import _convert_altair_to_vega_lite_spec  # what st.altair_chart calls

    return _convert_altair_to_vega_lite_spec(chart)


# max_entries: 6 examples x a few settings in use at once; a teacher's class shares one or two settings.
_N = 256


@st.cache_resource(max_entries=_N, show_spinner=False)
def example(key: str, config: BleuConfig) -> SegmentExplanation:
    """A paper example (``samples.SENTENCE_SAMPLES`` key) explained under ``config``; raises ``InputError``
    (uncached) when the settings cannot score it."""
    s = samples.SENTENCE_SAMPLES[key]
    return explain_segment(s.hyp, list(s.refs), config)


def _short(label: str) -> str:
    return label.split(" (", maxsplit=1)[0]


def _paper_corpus_explained(config: BleuConfig) -> tuple[tuple[str, SegmentExplanation], ...]:
    """Each candidate of the paper's six-sentence corpus (``samples.PAPER_CORPUS``) with its explanation."""
    return tuple((_short(s.label), explain_segment(s.hyp, list(s.refs), config)) for s in samples.PAPER_CORPUS)


def _arrow(df: pd.DataFrame) -> pa.Table:
    """A frame for ``st.table``/``st.dataframe`` as Arrow (index kept): Streamlit then only writes its bytes
    instead of converting pandas on every run."""
    return pa.Table.from_pandas(df)


@st.cache_resource(max_entries=_N, show_spinner=False)
def clip_table(key: str, config: BleuConfig, n: int) -> pa.Table:
    """The clipping table of order ``n``, indexed by n-gram as ``tables.clip_table`` shows it (read-only)."""
    df = frames.clip_frame(example(key, config), n)
    return _arrow(df.set_index(df.columns[0]))


@st.cache_resource(max_entries=_N, show_spinner=False)
def decay_spec(key: str, config: BleuConfig, together: tuple[str, ...] = ()) -> dict[str, Any]:
    """The p_n decay chart of an example as a Vega-Lite spec (read-only); with ``together`` (the examples shown
    beside it) every one of them gets the same y axis, from the power of ten below their smallest p_n > 0."""
    low = None
    if together:
        ps = [p for k in together for p in frames.precision_frame(example(k, config))[frames.P_SCORE] if p > 0]
        low = 10 ** math.floor(math.log10(min(ps))) if ps else None
    return vega_spec(charts.decay_chart(frames.precision_frame(example(key, config)), low=low))


@st.cache_resource(max_entries=_N, show_spinner=False)
def log_terms(key: str, config: BleuConfig) -> tuple[dict[str, Any], pa.Table]:
    """The log-domain chart (spec) and its table of terms (label -> value, 4 decimals) (read-only)."""
    logs = frames.log_terms_frame(example(key, config))
    return vega_spec(charts.log_terms_chart(logs)), _arrow(logs.set_index(frames.LABEL)[[frames.VALUE]].round(4))


@st.cache_resource(max_entries=_N, show_spinner=False)
def corpus_log_terms(config: BleuConfig) -> pa.Table:
    """The six-sentence corpus's log-domain terms (label -> value, 4 decimals) (read-only)."""
    logs = frames.corpus_log_terms_frame([e for _, e in _paper_corpus_explained(config)], config)
    return _arrow(logs.set_index(frames.LABEL)[[frames.VALUE]].round(4))


@st.cache_resource(max_entries=_N, show_spinner=False)
def corpus_vs_mean(config: BleuConfig) -> tuple[float, float]:
    """The six-sentence corpus's BLEU and the mean of its six sentence scores (0-100), under ``config``."""
    explained = [e for _, e in _paper_corpus_explained(config)]
    logs = frames.corpus_log_terms_frame(explained, config)
    total = logs.set_index(frames.LABEL).loc["log BLEU", frames.VALUE]
    corpus = 100 * math.exp(total) if math.isfinite(total) else 0.0
    return corpus, sum(e.score.score for e in explained) / len(explained)


@st.cache_resource(max_entries=_N, show_spinner=False)
def bp_spec(c: int, r: int) -> dict[str, Any]:
    """The brevity-penalty curve for a best match length ``r`` with a candidate of ``c`` tokens marked (read-only
    spec): keyed on the lengths, so Example 3 and every candidate typed in its place with the same lengths share it."""
    return vega_spec(charts.bp_curve_chart(frames.bp_curve_frame(r, c_max=c), frames.bp_marks_frame(c, r)))


@st.cache_resource(max_entries=16, show_spinner=False)
def best_match_table(ref_lens: tuple[int, ...], candidate_lens: tuple[int, ...]) -> pa.Table:
    """The best-match-length table (c -> r, BP, BP with the shortest reference), 4 decimals (read-only)."""
    return _arrow(frames.best_match_frame(ref_lens, candidate_lens).set_index(frames.C).round(4))


@st.cache_resource(max_entries=_N, show_spinner=False)
def pooling_table(config: BleuConfig) -> pa.Table:
    """The six-sentence corpus: each candidate's counts and the pooled sums, indexed by sentence (read-only)."""
    return _arrow(frames.pooling_frame(_paper_corpus_explained(config)).set_index(frames.SENTENCE))


@st.cache_resource(max_entries=_N, show_spinner=False)
def zero_orders_table(keys: tuple[str, ...], config: BleuConfig) -> pa.Table:
    """Why Examples 3 and 4 score 0: each example under the what-if settings, 2 decimals (read-only)."""
    configs = frames.what_if_configs(config)
    cells = {
        _short(samples.SENTENCE_SAMPLES[k].label): {
            name: explain_segment(samples.SENTENCE_SAMPLES[k].hyp, list(samples.SENTENCE_SAMPLES[k].refs), c)
            for name, c in configs.items()
        }
        for k in keys
    }
    return _arrow(frames.zero_orders_frame(cells).round(2))


@st.cache_resource(max_entries=_N, show_spinner=False)
def nltk_table(which: str, config: BleuConfig) -> pa.Table:
    """NLTK's smoothing methods 0-4 on the lab's corpus, 2 decimals (read-only)."""
    hyps, refs = _lab_streams(which)
    methods = tuple(
        run_variant("nltk", list(hyps), [list(r) for r in refs], config, nltk_smoothing=m) for m in range(5)
    )
    return _arrow(frames.nltk_methods_frame(methods).round(2))


def _lab_streams(which: str) -> tuple[tuple[str, ...], tuple[tuple[str | None, ...], ...]]:
    corpus = lab_lessons.CORPORA[which]
    return corpus.hyps, corpus.refs


@st.cache_resource(max_entries=_N, show_spinner=False)
def lab(which: str, config: BleuConfig, nltk_smoothing: int) -> tuple[tuple[VariantResult, ...], pa.Table]:
    """The misimplementation lab on one of its corpora (``lessons.lab.CORPORA``: ``paper`` is all six candidates as
    one corpus): every variant's result in ``VARIANTS`` order and their table, 2 decimals (read-only)."""
    hyps, refs = _lab_streams(which)
    results = tuple(
        run_variant(k, list(hyps), [list(r) for r in refs], config, nltk_smoothing=nltk_smoothing) for k in VARIANTS
    )
    return results, _arrow(frames.variants_shown(results))


# --- the Learn page's other screens (fixed content: computed once per process) ---------------------------------


@st.cache_resource(show_spinner=False)
def opening() -> tuple[
    tuple[opening_lessons.Shared, ...], tuple[tuple[opening_lessons.Run, ...], ...], tuple[dict[str, str], ...]
]:
    """The opening's reveal: the paper's list of shared phrases, each candidate's runs and its counts."""
    expls = [opening_lessons.explained(i) for i in range(len(EXAMPLE_1.candidates))]
    return (
        opening_lessons.paper_list(),
        tuple(opening_lessons.shared_runs(e) for e in expls),
        tuple(opening_lessons.summary(e) for e in expls),
    )


@st.cache_resource(max_entries=64, show_spinner=False)
def part2_references(config: BleuConfig) -> tuple[pa.Table, pa.Table]:
    """Part II's more-references tables: Example 1's Candidate 1 and the built-in demo corpus (read-only)."""
    demo = part2_frames.demo_references_frame(samples.demo_corpus(), config)
    return pa.Table.from_pandas(part2_frames.references_frame(config)), pa.Table.from_pandas(demo)


@st.cache_resource(max_entries=64, show_spinner=False)
def blind_spots(config: BleuConfig) -> pa.Table:
    """Part II's table of what BLEU does not see (read-only)."""
    return pa.Table.from_pandas(part2_frames.blind_spots_frame(config))


@st.cache_resource(show_spinner=False)
def cards() -> tuple[card_lessons.Card, ...]:
    """The misconception cards, their numbers computed under the paper's preset."""
    return card_lessons.cards()


@st.cache_resource(show_spinner=False)
def spot_live(key: str) -> list[str]:
    """An excerpt's live numbers in Spot the errors (fixed settings and sentences)."""
    return spot.live(key)


@st.cache_resource(show_spinner=False)
def questions() -> dict[str, quiz.Question]:
    """The exercise's questions, every number computed."""
    return quiz.questions()


@st.cache_resource(show_spinner=False)
def handout_html() -> str:
    """The printable handout of the paper's worked numbers."""
    return handout.handout_html()


@st.cache_resource(max_entries=256, ttl=24 * 3600, show_spinner=False)
def deck(deck_id: str) -> Deck:
    """The presenter's deck ``deck_id`` (mutable, shared by its two windows; one unread for a day is dropped)."""
    return Deck()


@st.cache_data(max_entries=32, show_spinner=False)
def qr_png(url: str) -> bytes:
    """A class room's join link as a QR code (PNG, drawn here by segno: nothing is fetched)."""
    buf = io.BytesIO()
    segno.make(url, error="m").save(buf, kind="png", scale=8, border=2)
    return buf.getvalue()


# --- the class dashboard: per room, for every session that shows it (the teacher's, a projector's) --------------
SCORES_MOST = 10_000  # texts a room's score memo keeps (a room takes at most a few hundred students' re-sends)


@st.cache_resource(max_entries=32, show_spinner=False)
def class_scores(room_id: str, refs: tuple[str, ...], config: BleuConfig) -> dict[str, float]:
    """A room's sentence BLEU per translation text, filled as translations arrive and kept across the room's
    versions: a new translation is scored once, not the whole room again (1 ms each: 1.5 s for 1,500)."""
    return {}


@st.cache_resource(max_entries=32, show_spinner=False)
def class_board(_store: SqlStore, room_id: str, version: int) -> ClassBoard | None:
    """The dashboard of a room at ``version`` (``store.room_version``: it moves on every write to the room), None
    when the room is gone; a redraw that finds the same version sends what was built. A store error is raised
    (never cached): the caller shows it and the next redraw tries again."""
    state = _store.room_state(room_id)
    if state is None:
        return None
    room = state.room
    config = class_frames.config_from_dict(room.config)
    memo = class_scores(room_id, room.refs, config)
    if len(memo) > SCORES_MOST:
        memo.clear()

    def scorer(text: str) -> float:
        if text not in memo:
            memo[text] = class_frames.score(text, room.refs, config)
        return memo[text]

    return class_board_view(state, scorer=scorer, spec=vega_spec)


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


def pool_size(method: str, trials: int, seed: int) -> int:
    """How many resamples the compare page draws once (seed 12345) for its intervals (the first 1,000) and,
    when it runs the bootstrap with that seed, for its matrix (the first ``trials``): the first k rows of a
    pool are k resamples, so both read one pool, and smoothing changes reuse it."""
    return max(CI_DRAWS, trials) if method == "bs" and seed == DEFAULT_SEED else CI_DRAWS


# The two per-segment tables are cache_resource, read-only (``tables.table_page`` filters into new frames):
# st.cache_data would keep a pickled copy of every text and unpickle another on every rerun (issue 13: at
# 50,000 segments, 37 MB kept and 0.05 s per rerun for the sentence table alone).
@st.cache_resource(max_entries=8, scope="session", show_spinner=False, hash_funcs=_WHOLE)
def sentences(corpus: Corpus, name: str, config: BleuConfig) -> pd.DataFrame:
    """The per-sentence table of one system (with the source, when the corpus has one); read-only."""
    src = corpus.source.lines if corpus.source is not None else None
    system = corpus.system(name)
    matrix, docs = stats_matrix(system, corpus, config), corpus.documents
    return corpus_frames.sentence_table(matrix, config, system.lines, corpus.ref_streams, src, docs)


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
    mats, src = matrices(corpus, config), corpus.source.lines if corpus.source is not None else None  # counted once
    lines, refs, docs = (corpus.system(a).lines, corpus.system(b).lines), corpus.ref_streams, corpus.documents
    return corpus_frames.pair_sentences(mats[a], mats[b], config, *lines, refs, src, docs)


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


@st.cache_data(max_entries=8, scope="session", show_spinner=False, hash_funcs=_WHOLE)
def corpus_chars(corpus: Corpus) -> int:
    """The characters of every system's lines and the references' (what the degenerate-line checks read)."""
    return engine_chars(*(s.lines for s in corpus.systems), *corpus.ref_streams)


@st.cache_resource(max_entries=4, scope="session", show_spinner="Looking for degenerate lines ...", hash_funcs=_WHOLE)
def diagnostics(corpus: Corpus, tokenize: str) -> Diagnostics:
    """Every system's flags (``bleu_core.data.diagnostics``) under a tokenizer; read-only."""
    return slice_frames.corpus_diagnostics(corpus, tokenize)


def _with_scores_key(corpus: Corpus) -> tuple[str, tuple[str, ...]]:
    return corpus.digest, tuple(s.metric.digest for s in corpus.scores)


@st.cache_resource(max_entries=8, scope="session", show_spinner=False, hash_funcs={Corpus: _with_scores_key})
def sliced(corpus: Corpus, where: str, tokenize: str) -> tuple[Corpus, Slice]:
    """The corpus cut to the lines ``where`` chooses, and the slice; an ``InputError`` (a bad expression) is
    not cached and reaches the caller."""
    chosen = slice_frames.choose(corpus, where, tokenize, lambda: diagnostics(corpus, tokenize))
    return slice_frames.cut(corpus, chosen), chosen


# --- every chosen metric (bleu_app.frames.metrics): BLEU through the caches above, the others here -------------
# Statistics depend on the texts and the metric's options (BLEU's: its tokenization; imported scores: their digest,
# which a slice changes); scores, tables and tests on the whole metric.


def _stats_key(shown: Shown) -> tuple[str, ...]:
    return shown.stats_key


def _score_key(shown: Shown) -> tuple[str, str]:
    return shown.score_key


def _names_key(corpus: Corpus) -> tuple[str, tuple[tuple[str, str], ...]]:
    return corpus.refs_digest, tuple((s.name, s.digest) for s in corpus.systems)


_REFS: HashFuncs = {Corpus: _refs_digest, Shown: _stats_key}


@st.cache_resource(max_entries=4, scope="session", show_spinner=False, hash_funcs=_REFS)
def _prepared(corpus: Corpus, shown: Shown) -> PreparedReferences:
    """A metric's references made ready once per (references, metric options); read-only."""
    return shown.metric.prepare(corpus.ref_streams)


@st.cache_resource(
    max_entries=8, scope="session", show_spinner=False, hash_funcs={Corpus: _texts_key, Shown: _stats_key}
)
def _metric_matrices(corpus: Corpus, shown: Shown) -> tuple[np.ndarray, ...]:
    """Every system's statistics under a metric other than BLEU, in corpus order (all systems in one call where the
    metric counts them together: chrF's kernel on every core); read-only arrays."""
    refs = _prepared(corpus, shown)
    many = getattr(refs, "stats_many", None)
    texts = [list(s.lines) for s in corpus.systems]
    out = tuple(many(texts) if many is not None else [refs.stats(t) for t in texts])
    for m in out:
        m.flags.writeable = False
    return out


def metric_matrices(corpus: Corpus, shown: Shown) -> dict[str, np.ndarray]:
    """Every system's statistics matrix under a chosen metric, by name (read-only)."""
    m = shown.metric
    if isinstance(m, Bleu):
        return matrices(corpus, m.config)
    if isinstance(m, Imported):
        scores = metric_frames.imported_scores(corpus, m)
        return {name: scores.matrix(name) for name in corpus.names}
    return dict(zip(corpus.names, _metric_matrices(corpus, shown), strict=True))


@st.cache_data(max_entries=64, scope="session", show_spinner=False, hash_funcs={System: _system_digest, **_REFS})
def _system_matrix(system: System, corpus: Corpus, shown: Shown) -> np.ndarray:
    return _prepared(corpus, shown).stats(list(system.lines))


def metric_matrix(corpus: Corpus, name: str, shown: Shown) -> np.ndarray:
    """One system's statistics under a chosen metric (the corpus page's: the other systems are not counted)."""
    m = shown.metric
    if isinstance(m, Bleu):
        return stats_matrix(corpus.system(name), corpus, m.config)
    if isinstance(m, Imported):
        return metric_frames.imported_scores(corpus, m).matrix(name)
    return _system_matrix(corpus.system(name), corpus, shown)


@st.cache_resource(max_entries=8, scope="session", show_spinner=False, hash_funcs={Corpus: _texts_key})
def _pools(corpus: Corpus, n_samples: int, seed: int) -> dict[tuple[str, ...], np.ndarray]:
    """The bootstrap sums drawn so far for these texts, by a metric's statistics key (filled by :func:`pools`)."""
    return {}


def pools(corpus: Corpus, shown: Sequence[Shown], n_samples: int, seed: int) -> list[np.ndarray]:
    """Bootstrap column sums of every system under each metric (``resample_sums``), the ones not drawn yet from
    one set of draws (``resample_sums_each``: the draws are most of a pool's cost), kept per metric's statistics
    (BLEU: a smoothing change draws nothing); read-only."""
    known = _pools(corpus, n_samples, seed)
    missing = {_stats_key(s): s for s in shown if _stats_key(s) not in known}
    if missing:
        groups = [list(metric_matrices(corpus, s).values()) for s in missing.values()]
        for key, sums in zip(missing, resample_sums_each(groups, n_samples, seed), strict=True):
            sums.flags.writeable = False
            known[key] = sums
    return [known[_stats_key(s)] for s in shown]


def resampled(corpus: Corpus, shown: Shown, n_samples: int, seed: int) -> np.ndarray:
    """One metric's :func:`pools`."""
    return pools(corpus, [shown], n_samples, seed)[0]


@st.cache_data(
    max_entries=32, scope="session", show_spinner=False, hash_funcs={Corpus: _corpus_digest, Shown: _score_key}
)
def systems_frame(corpus: Corpus, shown: Shown, baseline: str = "", pool: int = CI_DRAWS) -> pd.DataFrame:
    """A metric's score (the column is its name) with bootstrap CIs per system (under BLEU also its precisions and
    lengths; human scores where loaded); the intervals read the first 1,000 rows of a pool of ``pool`` resamples
    (:func:`pool_size`: the one the page's matrix reads too)."""
    return corpus_frames.system_table(
        metric_matrices(corpus, shown),
        shown.metric,
        nrefs=nrefs(corpus),
        baseline=baseline,
        human=corpus.human_scores() or None,
        resampled=resampled(corpus, shown, pool, DEFAULT_SEED) if corpus.n_segments else None,
    )


@st.cache_data(
    max_entries=16, scope="session", show_spinner=False, hash_funcs={Corpus: _corpus_digest, Shown: _score_key}
)
def significance_frame(corpus: Corpus, shown: Shown, method: str, trials: int, seed: int) -> pd.DataFrame:
    """The N x N significance matrix of a metric (long format), Holm-corrected."""
    mats = metric_matrices(corpus, shown)
    pool = None
    if method == "bs" and corpus.n_segments:
        # the page's shared pool with the default seed (pool_size), the test's own draws with any other
        pool = resampled(corpus, shown, pool_size(method, trials, seed) if seed == DEFAULT_SEED else trials, seed)
    p, ph, delta = corpus_frames.pairwise(
        list(mats.values()), shown.metric, method=method, trials=trials, seed=seed, resampled=pool
    )
    return corpus_frames.significance_frame(list(mats), p, ph, delta)


@st.cache_resource(max_entries=8, scope="session", show_spinner=False, hash_funcs={Corpus: _names_key})
def _system_pools(corpus: Corpus, name: str) -> dict[tuple[str, ...], np.ndarray]:
    """One system's bootstrap sums drawn so far (sacreBLEU's 1,000, seed 12345), by a metric's statistics key."""
    return {}


def metric_interval(corpus: Corpus, name: str, shown: Shown, *, every: Sequence[Shown] = ()) -> tuple[float, ...]:
    """One system's score and 95% bootstrap interval (sacreBLEU's 1,000 resamples, seed 12345) under a chosen
    metric: (score, low, high). The resamples of ``every`` metric the page shows are drawn with it, once; a
    smoothing change only scores them again."""
    known = _system_pools(corpus, name)
    missing = {s.stats_key: s for s in (shown, *every) if s.stats_key not in known}
    if missing:
        mats = [[metric_matrix(corpus, name, s)] for s in missing.values()]
        known.update(zip(missing, resample_sums_each(mats, CI_DRAWS, DEFAULT_SEED), strict=True))
    matrix = metric_matrix(corpus, name, shown)
    score = float(shown.metric.score_many(matrix.sum(axis=0)[None, :])[0])
    ((_, _, low, high),) = bootstrap_cis([matrix], shown.metric, resampled=known[shown.stats_key])
    return score, low, high


@st.cache_data(max_entries=256, show_spinner=False, hash_funcs={Shown: _score_key})
def sentence_score(hyp: str, refs: tuple[str, ...], shown: Shown) -> float:
    """One sentence's score under a chosen metric other than imported scores, as sacreBLEU's ``sentence_chrf`` and
    ``sentence_ter`` compute it: the corpus score of a one-segment corpus (global: a class scores the same few)."""
    matrix = shown.metric.prepare([[r] for r in refs]).stats([hyp])
    return float(shown.metric.score_many(matrix.sum(axis=0)[None, :])[0])


@st.cache_resource(
    max_entries=8, scope="session", show_spinner=False, hash_funcs={Corpus: _corpus_digest, Shown: _score_key}
)
def sentences_with(corpus: Corpus, name: str, config: BleuConfig, shown: tuple[Shown, ...]) -> pd.DataFrame:
    """:func:`sentences` with a column per chosen metric other than BLEU: each segment's score under it
    (``metric_frames.segment_column``: sentence chrF and TER as sacreBLEU's sentence scores, imported scores as
    given); read-only."""
    base = sentences(corpus, name, config)
    if not shown:
        return base
    columns = {
        metric_frames.segment_column(s.metric): metric_frames.segment_scores(s.metric, metric_matrix(corpus, name, s))
        for s in shown
    }
    return base.assign(**columns)
