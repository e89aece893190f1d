"""bleu_core.significance: sacrebleu agreement, reproducibility, Holm and the block test by hand."""

from __future__ import annotations

import itertools
import math
from pathlib import Path

import numpy as np
import pytest
from sacrebleu.metrics import BLEU
from sacrebleu.significance import PairedTest

from bleu_core import BleuConfig, InputError
from bleu_core.engine import ReferenceSet, _kernel
from bleu_core.significance import (
    bootstrap_ci,
    bootstrap_cis,
    compare,
    holm,
    paired_ar,
    paired_bootstrap,
    pairwise_matrix,
    resample,
)
from bleu_core.significance.resample import resample_sums, shuffle_sums
from bleu_core.teaching.blocktest import block_test, paper_block_count, ranked_block_test, student_t_two_sided


@pytest.fixture(scope="module")
def wmt21(data_dir: Path) -> tuple[list[list[str]], list[str], list[list[str]]]:
    """References, names and outputs of the baseline and the three systems closest to it in BLEU."""
    folder = data_dir / "wmt21-news-en-de"
    refs = [(folder / "reference.A.de").read_text(encoding="utf-8").split("\n")[:-1]]
    paths = sorted((folder / "systems").glob("*.de"))
    outputs = {p.name: p.read_text(encoding="utf-8").split("\n")[:-1] for p in paths}
    ref_set = ReferenceSet(refs)
    scores = {n: float(np.asarray(ref_set.stats(h).sum(axis=0))[2]) for n, h in outputs.items()}
    base = "UEdin.de"
    near = sorted((n for n in outputs if n != base), key=lambda n: abs(scores[n] - scores[base]))[:3]
    names = [base, *near]
    return refs, names, [outputs[n] for n in names]


def _matrices(refs: list[list[str]], systems: list[list[str]]) -> list[np.ndarray]:
    ref_set = ReferenceSet(refs)
    return [ref_set.stats(h) for h in systems]


def _binomial_tolerance(p: float, n: int) -> float:
    # Both estimates are (c + 1) / (n + 1) from n Bernoulli trials: allow 4 standard errors (two
    # independent estimates: sqrt(2) x SE each) plus one count.
    return 4 * math.sqrt(2 * max(p * (1 - p), 1 / n) / n) + 1 / (n + 1)


def _sacrebleu(test: str, refs: list[list[str]], names: list[str], systems: list[list[str]], n: int) -> list:
    named = list(zip(names, systems, strict=True))
    bleu = BLEU(references=refs)
    ps = PairedTest(
        named,
        {"BLEU": bleu},
        references=None,
        test_type=test,
        n_samples=n,
        n_ar_confidence=1000 if test == "ar" else -1,
    )
    _, scores = ps()
    return scores["BLEU"]


# What the README says of the intervals (researcher-walk W3): the p-values are sacreBLEU 2.6.0's exactly on any
# numpy; bootstrap means and intervals are bit-identical on numpy 1.x and within 1e-6 on numpy 2.x, where
# sacreBLEU's float32 resample scores round differently (NEP 50's promotion rules; ours are float64).
INTERVALS_EXACT_BELOW_NUMPY = 2
INTERVAL_TOLERANCE_NUMPY_2 = 1e-6


def _interval_tolerance() -> float:
    return 0.0 if int(np.__version__.split(".")[0]) < INTERVALS_EXACT_BELOW_NUMPY else INTERVAL_TOLERANCE_NUMPY_2


def test_the_readme_states_which_numpy_the_intervals_match() -> None:
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
    assert "bit-identical to sacreBLEU 2.6.0's on numpy 1.26" in readme
    assert "within 1e-6 on numpy 2" in readme


