"""chrF and chrF++ against sacreBLEU 2.6.0, which is the oracle throughout.

* sacreBLEU's own test vectors (its repository's ``test/test_chrf.py`` at v2.6.0, cases and expected values ported
  as they are), held to its tolerance and, beyond it, equal to what sacreBLEU computes;
* the real data: every system of WMT21 en-de (3 references) and WMT22 zh-en (2), corpus and sentence level,
  statistics identical to ``CHRF._extract_corpus_statistics`` on both engines; every option on one system per
  set; real Chinese text (WMT22's source side);
* the vectorised scores: :meth:`Chrf.score_many` against ``_compute_score_from_stats`` on integer rows, and
  ``score_many(sums, float32=True)`` against what ``--paired-bs`` computes from float32 resamples, bit for bit,
  down to the paired p-value;
* the signatures: ``get_signature()`` and ``PairedTest``'s, for every option;
* bad options and inputs: one line naming them.
"""

from __future__ import annotations

import itertools
import logging
from functools import lru_cache
from pathlib import Path

import numpy as np
import pytest
import sacrebleu
from sacrebleu.metrics import CHRF
from sacrebleu.significance import PairedTest, _compute_p_value

from bleu_core import InputError, corpus_chrf, sentence_chrf, sentence_scores
from bleu_core.metrics.base import Metric, PreparedReferences
from bleu_core.metrics.chrf import Chrf
from tests.conftest import RealSet

logging.getLogger("sacrebleu").setLevel(logging.ERROR)

ENGINES = ("kernel", "explain")

# --- sacreBLEU's test/test_chrf.py (v2.6.0), as it is ----------------------------------------------------------

EPSILON = 1e-4

test_sentence_level_chrf = [
    (
        "Co nás nejvíc trápí, protože lékaři si vybírají, kdo bude žít a kdo zemře.",
        ["Nejvíce smutní jsme z toho, že musíme rozhodovat o tom, kdo bude žít a kdo zemře."],
        39.14078509,
    ),
    (
        "Nebo prostě nemají vybavení, které by jim pomohlo, uvedli lékaři.",
        ["A někdy nemáme ani potřebný materiál, abychom jim pomohli, popsali lékaři."],
        31.22557079,
    ),
    (
        "Lapali po dechu, jejich životy skončily dřív, než skutečně začaly.",
        ["Lapali po dechu a pak jejich život skončil - dřív, než skutečně mohl začít, připomněli."],
        57.15704367,
    ),
]

# hypothesis, reference, expected score
# >= 2.0.0: some orders are not fulfilled in epsilon smoothing (chrF++.py and NLTK)
test_cases = [
    (["abcdefg"], ["hijklmnop"], 0.0),
    (["a"], ["b"], 0.0),
    ([""], ["b"], 0.0),
    ([""], ["ref"], 0.0),
    ([""], ["reference"], 0.0),
    (["aa"], ["ab"], 8.3333),
    (["a", "b"], ["a", "c"], 8.3333),
    (["a"], ["a"], 16.6667),
    (["a b c"], ["a b c"], 50.0),
    (["a b c"], ["abc"], 50.0),
    (
        [
            " risk assessment must be made of those"
            " who are qualified and expertise in the sector - these are the scientists ."
        ],
        [
            "risk assessment has to be undertaken by those"
            " who are qualified and expert in that area - that is the scientists ."
        ],
        63.361730,
    ),
    (
        [" Die    Beziehung zwischen  Obama und Netanjahu ist nicht gerade  freundlich. "],
        ["Das Verhältnis zwischen Obama und Netanyahu ist nicht gerade freundschaftlich."],
        64.1302698,
    ),
    (["Niemand hat die Absicht, eine Mauer zu errichten"], ["Niemand hat die Absicht, eine Mauer zu errichten"], 100.0),
]

# sacreBLEU < 2.0.0 mode
# hypothesis, reference, expected score
test_cases_effective_order = [
    (["a"], ["a"], 100.0),
    ([""], ["reference"], 0.0),
    (["a b c"], ["a b c"], 100.0),
    (["a b c"], ["abc"], 100.0),
    ([""], ["c"], 0.0),
    (["a", "b"], ["a", "c"], 50.0),
    (["aa"], ["ab"], 25.0),
]

