"""TER against sacreBLEU 2.6.0 (the oracle): its own test vectors, fuzzed text, the real WMT data, signatures, and
the float32 arithmetic of its paired tests.

sacreBLEU's ``test/test_ter.py`` and ``test/test_tokenizer_ter.py`` (github.com/mjpost/sacrebleu, v2.6.0) are
ported first, unchanged in their cases and tolerance, and run on both of our paths (the C kernel and the Python
search). Everything after them compares with sacreBLEU itself, exactly: per-segment statistics bit for bit
(``sacrebleu_rows``), corpus and sentence scores equal (the brief asks 1e-9; they are identical), the edit
script's count equal to sacreBLEU's ``num_edits``. sacreBLEU's TER costs about 30 ms a line per reference, so
the real-data checks take samples (named in each test); the ``slow`` ones take larger samples.
"""

from __future__ import annotations

import itertools
import logging
import os
from pathlib import Path

import numpy as np
import pytest
import sacrebleu
from hypothesis import HealthCheck, given, settings, strategies as st
from sacrebleu.metrics import TER
from sacrebleu.significance import PairedTest, _compute_p_value, estimate_ci
from sacrebleu.tokenizers.tokenizer_ter import TercomTokenizer

from bleu_core.metrics.ter import (
    OPTIONS,
    Ter,
    corpus_ter,
    sacrebleu_float32_sums,
    sacrebleu_rows,
    sentence_ter,
)
from bleu_core.metrics.ter_edits import ter_edits
from bleu_core.metrics.ter_tokenizer import TercomOptions, tercom_tokenize
from tests.core.cases import read_lines

logging.getLogger("sacrebleu").setLevel(logging.ERROR)