@pytest.mark.slow
def test_paired_bootstrap_agrees_with_sacrebleu(wmt21) -> None:
    refs, names, systems = wmt21
    mats = _matrices(refs, systems)
    theirs = _sacrebleu("bs", refs, names, systems, 1000)
    ours = paired_bootstrap(mats[0], mats[1:], BleuConfig(), n_samples=1000, seed=12345)
    base = bootstrap_ci(mats[0], n_samples=1000, seed=12345)
    tol = _interval_tolerance()
    assert abs(base[0] - theirs[0].mean) <= tol
    assert abs(base[1] - theirs[0].ci) <= tol
    assert any(0.01 < r.p_value < 0.99 for r in ours), "pick systems that make the p-value test informative"
    for r, t in zip(ours, theirs[1:], strict=True):
        assert r.score == pytest.approx(t.score, abs=1e-9)
        assert r.p_value == t.p_value, (r, t)  # the same draws, the same count
        assert abs(r.mean - t.mean) <= tol, (r.mean, t.mean)
        assert abs(r.half_width - t.ci) <= tol, (r.half_width, t.ci)


@pytest.mark.slow
def test_paired_ar_agrees_with_sacrebleu(wmt21) -> None:
    refs, names, systems = wmt21
    mats = _matrices(refs, systems)
    n = 2000
    theirs = _sacrebleu("ar", refs, names, systems, n)
    ours = paired_ar(mats[0], mats[1:], BleuConfig(), n_trials=n, seed=12345)
    tol = _interval_tolerance()
    for r, t in zip(ours, theirs[1:], strict=True):
        assert r.score == pytest.approx(t.score, abs=1e-9)
        assert r.p_value == t.p_value, (r, t)
        assert abs(r.mean - t.mean) <= tol, (r.mean, t.mean)
        assert abs(r.half_width - t.ci) <= tol, (r.half_width, t.ci)


def test_same_seed_same_result_other_seed_other_draws(wmt21) -> None:
    refs, _, systems = wmt21
    mats = _matrices(refs, systems[:2])
    a = paired_bootstrap(mats[0], mats[1:], n_samples=300, seed=7)
    b = paired_bootstrap(mats[0], mats[1:], n_samples=300, seed=7)
    c = paired_bootstrap(mats[0], mats[1:], n_samples=300, seed=8)
    assert a == b
    assert (a[0].mean, a[0].half_width) != (c[0].mean, c[0].half_width)
    assert paired_ar(mats[0], mats[1:], n_trials=300, seed=7) == paired_ar(mats[0], mats[1:], n_trials=300, seed=7)
    assert "bs:300|rs:7" in a[0].signature
    assert "ar:300|rs:7" in paired_ar(mats[0], mats[1:], n_trials=300, seed=7)[0].signature


def test_identical_similar_and_clearly_different_systems() -> None:
    rng = np.random.default_rng(0)
    good = np.column_stack(
        [np.full(200, 10), np.full(200, 10), rng.integers(5, 10, (200, 4)), np.tile([10, 9, 8, 7], (200, 1))]
    )
    bad = good.copy()
    bad[:, 2:6] = np.maximum(bad[:, 2:6] - 3, 0)
    # sacrebleu's convention (from multeval): a zero difference is never "beaten", so p = 1 / (n + 1)
    assert paired_ar(good, [good], n_trials=500)[0].p_value == pytest.approx(1 / 501)
    assert paired_bootstrap(good, [good], n_samples=500)[0].p_value == pytest.approx(1 / 501)
    diff = paired_ar(good, [bad], n_trials=500)[0]
    assert diff.p_value == pytest.approx(1 / 501)
    assert paired_bootstrap(good, [bad], n_samples=500)[0].p_value == pytest.approx(1 / 501)
    assert diff.low <= diff.mean <= diff.high
    assert diff.difference < 0
    # same quality: each segment's matches come from one system or the other at random
    swap = rng.integers(0, 2, 200).astype(bool)
    mixed = np.where(swap[:, None], bad, good)
    other = np.where(swap[:, None], good, bad)
    assert paired_ar(mixed, [other], n_trials=1000)[0].p_value > 0.05
    assert paired_bootstrap(mixed, [other], n_samples=1000)[0].p_value > 0.05