test_cases_keep_whitespace = [
    (
        ["Die Beziehung zwischen Obama und Netanjahu ist nicht gerade freundlich."],
        ["Das Verhältnis zwischen Obama und Netanyahu ist nicht gerade freundschaftlich."],
        67.3481606,
    ),
    (
        [
            "risk assessment must be made of those"
            " who are qualified and expertise in the sector - these are the scientists ."
        ],
        [
            "risk assessment has to be undertaken by those"
            " who are qualified and expert in that area - that is the scientists ."
        ],
        65.2414427,
    ),
]


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize(("hypotheses", "references", "expected_score"), test_cases)
def test_chrf(hypotheses, references, expected_score, engine):
    score = corpus_chrf(
        hypotheses, [references], char_order=6, word_order=0, beta=3, eps_smoothing=True, engine=engine
    ).score
    assert abs(score - expected_score) < EPSILON
    assert score == sacrebleu.corpus_chrf(hypotheses, [references], beta=3, eps_smoothing=True).score


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize(("hypotheses", "references", "expected_score"), test_cases_effective_order)
def test_chrf_eff_order(hypotheses, references, expected_score, engine):
    score = corpus_chrf(
        hypotheses, [references], char_order=6, word_order=0, beta=3, eps_smoothing=False, engine=engine
    ).score
    assert abs(score - expected_score) < EPSILON
    assert score == sacrebleu.corpus_chrf(hypotheses, [references], beta=3, eps_smoothing=False).score


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize(("hypotheses", "references", "expected_score"), test_cases_keep_whitespace)
def test_chrf_keep_whitespace(hypotheses, references, expected_score, engine):
    score = corpus_chrf(
        hypotheses, [references], char_order=6, word_order=0, beta=3, remove_whitespace=False, engine=engine
    ).score
    assert abs(score - expected_score) < EPSILON
    assert score == corpus_chrf(hypotheses, [references], beta=3, whitespace=True, engine=engine).score
    assert score == sacrebleu.corpus_chrf(hypotheses, [references], beta=3, remove_whitespace=False).score


@pytest.mark.parametrize(("hypothesis", "references", "expected_score"), test_sentence_level_chrf)
def test_chrf_sentence_level(hypothesis, references, expected_score):
    score = sentence_chrf(hypothesis, references, eps_smoothing=True).score
    assert abs(score - expected_score) < EPSILON
    assert score == sacrebleu.sentence_chrf(hypothesis, references, eps_smoothing=True).score


# --- the real data ------------------------------------------------------------------------------------------------

OPTIONS = ("char_order", "word_order", "beta", "lowercase", "whitespace", "eps_smoothing")


def every_option() -> list[dict[str, object]]:
    """chrF and chrF++ under every combination of the flags, and other orders and betas."""
    flags = [
        {"word_order": w, "lowercase": lc, "whitespace": ws, "eps_smoothing": eps}
        for w, lc, ws, eps in itertools.product((0, 2), (False, True), (False, True), (False, True))
    ]
    return [
        *flags,
        {"char_order": 1, "word_order": 1, "beta": 1},
        {"char_order": 3, "word_order": 4, "beta": 0, "eps_smoothing": True},
        {"char_order": 9, "word_order": 0, "beta": 3, "lowercase": True},
    ]


# Bounded: sacreBLEU's references (and ours on the Counter engine) are Python dicts of n-grams, hundreds of MB per
# set and setting; an unbounded cache over every option of both sets held 18 GB by the end of the module.
@lru_cache(maxsize=2)
def _sacre_metric(set_name: str, data_dir: Path, options: tuple[tuple[str, object], ...]) -> CHRF:
    """sacreBLEU's metric with its references cached, once per set and setting."""
    return CHRF(**dict(options), references=_real(data_dir)[set_name].refs())


@lru_cache(maxsize=4)
def _ours(set_name: str, data_dir: Path, options: tuple[tuple[str, object], ...], engine: str) -> PreparedReferences:
    return Chrf(**dict(options)).prepare(_real(data_dir)[set_name].refs(), engine=engine)


def _real(data_dir: Path) -> dict[str, RealSet]:
    from tests.conftest import real_sets

    return {s.name: s for s in real_sets(data_dir)}


