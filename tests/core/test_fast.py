"""The engines (bleu_core.engine: the C kernel and the explainable path) against each other, sacrebleu, and
per-line tokenization; file streaming (bleu_core.data.files) against the in-memory score."""

from __future__ import annotations

import gzip
import random
from pathlib import Path

import numpy as np
import pytest
import sacrebleu

from bleu_core import BleuConfig, InputError
from bleu_core.data.files import corpus_bleu_files
from bleu_core.engine import Backend, NgramDiff, ReferenceSet, choose, tokenize_corpus
from bleu_core.engine.stats import corpus_matrix, prepare_references
from bleu_core.engine.tokenizers import preprocess
from bleu_core.metrics.bleu import corpus_score
from tests.core.cases import ALL_WORDS, random_corpus

TOKENIZERS = ("13a", "intl", "zh", "char", "none", "paper")


def explain_matrix(hyps: list[str], refs: list[list[str | None]], config: BleuConfig) -> tuple[np.ndarray, int]:
    infos, nrefs = prepare_references(refs, config)
    return corpus_matrix(hyps, infos, config), nrefs


BACKENDS = ("kernel", "explain")


def corpus_stats(
    hyps: list[str], refs: list[list[str | None]], config: BleuConfig, *, backend: Backend = "auto"
) -> tuple[np.ndarray, int]:
    ref_set = ReferenceSet.from_config(refs, config, backend=backend)
    return ref_set.stats(hyps, config.max_ngram_order), ref_set.nrefs


def assert_same(hyps: list[str], refs: list[list[str | None]], config: BleuConfig, backend: Backend) -> None:
    want, want_nrefs = explain_matrix(hyps, refs, config)
    got, got_nrefs = corpus_stats(hyps, refs, config, backend=backend)
    assert got.dtype == want.dtype == np.int64
    np.testing.assert_array_equal(got, want, err_msg=f"{config} hyps={hyps!r} refs={refs!r}")
    assert got_nrefs == want_nrefs


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("tokenize", TOKENIZERS)
@pytest.mark.parametrize("lowercase", [False, True])
def test_random_corpora_full_matrix_equal(tokenize: str, lowercase: bool, backend: Backend) -> None:
    rng = random.Random(f"{tokenize}{lowercase}")
    for _ in range(60):
        hyps, refs = random_corpus(rng, max_segments=8, exotic=True)
        config = BleuConfig(tokenize=tokenize, lowercase=lowercase, max_ngram_order=rng.randint(1, 9))
        assert_same(hyps, refs, config, backend)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("order", range(1, 10))
def test_every_order_with_variable_and_empty_references(order: int, backend: Backend) -> None:
    hyps = ["a a a b", "", "the cat the cat the cat", "x y z w v u t s r q p", "  ", "1,000.5 km. , ."]
    refs: list[list[str | None]] = [
        ["a a b", "", "the cat", "x y z w v u t s r q p", "", "1,000.5 km ."],
        [None, "nothing", "cat the cat the", None, " ", None],
        ["a", None, None, "x y z w v u t s r q", None, "1,000.5 km. , ."],
    ]
    assert_same(hyps, refs, BleuConfig(max_ngram_order=order), backend)


@pytest.mark.parametrize("backend", BACKENDS)
def test_empty_corpus_and_all_empty_lines(backend: Backend) -> None:
    assert corpus_stats([], [[]], BleuConfig(), backend=backend)[0].shape == (0, 10)
    assert_same(["", "", ""], [["", "", ""]], BleuConfig(), backend)
    assert_same(["a b", "c"], [["", ""]], BleuConfig(), backend)
    assert_same(["a b", "c"], [[None, "c"], ["a", None]], BleuConfig(), backend)


@pytest.mark.parametrize("backend", BACKENDS)
def test_real_data_matrix_equal_and_sacrebleu_scores(data_dir: Path, backend: Backend) -> None:
    folder = data_dir / "wmt21-news-en-de"
    refs = [(folder / f"reference.{k}.de").read_text(encoding="utf-8").split("\n")[:-1] for k in "ACD"]
    ref_set = ReferenceSet(refs, backend=backend)
    infos, _ = prepare_references(refs, BleuConfig())
    for path in sorted((folder / "systems").glob("*.de"))[:4]:
        hyps = path.read_text(encoding="utf-8").split("\n")[:-1]
        got = ref_set.stats(hyps, 4)
        np.testing.assert_array_equal(got, corpus_matrix(hyps, infos, BleuConfig()), err_msg=path.name)
        ours = corpus_score(hyps, refs, BleuConfig())
        theirs = sacrebleu.corpus_bleu(hyps, refs)
        assert (ours.score, ours.counts, ours.totals, ours.sys_len, ours.ref_len) == (
            theirs.score,
            theirs.counts,
            theirs.totals,
            theirs.sys_len,
            theirs.ref_len,
        )