ENGINES = ("kernel", "explain")
COMBOS = [dict(zip(OPTIONS, flags, strict=True)) for flags in itertools.product((False, True), repeat=4)]
QUICK = settings(
    max_examples=int(os.environ.get("BLEU_FUZZ_QUICK", "150")),
    derandomize=True,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
LONG = settings(QUICK, max_examples=int(os.environ.get("BLEU_FUZZ_LONG", "2000")), derandomize=False)

# --- sacreBLEU's test/test_ter.py, ported -------------------------------------------------------------------

EPSILON = 1e-3

SACREBLEU_TER_CASES = [
    (["aaaa bbbb cccc dddd"], ["aaaa bbbb cccc dddd"], 0),  # perfect match
    (["dddd eeee ffff"], ["aaaa bbbb cccc"], 1),  # no overlap
    ([""], ["a"], 1),  # corner case, empty hypothesis
    (["a"], [""], 1),  # corner case, empty reference
    ([""], [""], 0),  # corner case, both reference and hypothesis empty, we define it as 0.0
    (["d e f g h a b c"], ["a b c d e f g h"], 1 / 8),  # a single shift fixes MT
    (
        [
            'wählen Sie " Bild neu berechnen , " um beim Ändern der Bildgröße Pixel hinzuzufügen oder zu entfernen , '
            "damit das Bild ungefähr dieselbe Größe aufweist wie die andere Größe .",
            "wenn Sie alle Aufgaben im aktuellen Dokument aktualisieren möchten , wählen Sie im Menü des "
            'Aufgabenbedienfelds die Option " Alle Aufgaben aktualisieren . "',
            'klicken Sie auf der Registerkarte " Optionen " auf die Schaltfläche " Benutzerdefiniert " und geben Sie '
            'Werte für " Fehlerkorrektur-Level " und " Y / X-Verhältnis " ein .',
            "Sie können beispielsweise ein Dokument erstellen , das ein Auto über die Bühne enthält .",
            'wählen Sie im Dialogfeld " Neu aus Vorlage " eine Vorlage aus und klicken Sie auf " Neu . "',
        ],
        [
            'wählen Sie " Bild neu berechnen , " um beim Ändern der Bildgröße Pixel hinzuzufügen oder zu entfernen , '
            "damit die Darstellung des Bildes in einer anderen Größe beibehalten wird .",
            "wenn Sie alle Aufgaben im aktuellen Dokument aktualisieren möchten , wählen Sie im Menü des "
            'Aufgabenbedienfelds die Option " Alle Aufgaben aktualisieren . "',
            'klicken Sie auf der Registerkarte " Optionen " auf die Schaltfläche " Benutzerdefiniert " und geben Sie '
            'für " Fehlerkorrektur-Level " und " Y / X-Verhältnis " niedrigere Werte ein .',
            "Sie können beispielsweise ein Dokument erstellen , das ein Auto enthalt , das sich über die Bühne "
            "bewegt .",
            'wählen Sie im Dialogfeld " Neu aus Vorlage " eine Vorlage aus und klicken Sie auf " Neu . "',
        ],
        0.136,  # realistic example from WMT dev data (2019)
    ),
]


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize(("hypotheses", "references", "expected_score"), SACREBLEU_TER_CASES)
def test_ter(hypotheses: list[str], references: list[str], expected_score: float, engine: str) -> None:
    score = corpus_ter(hypotheses, [references], engine=engine).score  # type: ignore[arg-type]
    assert abs(score - 100 * expected_score) < EPSILON
    assert score == TER().corpus_score(hypotheses, [references]).score


# --- sacreBLEU's test/test_tokenizer_ter.py, ported -----------------------------------------------------------

TOKENIZER_CASES = [
    ({}, "a b c d", "a b c d"),
    ({}, "", ""),
    ({}, "a b c d.", "a b c d."),
    ({}, "A B C D.", "a b c d."),
    ({"no_punct": True}, "a b c d.", "a b c d"),
    ({"no_punct": True}, "A ; B ) C : D.", "a b c d"),
    ({"normalized": True}, "a b (c) d.", "a b ( c ) d ."),
    ({"normalized": True}, "Jim's car.", "jim 's car ."),
    ({"normalized": True}, "4.2", "4.2"),
    ({"normalized": True, "asian_support": True}, "美众院公布对特", "美 众 院 公 布 对 特"),  # Chinese
    ({"normalized": True, "asian_support": True}, "りの拳銃を持", "りの 拳 銃 を 持"),  # Japanese, 2 Hiragana first
]


@pytest.mark.parametrize(("options", "text", "expected"), TOKENIZER_CASES)
def test_ter_tokenizer(options: dict[str, bool], text: str, expected: str) -> None:
    assert tercom_tokenize(text, TercomOptions(**options)) == expected
    assert TercomTokenizer(**options)(text) == expected


# --- fuzzing ------------------------------------------------------------------------------------------------

WORDS = st.sampled_from(
    [
        *("a", "b", "c", "a", "b", "the", "The", "der", "Die", "x"),  # few, repeated: they invite shifts
        *("a.", "b,", "(c)", "Jim's", "4.2", "3-4", "&amp;", "&quot;x&quot;", "A;B", "?!", '"', "-", "x-\n-y"),
        *("İstanbul", "Straße", "ÉCOLE", "ǅemal", "ﬁ", "Σίσυφος", "ß", "x\u0301"),
        *("美众院", "公布", "りの拳銃を持", "カタカナ", "ㇰ", "中文，标点。", "（全角）", "〈〉", "ｶﾀｶﾅ", "㈱", "丽"),
    ]
)
SEPARATORS = st.sampled_from([" ", " ", " ", "  ", "\t", "", "\u00a0", "\u3000", " \n "])


@st.composite
def lines(draw: st.DrawFn, max_words: int = 14) -> str:
    words = draw(st.lists(WORDS, max_size=max_words))
    out = ""
    for w in words:
        out += w + draw(SEPARATORS)
    return out


@st.composite
def corpora(draw: st.DrawFn) -> tuple[list[str], list[list[str | None]], dict[str, bool]]:
    n = draw(st.integers(1, 3))
    k = draw(st.integers(1, 3))
    hyps = [draw(lines()) for _ in range(n)]
    refs: list[list[str | None]] = [[draw(lines()) for _ in range(n)] for _ in range(k)]
    if k > 1 and draw(st.booleans()):  # a variable number of references (sacreBLEU's nrefs:var)
        for i in range(n):
            for s in refs[1:]:
                if draw(st.booleans()):
                    s[i] = None
    options = dict(zip(OPTIONS, (draw(st.booleans()) for _ in OPTIONS), strict=True))
    return hyps, refs, options


def check_against_sacrebleu(hyps: list[str], refs: list[list[str | None]], options: dict[str, bool]) -> None:
    """Every number of ours against sacreBLEU's on one corpus, on both paths; the edit script's count too."""
    metric = TER(**options)
    rows = metric._extract_corpus_statistics(hyps, refs)
    expected = metric._aggregate_and_compute(rows)
    signature = metric.get_signature().format()
    for engine in ENGINES:
        ours = corpus_ter(hyps, refs, engine=engine, **options)  # type: ignore[arg-type]
        assert sacrebleu_rows(ours.counts).tolist() == [[float(x) for x in r] for r in rows], engine
        assert (ours.score, ours.num_edits, ours.ref_length) == (
            expected.score,
            expected.num_edits,
            expected.ref_length,
        )
        assert ours.sacrebleu_signature == signature
        # the vectorised score of the exact integer statistics: the same number to the last bits or so
        whole = Ter(**options).score_many(ours.segment_matrix.sum(axis=0, keepdims=True))[0]
        assert abs(whole - expected.score) <= 1e-9
    for i, hyp in enumerate(hyps):
        seg_refs = [s[i] for s in refs if s[i] is not None]
        sentence = metric.sentence_score(hyp, seg_refs)
        for engine in ENGINES:
            assert sentence_ter(hyp, seg_refs, engine=engine, **options).score == sentence.score  # type: ignore[arg-type]
        edits = ter_edits(hyp, seg_refs, **options)  # type: ignore[arg-type]
        assert edits.num_edits == sentence.num_edits == rows[i][0]
        assert edits.score == sentence.score
        per_ref = [metric.sentence_score(hyp, [r]).num_edits for r in seg_refs]
        assert edits.ref_index == per_ref.index(min(per_ref))  # the first of the fewest, as sacreBLEU
        assert edits.apply() == edits.reference.tokens


@QUICK
@given(corpora())
def test_fuzzed_corpora_equal_sacrebleu(case: tuple[list[str], list[list[str | None]], dict[str, bool]]) -> None:
    check_against_sacrebleu(*case)


@pytest.mark.fuzz
@LONG
@given(corpora())
def test_fuzzed_corpora_equal_sacrebleu_long(case: tuple[list[str], list[list[str | None]], dict[str, bool]]) -> None:
    check_against_sacrebleu(*case)


@settings(QUICK, max_examples=600)
@given(st.text(max_size=40) | lines(), st.sampled_from(COMBOS))
def test_fuzzed_tokenizer_equals_sacrebleus(text: str, options: dict[str, bool]) -> None:
    expected = TercomTokenizer(**options)(text.rstrip())
    assert tercom_tokenize(text, TercomOptions(**options)) == expected
    # references go through sacreBLEU's preprocessing twice: ours prepares them the same way
    twice = TercomTokenizer(**options)(expected.rstrip())
    prepared = Ter(**options).prepare([[text]])
    assert prepared.tokens[0][0] == twice


@pytest.mark.parametrize("options", COMBOS, ids=lambda o: "-".join(k for k, v in o.items() if v) or "default")
def test_every_option_combination_on_a_shifty_corpus(options: dict[str, bool]) -> None:
    hyps = ["The cat, the (big) cat sat on the mat.", "美众院公布对特 &amp; Jim's car", "", "a b c d e f g h"]
    refs: list[list[str | None]] = [
        ["the mat: the big cat sat on it.", "众院美公布 Jim's car !", "x", "e f g h a b c d"],
        ["On the mat sat the cat", None, "", "a b c d"],
    ]
    check_against_sacrebleu(hyps, refs, options)


# --- the real data -----------------------------------------------------------------------------------------


def _real(data_dir: Path, pair: str, refs: str, systems: int, step: int) -> tuple[list[list[str]], list[list[str]]]:
    """``systems`` systems spread over the sorted list (first, ..., last) and every ``step``-th line."""
    folder = data_dir / pair
    ext = ".de" if pair.startswith("wmt21") else ".en"
    paths = sorted((folder / "systems").glob(f"*{ext}"))
    chosen = [paths[round(i * (len(paths) - 1) / max(systems - 1, 1))] for i in range(systems)]
    ref_lines = [read_lines(folder / f"reference.{k}{ext}")[::step] for k in refs]
    return [read_lines(p)[::step] for p in chosen], ref_lines


def check_real(systems: list[list[str]], refs: list[list[str]], options: dict[str, bool], *, python: bool) -> None:
    metric = TER(**options)
    prepared = Ter(**options).prepare(refs)
    for hyps in systems:
        rows = metric._extract_corpus_statistics(hyps, refs)
        counts = prepared.counts(hyps, engine="kernel")
        assert sacrebleu_rows(counts).tolist() == [[float(x) for x in r] for r in rows]
        ours = corpus_ter(hyps, refs, engine="kernel", **options)  # type: ignore[arg-type]
        assert ours.score == metric._aggregate_and_compute(rows).score
        if python:
            assert (prepared.counts(hyps, engine="explain") == counts).all()
        for i in range(0, len(hyps), 7):  # the edit script on a few segments: its count is sacreBLEU's
            e = ter_edits(hyps[i], [r[i] for r in refs], engine="kernel", **options)  # type: ignore[arg-type]
            assert e.num_edits == rows[i][0]
            assert e.apply() == e.reference.tokens


def test_wmt21_three_references(data_dir: Path) -> None:
    """WMT21 en-de, references A, C and D: the first and last system (sorted), every 25th line (41 lines)."""
    systems, refs = _real(data_dir, "wmt21-news-en-de", "ACD", 2, 25)
    check_real(systems, refs, {}, python=True)


def test_wmt22_zh_en_asian_support(data_dir: Path) -> None:
    """WMT22 zh-en with asian_support (and normalized, without which it does nothing), references A and B:
    one system, every 125th line (15 lines: split to characters, a line is about 100 tokens)."""
    systems, refs = _real(data_dir, "wmt22-general-zh-en", "AB", 1, 125)
    check_real(systems, refs, {"normalized": True, "asian_support": True}, python=True)


@pytest.mark.slow
@pytest.mark.parametrize("options", [{}, {"normalized": True}, {"no_punct": True, "case_sensitive": True}])
def test_wmt21_three_references_larger_sample(data_dir: Path, options: dict[str, bool]) -> None:
    """WMT21 en-de, references A, C, D: 4 systems spread over the sorted 20, every 5th line (201 lines)."""
    systems, refs = _real(data_dir, "wmt21-news-en-de", "ACD", 4, 5)
    check_real(systems, refs, options, python=False)


@pytest.mark.slow
@pytest.mark.parametrize(
    "options", [{"normalized": True, "asian_support": True}, {"no_punct": True, "asian_support": True}]
)
def test_wmt22_zh_en_larger_sample(data_dir: Path, options: dict[str, bool]) -> None:
    """WMT22 zh-en, references A and B: 3 systems spread over the sorted 12, every 6th line (313 lines)."""
    systems, refs = _real(data_dir, "wmt22-general-zh-en", "AB", 3, 6)
    check_real(systems, refs, options, python=False)


# --- signatures ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize("options", COMBOS, ids=lambda o: "-".join(k for k, v in o.items() if v) or "default")
def test_signature_is_sacrebleus(options: dict[str, bool]) -> None:
    for refs in ([["a"]], [["a"], ["b"], ["c"]], [["a", "b"], [None, "c"]]):
        metric = TER(**options)
        metric._extract_corpus_statistics(["x"] * len(refs[0]), refs)
        ours = corpus_ter(["x"] * len(refs[0]), refs, **options)  # type: ignore[arg-type]
        assert ours.sacrebleu_signature == metric.get_signature().format()
        assert Ter(**options).sacrebleu_signature(ours.nrefs, short=True) == metric.get_signature().format(short=True)
        assert ours.signature.split("|version:")[0] == ours.sacrebleu_signature.split("|version:")[0]


@pytest.mark.parametrize(("test", "confidence"), [("bs", -1), ("ar", -1), ("ar", 1000)])
def test_paired_test_signature_is_sacrebleus(test: str, confidence: int) -> None:
    systems = [("base", ["a b c", "d e"]), ("other", ["a c b", "d"])]
    refs = [["a b c", "d e f"]]
    sigs, _ = PairedTest(
        systems, {"TER": TER()}, refs, test_type=test, n_samples=50, n_ar_confidence=confidence
    )()  # sacreBLEU's own seed: SACREBLEU_SEED, 12345 by default
    ours = Ter().sacrebleu_signature(
        1, test=test, trials=50, seed=12345, confidence_trials=confidence if confidence > 0 else None
    )
    assert ours == sigs["TER"].format()


def test_confidence_signature_is_sacrebleus() -> None:
    metric = TER()
    metric.corpus_score(["a b c", "d e"], [["a b c", "d e f"]], n_bootstrap=20)
    assert Ter().sacrebleu_signature(1, confidence_trials=20, seed=12345) == metric.get_signature().format()


# --- the paired tests' arithmetic ------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def wmt21_rows(data_dir: Path) -> dict[str, tuple[list[list[float]], np.ndarray, int]]:
    """sacreBLEU's TER rows and our counts for one WMT21 system, every 20th line (51 lines), with 1 and 3 refs."""
    systems, refs = _real(data_dir, "wmt21-news-en-de", "ACD", 1, 20)
    out = {}
    for name, chosen in (("1ref", refs[:1]), ("3refs", refs)):
        prepared = Ter().prepare(chosen)
        counts = prepared.counts(systems[0])
        out[name] = (TER()._extract_corpus_statistics(systems[0], chosen), counts, prepared.scale)
    return out


@pytest.mark.parametrize("nrefs", ["1ref", "3refs"])
def test_float32_resampled_scores_are_sacrebleus_bit_for_bit(
    wmt21_rows: dict[str, tuple[list[list[float]], np.ndarray, int]], nrefs: str
) -> None:
    rows, counts, scale = wmt21_rows[nrefs]
    n = len(rows)
    idxs = np.random.default_rng(7).choice(n, size=(400, n), replace=True)
    stats_np = np.array(rows, dtype="float32")  # sacreBLEU's significance.py, as it holds them
    metric = TER()
    expected = np.array([metric._compute_score_from_stats(s.sum(0)).score for s in stats_np[idxs]])
    assert expected.dtype == np.float32
    got = Ter().score_many(sacrebleu_float32_sums(sacrebleu_rows(counts), idxs), float32=True)
    assert got.dtype == np.float32
    assert np.array_equal(got, expected)
    if scale == 1:  # one reference: integer statistics, so weighted sums (the house's drawers) are the same
        weights = np.stack([np.bincount(row, minlength=n) for row in idxs])
        sums = weights @ counts[:, :2]  # with one reference the statistics matrix is [edits, ref_length]
        assert np.array_equal(Ter().score_many(sums, float32=True), expected)


def test_float64_scores_are_sacrebleus_bit_for_bit(
    wmt21_rows: dict[str, tuple[list[list[float]], np.ndarray, int]],
) -> None:
    """sacreBLEU's approximate randomization sums float64 rows (``pos_sel @ stats``) and scores them in float64."""
    rows, counts, _ = wmt21_rows["3refs"]
    pos = np.random.default_rng(3).integers(2, size=(300, len(rows)), dtype=bool)
    shuffled = pos @ rows
    expected = [TER()._aggregate_and_compute(x).score for x in shuffled[:, None]]
    assert np.array_equal(pos @ sacrebleu_rows(counts), shuffled)
    assert Ter().score_many(shuffled).tolist() == expected


@pytest.mark.parametrize("nrefs", [1, 3])
def test_paired_bootstrap_p_value_is_sacrebleus(data_dir: Path, nrefs: int) -> None:
    """sacreBLEU's --paired-bs on TER (3 WMT21 systems, every 40th line: 26 lines), replayed with our statistics:
    the same p-values, means and intervals, exactly."""
    systems, refs = _real(data_dir, "wmt21-news-en-de", "ACD"[:nrefs], 3, 40)
    named = [(f"s{i}", h) for i, h in enumerate(systems)]
    _, results = PairedTest(named, {"TER": TER()}, refs, test_type="bs", n_samples=1000)()
    prepared = Ter().prepare(refs)
    n = prepared.n_segments
    idxs = np.random.default_rng(12345).choice(n, size=(1000, n), replace=True)
    base_counts = prepared.counts(systems[0])
    base = corpus_ter(systems[0], refs).score
    base_scores = Ter().score_many(sacrebleu_float32_sums(sacrebleu_rows(base_counts), idxs), float32=True)
    for i, hyps in enumerate(systems[1:], start=1):
        counts = prepared.counts(hyps)
        scores = Ter().score_many(sacrebleu_float32_sums(sacrebleu_rows(counts), idxs), float32=True)
        diffs = np.abs(scores - base_scores)
        p = _compute_p_value(diffs - diffs.mean(), abs(base - corpus_ter(hyps, refs).score))
        mean, ci = estimate_ci(scores)
        expected = results["TER"][i]
        assert (p, mean, ci) == (expected.p_value, expected.mean, expected.ci)


def test_sacrebleu_module_functions_agree(data_dir: Path) -> None:
    """``sacrebleu.corpus_ter``/``sentence_ter``, the module-level API, give our numbers too."""
    hyps = ["the cat sat on mat", "a b c"]
    refs = [["the cat sat on the mat", "c b a"]]
    assert corpus_ter(hyps, refs).score == sacrebleu.corpus_ter(hyps, refs).score
    assert sentence_ter(hyps[0], [refs[0][0]]).score == sacrebleu.sentence_ter(hyps[0], [refs[0][0]]).score
