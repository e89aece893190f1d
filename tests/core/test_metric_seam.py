"""The metric seam holds: a metric written here, in this file alone (unigram F1, statistics
``[matches, hyp_len, ref_len]`` per segment), is registered and gets a corpus score, sacreBLEU's paired bootstrap
and approximate randomization, the Holm-corrected matrix, clusters and a slice from the core's own code, none of it
changed for it. Each number is checked against the same draws computed here with numpy, or an identity."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

import numpy as np
import pytest

from bleu_core.data.corpus import Corpus, System, TextFile
from bleu_core.data.slices import slice_corpus
from bleu_core.errors import InputError
from bleu_core.metrics import METRICS, Metric, PreparedReferences, get_metric, register
from bleu_core.significance import (
    bootstrap_ci,
    compare,
    compare_systems,
    holm,
    paired_ar,
    paired_bootstrap,
    pairwise_matrix,
)
from bleu_core.significance.estimates import matrix_score
from bleu_core.significance.ranking import rank_pairwise
from bleu_core.significance.trials import check_resampling_fits

NAME = "unigram-f1"


# --- the toy metric: nothing below is known to the core ------------------------------------------------------
def f1(sums: np.ndarray) -> np.ndarray:
    """100 x 2m / (h + r) per row of summed [matches, hyp_len, ref_len] (0 when both lengths are 0)."""
    m, h, r = (np.asarray(sums, dtype=np.float64)[..., k] for k in range(3))
    return np.where(h + r > 0, 200.0 * m / np.where(h + r > 0, h + r, 1.0), 0.0)


@dataclass(frozen=True)
class UnigramReferences:
    references: tuple[tuple[str, ...], ...]  # references[k][i]

    @property
    def nrefs(self) -> int:
        return len(self.references)

    @property
    def n_segments(self) -> int:
        return len(self.references[0])

    def stats(self, hypotheses: Sequence[str]) -> np.ndarray:
        rows = []
        for i, hyp in enumerate(hypotheses):
            words = Counter(hyp.split())
            refs = [Counter(stream[i].split()) for stream in self.references]
            matches = sum(min(c, max(r[w] for r in refs)) for w, c in words.items())  # clipped, as BLEU's unigrams
            rows.append((matches, sum(words.values()), sum(refs[0].values())))  # length: the first reference's
        return np.array(rows, dtype=np.int64).reshape(len(rows), 3)


@dataclass(frozen=True)
class UnigramF1:
    higher: bool = True

    @property
    def name(self) -> str:
        return "UF1"

    @property
    def sacrebleu_name(self) -> str:
        return ""

    @property
    def higher_is_better(self) -> bool:
        return self.higher

    @property
    def width(self) -> int:
        return 3

    def prepare(self, references: Sequence[Sequence[str]]) -> UnigramReferences:
        return UnigramReferences(tuple(tuple(s) for s in references))

    def score_many(self, sums: np.ndarray) -> np.ndarray:
        return f1(sums) if self.higher else 100.0 - f1(sums)

    def signature(self, nrefs: int | str, **test: object) -> str:
        return "|".join([f"nrefs:{nrefs}", *(f"{k}:{v}" for k, v in test.items()), "metric:uf1"])

    def sacrebleu_signature(
        self, nrefs: int | str, *, test: str | None = None, trials: int | None = None, seed: int | None = None
    ) -> str | None:
        return None


@pytest.fixture
def registered() -> Iterator[None]:
    register(NAME, UnigramF1)
    yield
    del METRICS[NAME]


# --- a corpus: a baseline, a clearly better system, one close to the baseline ---------------------------------
def _corpus(n: int = 160) -> Corpus:
    rnd = random.Random(31)
    vocab = [f"w{k}" for k in range(40)]
    refs = [" ".join(rnd.choices(vocab, k=rnd.randint(3, 12))) for _ in range(n)]

    def noisy(line: str, keep: float) -> str:
        return " ".join(w if rnd.random() < keep else rnd.choice(vocab) for w in line.split())

    systems = {"base": [noisy(r, 0.55) for r in refs], "good": [noisy(r, 0.85) for r in refs]}
    systems["near"] = [noisy(r, 0.56) for r in refs]
    return Corpus("toy", (TextFile("ref", tuple(refs)),), tuple(System(k, tuple(v)) for k, v in systems.items()))


@pytest.fixture(scope="module")
def corpus() -> Corpus:
    return _corpus()


def _mats(metric: Metric, corpus: Corpus) -> list[np.ndarray]:
    refs = metric.prepare(corpus.ref_streams)
    assert isinstance(refs, PreparedReferences)
    return [refs.stats(list(s.lines)) for s in corpus.systems]


def _resampled_f1(mats: list[np.ndarray], n_samples: int, seed: int) -> np.ndarray:
    """sacreBLEU's draws by hand: rng.choice(n, size=(samples, n)), each resample's sums, their F1."""
    n = len(mats[0])
    idx = np.random.default_rng(seed).choice(n, size=(n_samples, n))
    return np.stack([f1(m[idx].sum(axis=1)) for m in mats], axis=1)


def _p(stats: np.ndarray, real: float) -> float:
    return (int(np.sum(stats > real)) + 1) / (len(stats) + 1)


# --- the tests ---------------------------------------------------------------------------------------------------
def test_the_toy_metric_is_registered_by_name_and_is_a_metric(registered: None) -> None:
    metric = get_metric(NAME)
    assert isinstance(metric, Metric)
    assert (metric.width, metric.name) == (3, "UF1")
    with pytest.raises(InputError, match="registered already"):
        register(NAME, UnigramF1)


def test_corpus_score_is_f1_of_the_summed_statistics(registered: None, corpus: Corpus) -> None:
    metric = get_metric(NAME)
    mats = _mats(metric, corpus)
    base = corpus.systems[0].lines
    matches = hyp_len = ref_len = 0
    for hyp, ref in zip(base, corpus.references[0].lines, strict=True):
        h, r = Counter(hyp.split()), Counter(ref.split())
        matches += sum(min(c, r[w]) for w, c in h.items())
        hyp_len, ref_len = hyp_len + sum(h.values()), ref_len + sum(r.values())
    assert matrix_score(mats[0], metric) == 200.0 * matches / (hyp_len + ref_len)


def test_paired_bootstrap_is_numpys_draws_by_hand(registered: None, corpus: Corpus) -> None:
    metric = get_metric(NAME)
    mats = _mats(metric, corpus)
    n_samples, seed = 300, 7
    ours = paired_bootstrap(mats[0], mats[1:], metric, n_samples=n_samples, seed=seed)
    scores = _resampled_f1(mats, n_samples, seed)
    real = [float(f1(m.sum(axis=0))) for m in mats]
    for j, r in enumerate(ours, start=1):
        diffs = np.abs(scores[:, j] - scores[:, 0])
        assert r.p_value == _p(diffs - diffs.mean(), abs(real[0] - real[j]))
        ordered = np.sort(scores[:, j])
        lower = n_samples // 40  # sacreBLEU's 2.5% and 97.5% resamples
        assert (r.low, r.high, r.mean) == (ordered[lower], ordered[n_samples - lower - 1], ordered.mean())
        assert r.signature == f"nrefs:1|bs:{n_samples}|rs:{seed}|metric:uf1"
    assert ours[0].p_value < 0.01 < ours[1].p_value  # "good" is far ahead, "near" is not
    base = np.sort(scores[:, 0])
    lower = n_samples // 40
    assert bootstrap_ci(mats[0], metric, n_samples=n_samples, seed=seed)[2:] == (base[lower], base[-lower - 1])


def test_paired_ar_is_numpys_shuffles_by_hand(registered: None, corpus: Corpus) -> None:
    metric = get_metric(NAME)
    mats = _mats(metric, corpus)
    n_trials, seed = 400, 3
    ours = paired_ar(mats[0], mats[1:], metric, n_trials=n_trials, seed=seed, n_confidence=0)
    pos = np.random.default_rng(seed).integers(2, size=(n_trials, len(mats[0])), dtype=bool)[:, :, None]
    for j, r in enumerate(ours, start=1):
        first = np.where(pos, mats[0], mats[j]).sum(axis=1)  # each trial swaps the two outputs where pos is set
        second = np.where(pos, mats[j], mats[0]).sum(axis=1)
        real = abs(float(f1(mats[0].sum(axis=0))) - float(f1(mats[j].sum(axis=0))))
        assert r.p_value == _p(np.abs(f1(first) - f1(second)), real)


def test_a_system_against_itself_is_sacrebleus_floor_and_a_tie(registered: None, corpus: Corpus) -> None:
    metric = get_metric(NAME)
    base = _mats(metric, corpus)[0]
    assert paired_bootstrap(base, [base], metric, n_samples=99)[0].p_value == 1 / 100
    assert paired_ar(base, [base], metric, n_trials=99, n_confidence=0)[0].p_value == 1 / 100
    r = pairwise_matrix([base, base], ["a", "b"], metric, trials=99, tie_p=1.0)
    assert (r.p_values[0][1], r.adjusted[0][1], r.differences[0][1]) == (1.0, 1.0, 0.0)


def test_holm_matrix_and_clusters(registered: None, corpus: Corpus) -> None:
    metric = get_metric(NAME)
    mats = _mats(metric, corpus)
    names = list(corpus.names)
    r = pairwise_matrix(mats, names, metric, trials=300, seed=11)
    for i in range(3):
        for j in range(i + 1, 3):
            alone = paired_bootstrap(mats[i], [mats[j]], metric, n_samples=300, seed=11)[0]
            assert r.p_values[i][j] == r.p_values[j][i] == alone.p_value
    upper = [(0, 1), (0, 2), (1, 2)]
    assert [r.adjusted[i][j] for i, j in upper] == list(holm([r.p_values[i][j] for i, j in upper]))
    ranking = rank_pairwise(r)
    assert ranking.systems[0].name == "good"
    assert [len(c) for c in ranking.clusters] == [1, 2]  # good alone above; base and near together
    # the same scores read as an error rate: the best is the lowest, and the ranks turn
    err = pairwise_matrix(mats, names, UnigramF1(higher=False), trials=300, seed=11)
    assert [s.name for s in rank_pairwise(err).systems] == [s.name for s in ranking.systems]
    assert err.higher_is_better is False


def test_one_resampling_pass_gives_both_views(registered: None, corpus: Corpus) -> None:
    metric = get_metric(NAME)
    mats = _mats(metric, corpus)
    names = list(corpus.names)
    for method in ("bs", "ar"):
        both = compare_systems(mats, names, metric, method=method, trials=200, seed=5, n_confidence=100)
        assert both.against_baseline == compare(
            mats[0], mats[1:], metric, method=method, trials=200, seed=5, n_confidence=100
        )
        assert repr(both.pairwise) == repr(pairwise_matrix(mats, names, metric, method=method, trials=200, seed=5))


def test_a_slice_is_scored_through_the_same_code(registered: None, corpus: Corpus) -> None:
    metric = get_metric(NAME)
    sliced = slice_corpus(corpus, "line 1..40 or ref_len > 10", "none")
    chosen = list(sliced.chosen.lines)
    assert 40 < len(chosen) < corpus.n_segments
    whole = _mats(metric, corpus)
    part = _mats(metric, sliced.corpus)
    for w, p in zip(whole, part, strict=True):
        np.testing.assert_array_equal(p, w[chosen])  # the statistics are per segment: slicing is selecting rows
        assert matrix_score(p, metric) == float(f1(w[chosen].sum(axis=0)))
    check_resampling_fits("bs", 1000, len(chosen), "--paired-bs", columns=len(part) * metric.width)