def check_corpus(data_dir: Path, set_name: str, path: Path, options: dict[str, object]) -> None:
    """One system under one setting: sacreBLEU's statistics once, both engines against them."""
    key = tuple(sorted(options.items()))
    hyps = _real(data_dir)[set_name].system(path)
    sb = _sacre_metric(set_name, data_dir, key)
    want = sb._extract_corpus_statistics(hyps, None)
    for engine in ENGINES:
        prepared = _ours(set_name, data_dir, key, engine)
        got = prepared.stats(hyps)
        where = f"{set_name}/{path.name} {options} {engine}"
        assert got.dtype == np.int64, where
        assert got.tolist() == want, where
        metric = Chrf(**options)
        score = metric.score_matrix(got, prepared.nrefs)
        assert score.score == sb._aggregate_and_compute(want).score, where
        assert score.name == sb._aggregate_and_compute(want).name, where
        assert score.sacrebleu_signature == sb.get_signature().format(), where


def _systems(data_dir: Path, set_name: str) -> list[Path]:
    return list(_real(data_dir)[set_name].sys_paths)


REAL = ("wmt21-news-en-de", "wmt22-general-zh-en")


@pytest.mark.slow  # out of make test-core (the one-minute loop); make test runs it
@pytest.mark.parametrize("options", [{}, {"word_order": 2}], ids=["chrF", "chrF++"])
@pytest.mark.parametrize("set_name", REAL)
def test_first_system_of_each_set(data_dir: Path, set_name: str, options: dict[str, object]) -> None:
    check_corpus(data_dir, set_name, _systems(data_dir, set_name)[0], options)


SYSTEMS = {"wmt21-news-en-de": 20, "wmt22-general-zh-en": 12}


@pytest.mark.slow
@pytest.mark.parametrize("word_order", [0, 2], ids=["chrF", "chrF++"])
@pytest.mark.parametrize(("set_name", "index"), [(s, i) for s, n in SYSTEMS.items() for i in range(n)])
def test_every_system_of_each_set(data_dir: Path, set_name: str, index: int, word_order: int) -> None:
    """Every system on the kernel (the Counter path is held to it on the first and last systems, under every option,
    and under fuzzing), corpus and sentence level."""
    systems = _systems(data_dir, set_name)
    assert len(systems) == SYSTEMS[set_name]
    hyps = _real(data_dir)[set_name].system(systems[index])
    key = (("word_order", word_order),)
    sb = _sacre_metric(set_name, data_dir, key)
    want = sb._extract_corpus_statistics(hyps, None)
    prepared = _ours(set_name, data_dir, key, "kernel")
    got = prepared.stats(hyps)
    assert got.tolist() == want
    metric = Chrf(word_order=word_order)
    assert metric.score_matrix(got, prepared.nrefs).score == sb._aggregate_and_compute(want).score
    assert metric.score_many(got).tolist() == [sb._compute_f_score(row) for row in want]


@pytest.mark.slow
@pytest.mark.parametrize("options", every_option(), ids=str)
@pytest.mark.parametrize("set_name", REAL)
def test_every_option_on_real_data(data_dir: Path, set_name: str, options: dict[str, object]) -> None:
    check_corpus(data_dir, set_name, _systems(data_dir, set_name)[-1], options)


@pytest.mark.slow  # out of make test-core (the one-minute loop); make test runs it
@pytest.mark.parametrize("set_name", REAL)
def test_sentence_level_on_real_data(data_dir: Path, set_name: str) -> None:
    """Every segment's sentence score (the batch call) is sacreBLEU's f-score of its statistics; sampled segments
    through ``sentence_chrf`` and ``sacrebleu.sentence_chrf`` themselves."""
    s = _real(data_dir)[set_name]
    refs = s.refs()
    for path in s.sys_paths[:2]:
        hyps = s.system(path)
        for options in ({}, {"word_order": 2, "eps_smoothing": True}):
            sb = _sacre_metric(set_name, data_dir, tuple(sorted(options.items())))
            want = [sb._compute_f_score(row) for row in sb._extract_corpus_statistics(hyps, None)]
            got = sentence_scores(hyps, refs, metric=Chrf(**options))
            assert got.tolist() == want, f"{set_name}/{path.name} {options}"
            for i in range(0, len(hyps), 97):
                mine = sentence_chrf(hyps[i], [r[i] for r in refs], **options)
                theirs = sacrebleu.sentence_chrf(
                    hyps[i], [r[i] for r in refs], word_order=options.get("word_order", 0), eps_smoothing=bool(options)
                )
                assert mine.score == theirs.score == got[i], f"{set_name}/{path.name} segment {i + 1}"