def test_holm_by_hand() -> None:
    # sorted: 0.005*4 = 0.02, 0.01*3 = 0.03, 0.03*2 = 0.06, 0.04*1 = 0.04 -> max(0.06, 0.04) = 0.06
    assert holm([0.01, 0.04, 0.03, 0.005]) == pytest.approx((0.03, 0.06, 0.06, 0.02))
    # capped at 1 and monotone: 0.2*3 = 0.6, 0.5*2 = 1.0, 0.9*1 = 0.9 -> 1.0
    assert holm([0.9, 0.2, 0.5]) == pytest.approx((1.0, 0.6, 1.0))
    assert holm([]) == ()
    assert holm([0.3]) == (0.3,)
    with pytest.raises(InputError):
        holm([0.1, 1.5])


def test_pairwise_matrix_is_symmetric_and_matches_the_baseline_tests(wmt21) -> None:
    refs, names, systems = wmt21
    mats = _matrices(refs, systems)
    for method, trials in (("bs", 300), ("ar", 500)):
        r = pairwise_matrix(mats, names, BleuConfig(), method=method, trials=trials, seed=11)
        p = np.array(r.p_values)
        assert np.isnan(np.diag(p)).all()
        np.testing.assert_array_equal(np.nan_to_num(p), np.nan_to_num(p.T))
        pairs = (
            paired_bootstrap(mats[0], mats[1:], n_samples=trials, seed=11)
            if method == "bs"
            else paired_ar(mats[0], mats[1:], n_trials=trials, seed=11)
        )
        assert [x.p_value for x in pairs] == list(p[0, 1:])
        upper = [p[i, j] for i in range(4) for j in range(i + 1, 4)]
        adj = [r.adjusted[i][j] for i in range(4) for j in range(i + 1, 4)]
        assert list(holm(upper)) == adj
        assert r.differences[0][1] == pytest.approx(r.scores[1] - r.scores[0])
        assert f"{method}:{trials}|rs:11" in r.signature


def test_pairwise_tie_p_replaces_only_identical_scores_before_holm(wmt21) -> None:
    """sacreBLEU gives a system against its copy p = 1/(trials + 1); ``tie_p`` (the app's 1.0) replaces
    exactly those pairs, and Holm is taken over the replaced values."""
    refs, _, systems = wmt21
    mats = _matrices(refs, systems)[:2]
    mats = [mats[0], mats[1], mats[0]]
    sacre = pairwise_matrix(mats, ["a", "b", "a2"], BleuConfig(), trials=200, seed=3)
    app = pairwise_matrix(mats, ["a", "b", "a2"], BleuConfig(), trials=200, seed=3, tie_p=1.0)
    assert sacre.p_values[0][2] == 1 / 201
    assert app.p_values[0][2] == app.p_values[2][0] == 1.0
    assert (app.p_values[0][1], app.p_values[1][2]) == (sacre.p_values[0][1], sacre.p_values[1][2])
    upper = [app.p_values[0][1], app.p_values[0][2], app.p_values[1][2]]
    assert list(holm(upper)) == [app.adjusted[0][1], app.adjusted[0][2], app.adjusted[1][2]]


def test_block_test_by_hand() -> None:
    config = BleuConfig(max_ngram_order=1, smooth_method="none")
    half, full = [2, 2, 1, 2], [2, 2, 2, 2]
    a = np.array([half, half, full, full])  # blocks: 2/4 -> 50, 4/4 -> 100
    b = np.array([half, full, full, full])  # blocks: 3/4 -> 75, 100
    r = block_test([a, b], config, n_blocks=2)
    assert r.block_sizes == (2, 2)
    np.testing.assert_allclose(r.scores, [[50.0, 100.0], [75.0, 100.0]])
    assert r.means == pytest.approx((75.0, 87.5))
    assert r.stds == pytest.approx((math.sqrt(2 * 25**2), math.sqrt(2 * 12.5**2)))
    (pair,) = r.pairs
    # d = (25, 0): mean 12.5, sd 17.68, t = 12.5 / (17.68 / sqrt 2) = 1, df 1: Cauchy, p = 0.5
    assert (pair.first, pair.second, pair.df) == (0, 1, 1)
    assert pair.mean_difference == pytest.approx(12.5)
    assert pair.t == pytest.approx(1.0)
    assert pair.p_value == pytest.approx(0.5)
    assert block_test([a, a, b], config, n_blocks=3).block_sizes == (2, 1, 1)
    with pytest.raises(InputError, match="n_blocks"):
        block_test([a, b], config, n_blocks=5)


