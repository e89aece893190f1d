"""Hypothesis property tests: additivity, bounds, identity, order invariance, leave-one-out, score_many."""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings, strategies as st

from bleu_core import BleuConfig, corpus_bleu, explain_corpus
from bleu_core.metrics.bleu import corpus_score, score_from_stats, score_many, score_matrix

SETTINGS = settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])

WORDS = ["the", "cat", "sat", "on", "mat", "a", "Le", "chat", "é", "中", "国", ".", ",", "3.5", "&amp;", "x-y"]

words = st.lists(st.sampled_from(WORDS), min_size=0, max_size=12)
line = words.map(" ".join)


@st.composite
def configs(draw: st.DrawFn) -> BleuConfig:
    order = draw(st.integers(1, 9))
    weights = None
    if draw(st.booleans()):
        raw = draw(st.lists(st.integers(1, 10), min_size=order, max_size=order))
        weights = tuple(x / sum(raw) for x in raw)
        weights = (*weights[:-1], 1.0 - sum(weights[:-1]))
    return BleuConfig(
        tokenize=draw(st.sampled_from(["13a", "intl", "char", "none", "zh"])),
        lowercase=draw(st.booleans()),
        smooth_method=draw(st.sampled_from(["none", "floor", "add-k", "exp"])),
        smooth_value=draw(st.none() | st.sampled_from([0.0, 0.1, 0.5, 1.0, 3.0])),
        use_effective_order=draw(st.booleans()),
        max_ngram_order=order,
        weights=weights,
    )


@st.composite
def corpora(draw: st.DrawFn, min_segments: int = 1) -> tuple[list[str], list[list[str | None]]]:
    n = draw(st.integers(min_segments, 8))
    k = draw(st.integers(1, 3))
    hyps = draw(st.lists(line, min_size=n, max_size=n))
    refs: list[list[str | None]] = [draw(st.lists(line, min_size=n, max_size=n)) for _ in range(k)]
    for i in range(n):  # some references missing, never all of one segment's
        for j in range(1, k):
            if draw(st.booleans()) and draw(st.booleans()):
                refs[j][i] = None
        if draw(st.integers(0, 4)) == 0:  # sometimes the candidate is a reference: long matches
            refs[0][i] = hyps[i]
    return hyps, refs


def score(hyps: list[str], refs: list[list[str | None]], config: BleuConfig) -> float:
    return corpus_score(hyps, refs, config).score


@SETTINGS
@given(corpora(), configs())
def test_corpus_stats_are_the_sum_of_segment_stats(corpus, config: BleuConfig) -> None:
    hyps, refs = corpus
    s = corpus_score(hyps, refs, config)
    m = s.segment_matrix
    assert m is not None
    assert m.shape == (len(hyps), 2 + 2 * config.max_ngram_order)
    n = config.max_ngram_order
    sums = m.sum(axis=0).tolist()
    assert (s.sys_len, s.ref_len) == (sums[0], sums[1])
    assert (s.counts[0], s.totals[0]) == (sums[2], sums[2 + n])
    if config.smooth_method != "add-k":  # add-k reports its counts after adding k (as sacrebleu)
        assert (s.counts, s.totals) == (sums[2 : 2 + n], sums[2 + n :])
    # each row is that segment scored alone
    for i, h in enumerate(hyps):
        one = corpus_score([h], [[r[i]] for r in refs if r[i] is not None], config)
        assert one.segment_matrix is not None
        assert one.segment_matrix[0].tolist() == m[i].tolist()


@SETTINGS
@given(corpora(min_segments=2), configs(), st.data())
def test_split_corpus_sums_to_the_same_score(corpus, config: BleuConfig, data: st.DataObject) -> None:
    hyps, refs = corpus
    cut = data.draw(st.integers(1, len(hyps) - 1))
    a = corpus_score(hyps[:cut], [r[:cut] for r in refs], config)
    b = corpus_score(hyps[cut:], [r[cut:] for r in refs], config)
    whole = corpus_score(hyps, refs, config)
    assert a.segment_matrix is not None
    assert b.segment_matrix is not None
    joined = np.vstack([a.segment_matrix, b.segment_matrix])
    assert np.array_equal(joined, whole.segment_matrix)
    n = config.max_ngram_order
    total = joined.sum(axis=0)
    again = score_from_stats(total[2 : 2 + n].tolist(), total[2 + n :].tolist(), int(total[0]), int(total[1]), config)
    assert again.score == whole.score
    assert score_matrix(joined, config, 1).score == whole.score