@pytest.mark.slow
@pytest.mark.parametrize("backend", BACKENDS)
def test_real_data_zh_and_ted_matrix_equal(data_dir: Path, backend: Backend) -> None:
    zh = data_dir / "wmt22-general-zh-en"
    refs = [(zh / f"reference.{k}.en").read_text(encoding="utf-8").split("\n")[:-1] for k in "AB"]
    hyps = sorted((zh / "systems").glob("*.en"))[0].read_text(encoding="utf-8").split("\n")[:-1]
    for config in (
        BleuConfig(),
        BleuConfig(tokenize="intl", lowercase=True, max_ngram_order=6),
        BleuConfig(tokenize="char"),
    ):
        assert_same(hyps, refs, config, backend)
    ted = data_dir / "compare-mt-ted-sk-en"
    assert_same(
        (ted / "ted.sys1.detok.eng").read_text().split("\n")[:-1],
        [(ted / "ted.ref.detok.eng").read_text().split("\n")[:-1]],
        BleuConfig(lowercase=True),
        backend,
    )


@pytest.mark.parametrize("backend", BACKENDS)
def test_reference_set_is_reused_across_systems_and_settings(backend: Backend) -> None:
    refs = [["the cat sat on the mat", "hello world , again"]]
    ref_set = ReferenceSet(refs, backend=backend)
    a = ref_set.stats(["the cat sat on a mat", "hello world"], 2)
    b = ref_set.stats(["a dog", "hello world , again"], 9)  # higher orders counted on demand
    c = ref_set.stats(["the cat sat on a mat", "hello world"], 4)  # candidate-only tokens leave refs alone
    np.testing.assert_array_equal(
        a, explain_matrix(["the cat sat on a mat", "hello world"], refs, BleuConfig(max_ngram_order=2))[0]
    )
    np.testing.assert_array_equal(
        b, explain_matrix(["a dog", "hello world , again"], refs, BleuConfig(max_ngram_order=9))[0]
    )
    np.testing.assert_array_equal(c[:, [0, 1, 2, 3, 6, 7]], a)
    with pytest.raises(InputError, match="hypotheses: 1 segments"):
        ref_set.stats(["one"], 4)


def test_kernel_tokens_equal_per_line_on_real_data(data_dir: Path) -> None:
    lines: list[str] = []
    for path in sorted(data_dir.glob("*/*")):
        if path.is_file() and path.suffix in {".de", ".en", ".eng"}:
            lines += path.read_text(encoding="utf-8").split("\n")[:-1]
    for path in sorted((data_dir / "wmt21-news-en-de" / "systems").glob("*.de"))[:5]:
        lines += path.read_text(encoding="utf-8").split("\n")[:-1]
    assert len(lines) > 10_000
    for lowercase in (False, True):
        got = tokenize_corpus(lines, "13a", lowercase=lowercase)
        want = [list(preprocess(line, "13a", lowercase=lowercase)) for line in lines]
        assert got == want