@pytest.mark.parametrize(
    "options",
    [
        {},
        pytest.param({"word_order": 2, "whitespace": True}, marks=pytest.mark.slow),
        pytest.param({"eps_smoothing": True, "lowercase": True}, marks=pytest.mark.slow),
    ],
    ids=str,
)
def test_chinese_text(data_dir: Path, options: dict[str, object]) -> None:
    """WMT22 zh-en's target side is English; its Chinese source side scored against two rewrites of itself (every
    fifth character dropped, and the next line) gives real CJK text with partial overlaps, in both modes."""
    source = (data_dir / "wmt22-general-zh-en" / "source.zh").read_text(encoding="utf-8").split("\n")[:-1]
    dropped = ["".join(c for i, c in enumerate(line) if i % 5 != 4) for line in source]
    following = [*source[1:], source[0]]
    refs = [dropped, following]
    want = CHRF(**options)._extract_corpus_statistics(source, refs)
    score = CHRF(**options)._aggregate_and_compute(want).score
    for engine in ENGINES:
        assert Chrf(**options).prepare(refs, engine=engine).stats(source).tolist() == want, engine
        assert corpus_chrf(source, refs, engine=engine, **options).score == score, engine


def test_kernel_threads_split_a_system_without_changing_a_row(data_dir: Path) -> None:
    s = _real(data_dir)["wmt21-news-en-de"]
    prepared = Chrf(word_order=2).prepare(s.refs(), engine="kernel")
    hyps = s.system(s.sys_paths[3]) * 3
    prepared_long = Chrf(word_order=2).prepare([r * 3 for r in s.refs()], engine="kernel")
    one = prepared_long.stats(hyps, parallel=False)
    split = prepared_long.stats(hyps)
    assert len(one) == 3 * prepared.n_segments
    assert np.array_equal(one, split)
    assert np.array_equal(one[: prepared.n_segments], prepared.stats(s.system(s.sys_paths[3])))


def test_prepared_references_serve_many_systems_and_threads(data_dir: Path) -> None:
    s = _real(data_dir)["wmt22-general-zh-en"]
    prepared = Chrf().prepare(s.refs(), engine="kernel")
    systems = [s.system(p) for p in s.sys_paths[:4]]
    many = prepared.stats_many(systems)
    assert [m.tolist() for m in many] == [prepared.stats(h).tolist() for h in systems]
    assert (prepared.nrefs, prepared.n_segments) == (2, len(systems[0]))


# --- the seam ------------------------------------------------------------------------------------------------------


def test_chrf_is_a_metric_on_the_seam() -> None:
    metric = Chrf(word_order=2)
    assert isinstance(metric, Metric)
    assert isinstance(metric.prepare([["a b"]]), PreparedReferences)
    assert (metric.name, metric.sacrebleu_name, metric.higher_is_better, metric.width) == ("chrF2++", "chrf", True, 24)
    assert CHRF(word_order=2).corpus_score(["a"], [["a"]]).name == metric.name
    assert Chrf(beta=1).name == CHRF(beta=1).corpus_score(["a"], [["a"]]).name == "chrF1"


@pytest.mark.parametrize("options", every_option(), ids=str)
def test_score_many_is_sacrebleus_score_from_stats(options: dict[str, object]) -> None:
    """Random integer rows, with zeros placed to hit every branch (no hypothesis or reference n-grams of an order,
    no match), scored as corpus sums (Python ints) and as ``--paired-ar`` scores them (int64 rows)."""
    metric = Chrf(**options)
    sb = CHRF(**options)
    rng = np.random.default_rng(7)
    rows = rng.integers(0, 60, size=(400, metric.width))
    rows[:, 2::3] = np.minimum(rows[:, 2::3], np.minimum(rows[:, 0::3], rows[:, 1::3]))  # match <= hyp, ref
    rows[rng.random(rows.shape) < 0.15] = 0
    rows[:5] = 0
    rows[5, 2::3] = 0
    got = metric.score_many(rows)
    assert got.dtype == np.float64
    want = [sb._compute_score_from_stats([int(x) for x in row]).score for row in rows]
    assert got.tolist() == want
    assert got.tolist() == [sb._aggregate_and_compute(row[None, :]).score for row in rows]  # AR's int64 rows
    assert got.tolist() == [metric.score(row.tolist()) for row in rows]