def test_student_t_against_known_values() -> None:
    assert student_t_two_sided(0.0, 5) == pytest.approx(1.0)
    assert student_t_two_sided(2.0, 1) == pytest.approx(1 - 2 * math.atan(2.0) / math.pi)
    assert student_t_two_sided(2.093024, 19) == pytest.approx(0.05, abs=1e-6)
    assert student_t_two_sided(-2.860935, 19) == pytest.approx(0.01, abs=1e-6)
    assert student_t_two_sided(1.959964, 10**6) == pytest.approx(0.05, abs=1e-5)


def test_bad_inputs_are_input_errors() -> None:
    m = np.ones((5, 10), dtype=np.int64)
    with pytest.raises(InputError, match="segments"):
        paired_bootstrap(m, [m[:4]])
    with pytest.raises(InputError, match="matrix"):
        paired_ar(m, [np.ones((5, 8))])
    with pytest.raises(InputError, match="n_samples"):
        paired_bootstrap(m, [m], n_samples=0)
    with pytest.raises(InputError, match="method"):
        pairwise_matrix([m, m], ["a", "b"], method="t")  # type: ignore[arg-type]
    with pytest.raises(InputError, match="names"):
        pairwise_matrix([m, m], ["a"])
    with pytest.raises(InputError, match="no segments"):
        bootstrap_ci(np.zeros((0, 10)))


@pytest.mark.parametrize(("n", "trials"), [(1002, 997), (7, 13), (33, 5), (64, 3), (1, 1), (300, 64)])
def test_ar_shuffles_are_numpys_boolean_draws_bit_for_bit(n: int, trials: int) -> None:
    """The kernel reads the generator's raw output as bits: the same selection as
    rng.integers(2, dtype=bool), and the generator left in the same state (next draws equal)."""
    rng = np.random.default_rng(n * 1000 + trials)
    matrix = rng.integers(-40, 90, size=(n, 14))
    want_rng = np.random.default_rng(99)
    pos = want_rng.integers(2, size=(trials, n), dtype=bool)
    want = pos.astype(np.int64) @ matrix
    got_rng = np.random.default_rng(99)
    got = shuffle_sums(got_rng, trials, [matrix], raw_bits=True)
    np.testing.assert_array_equal(got, want)
    np.testing.assert_array_equal(got_rng.choice(n, size=(2, n)), want_rng.choice(n, size=(2, n)))
    assert got_rng.integers(2**32) == want_rng.integers(2**32)


def test_numpy_release_is_one_the_raw_bits_were_checked_on() -> None:
    """The AR shuffles read numpy's generator state (has_uint32) and raw bits: a numpy outside
    resample.RAW_BITS_NUMPY silently gets the slower numpy draw. Fail loudly so that someone re-runs
    test_ar_shuffles_are_numpys_boolean_draws_bit_for_bit on it and widens the range (or fixes the kernel)."""
    from bleu_core.significance import resample

    assert resample._raw_bits_checked(), (
        f"numpy {np.__version__} is outside {resample.RAW_BITS_NUMPY}: check the raw-bit AR shuffles on it"
    )


# 6_700_417 divides 2**32 + 1, so its Lemire threshold (2**32 - n) % n is n - 1, the most rejections a row
# that fits in memory can have (one draw in 641); 2**31 + 1 would reject half of them but needs an 8 GB row
def _state(rng: np.random.Generator) -> str:
    # the whole state, comparable (MT19937 and SFC64 keep theirs in arrays)
    return repr({k: v.tolist() if isinstance(v, np.ndarray) else v for k, v in _flat(rng.bit_generator.state)})


def _flat(state: dict, prefix: str = "") -> list[tuple[str, object]]:
    items: list[tuple[str, object]] = []
    for key, value in state.items():
        items += _flat(value, f"{prefix}{key}.") if isinstance(value, dict) else [(prefix + key, value)]
    return items


