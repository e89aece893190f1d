"""The chrF kernel (bleu_core/metrics/_chrf_kernel.c): built, chosen as BLEU's kernel is, and safe at its edges.

Its numbers are held to the Counter path and to sacreBLEU in test_chrf_parity.py and test_chrf_fuzz.py; here: that it
is there (a missing build fails, not skips), which engine ``auto`` picks, the switch, and the inputs the Python
layer never sends but the extension must survive (wrong types, bad ranges, long lines, empty references).
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time

import numpy as np
import pytest
from sacrebleu.metrics import CHRF

from bleu_core import InputError, corpus_chrf
from bleu_core.engine.choose import SMALL_CORPUS
from bleu_core.metrics import chrf_count
from bleu_core.metrics.chrf import Chrf
from tests.conftest import ROOT as REPO


def test_the_kernel_is_built() -> None:
    assert chrf_count._chrf_kernel is not None, (
        "bleu_core.metrics._chrf_kernel is not built (pip install -e ., a C compiler)"
    )
    assert chrf_count.kernel_on() == (os.environ.get("BLEU_CORE_KERNEL", "1") != "0")


def test_auto_counts_small_corpora_in_python_and_large_ones_in_c() -> None:
    small = ["a b"] * 3
    large = ["a b"] * SMALL_CORPUS
    assert chrf_count.choose_engine("auto", len(small), 6) == "explain"
    assert chrf_count.choose_engine("auto", len(large), None) == "kernel"
    assert Chrf().prepare([small]).backend == "kernel"  # prepared references serve many systems: the kernel
    assert corpus_chrf(large, [large]).segment_matrix is not None


def test_small_corpora_import_no_numpy() -> None:
    code = (
        "import sys\nfrom bleu_core import corpus_chrf\n"
        "s = corpus_chrf(['the cat sat'], [['the cat sat down']], word_order=2)\n"
        "print(round(s.score, 6), 'numpy' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=REPO)
    want = CHRF(word_order=2).corpus_score(["the cat sat"], [["the cat sat down"]]).score
    assert out.stdout.split() == [str(round(want, 6)), "False"]


def test_switching_the_kernel_off() -> None:
    code = (
        "from bleu_core import InputError, corpus_chrf\nfrom bleu_core.metrics.chrf import Chrf\n"
        "print(Chrf().prepare([['a']]).backend)\n"
        "try:\n    corpus_chrf(['a'], [['a']], engine='kernel')\nexcept InputError as e:\n    print(e)\n"
    )
    env = {**os.environ, "BLEU_CORE_KERNEL": "0"}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=REPO, env=env)
    # the switch is BLEU's too, so engine.choose refuses first, with its own words
    assert out.stdout.splitlines() == [
        "explain",
        "engine: the C kernel is not built (reinstall with a C compiler) or is switched off",
    ]


@pytest.fixture
def kernel():
    if chrf_count._chrf_kernel is None:
        pytest.fail("the chrF kernel is not built")
    return chrf_count._chrf_kernel


def test_the_extension_refuses_what_it_cannot_count(kernel) -> None:
    refs = kernel.References([["a b", None]], False, True)
    assert refs.n_segments == 2
    args = (6, 2, 4.0, 5.0, False)
    with pytest.raises(TypeError, match="hypothesis 2 is int, not str"):
        refs.stats(["a", 3], *args)
    with pytest.raises(ValueError, match="1 hypotheses for 2 segments"):
        refs.stats(["a"], *args)
    with pytest.raises(ValueError, match=r"char_order must be in 1\.\.1000"):
        refs.stats(["a", "b"], 0, 0, 4.0, 5.0, False)
    with pytest.raises(ValueError, match=r"start must be in 0\.\.stop"):
        refs.stats(["a", "b"], *args, 2, 1)
    with pytest.raises(ValueError, match="word n-grams asked of references prepared without words"):
        kernel.References([["a"]], False, False).stats(["a"], *args)
    with pytest.raises(TypeError, match="reference 1, segment 2 is bytes, not str"):
        kernel.References([["a", b"b"]], False, False)
    with pytest.raises(ValueError, match="stream 2 has 1 lines, stream 1 has 2"):
        kernel.References([["a", "b"], ["a"]], False, False)
    # a segment whose references are all missing gets a row of 0 (the Python layer refuses it before)
    row = np.frombuffer(refs.stats(["a", "b"], *args, 1, 2), dtype=np.int64)
    assert row.tolist() == [0] * 24


def test_a_long_line_and_odd_text(kernel) -> None:
    rng = np.random.default_rng(5)
    alphabet = [*"abc de\u0301中\ud800\x00 ,.!(", "\U0001f642", "\u3000", "\u2028"]
    long_hyp = "".join(rng.choice(alphabet, size=60_000))
    long_ref = "".join(rng.choice(alphabet, size=50_000))
    hyps, refs = [long_hyp, "", "(hi)"], [[long_ref, "x", "( hi )"], [long_hyp[:1000], "", "hi)"]]
    for options in ({"word_order": 2}, {"whitespace": True, "eps_smoothing": True}):
        want = CHRF(**options)._extract_corpus_statistics(hyps, refs)
        assert Chrf(**options).prepare(refs, engine="kernel").stats(hyps).tolist() == want


def test_the_kernel_counts_without_the_interpreter_lock(kernel) -> None:
    """While one thread counts a large system, another thread runs Python: it would wait for the whole call if the
    kernel held the lock."""
    line = "the cat sat on the mat and the dog sat on the log " * 40
    refs = Chrf().prepare([[line] * 3000], engine="kernel")
    hyps = [line[::-1]] * 3000
    ticks: list[float] = []
    done = threading.Event()

    def count() -> None:
        refs.stats(hyps, parallel=False)
        done.set()

    worker = threading.Thread(target=count)
    start = time.perf_counter()
    worker.start()
    while not done.is_set():
        ticks.append(time.perf_counter() - start)
        time.sleep(0.001)
    worker.join()
    elapsed = time.perf_counter() - start
    assert elapsed > 0.05, "the call was too short to tell"
    assert len(ticks) > 10, f"the main thread ran {len(ticks)} times during a {elapsed:.2f} s call"


def test_stats_are_int64_and_memory_is_one_matrix(kernel) -> None:
    refs = Chrf(word_order=2).prepare([["a b c"] * 1000], engine="kernel")
    m = refs.stats(["a b d"] * 1000)
    assert m.dtype == np.int64
    assert m.shape == (1000, 24)
    assert m.flags.c_contiguous


def test_explicit_engines_agree_on_a_corpus_of_every_size() -> None:
    for n in (1, SMALL_CORPUS - 1, SMALL_CORPUS, 1500):
        hyps = [f"line {i} of the corpus, a test." for i in range(n)]
        refs = [[f"line {i * 7 % n} of this corpus: the test" for i in range(n)]]
        k = corpus_chrf(hyps, refs, engine="kernel", word_order=2)
        e = corpus_chrf(hyps, refs, engine="explain", word_order=2)
        assert (k.score, k.statistics) == (e.score, e.statistics)
        assert np.array_equal(k.segment_matrix, e.segment_matrix)
    with pytest.raises(InputError, match="engine: unknown engine 'c'"):
        corpus_chrf(["a"], [["a"]], engine="c")  # type: ignore[arg-type]