def _sacre_bootstrap(stats: list[list[int]], idxs: np.ndarray, sb: CHRF) -> np.ndarray:
    """What sacreBLEU's paired bootstrap computes from a system's statistics and its draws."""
    stats_np = np.array(stats, dtype="float32")
    return np.array([sb._compute_score_from_stats(_s.sum(0)).score for _s in stats_np[idxs]])


def _exact_sums(matrix: np.ndarray, idxs: np.ndarray) -> np.ndarray:
    """The resamples' column sums as the integration computes them: counts of each segment times its row."""
    n = len(matrix)
    counts = np.stack([np.bincount(row, minlength=n) for row in idxs])
    return (counts @ matrix).astype(np.float64)


@pytest.mark.parametrize("options", every_option(), ids=str)
def test_float32_scores_are_sacrebleus_paired_bootstrap_bit_for_bit(data_dir: Path, options: dict[str, object]) -> None:
    s = _real(data_dir)["wmt21-news-en-de"]
    refs = [r[:150] for r in s.refs()]
    hyps = s.system(s.sys_paths[5])[:150]
    metric = Chrf(**options)
    sb = CHRF(**options)
    matrix = metric.prepare(refs).stats(hyps)
    assert matrix.tolist() == sb._extract_corpus_statistics(hyps, refs)
    idxs = np.random.default_rng(12345).choice(len(hyps), size=(200, len(hyps)), replace=True)
    want = _sacre_bootstrap(matrix.tolist(), idxs, sb)
    got = metric.score_many(_exact_sums(matrix, idxs), float32=True)
    assert got.dtype == want.dtype == np.float32
    assert np.array_equal(got.view(np.uint32), want.view(np.uint32))
    # the same sums in float64 arithmetic differ: the float32 path is not a rounding of the float64 one
    assert not np.array_equal(metric.score_many(_exact_sums(matrix, idxs)).astype(np.float32), want)


@pytest.mark.parametrize("options", every_option(), ids=str)
def test_float32_scores_of_degenerate_sums(options: dict[str, object]) -> None:
    """Sums where sacreBLEU's score stays a Python float (no match at all, empty orders) or mixes both types: the
    array is float64 then, as sacreBLEU's becomes; else float32. Value and type per row, bit for bit."""
    metric = Chrf(**options)
    sb = CHRF(**options)
    rng = np.random.default_rng(3)
    rows = rng.integers(0, 9, size=(600, metric.width)).astype(np.float64)
    rows[:, 2::3] = np.minimum(rows[:, 2::3], np.minimum(rows[:, 0::3], rows[:, 1::3]))
    rows[rng.random(rows.shape) < 0.4] = 0
    rows[:40, 2::3] = 0  # no match anywhere
    rows[40:60] = 0
    for block in (rows, rows[:40], rows[40:60], rows[100:]):
        scores = [sb._compute_score_from_stats(r).score for r in block.astype(np.float32)]
        want = np.array(scores)
        got = metric.score_many(block, float32=True)
        assert got.dtype == want.dtype
        assert np.array_equal(got, want)
        assert np.array_equal(got.view(np.uint8), want.view(np.uint8))


@pytest.mark.parametrize("word_order", [0, 2])
def test_paired_bootstrap_p_value_equals_sacrebleus(data_dir: Path, word_order: int) -> None:
    """The arithmetic an integration runs (its own draws' exact sums, then ``score_many(sums, float32=True)``) gives
    ``PairedTest``'s p-value, mean and interval for chrF, bit for bit."""
    s = _real(data_dir)["wmt21-news-en-de"]
    refs = [r[:400] for r in s.refs()]
    base, other = (s.system(p)[:400] for p in s.sys_paths[:2])
    n_samples, seed = 250, 12345
    test = PairedTest(
        [("base", base), ("other", other)],
        {"chrF": CHRF(word_order=word_order)},
        references=refs,
        test_type="bs",
        n_samples=n_samples,
    )
    sigs, results = test()
    name = next(iter(sigs))
    theirs = results[name][1]

    metric = Chrf(word_order=word_order)
    prepared = metric.prepare(refs)
    m_base, m_other = prepared.stats(base), prepared.stats(other)
    score_base = metric.score_matrix(m_base, prepared.nrefs).score
    score_other = metric.score_matrix(m_other, prepared.nrefs).score
    idxs = np.random.default_rng(seed).choice(len(base), size=(n_samples, len(base)), replace=True)
    scores_bl = metric.score_many(_exact_sums(m_base, idxs), float32=True)
    scores_sys = metric.score_many(_exact_sums(m_other, idxs), float32=True)
    sample_diffs = np.abs(scores_sys - scores_bl)
    p = _compute_p_value(sample_diffs - sample_diffs.mean(), abs(score_base - score_other))
    mean, ci = sacrebleu.significance.estimate_ci(scores_sys)
    assert (score_other, p, mean, ci) == (theirs.score, theirs.p_value, theirs.mean, theirs.ci)
    assert sigs[name].format() == metric.sacrebleu_signature(3, test="bs", trials=n_samples, seed=seed)


