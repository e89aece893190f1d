"""The C kernel (bleu_core/engine/_kernel.c): built, and token for token the same as Python's tokenizers.

test_fast.py holds its statistics equal to the explainable path (random corpora, every tokenizer and
order, real data); here: its tokenizer against Python's own definitions, down to every code point.
"""

from __future__ import annotations

import random
import sys
import threading
from pathlib import Path

import numpy as np
import pytest
import sacrebleu

from bleu_core import BleuConfig
from bleu_core.engine import ReferenceSet, _kernel
from bleu_core.engine.accel import kernel_available
from bleu_core.engine.tokenizers import _13A_RULES, preprocess
from bleu_core.metrics.bleu import corpus_score
from tests.core.cases import random_corpus


def tokens(lines: list[str | None], mode: int) -> list[list[str] | None]:
    vocab = _kernel.Vocab()
    ids_b, lens_b = vocab.encode(lines, mode, True)
    ids, lens = np.frombuffer(ids_b, dtype=np.int32), np.frombuffer(lens_b, dtype=np.int32)
    out: list[list[str] | None] = []
    pos = 0
    for n in lens.tolist():
        if n < 0:
            out.append(None)
            continue
        out.append([vocab.token(int(i)) for i in ids[pos : pos + n]])
        pos += n
    assert pos == len(ids)
    return out


def test_kernel_is_built_and_used() -> None:
    """`pip install -e .` compiles it (setup.py); without it bleu_core.engine silently counts on the
    explainable path, which is exact but about 30x slower, so a missing build must fail here."""
    assert kernel_available()
    assert ReferenceSet([["a b"]]).backend == "kernel"


def test_split_matches_str_split_for_every_code_point() -> None:
    chars = [chr(c) for c in range(sys.maxunicode + 1) if not 0xD800 <= c <= 0xDFFF]
    lines = [f"a{c}b" for c in chars]
    got = tokens(lines, 0)
    want = [line.split() for line in lines]
    bad = [hex(ord(c)) for c, g, w in zip(chars, got, want) if g != w]
    assert not bad, bad[:20]


def test_surrogates_and_none_and_empty() -> None:
    lines = ["\ud800 x", None, "", "   ", "\U0001f600\u3000y", "a&amp;b, c."]
    want = [["\ud800", "x"], None, [], [], ["\U0001f600", "y"], ["a&amp;b,", "c."]]
    assert tokens(lines, 0) == want
    # the token strings, from tokenize and from encode's one pass, are the ids' tokens
    assert _kernel.tokenize(lines, 0) == want
    assert _kernel.tokenize(lines, 1) == tokens(lines, 1) == _kernel.Vocab().encode(lines, 1, True, True)[2]


def reference_13a(line: str) -> list[str]:
    return list(preprocess(line, "13a"))


@pytest.mark.parametrize("seed", range(4))
def test_13a_equals_the_regexes_on_random_text(seed: int) -> None:
    rng = random.Random(seed)
    alphabet = list(" .,.,.,--0123456789aZé中\t\u00a0\u2028\x85…!&;:/()'\"<>[]{}~`^_|\\@#$%*+=?ß\n\x00\r")
    alphabet += ["&quot;", "&amp;", "&lt;", "&gt;", "&amp;quot;", "<skipped>", "<skip", "-\n", "\U0001f600"]
    lines = ["".join(rng.choice(alphabet) for _ in range(rng.randint(0, 16))) for _ in range(20_000)]
    got = tokens(lines, 1)
    for line, g in zip(lines, got):
        assert g == reference_13a(line), repr(line)


def test_13a_rules_regexes_still_sacrebleus() -> None:
    """The rules the kernel is checked against are sacrebleu's own (its patterns, in its order)."""
    from sacrebleu.tokenizers.tokenizer_re import TokenizerRegexp

    theirs = [(p.pattern, r) for p, r in TokenizerRegexp()._re]
    assert [(p.pattern, r) for p, r in _13A_RULES] == theirs


