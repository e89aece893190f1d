"""explain_segment / explain_corpus on random input, against sacrebleu and against brute-force recounts."""

from __future__ import annotations

import logging
import random

import pytest
from sacrebleu.metrics import BLEU

from bleu_core import BleuConfig, corpus_bleu, explain_corpus, explain_segment
from tests.core.cases import TOKENIZERS, random_corpus

logging.getLogger("sacrebleu").setLevel(logging.ERROR)


def count(tokens: tuple[str, ...], gram: tuple[str, ...]) -> int:
    n = len(gram)
    return sum(tokens[i : i + n] == gram for i in range(len(tokens) - n + 1))


def starts(tokens: tuple[str, ...], gram: tuple[str, ...]) -> tuple[int, ...]:
    n = len(gram)
    return tuple(i for i in range(len(tokens) - n + 1) if tokens[i : i + n] == gram)


@pytest.mark.slow  # out of make test-core (the one-minute loop); make test runs it
@pytest.mark.parametrize("tokenize", TOKENIZERS)
def test_explain_segment_random(tokenize: str) -> None:
    rng = random.Random(600 + TOKENIZERS.index(tokenize))
    for i in range(150):
        hyps, refs = random_corpus(rng, max_segments=1, allow_none=False, exotic=True)
        hyp, seg_refs = hyps[0], [r[0] for r in refs]
        order = rng.choice([1, 2, 4, 4, 6])
        lc = rng.random() < 0.3
        config = BleuConfig.sentence(tokenize=tokenize, lowercase=lc, max_ngram_order=order)
        e = explain_segment(hyp, seg_refs, config)
        want = BLEU(tokenize=tokenize, lowercase=lc, max_ngram_order=order, effective_order=True).sentence_score(
            hyp, seg_refs
        )
        where = (i, hyp, seg_refs, order, lc)
        assert [o.matches for o in e.orders] == want.counts, where
        assert [o.total for o in e.orders] == want.totals, where
        assert (e.hyp_len, e.closest_ref_len) == (want.sys_len, want.ref_len), where
        assert e.score.score == pytest.approx(want.score, abs=1e-9), where
        assert e.ref_lens[e.best_ref] == e.closest_ref_len
        for o in e.orders:
            grams = [tuple(e.hyp_tokens[j : j + o.n]) for j in range(e.hyp_len - o.n + 1)]
            assert [r.ngram for r in o.rows] == list(dict.fromkeys(grams)), where
            for r in o.rows:
                assert r.count == count(e.hyp_tokens, r.ngram)
                assert r.ref_counts == tuple(count(rt, r.ngram) for rt in e.ref_tokens), where
            assert [x.ngram for x in o.occurrences] == grams
            for x in o.occurrences:
                assert x.ref_positions == tuple(starts(rt, x.ngram) for rt in e.ref_tokens)
                assert x.refs == tuple(k for k, p in enumerate(x.ref_positions) if p)
            ref_grams = {tuple(rt[j : j + o.n]) for rt in e.ref_tokens for j in range(len(rt) - o.n + 1)}
            assert {m.ngram for m in o.missed} == ref_grams - set(grams), where
            for m in o.missed:
                assert m.ref_counts == tuple(count(rt, m.ngram) for rt in e.ref_tokens)
        # token_max_order by brute force: the longest matched occurrence covering each token
        brute = [0] * e.hyp_len
        for o in e.orders:
            for x in o.occurrences:
                if x.status == "matched":
                    for j in range(x.start, x.start + x.n):
                        brute[j] = max(brute[j], x.n)
        assert e.token_max_order() == tuple(brute)


def test_explain_segment_ignores_none_references() -> None:
    e = explain_segment("a b c", ["a b c", None, "a b"], BleuConfig.sentence(tokenize="none"))  # type: ignore[list-item]
    assert e.ref_lens == (3, 2)


def test_explain_corpus_with_variable_references() -> None:
    rng = random.Random(3)
    for _ in range(50):
        hyps, refs = random_corpus(rng, exotic=True)
        e = explain_corpus(hyps, refs, BleuConfig())
        assert e.score.score == corpus_bleu(hyps, refs).score
        assert len(e.loo_delta) == len(e.sentence_scores) == len(hyps)
        assert len(e.segments) == len(hyps)


def test_explain_corpus_empty() -> None:
    e = explain_corpus([], [[]], BleuConfig())
    assert (e.score.score, e.sentence_scores, e.loo_delta, e.mean_sentence_bleu) == (0.0, (), (), 0.0)


def test_leave_one_out_sign() -> None:
    # the wrong segment pulls the corpus down: removing it raises the score (positive delta)
    e = explain_corpus(["a b c d e f", "x y z"], [["a b c d e f", "p q r"]], BleuConfig())
    assert e.loo_delta[1] > 0 > e.loo_delta[0]