@SETTINGS
@given(corpora(), configs())
def test_score_is_between_0_and_100(corpus, config: BleuConfig) -> None:
    """Holds for every smoothing whose value keeps a smoothed count at most one n-gram: a floor above 1
    (allowed, as in sacreBLEU) credits an order with no match more than a full match would."""
    hyps, refs = corpus
    assume(not (config.smooth_method == "floor" and (config.effective_smooth_value or 0) > 1))
    s = corpus_score(hyps, refs, config)
    assert 0.0 <= s.score <= 100.0 + 1e-9
    assert 0.0 <= s.bp <= 1.0
    assert all(0 <= c <= t for c, t in zip(s.counts, s.totals, strict=True))
    assert all(0.0 <= p <= 100.0 + 1e-9 for p in s.precisions)


@SETTINGS
@given(
    st.lists(st.lists(st.sampled_from(WORDS[:8]), min_size=9, max_size=20).map(" ".join), min_size=1, max_size=5),
    configs(),
    st.integers(1, 3),
)
def test_identity_scores_100(hyps: list[str], config: BleuConfig, k: int) -> None:
    # hyp == every reference, at least max-order tokens (9 words and the 13a/none tokenizers keep them)
    config = replace(config, tokenize="none")
    s = corpus_score(hyps, [list(hyps) for _ in range(k)], config)
    assert s.score == pytest.approx(100.0, abs=1e-9)
    assert s.bp == 1.0
    assert s.sys_len == s.ref_len


@SETTINGS
@given(corpora(min_segments=2), configs(), st.randoms(use_true_random=False))
def test_order_invariance(corpus, config: BleuConfig, rnd) -> None:
    hyps, refs = corpus
    base = corpus_score(hyps, refs, config)
    perm = list(range(len(hyps)))
    rnd.shuffle(perm)
    shuffled = corpus_score([hyps[i] for i in perm], [[r[i] for i in perm] for r in refs], config)
    assert (shuffled.counts, shuffled.totals, shuffled.sys_len, shuffled.ref_len) == (
        base.counts,
        base.totals,
        base.sys_len,
        base.ref_len,
    )
    assert shuffled.score == pytest.approx(base.score, abs=1e-9)
    streams = list(refs)
    rnd.shuffle(streams)
    swapped = corpus_score(hyps, streams, config)
    assert np.array_equal(swapped.segment_matrix, base.segment_matrix)
    assert swapped.score == base.score


@SETTINGS
@given(corpora(min_segments=2), configs())
def test_leave_one_out_equals_rescoring_without_the_segment(corpus, config: BleuConfig) -> None:
    hyps, refs = corpus
    e = explain_corpus(hyps, refs, config)
    full = corpus_bleu(hyps, refs, **_kwargs(config)).score
    assert e.score.score == full
    for i in range(len(hyps)):
        rest = corpus_bleu(hyps[:i] + hyps[i + 1 :], [r[:i] + r[i + 1 :] for r in refs], **_kwargs(config)).score
        assert e.loo_delta[i] == pytest.approx(rest - full, abs=1e-9), i


@SETTINGS
@given(corpora(), configs())
def test_explain_corpus_sentence_scores_are_sentence_bleu(corpus, config: BleuConfig) -> None:
    hyps, refs = corpus
    e = explain_corpus(hyps, refs, config)
    sent = replace(config, use_effective_order=True)
    for i, h in enumerate(hyps):
        want = corpus_score([h], [[r[i]] for r in refs if r[i] is not None], sent).score
        assert e.sentence_scores[i] == pytest.approx(want, abs=1e-9)
    assert e.mean_sentence_bleu == pytest.approx(float(np.mean(e.sentence_scores)))


def _kwargs(config: BleuConfig) -> dict[str, object]:
    return {
        "tokenize": config.tokenize,
        "lowercase": config.lowercase,
        "smooth_method": config.smooth_method,
        "smooth_value": config.smooth_value,
        "use_effective_order": config.use_effective_order,
        "max_ngram_order": config.max_ngram_order,
        "weights": config.weights,
    }