def test_13a_on_real_data(data_dir: Path) -> None:
    lines: list[str] = []
    for path in sorted(data_dir.glob("*/reference*")) + sorted(data_dir.glob("*/*.eng")):
        lines += path.read_text(encoding="utf-8").split("\n")[:-1]
    assert len(lines) > 5_000
    assert tokens(lines, 1) == [reference_13a(line) for line in lines]


def test_unknown_candidate_tokens_get_minus_one() -> None:
    vocab = _kernel.Vocab()
    vocab.encode(["the cat"], 1, True)
    ids, lens = vocab.encode(["the dog cat ."], 1, False)
    assert np.frombuffer(ids, dtype=np.int32).tolist() == [0, -1, 1, -1]
    assert np.frombuffer(lens, dtype=np.int32).tolist() == [4]
    assert len(vocab) == 2


def test_tokenizer_modes_are_named_alike_in_c_and_python() -> None:
    """engine passes the kernel's own MODE_13A / MODE_SPLIT; 13a and split give what Python gives."""
    from bleu_core.engine.accel import kernel_input
    from bleu_core.engine.tokenizers import preprocessor

    assert (_kernel.MODE_SPLIT, _kernel.MODE_13A) == (0, 1)
    assert kernel_input(["a"], preprocessor("13a"))[1] == _kernel.MODE_13A
    assert kernel_input(["a"], preprocessor("intl"))[1] == _kernel.MODE_SPLIT
    line = "Hello, world (3.5-4)."
    assert _kernel.tokenize([line], _kernel.MODE_13A) == [reference_13a(line)]
    assert _kernel.tokenize([line], _kernel.MODE_SPLIT) == [line.split()]


def test_lines_are_read_from_a_snapshot_while_a_finalizer_changes_the_list() -> None:
    """walk_lines allocates (token lists), so the collector can run a finalizer in the middle of the walk;
    one that empties the caller's list must not shorten (or, growing it, overrun) the walk: the kernel
    reads a tuple snapshot whose size it took once."""
    import gc

    lines = [f"w{i} x{i}" for i in range(2000)]
    want = [line.split() for line in lines]

    class Clears:
        def __init__(self) -> None:
            self.me = self  # a cycle: only the collector frees it

        def __del__(self) -> None:
            lines.clear()
            lines.extend(["late"] * 5000)

    threshold = gc.get_threshold()
    try:
        gc.collect()
        gc.set_threshold(1)
        Clears()
        got = _kernel.Vocab().encode(lines, _kernel.MODE_SPLIT, True, True)[2]
    finally:
        gc.set_threshold(*threshold)
    assert len(lines) == 5000  # the finalizer did run
    assert got == want


def test_bad_arguments_are_refused() -> None:
    vocab = _kernel.Vocab()
    with pytest.raises(TypeError, match="line 2 is int"):
        vocab.encode(["a", 3], 1, True)
    with pytest.raises(ValueError, match="mode"):
        vocab.encode(["a"], 2, True)
    ids, lens = vocab.encode(["a b", "c"], 0, True)
    with pytest.raises(ValueError, match="disagree"):
        _kernel.segment_stats(ids[:4], lens, [(ids, lens)], 4)
    with pytest.raises(ValueError, match="different number of segments"):
        _kernel.segment_stats(ids, lens, [(ids[:8], lens[:4])], 4)
    with pytest.raises(ValueError, match="max_order"):
        _kernel.segment_stats(ids, lens, [(ids, lens)], 0)
    refs = [(ids, lens)]
    with pytest.raises(ValueError, match="candidate ids and lengths disagree"):
        _kernel.ngram_diff(ids, lens, ids[:4], lens, refs, 4)
    with pytest.raises(ValueError, match="negative candidate length"):
        _kernel.ngram_diff(ids, lens, b"", np.array([-1, 1], dtype=np.int32).tobytes(), refs, 4)
    with pytest.raises(ValueError, match="A and B have a different number of segments"):
        _kernel.ngram_diff(ids, lens, ids[:8], lens[:4], refs, 4)
    with pytest.raises(ValueError, match="different number of segments"):
        _kernel.ngram_diff(ids, lens, ids, lens, [(ids[:8], lens[:4])], 4)
    with pytest.raises(ValueError, match="reference ids and lengths disagree"):
        _kernel.ngram_diff(ids, lens, ids, lens, [(ids[:4], lens)], 4)
    with pytest.raises(ValueError, match="max_order"):
        _kernel.ngram_diff(ids, lens, ids, lens, refs, 1001)
    with pytest.raises(TypeError, match=r"\(ids, lens\) tuples"):  # was a SystemError from PyArg_ParseTuple
        _kernel.ngram_diff(ids, lens, ids, lens, [ids], 4)
    with pytest.raises(TypeError, match=r"\(ids, lens\) tuples"):
        _kernel.segment_stats(ids, lens, [[ids, lens]], 4)