# --- signatures -----------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("options", every_option(), ids=str)
def test_sacrebleu_signature_for_every_option(options: dict[str, object]) -> None:
    metric = Chrf(**options)
    for refs, nrefs in (([["a"]], 1), ([["a", "b"], ["c", "d"]], 2), ([["a", "b"], ["c", None]], -1)):
        sb = CHRF(**options)
        sb.corpus_score(["x"] * len(refs[0]), refs)
        assert metric.sacrebleu_signature(nrefs) == sb.get_signature().format()
        assert metric.sacrebleu_signature(nrefs, short=True) == sb.get_signature().format(short=True)
        assert Chrf(**options).prepare(refs).nrefs == nrefs
        ours = metric.signature(nrefs)
        assert ours.startswith(f"nrefs:{'var' if nrefs == -1 else nrefs}|case:")
        assert f"|beta:{metric.beta}|version:bleu-explorer-" in ours


@pytest.mark.parametrize("options", [{}, {"word_order": 2, "lowercase": True, "eps_smoothing": True}], ids=str)
@pytest.mark.parametrize(("test_type", "trials", "confidence"), [("bs", 7, -1), ("ar", 9, -1), ("ar", 9, 5)])
def test_paired_test_signatures(options: dict[str, object], test_type: str, trials: int, confidence: int) -> None:
    named = [("a", ["the cat sat", "a dog"]), ("b", ["the cat", "a dog ran"])]
    refs = [["the cat sat down", "a dog ran"], ["a cat", "the dog ran"]]
    test = PairedTest(
        named, {"chrF": CHRF(**options)}, refs, test_type=test_type, n_samples=trials, n_ar_confidence=confidence
    )
    want = next(iter(test._signatures.values()))
    metric = Chrf(**options)
    extra = {"confidence_trials": confidence} if confidence > 0 else {}
    assert metric.sacrebleu_signature(2, test=test_type, trials=trials, seed=12345, **extra) == want.format()
    assert metric.sacrebleu_signature(2, test=test_type, trials=trials, seed=12345, short=True, **extra) == want.format(
        short=True
    )


def test_confidence_signature_and_unseeded() -> None:
    sb = CHRF()
    # every resample has a match: a resample without one scores a Python 0.0 among float32s, which sacreBLEU's
    # interval (statistics.mean) cannot add
    sb.corpus_score(["a b c d", "c d e"], [["a b c d", "c d e f"]], n_bootstrap=20)
    assert Chrf().sacrebleu_signature(1, confidence_trials=20, seed=12345) == sb.get_signature().format()
    assert "|seed:none|" in Chrf().sacrebleu_signature(1, test="bs", trials=1000, seed=None)


# --- results, empty input, bad input ----------------------------------------------------------------------------


def test_result_fields() -> None:
    hyps, refs = ["The cat sat on a mat.", "Hello"], [["The cat sat on the mat.", "Hello!"]]
    for engine in ENGINES:
        s = corpus_chrf(hyps, refs, word_order=2, engine=engine)
        theirs = CHRF(word_order=2)
        assert s.statistics == [sum(c) for c in zip(*theirs._extract_corpus_statistics(hyps, refs), strict=True)]
        assert s.segment_matrix is not None
        assert s.segment_matrix.tolist() == theirs._extract_corpus_statistics(hyps, refs)
        assert s.format() == f"chrF2++ = {s.score:.2f}"
        assert s.to_dict()["sacrebleu_signature"] == "nrefs:1|case:mixed|eff:yes|nc:6|nw:2|space:no|version:2.6.0"
        assert str(s) == s.format()


