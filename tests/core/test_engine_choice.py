"""One place chooses the kernel or not (issue 19.4): engine.choose, by lines *and* characters (issue 24.8: a
single 50 MB line went to the slow path); counting, tokenizing and resampling all ask it; the tokenizer is
resolved once per corpus, not looked up per line. Checked by which engine runs, never by a clock."""

from __future__ import annotations

import ast
from pathlib import Path

import numpy as np
import pytest

from bleu_core import BleuConfig, InputError
from bleu_core.engine import ReferenceSet, choose, corpus_chars, count, counting, tokenize_corpus, tokenizers
from bleu_core.engine.choose import SMALL_CHARS, SMALL_CORPUS
from bleu_core.engine.stats import corpus_rows, prepare_references
from bleu_core.engine.tokenizers import TOKENIZERS, preprocess, preprocessor
from bleu_core.metrics.bleu import corpus_score
from bleu_core.significance import resample

CORE = Path(__file__).resolve().parents[2] / "bleu_core"
LONG = "the cat sat on the mat . " * (SMALL_CHARS // 20)  # one line over SMALL_CHARS characters


@pytest.fixture
def kernel_on(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BLEU_CORE_KERNEL", "1")
    if choose("auto") != "kernel":
        pytest.skip("the C kernel is not built")


def test_auto_decides_by_characters_too(kernel_on: None) -> None:
    assert choose("auto", 1, n_chars=50 * 2**20) == "kernel"  # the 50 MB single line
    assert choose("auto", 1, n_chars=SMALL_CHARS) == "kernel"
    assert choose("auto", 1, n_chars=SMALL_CHARS - 1) == "explain"
    assert choose("auto", SMALL_CORPUS - 1, n_chars=100) == "explain"
    assert choose("auto", SMALL_CORPUS, n_chars=100) == "kernel"
    assert choose("auto", 3) == "explain"  # size unknown: the lines decide
    assert choose("auto") == "kernel"  # no size (a reused ReferenceSet, resampling): whenever it is built


def test_corpus_chars_counts_every_stream_and_skips_missing_lines() -> None:
    assert corpus_chars(["ab", ""], ["abc", None], []) == 5
    assert corpus_chars() == 0


def test_one_long_line_is_counted_in_c(kernel_on: None, monkeypatch: pytest.MonkeyPatch) -> None:
    """What the CLI's score runs (bleu.corpus_score -> engine.count): a few long lines no longer take the
    line-by-line path. The explainable path's row builder is replaced by a recorder to see which ran."""
    calls: list[int] = []

    def spy(hyps, infos, config):  # type: ignore[no-untyped-def]
        calls.append(len(hyps))
        return corpus_rows(hyps, infos, config)

    monkeypatch.setattr(counting, "corpus_rows", spy)
    config = BleuConfig()
    matrix, nrefs = count([LONG], [[LONG]], config)
    assert isinstance(matrix, np.ndarray)  # the kernel's int64 array; the explainable path gives a list
    assert (nrefs, calls) == (1, [])
    small, _ = count(["the cat"], [["the cat sat"]], config)
    assert isinstance(small, list)
    assert calls == [1]
    long_score = corpus_score([LONG], [[LONG[:-40]]], config)
    assert calls == [1]
    assert long_score.score == pytest.approx(corpus_score([LONG], [[LONG[:-40]]], config, engine="explain").score)


def test_tokenize_corpus_asks_choose(kernel_on: None, monkeypatch: pytest.MonkeyPatch) -> None:
    """Under auto a short corpus is tokenized line by line (as it is counted), a long one in C."""
    asked: list[tuple[object, ...]] = []
    real = counting.choose

    def recorder(*args: object) -> str:
        asked.append(args)
        return real(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(counting, "choose", recorder)
    lines = ["It is a guide.", "Party!"]
    assert tokenize_corpus(lines, "paper", lowercase=True) == [["it", "is", "a", "guide"], ["party"]]
    assert asked == [("auto", 2, 20)]
    assert real(*asked[0]) == "explain"  # type: ignore[arg-type]
    assert tokenize_corpus([LONG], "13a") == [LONG.split()]
    assert real(*asked[1]) == "kernel"  # type: ignore[arg-type]


@pytest.mark.parametrize("name", list(TOKENIZERS))
@pytest.mark.parametrize("lowercase", [False, True])
def test_tokenize_corpus_in_c_equals_per_line(kernel_on: None, name: str, lowercase: bool) -> None:
    lines = ["Hello, World (3.5-4).  ", "ΣΑΣ ΌΣ. x\u2028y", "", "a\x00b  \t", "東京は大きい。"]
    try:
        preprocessor(name)
    except InputError:
        pytest.skip(f"{name} needs optional packages that are not installed")
    want = [list(preprocess(line, name, lowercase=lowercase)) for line in lines]
    assert tokenize_corpus(lines, name, lowercase=lowercase, engine="kernel") == want
    assert tokenize_corpus(lines, name, lowercase=lowercase, engine="explain") == want


def test_resampling_draws_with_the_engine_chosen(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BLEU_CORE_KERNEL", "0")
    assert isinstance(resample.drawer(), resample.NumpyDrawer)
    monkeypatch.setenv("BLEU_CORE_KERNEL", "1")
    if choose("auto") == "kernel":
        assert isinstance(resample.drawer(), resample.KernelDrawer)
        assert resample.drawer(draws=False, raw_bits=False).scratch(2, 3, np.float32) is None


def test_only_engine_choose_asks_whether_the_kernel_is_built() -> None:
    """Counted over the core's source: every call of accel.kernel_available is in engine.choose."""
    askers = []
    for path in sorted(CORE.rglob("*.py")):
        if path.name == "accel.py":
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for fn in ast.walk(tree):
            if isinstance(fn, ast.FunctionDef | ast.AsyncFunctionDef):
                for node in ast.walk(fn):
                    if isinstance(node, ast.Call) and getattr(node.func, "id", getattr(node.func, "attr", "")) in (
                        "kernel_available",
                        "kernel",
                    ):
                        askers.append(f"{path.parent.name}.{path.stem}.{fn.name}")
    assert sorted(set(askers)) == ["engine.choose.choose"]


def test_the_tokenizer_is_resolved_once_per_corpus(monkeypatch: pytest.MonkeyPatch) -> None:
    """tokenizers.py looked the tokenizer up again for every line; now a Preprocessor holds it."""
    looked_up: list[str] = []
    real = tokenizers._loaded

    def counting(name: str):  # type: ignore[no-untyped-def]
        looked_up.append(name)
        return real(name)

    monkeypatch.setattr(tokenizers, "_loaded", counting)
    refs = [[f"the cat sat on mat {i}" for i in range(200)], [f"a cat is on the mat {i}" for i in range(200)]]
    hyps = [f"the cat is on the mat {i}" for i in range(200)]
    config = BleuConfig(tokenize="intl")
    infos, _ = prepare_references(refs, config)
    rows = corpus_rows(hyps, infos, config)
    assert len(rows) == 200
    assert looked_up == ["intl", "intl"]  # one per call, not one per line (600 before)
    looked_up.clear()
    rs = ReferenceSet(refs, tokenize="intl", backend="explain")
    rs.stats(hyps)
    assert looked_up == ["intl"]