@pytest.mark.parametrize(
    ("n", "block", "seed"),
    [(1, 4, 0), (2, 3, 1), (7, 5, 2), (7, 1, 3), (50_000, 3, 12345), (50_000, 1, 7), (6_700_417, 1, 5)],
)
@pytest.mark.parametrize("single", [True, False])
@pytest.mark.parametrize("odd_start", [False, True])
@pytest.mark.parametrize("words", ["pcg64 pairs", "pcg64 next_uint32", "mt19937", "sfc64"])
def test_kernel_draws_are_numpys_choice_draw_for_draw(n: int, block: int, seed: int, single, odd_start, words) -> None:
    """The kernel draws from the bit generator itself: row by row the counts of numpy's
    rng.choice(n, size=(block, n)), and the generator left exactly where choice leaves it (its whole state,
    the next draws). With PCG64 (significance's path) the words come two to a 64-bit output and the kept
    half goes in and out of the state; any bit generator's next_uint32 is the kernel's other path.
    odd_start: a 32-bit draw before leaves half of a 64-bit output kept in the state."""
    bit_generator = {"mt19937": np.random.MT19937, "sfc64": np.random.SFC64}.get(words, np.random.PCG64)
    want_rng, got_rng = np.random.Generator(bit_generator(seed)), np.random.Generator(bit_generator(seed))
    if odd_start:
        assert want_rng.integers(1000, dtype=np.uint32) == got_rng.integers(1000, dtype=np.uint32)
    dtype = np.float32 if single else np.float64
    want = np.stack([np.bincount(row, minlength=n) for row in want_rng.choice(n, size=(block, n))]).astype(dtype)
    scratch = np.full((block + 1, n), -1.0, dtype=dtype)  # every cell of the first block rows must be written
    if words == "pcg64 next_uint32":
        got = scratch[:block]
        with got_rng.bit_generator.lock:
            _kernel.bootstrap_draw_counts(got_rng.bit_generator.capsule, got, block, n, single)
    else:
        got = resample._bootstrap_weights(got_rng, block, n, dtype, scratch)
    np.testing.assert_array_equal(got, want)
    assert _state(got_rng) == _state(want_rng)
    assert got_rng.random() == want_rng.random()
    np.testing.assert_array_equal(got_rng.choice(n, size=3), want_rng.choice(n, size=3))


def test_the_draw_test_exercises_lemires_rejection_loop() -> None:
    """The 6_700_417 case above rejects thousands of 32-bit words (a kernel without the loop, or with the
    wrong threshold, would shift the stream there): counted here on the same words numpy draws from."""
    n, seed = 6_700_417, 5
    words = np.random.default_rng(seed).bit_generator.random_raw(n)  # 2n 32-bit words, low half first
    low = np.stack([words & np.uint64(0xFFFFFFFF), words >> np.uint64(32)], axis=1).ravel()
    leftover = (low * np.uint64(n)) & np.uint64(0xFFFFFFFF)
    rejected = int(np.sum(leftover[: n + 20_000] < np.uint64((2**32 - n) % n)))
    assert rejected > 5_000


def test_numpy_release_is_one_the_kernel_draws_were_checked_on() -> None:
    """The kernel's bootstrap draws are numpy's Generator.choice stream re-done in C: a numpy outside
    resample.KERNEL_DRAWS_NUMPY silently gets the slower numpy draw. Fail loudly so that someone re-runs
    test_kernel_draws_are_numpys_choice_draw_for_draw on it and widens the range (or fixes the kernel)."""
    assert resample._numpy_in(resample.KERNEL_DRAWS_NUMPY), (
        f"numpy {np.__version__} is outside {resample.KERNEL_DRAWS_NUMPY}: check the kernel's draws on it"
    )