@pytest.mark.parametrize("seed", range(3))
def test_newline_nul_and_exotic_whitespace_equal_the_explainable_path(seed: int) -> None:
    """Unlike numpy's whole-corpus 13a, the kernel takes any line: "-\\n", NUL, U+2028, ..."""
    rng = random.Random(seed)
    for _ in range(40):
        hyps, refs = random_corpus(rng, max_segments=10, exotic=True)
        hyps[0] += " ab-\ncd nul\x00x p\u2028q"
        for tokenize in ("13a", "none", "intl", "char"):
            config = BleuConfig(tokenize=tokenize, lowercase=rng.random() < 0.5, max_ngram_order=rng.randint(1, 6))
            fast = corpus_score(hyps, refs, config, engine="kernel")
            slow = corpus_score(hyps, refs, config, engine="explain")
            np.testing.assert_array_equal(fast.segment_matrix, slow.segment_matrix)
    assert (
        fast.counts
        == sacrebleu.corpus_bleu(hyps, refs, tokenize="char", lowercase=config.lowercase).counts[
            : config.max_ngram_order
        ]
    )


def test_counting_runs_in_threads_with_the_same_result(data_dir: Path) -> None:
    """segment_stats and ngram_diff release the GIL (the app's sessions share one process): same numbers in
    threads."""
    folder = data_dir / "wmt21-news-en-de"
    refs = [(folder / f"reference.{k}.de").read_text(encoding="utf-8").split("\n")[:-1] for k in "AC"]
    systems = [p.read_text(encoding="utf-8").split("\n")[:-1] for p in sorted((folder / "systems").glob("*.de"))[:4]]
    ref_set = ReferenceSet(refs)
    want = [ref_set.stats(h) for h in systems]
    want_diff = [ref_set.ngram_diff(systems[i], systems[(i + 1) % 4]) for i in range(4)]
    got: dict[int, np.ndarray] = {}
    got_diff: dict[int, list[np.ndarray]] = {}

    def work(i: int) -> None:
        got[i] = ref_set.stats(systems[i % 4])
        d = ref_set.ngram_diff(systems[i % 4], systems[(i + 1) % 4])
        got_diff[i] = [d.grams, d.only_a, d.only_b, d.offsets, d.segments]

    threads = [threading.Thread(target=work, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for i in range(8):
        np.testing.assert_array_equal(got[i], want[i % 4])
        w = want_diff[i % 4]
        for g, x in zip(got_diff[i], [w.grams, w.only_a, w.only_b, w.offsets, w.segments], strict=True):
            np.testing.assert_array_equal(g, x)


@pytest.mark.parametrize(
    ("call", "message"),
    [
        # rows * cols * 8 wraps to 0 in 64 bits: an empty buffer passed the old size check, then the loop
        # read 2**62 rows from it
        (lambda: _kernel.bootstrap_counts(b"", 2**62, 4, True), "n_rows \\* n_cols"),
        (lambda: _kernel.bootstrap_counts(b"", 2**61, 2**3, False), "n_rows \\* n_cols"),
        (lambda: _kernel.bootstrap_counts(b"", -1, 0, False), "n_rows \\* n_cols"),
        # the same products for the counts drawn in the kernel: an empty out buffer must not pass
        (lambda: _kernel.bootstrap_draw_counts(_capsule(), bytearray(), 2**62, 4, True), "n_rows \\* n_cols"),
        (lambda: _kernel.bootstrap_draw_counts(_capsule(), bytearray(), 2**61, 2**3, False), "n_rows \\* n_cols"),
        (lambda: _kernel.bootstrap_draw_counts(_capsule(), bytearray(), -1, 5, False), "n_rows \\* n_cols"),
        # n * width * 8 wraps to 0: an empty matrix passed, and its 2**58 groups were read
        (lambda: _kernel.masked_sums(b"", 0, 2**61, b"", 4), "disagree"),
        # trials * n wraps to 0: no bits passed, and 2**62 trials were written into an empty result
        (lambda: _kernel.masked_sums(b"", 2**62, 4, bytes(32), 1), "disagree"),
        (lambda: _kernel.masked_sums(b"", -1, 4, bytes(32), 1), "disagree"),
    ],
)
def test_sizes_that_overflow_are_refused(call: object, message: str) -> None:
    """Every product that sizes a buffer or bounds a read is checked for overflow (the private
    functions take any Py_ssize_t); before, these read or wrote far past their buffers."""
    assert callable(call)
    with pytest.raises(ValueError, match=message):
        call()


def _capsule() -> object:
    return np.random.default_rng(0).bit_generator.capsule


def test_kernel_draws_refuse_what_they_cannot_draw_or_hold() -> None:
    """bootstrap_draw_counts: n_cols outside numpy's 32-bit Lemire branch, an out buffer of the wrong size
    or read-only, and anything but a bit generator's capsule are refused, and nothing is drawn."""
    rng = np.random.default_rng(3)
    before = rng.bit_generator.state
    for cols in (0, -3, 2**32, 2**40):
        with pytest.raises(ValueError, match="n_cols must be in"):
            _kernel.bootstrap_draw_counts(rng.bit_generator.capsule, bytearray(8), 1, cols, False)
    with pytest.raises(ValueError, match="n_rows \\* n_cols"):
        _kernel.bootstrap_draw_counts(rng.bit_generator.capsule, np.zeros((2, 5), np.float64), 2, 5, True)
    with pytest.raises(TypeError):
        _kernel.bootstrap_draw_counts(rng.bit_generator.capsule, bytes(40), 1, 5, False)
    with pytest.raises(TypeError, match="bit generator's capsule"):
        _kernel.bootstrap_draw_counts(rng.bit_generator, np.zeros(5), 1, 5, False)
    with pytest.raises(ValueError, match="kept must be"):  # PCG64's kept half is a 32-bit word
        _kernel.bootstrap_draw_counts(rng.bit_generator.capsule, np.zeros(5), 1, 5, False, (1, 2**32))
    with pytest.raises(TypeError, match="kept must be a"):
        _kernel.bootstrap_draw_counts(rng.bit_generator.capsule, np.zeros(5), 1, 5, False, 7)
    assert rng.bit_generator.state == before


def test_sizes_that_fit_but_cannot_be_allocated_raise_memory_error() -> None:
    """trials * width * 8 overflows while the inputs are consistent (no trials' bits needed when n = 0)."""
    with pytest.raises(MemoryError):
        _kernel.masked_sums(b"", 2**62, 0, b"", 4)


def _another_thread_ran_during(call, tries: int) -> bool:
    """Whether another thread ran Python while ``call`` (one C call) was in flight, in any of ``tries`` calls.

    Checked without a clock: a helper thread counts and sleeps a little between counts (so it needs the
    interpreter lock again to count). This thread reads the count, makes the call, reads it again. With the
    switch interval at 30 s (far longer than the calls), a waiting thread cannot make this one give up the lock
    at a bytecode between a read and the call or between the call and the next read; so the count moves during
    a call only if the C code released the lock.
    """
    import time

    count, stop = [0], threading.Event()

    def helper() -> None:
        while not stop.is_set():
            count[0] += 1
            time.sleep(0.0002)

    old = sys.getswitchinterval()
    sys.setswitchinterval(30.0)
    worker = threading.Thread(target=helper)
    worker.start()
    try:
        while count[0] == 0:
            time.sleep(0.001)
        for _ in range(tries):
            before = count[0]
            call()
            if count[0] != before:
                return True
        return False
    finally:
        stop.set()
        worker.join()
        sys.setswitchinterval(old)


def test_tokenizing_and_counting_let_other_threads_run() -> None:
    # ReferenceSet.stats_many runs systems in threads: that only helps if the kernel lets go of the lock. The
    # control: a sort (one C call that keeps the lock) never lets the other thread count (issue 24.9: no clock)
    data = Path(__file__).resolve().parents[3] / "shared" / "data" / "wmt21-news-en-de"
    refs = (data / "reference.A.de").read_text(encoding="utf-8").split("\n")[:-1] * 50
    hyps = sorted((data / "systems").glob("*.de"))[0].read_text(encoding="utf-8").split("\n")[:-1] * 50
    rs = ReferenceSet([refs], tokenize="13a")
    impl = rs._impl
    ids, lens = impl._encode(hyps, grow=False)
    shuffled = list(range(1_000_000))
    random.Random(1).shuffle(shuffled)
    assert not _another_thread_ran_during(lambda: sorted(shuffled), tries=3)
    assert _another_thread_ran_during(lambda: impl._encode(hyps, grow=False), tries=20)
    assert _another_thread_ran_during(lambda: _kernel.segment_stats(ids, lens, impl._streams, 4), tries=20)
    many = rs.stats_many([hyps, hyps[::-1]], 4)
    assert (many[0] == rs.stats(hyps, 4)).all()
    assert (many[1] == rs.stats(hyps[::-1], 4)).all()


def test_bootstrap_draws_let_other_threads_run() -> None:
    """numpy's own choice() draws without the interpreter lock (holding the generator's); the kernel's draws do
    too, so other sessions run while a corpus's pool is drawn (issue 24.9: checked without a clock).

    The kernel zeroes the counts and then fills them row by row, each row summing to the segments drawn, all
    inside its one call. Before each call the buffer is filled with -1, so a last row that is all >= 0 yet sums
    to less than n exists only while the call is in flight. Another thread copies that row (``tolist`` holds
    the interpreter lock for the whole copy, so a lock-holding writer cannot change it midway): if it ever sees
    such a row, it ran Python while the kernel was drawing. A kernel that kept the lock through the call could
    never be seen that way, however slow or busy the machine."""
    from bleu_core.significance.resample import _bootstrap_weights

    rows, n = 400, 25_000  # 10 million draws, 40 MB
    current = [np.full((rows, n), -1.0, dtype=np.float32)]
    stop, seen = threading.Event(), threading.Event()
    looks = [0]

    def watch() -> None:
        while not stop.is_set():
            last = current[0][-1].tolist()
            looks[0] += 1
            if min(last) >= 0 and sum(last) < n:
                seen.set()
                return

    watcher = threading.Thread(target=watch)
    watcher.start()
    rng = np.random.default_rng(12345)
    calls = 0
    try:
        while not seen.is_set() and calls < 20:  # almost always the first call; a bound, not a timer
            scratch = np.full((rows, n), -1.0, dtype=np.float32)
            current[0] = scratch
            _bootstrap_weights(rng, rows, n, np.float32, scratch)
            calls += 1
            assert (scratch.sum(axis=1) == n).all()  # after the call every row is complete
    finally:
        stop.set()
        watcher.join()
    assert seen.is_set(), f"no look of {looks[0]} over {calls} calls saw the kernel's counts in flight"
    again = np.random.default_rng(12345)
    first = _bootstrap_weights(again, 40, 25_000, np.float32, None).copy()  # numpy's draw and count: the same
    rng = np.random.default_rng(12345)
    scratch = np.empty((400, 25_000), dtype=np.float32)
    assert (_bootstrap_weights(rng, 40, 25_000, np.float32, scratch) == first).all()