@pytest.mark.parametrize("backend", BACKENDS)
def test_tokenize_corpus_random_unicode_lines_equal_per_line(backend: Backend, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BLEU_CORE_KERNEL", "1" if backend == "kernel" else "0")
    rng = random.Random(7)
    pool = [*ALL_WORDS, "\u00a0", "ΣΑΣ", "ΌΣ.", "x\u2028y", "\r", "Σ'", "a\x00b"]
    lines = [
        " ".join(rng.choice(pool) for _ in range(rng.randint(0, 12))) + rng.choice(["", " ", "\t"]) for _ in range(3000)
    ]
    for lowercase in (False, True):
        assert tokenize_corpus(lines, "13a", lowercase=lowercase) == [
            list(preprocess(line, "13a", lowercase=lowercase)) for line in lines
        ]
        for name in TOKENIZERS:
            assert tokenize_corpus(lines[:300], name, lowercase=lowercase) == [
                list(preprocess(line, name, lowercase=lowercase)) for line in lines[:300]
            ]


def test_without_the_kernel_every_engine_choice_is_the_explainable_path(monkeypatch: pytest.MonkeyPatch) -> None:
    """BLEU_CORE_KERNEL=0 (or no compiler): ``auto`` counts line by line, NUL and newlines included, and
    asking for the kernel is refused by name rather than silently served by something else."""
    monkeypatch.setenv("BLEU_CORE_KERNEL", "0")
    assert choose("auto", 10**6) == "explain"
    assert ReferenceSet([["a b"]]).backend == "explain"
    with pytest.raises(InputError, match="engine: the C kernel is not built"):
        choose("kernel")
    hyps, refs = ["ab-\ncd x", "a\x00 b", *(["the cat sat"] * 600)], [["abcd x", "a\x00 b", *(["the cat"] * 600)]]
    got = corpus_score(hyps, refs, BleuConfig())
    want = sacrebleu.corpus_bleu(hyps, refs)
    assert (got.score, got.counts, got.totals) == (want.score, want.counts, want.totals)


def test_corpus_score_engines_agree_and_unknown_engine_is_refused() -> None:
    hyps, refs = ["It is a guide to action ."], [["It is a guide to action that ensures ."]]
    a = corpus_score(hyps, refs, BleuConfig(), engine="kernel")
    b = corpus_score(hyps, refs, BleuConfig(), engine="explain")
    c = corpus_score(hyps, refs, BleuConfig())  # auto: one segment is counted line by line
    assert (a.score, a.signature) == (b.score, b.signature) == (c.score, c.signature)
    with pytest.raises(InputError, match="engine"):
        corpus_score(hyps, refs, BleuConfig(), engine="slow")  # type: ignore[arg-type]


def test_streaming_files_equal_in_memory_score(tmp_path: Path, data_dir: Path) -> None:
    folder = data_dir / "wmt21-news-en-de"
    ref_paths = [folder / f"reference.{k}.de" for k in "AC"]
    hyp_path = folder / "systems" / "UEdin.de"
    gz = tmp_path / "hyp.de.gz"
    gz.write_bytes(gzip.compress(hyp_path.read_bytes()))
    hyps = hyp_path.read_text(encoding="utf-8").split("\n")[:-1]
    refs = [p.read_text(encoding="utf-8").split("\n")[:-1] for p in ref_paths]
    want = corpus_score(hyps, refs, BleuConfig())
    for chunk in (1, 97, 1000, 10**6):
        got = corpus_bleu_files(gz, ref_paths, BleuConfig(), chunk_lines=chunk)
        assert (got.counts, got.totals, got.sys_len, got.ref_len, got.signature) == (
            want.counts,
            want.totals,
            want.sys_len,
            want.ref_len,
            want.signature,
        )
        assert got.score == pytest.approx(want.score, abs=1e-9)


def test_streaming_errors_name_the_file(tmp_path: Path) -> None:
    (tmp_path / "h").write_text("a\nb\nc\n")
    (tmp_path / "r").write_text("a\nb\n")
    (tmp_path / "bad").write_bytes(b"a\n\xff\n")
    with pytest.raises(InputError, match=r"r: has 2 lines but .*h has more"):
        corpus_bleu_files(tmp_path / "h", [tmp_path / "r"], chunk_lines=2)
    with pytest.raises(InputError, match=r"bad:2: not UTF-8"):
        corpus_bleu_files(tmp_path / "bad", [tmp_path / "h"])
    with pytest.raises(InputError, match="no such file"):
        corpus_bleu_files(tmp_path / "missing", [tmp_path / "h"])
    with pytest.raises(InputError, match="chunk_lines"):
        corpus_bleu_files(tmp_path / "h", [tmp_path / "h"], chunk_lines=0)


@pytest.mark.parametrize("tokenize", ["13a", "intl", "char", "none"])
def test_matches_name_the_counted_ngrams_on_both_backends(tokenize: str) -> None:
    """ReferenceSet.matches: the same dictionaries from the kernel and from the explainable path, and per
    order their clipped counts sum to the matches columns of stats()."""
    rng = random.Random(f"matches{tokenize}")
    for _ in range(40):
        hyps, refs = random_corpus(rng, max_segments=8, exotic=True)
        order = rng.randint(1, 6)
        lowercase = rng.random() < 0.5
        kernel_set = ReferenceSet(refs, tokenize=tokenize, lowercase=lowercase, backend="kernel")
        got = kernel_set.matches(hyps, order)
        assert got == ReferenceSet(refs, tokenize=tokenize, lowercase=lowercase, backend="explain").matches(hyps, order)
        matrix = kernel_set.stats(hyps, order)
        for seg, found in enumerate(got):
            assert all(c > 0 for c in found.values())
            for n in range(1, order + 1):
                assert sum(c for g, c in found.items() if len(g) == n) == matrix[seg, 1 + n]


# --- n-gram differences (ReferenceSet.ngram_diff: kernel section 10, and the explainable path) ---------------


def diff_by_definition(
    ma: list[dict[tuple[str, ...], int]], mb: list[dict[tuple[str, ...], int]]
) -> dict[tuple[str, ...], tuple[int, int, list[int]]]:
    """Per n-gram: A's clipped counts beyond B's, B's beyond A's, the segments where they differ (from each
    system's matches() dictionaries, segment by segment)."""
    out: dict[tuple[str, ...], tuple[int, int, list[int]]] = {}
    for s, (a, b) in enumerate(zip(ma, mb, strict=True)):
        for g in a.keys() | b.keys():
            d = a.get(g, 0) - b.get(g, 0)
            if d:
                oa, ob, segs = out.get(g, (0, 0, []))
                out[g] = (oa + max(d, 0), ob + max(-d, 0), [*segs, s])
    return out


def diff_as_dict(d: NgramDiff) -> dict[tuple[str, ...], tuple[int, int, list[int]]]:
    return {
        tuple(d.name(i).split(" ")): (int(d.only_a[i]), int(d.only_b[i]), d.segments_of(i).tolist())
        for i in range(len(d.only_a))
    }


def assert_same_diff(got: NgramDiff, want: NgramDiff) -> None:
    """Identical arrays (dtype, shape, values and order) and the same token names."""
    for field in ("grams", "only_a", "only_b", "offsets", "segments"):
        g, w = getattr(got, field), getattr(want, field)
        assert g.dtype == w.dtype, field
        assert g.shape == w.shape, field
        np.testing.assert_array_equal(g, w, err_msg=field)
    assert [got.name(i) for i in range(len(got.only_a))] == [want.name(i) for i in range(len(want.only_a))]


@pytest.mark.parametrize("tokenize", ["13a", "intl", "char", "none"])
def test_ngram_diff_is_the_definition_on_both_backends(tokenize: str) -> None:
    """Random corpora (exotic whitespace, missing references, unknown candidate tokens, orders 1-6): the
    kernel's arrays equal the explainable path's, and both count what the definition counts."""
    rng = random.Random(f"ngramdiff{tokenize}")
    for _ in range(40):
        hyps, refs = random_corpus(rng, max_segments=8, exotic=True)
        other = [
            rng.choice([h, "", h + " zz-unknown", *(r[i] for r in refs if r[i] is not None)])
            for i, h in enumerate(hyps)
        ]
        order = rng.randint(1, 6)
        lowercase = rng.random() < 0.5
        kernel_set = ReferenceSet(refs, tokenize=tokenize, lowercase=lowercase, backend="kernel")
        explain_set = ReferenceSet(refs, tokenize=tokenize, lowercase=lowercase, backend="explain")
        got = kernel_set.ngram_diff(hyps, other, order)
        assert_same_diff(got, explain_set.ngram_diff(hyps, other, order))
        assert diff_as_dict(got) == diff_by_definition(
            kernel_set.matches(hyps, order), kernel_set.matches(other, order)
        )
        assert got.grams.shape[1] == order


@pytest.mark.parametrize(
    ("folder", "tokenize", "lowercase"),
    [("wmt21-news-en-de", "13a", False), ("wmt22-general-zh-en", "zh", False), ("wmt22-general-zh-en", "intl", True)],
)
def test_ngram_diff_real_data_same_arrays_on_both_backends(
    data_dir: Path, folder: str, tokenize: str, lowercase: bool
) -> None:
    """Two systems of WMT21 en-de (one reference) and WMT22 zh-en (two): the kernel, the explainable path
    and the two systems' match arrays give identical arrays, and the definition's counts."""
    wmt = data_dir / folder
    read = lambda p: p.read_text(encoding="utf-8").split("\n")[:-1]  # noqa: E731
    refs = [read(p) for p in sorted(wmt.glob("reference.*"))]
    sys_a, sys_b = (read(p) for p in sorted((wmt / "systems").iterdir())[:2])
    kernel_set = ReferenceSet(refs, tokenize=tokenize, lowercase=lowercase, backend="kernel")
    got = kernel_set.ngram_diff(sys_a, sys_b, 4)
    assert len(got.only_a) > 1000
    assert got.only_a.sum() > 0
    assert got.only_b.sum() > 0
    explain_set = ReferenceSet(refs, tokenize=tokenize, lowercase=lowercase, backend="explain")
    assert_same_diff(got, explain_set.ngram_diff(sys_a, sys_b, 4))
    assert_same_diff(
        got, NgramDiff.from_match_arrays(kernel_set.match_arrays(sys_a, 4), kernel_set.match_arrays(sys_b, 4))
    )
    assert diff_as_dict(got) == diff_by_definition(kernel_set.matches(sys_a, 4), kernel_set.matches(sys_b, 4))


@pytest.mark.parametrize("backend", BACKENDS)
def test_ngram_diff_edges(backend: Backend) -> None:
    refs = [["the cat sat on the mat", "a b c", "x y"], ["the cat is here", None, "x y z"]]
    ref_set = ReferenceSet(refs, backend=backend)
    a = ["the cat sat", "", "x y"]
    for order in (1, 4):
        same = ref_set.ngram_diff(a, a, order)  # no difference at all: nothing listed
        assert same.grams.shape == (0, order)
        assert len(same.segments) == 0
        assert same.offsets.tolist() == [0]
    empty = ["", "", ""]
    d = ref_set.ngram_diff(a, empty, 1)  # against empty candidates: every credited unigram of A
    assert diff_as_dict(d) == {
        ("the",): (1, 0, [0]),
        ("cat",): (1, 0, [0]),
        ("sat",): (1, 0, [0]),
        ("x",): (1, 0, [2]),
        ("y",): (1, 0, [2]),
    }
    assert d.grams.tolist() == [[0], [1], [2], [8], [9]]  # by first segment, then id (references' order)
    d4 = ref_set.ngram_diff(["the cat sat", "a b", "x y unknown"], ["the dog sat", "a b c", "x y"], 4)
    # segment 2 (reference 2 missing): only the first reference's "a b c" counts; "unknown" is in no
    # reference and never credited, so "x y" is no difference
    assert diff_as_dict(d4) == {
        ("cat",): (1, 0, [0]),
        ("the", "cat"): (1, 0, [0]),
        ("cat", "sat"): (1, 0, [0]),
        ("the", "cat", "sat"): (1, 0, [0]),
        ("c",): (0, 1, [1]),
        ("b", "c"): (0, 1, [1]),
        ("a", "b", "c"): (0, 1, [1]),
    }
    none = ReferenceSet([[]], backend=backend).ngram_diff([], [], 4)
    assert none.grams.shape == (0, 4)
    assert none.offsets.tolist() == [0]
    with pytest.raises(InputError, match="hypotheses: 2 segments but the references have 3"):
        ref_set.ngram_diff(a, a[:2], 2)


@pytest.mark.parametrize("backend", BACKENDS)
def test_encoded_hypotheses_give_what_the_lines_give(data_dir: Path, backend: Backend) -> None:
    """ReferenceSet.encode: a system tokenized once; stats (every order), match_arrays and ngram_diff from it equal
    those from the lines. Another reference set refuses it (its ids are this set's vocabulary)."""
    zh = data_dir / "wmt22-general-zh-en"
    refs = [(zh / f"reference.{k}.en").read_text(encoding="utf-8").split("\n")[:300] for k in "AB"]
    sys_a, sys_b = (
        (p.read_text(encoding="utf-8").split("\n")[:300]) for p in sorted((zh / "systems").glob("*.en"))[:2]
    )
    ref_set = ReferenceSet(refs, tokenize="intl", lowercase=True, backend=backend)
    ea, eb = ref_set.encode(sys_a), ref_set.encode(sys_b)
    assert len(ea) == 300
    for order in (1, 4, 6):
        np.testing.assert_array_equal(ref_set.stats(ea, order), ref_set.stats(sys_a, order))
    assert_same_diff(ref_set.ngram_diff(ea, eb, 4), ref_set.ngram_diff(sys_a, sys_b, 4))
    assert_same_diff(ref_set.ngram_diff(ea, sys_b, 2), ref_set.ngram_diff(sys_a, sys_b, 2))
    m, want = ref_set.match_arrays(ea, 3), ref_set.match_arrays(sys_a, 3)
    for field in ("segments", "grams", "clipped"):
        np.testing.assert_array_equal(getattr(m, field), getattr(want, field))
    many = ref_set.encode_many([sys_a, sys_b])  # on several cores: the same tokens
    assert [e.data for e in many] == [ea.data, eb.data]
    for got, lines in zip(ref_set.stats_many(many, 4), (sys_a, sys_b), strict=True):
        np.testing.assert_array_equal(got, ref_set.stats(lines, 4))
    other = ReferenceSet(refs, tokenize="intl", lowercase=True, backend=backend)
    with pytest.raises(InputError, match="hypotheses: tokenized for another reference set"):
        other.stats_many([ea], 4)
    with pytest.raises(InputError, match="hypotheses: tokenized for another reference set"):
        other.stats(ea, 4)
    with pytest.raises(InputError, match="hypotheses: 2 segments but the references have 300"):
        ref_set.encode(sys_a[:2])