@st.composite
def stat_rows(draw: st.DrawFn, order: int) -> list[int]:
    c = draw(st.integers(0, 60))
    r = draw(st.integers(0, 80))
    kind = draw(st.sampled_from(["realistic", "arbitrary"]))
    if kind == "realistic":
        totals = [max(0, c - n) for n in range(order)]
        correct = []
        hi = c
        for t in totals:
            hi = draw(st.integers(0, min(hi, t)))
            correct.append(hi)
    else:
        totals = draw(st.lists(st.integers(0, 40), min_size=order, max_size=order))
        correct = [draw(st.integers(0, t)) for t in totals]
    return [c, r, *correct, *totals]


@settings(max_examples=300, deadline=None)
@given(configs(), st.data())
def test_score_many_equals_score_from_stats_row_by_row(config: BleuConfig, data: st.DataObject) -> None:
    n = config.max_ngram_order
    rows = data.draw(st.lists(stat_rows(n), min_size=1, max_size=12))
    m = np.array(rows, dtype=np.int64)
    got = score_many(m, config)
    assert got.shape == (len(rows),)
    for row, g in zip(rows, got.tolist(), strict=True):
        want = score_from_stats(row[2 : 2 + n], row[2 + n :], row[0], row[1], config).score
        assert math.isfinite(g)
        assert g == pytest.approx(want, abs=1e-9), (row, config)


@pytest.mark.parametrize("method", ["none", "floor", "add-k", "exp"])
@pytest.mark.parametrize("eff", [False, True])
@pytest.mark.parametrize("order", [1, 2, 4, 9])
def test_score_many_on_edge_rows(method: str, eff: bool, order: int) -> None:
    """Rows with empty orders, no matches, c = 0, r = 0: every branch of sacrebleu's compute_bleu."""
    config = BleuConfig(smooth_method=method, use_effective_order=eff, max_ngram_order=order)  # type: ignore[arg-type]
    rows = []
    for c, r in [(0, 0), (0, 5), (3, 0), (3, 3), (2, 9), (12, 4)]:
        totals = [max(0, c - n) for n in range(order)]
        for pattern in ("all", "none", "first", "alternate"):
            correct = {
                "all": totals,
                "none": [0] * order,
                "first": [totals[0]] + [0] * (order - 1),
                "alternate": [t if i % 2 == 0 else 0 for i, t in enumerate(totals)],
            }[pattern]
            rows.append([c, r, *correct, *totals])
    got = score_many(np.array(rows), config)
    for row, g in zip(rows, got.tolist(), strict=True):
        want = score_from_stats(row[2 : 2 + order], row[2 + order :], row[0], row[1], config).score
        assert g == pytest.approx(want, abs=1e-9), row


@pytest.mark.parametrize("weights", [(0.0, 0.0, 0.0, 1.0), (0.0, 0.0, 0.5, 0.5), (0.0, 1.0, 0.0, 0.0)])
@pytest.mark.parametrize("method", ["none", "floor", "add-k", "exp"])
def test_zero_weights_on_the_effective_orders_do_not_crash(weights: tuple[float, ...], method: str) -> None:
    """Weights may be 0 (they must only be >= 0 and sum to 1). With effective order, a short segment keeps
    only orders whose weights are all 0: the score must still be a number in [0, 100], the same through
    ``corpus_bleu``, ``sentence_bleu``, ``score_from_stats`` and ``score_many``; not ZeroDivisionError / nan.
    """
    config = BleuConfig(smooth_method=method, use_effective_order=True, weights=weights)  # type: ignore[arg-type]
    s = corpus_bleu(["a b"], [["a b"]], **_kwargs(config))
    assert math.isfinite(s.score)
    assert 0.0 <= s.score <= 100.0 + 1e-9
    many = score_many(np.array([[2, 2, 2, 1, 0, 0, 2, 1, 0, 0]]), config)
    assert math.isfinite(float(many[0]))
    assert float(many[0]) == pytest.approx(s.score, abs=1e-9)


@SETTINGS
@given(st.text(alphabet="a\r\n é", max_size=30))
def test_lines_split_on_lf_each_without_one_trailing_cr(text: str) -> None:
    # the definition sacrebleu's file reading implies, which _split_lines computes without a call per line
    from bleu_core.data.readers import _split_lines

    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()
    assert _split_lines(text) == tuple(line.removesuffix("\r") for line in lines)