@pytest.mark.parametrize(("n", "samples", "chunk_rows"), [(1002, 300, 7), (1002, 300, 300), (1, 5, 2), (3, 50, 1)])
def test_kernel_draws_give_the_same_resamples_as_numpys(
    wmt21, monkeypatch: pytest.MonkeyPatch, n: int, samples: int, chunk_rows: int
) -> None:
    """bootstrap_sums with the kernel drawing equals numpy drawing (and the kernel or numpy counting), over
    several blocks and a short last one, and leaves the generator in the same place for sacrebleu's next draws."""
    refs, _, systems = wmt21
    mats = [m[:n] for m in _matrices(refs, systems)]
    monkeypatch.setattr(resample, "RESAMPLE_CHUNK_CELLS", chunk_rows * n)
    results = []
    for kernel_draws, kernel_on in ((True, "1"), (False, "1"), (False, "0")):
        monkeypatch.setenv("BLEU_CORE_KERNEL", kernel_on)
        rng = np.random.default_rng(12345)
        sums = resample.bootstrap_sums(rng, samples, mats, kernel_draws=kernel_draws)
        results.append((sums, rng.bit_generator.state, rng.random()))
    for sums, state, after in results[1:]:
        np.testing.assert_array_equal(sums, results[0][0])
        assert (state, after) == results[0][1:]
    assert results[0][0].shape == (samples, 4 * 10)


def test_kernel_and_numpy_paths_give_identical_tests(wmt21, monkeypatch: pytest.MonkeyPatch) -> None:
    refs, _, systems = wmt21
    mats = _matrices(refs, systems)

    def run() -> tuple:
        return (
            bootstrap_ci(mats[0], n_samples=300, seed=5),
            paired_bootstrap(mats[0], mats[1:], n_samples=300, seed=5),
            paired_ar(mats[0], mats[1:], n_trials=333, seed=5, n_confidence=200),  # 333 x 1002 bits: odd words
            pairwise_matrix(mats, ["a", "b", "c", "d"], method="ar", trials=201, seed=6),
            compare(mats[0], mats[1:], method="bs", trials=250, seed=7),
        )

    with_kernel = run()
    monkeypatch.setenv("BLEU_CORE_KERNEL", "0")
    without = run()
    assert repr(with_kernel) == repr(without)  # repr: exact floats, and nan (the diagonal) equals itself


def test_compare_is_the_baseline_interval_plus_the_paired_tests(wmt21) -> None:
    refs, _, systems = wmt21
    mats = _matrices(refs, systems)
    bs = compare(mats[0], mats[1:], BleuConfig(), method="bs", trials=400, seed=3, nrefs=1)
    assert bs.baseline_ci == bootstrap_ci(mats[0], n_samples=400, seed=3)
    assert list(bs.results) == paired_bootstrap(mats[0], mats[1:], n_samples=400, seed=3)
    assert bs.signature == bs.results[0].signature
    assert "bs:400|rs:3" in bs.signature
    ar = compare(mats[0], mats[1:], method="ar", trials=500, seed=3, n_confidence=100)
    assert ar.baseline_ci == bootstrap_ci(mats[0], n_samples=100, seed=3)
    assert list(ar.results) == paired_ar(mats[0], mats[1:], n_trials=500, seed=3, n_confidence=100)
    assert compare(mats[0], mats[1:], method="ar", trials=50, n_confidence=0).baseline_ci is None
    with pytest.raises(InputError, match="method"):
        compare(mats[0], mats[1:], method="t")  # type: ignore[arg-type]


def test_paper_block_count() -> None:
    assert paper_block_count(500) == 20  # the paper's 20 x 25
    assert paper_block_count(1002) == 40  # 25 or 26 each
    assert paper_block_count(50) == 2
    assert paper_block_count(49) == 9  # too small for two blocks of 25: blocks of about 5
    assert paper_block_count(30) == 6
    assert paper_block_count(2) == 2
    with pytest.raises(InputError, match="at least 2 segments"):
        paper_block_count(1)