@pytest.mark.parametrize("eps", [False, True])
def test_empty_corpus_scores_zero_statistics(eps: bool) -> None:
    """As corpus_bleu: an empty corpus is the score of all-zero statistics (sacreBLEU itself fails on it)."""
    s = corpus_chrf([], [[]], eps_smoothing=eps)
    assert s.statistics == [0] * 18
    assert s.score == CHRF(eps_smoothing=eps)._compute_f_score([0] * 18)
    assert sentence_scores([], [[]], metric=Chrf()).shape == (0,)


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"char_order": 0}, "char_order: must be a whole number from 1 to 1000, got 0"),
        ({"char_order": -2}, "char_order: must be a whole number from 1 to 1000, got -2"),
        ({"char_order": 2.0}, "char_order: must be a whole number from 1 to 1000, got 2.0"),
        ({"char_order": True}, "char_order: must be a whole number from 1 to 1000, got True"),
        ({"char_order": 1001}, "char_order: must be a whole number from 1 to 1000, got 1001"),
        ({"word_order": -1}, "word_order: must be a whole number from 0 to 1000, got -1"),
        ({"word_order": "2"}, "word_order: must be a whole number from 0 to 1000, got '2'"),
        ({"beta": -1}, "beta: must be a number >= 0 (sacreBLEU's default is 2), got -1"),
        ({"beta": float("nan")}, "beta: must be a number >= 0 (sacreBLEU's default is 2), got nan"),
        ({"beta": float("inf")}, "beta: must be a number >= 0 (sacreBLEU's default is 2), got inf"),
        ({"beta": "2"}, "beta: must be a number >= 0 (sacreBLEU's default is 2), got '2'"),
        ({"beta": False}, "beta: must be a number >= 0 (sacreBLEU's default is 2), got False"),
        ({"lowercase": "yes"}, "lowercase: must be True or False, got 'yes'"),
        ({"whitespace": 1}, "whitespace: must be True or False, got 1"),
        ({"eps_smoothing": None}, "eps_smoothing: must be True or False, got None"),
        ({"remove_whitespace": "no"}, "remove_whitespace: must be True or False, got 'no'"),
        ({"whitespace": True, "remove_whitespace": True}, "remove_whitespace: contradicts whitespace=True"),
        ({"engine": "fast"}, "engine: unknown engine 'fast'"),
    ],
)
def test_bad_options_raise_one_line_naming_them(options: dict[str, object], message: str) -> None:
    calls = [lambda: corpus_chrf(["a"], [["a"]], **options)]
    if "engine" not in options:
        calls += [lambda: sentence_chrf("a", ["a"], **options), lambda: Chrf(**options)]
    if "remove_whitespace" in options:
        calls.pop()  # corpus_chrf's and sentence_chrf's name, not the metric's
    for call in calls:
        with pytest.raises(InputError) as err:
            call()
        assert str(err.value).startswith(message)
        assert "\n" not in str(err.value)


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: corpus_chrf(["a"], [["a", "b"]]), "references: reference stream 1 has 2 segments but there are 1"),
        (lambda: corpus_chrf(["a", "b"], ["a", "b"]), "references: got a flat list of strings"),
        (lambda: corpus_chrf(["a", 3], [["a", "b"]]), "hypotheses: segment 2 is int, not a string"),
        (lambda: corpus_chrf(["a"], [[None]]), "references: segment 1 has no reference (all are None)"),
        (lambda: corpus_chrf("a b", [["a"]]), "hypotheses: must be a list of strings"),
        (lambda: sentence_chrf("a", "a"), "references: must be a list of reference strings"),
        (lambda: sentence_chrf(["a"], ["a"]), "hypothesis: must be a string, got list"),
        (lambda: sentence_chrf("a", []), "references: must be a non-empty list of reference streams"),
        (lambda: Chrf().prepare([["a"], ["a", "b"]]), "references: reference stream 2 has 2 segments but stream 1"),
        (lambda: Chrf().prepare([["a"]]).stats(["a", "b"]), "hypotheses: 2 segments but the references have 1"),
        (lambda: Chrf().prepare([["a"]]).stats(h for h in ["a"]), "hypotheses: must be a list of strings"),
        (lambda: Chrf().score_many(np.zeros((2, 5))), "sums: must have 18 columns (chrF2), got shape (2, 5)"),
        (lambda: sentence_scores(["a"], [["a", "b"]], metric=Chrf()), "references: reference stream 1 has 2"),
    ],
)
def test_bad_input_raises_one_line(call, message: str) -> None:
    with pytest.raises(InputError) as err:
        call()
    assert str(err.value).startswith(message)
    assert "\n" not in str(err.value)