def test_ranked_block_test_on_wmt21_against_sacrebleu(real) -> None:
    """Blocks of 25 on 1002 real segments, systems in rank order, every block score from sacreBLEU itself and
    each t by hand from those scores (statistics module): the paper's Table 2 procedure."""
    import statistics

    from sacrebleu.metrics import BLEU

    from bleu_core.metrics.bleu import corpus_score

    s = real["wmt21-news-en-de"]
    ref = s.ref_paths[0].read_text(encoding="utf-8").splitlines()
    hyps = [p.read_text(encoding="utf-8").splitlines() for p in s.sys_paths[:3]]
    config = BleuConfig()
    mats = [corpus_score(h, [ref], config).segment_matrix for h in hyps]
    r = ranked_block_test(mats, config)
    sizes = r.result.block_sizes
    assert len(sizes) == len(ref) // 25
    assert set(sizes) <= {25, 26}
    assert sum(sizes) == len(ref)
    assert r.paper_sized
    assert r.threshold == 1.7
    sacre = BLEU()
    corpus = [sacre.corpus_score(h, [ref]).score for h in hyps]
    assert list(r.order) == sorted(range(3), key=corpus.__getitem__)
    assert r.corpus_scores == pytest.approx(sorted(corpus), abs=1e-9)
    bounds = np.concatenate(([0], np.cumsum(sizes)))
    by_hand = [
        [sacre.corpus_score(hyps[i][lo:hi], [ref[lo:hi]]).score for lo, hi in itertools.pairwise(bounds)]
        for i in r.order
    ]
    np.testing.assert_allclose(r.result.scores, by_hand, atol=1e-9)
    for k, pair in enumerate(r.result.pairs):
        d = [b - a for a, b in zip(by_hand[k], by_hand[k + 1])]
        t = statistics.mean(d) / (statistics.stdev(d) / math.sqrt(len(d)))
        assert (pair.first, pair.second, pair.df) == (k, k + 1, len(sizes) - 1)
        assert pair.t == pytest.approx(t, rel=1e-9)
        assert r.result.stds[k] == pytest.approx(statistics.stdev(by_hand[k]), rel=1e-9)


@pytest.mark.parametrize("rows", [1, 7, 333])
def test_bootstrap_drawn_in_blocks_is_the_same_as_in_one_draw(wmt21, monkeypatch: pytest.MonkeyPatch, rows) -> None:
    # issue 13: resampling a block of rows at a time keeps memory at one block; numpy's stream makes the
    # blocks the same numbers as sacrebleu's single rng.choice(n, size=(n_samples, n)), so every score,
    # interval and p-value is unchanged (the sacrebleu parity tests above hold the one-draw values)
    refs, _, systems = wmt21
    mats = _matrices(refs, systems)
    one = (bootstrap_cis(mats, n_samples=1000), paired_bootstrap(mats[0], mats[1:], n_samples=1000))
    assert len(mats[0]) * 1000 <= resample.RESAMPLE_CHUNK_CELLS  # the default draws WMT21 in one block
    monkeypatch.setattr(resample, "RESAMPLE_CHUNK_CELLS", rows * len(mats[0]))
    blocks = (bootstrap_cis(mats, n_samples=1000), paired_bootstrap(mats[0], mats[1:], n_samples=1000))
    assert blocks == one


def test_one_pool_of_resamples_serves_the_intervals_and_the_matrix(wmt21) -> None:
    # issue 13: the compare page draws 2,000 resamples once; the intervals read the first 1,000 and the
    # matrix all of them, exactly what each draws on its own; another smoothing reuses the same sums
    refs, names, systems = wmt21
    mats = _matrices(refs, systems)
    pool = resample_sums(mats, 2000)
    for config in (BleuConfig(), BleuConfig(smooth_method="floor", smooth_value=0.1)):
        assert bootstrap_cis(mats, config, resampled=pool) == bootstrap_cis(mats, config)
        shared = pairwise_matrix(mats, names, config, trials=2000, resampled=pool)
        alone = pairwise_matrix(mats, names, config, trials=2000)
        for field in ("p_values", "adjusted", "differences"):
            assert np.array_equal(getattr(shared, field), getattr(alone, field), equal_nan=True), field
    with pytest.raises(InputError, match="do not cover 3000 resamples"):
        bootstrap_cis(mats, n_samples=3000, resampled=pool)
