"""The ``nltk`` variant against ``nltk.translate.bleu_score.corpus_bleu`` on the same tokens (methods 0-4).

Run with ``-s`` to see the case counts.
"""

from __future__ import annotations

import random
import warnings

import pytest
from nltk.translate.bleu_score import SmoothingFunction, corpus_bleu as nltk_bleu

from bleu_core import BleuConfig
from bleu_core.teaching.variants import Tokenized, nltk_corpus_bleu, run_variant, tokenize_corpus
from tests.core.cases import random_corpus
from tests.core.conftest import RealSet

pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")  # NLTK warns about zero counts under method 0

METHODS = range(5)
TOL = 1e-9


def nltk_score(data: Tokenized, weights: tuple[float, ...], method: int) -> float:
    fn = getattr(SmoothingFunction(), f"method{method}")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return float(
            nltk_bleu(
                [[list(r) for r in refs] for refs in data.refs],
                [list(h) for h in data.hyps],
                weights=weights,
                smoothing_function=fn,
            )
        )


def uniform(order: int) -> tuple[float, ...]:
    return (0.25,) * 4 if order == 4 else (1 / order,) * order


@pytest.mark.parametrize("method", METHODS)
def test_random_cases(method: int) -> None:
    """600 random corpora per method: tokenizers, lowercase, 1-4 references (some None), orders 1-6, weights."""
    rng = random.Random(31 + method)
    n = 0
    for i in range(600):
        hyps, refs = random_corpus(rng, exotic=True)
        order = rng.choice([4, 4, 1, 2, 3, 5, 6])
        weights = None
        if rng.random() < 0.3:
            raw = [rng.randint(1, 9) for _ in range(order)]
            weights = tuple(x / sum(raw) for x in raw)
            weights = (*weights[:-1], 1.0 - sum(weights[:-1]))
        config = BleuConfig(
            tokenize=rng.choice(["13a", "intl", "char", "none", "zh"]),
            lowercase=rng.random() < 0.4,
            max_ngram_order=order,
            weights=weights,
        )
        data = tokenize_corpus(hyps, refs, config)
        want = nltk_score(data, weights or uniform(order), method)
        got = run_variant("nltk", hyps, refs, config, nltk_smoothing=method)
        assert abs(got.score / 100 - want) <= TOL, (i, method, config, hyps, refs, got.score / 100, want)
        n += 1
    print(f"\n[nltk parity] method{method}: {n} random cases")


@pytest.mark.parametrize("method", METHODS)
def test_edge_cases(method: int) -> None:
    cases: list[tuple[list[str], list[list[str]]]] = [
        (["a"], [["a"]]),  # one token: method 4 leaves zero precisions alone when hyp_len = 1
        (["a b"], [["a b"]]),
        ([""], [["a b"]]),  # nothing matched: 0
        (["a b c d e"], [[""]]),
        (["x y z"], [["a b c"]]),
        (["a a a a a a a"], [["a"], ["a a"]]),
        (["a b", ""], [["a b", "c"]]),
        (["a b c d", "a"], [["a b c d", "a"]]),
        (["the cat sat on the mat"], [["the cat is on the mat"], ["there is a cat on the mat"]]),
    ]
    for hyps, refs in cases:
        for order in (1, 2, 4, 6):
            config = BleuConfig(tokenize="none", max_ngram_order=order)
            data = tokenize_corpus(hyps, refs, config)
            want = nltk_score(data, uniform(order), method)
            got = run_variant("nltk", hyps, refs, config, nltk_smoothing=method).score / 100
            assert abs(got - want) <= TOL, (hyps, refs, order, method, got, want)


def test_method_0_gives_a_tiny_positive_score_not_zero() -> None:
    # one unigram match and nothing else: NLTK's method0 replaces the zero precisions by 2.2e-308
    data = tokenize_corpus(["a x y z"], [["a b c d"]], BleuConfig(tokenize="none"))
    got = nltk_corpus_bleu(data, (0.25,) * 4, 0)
    assert got == nltk_score(data, (0.25,) * 4, 0)
    assert 0 < got < 1e-200


@pytest.mark.parametrize("method", METHODS)
def test_real_data_subsets(real: dict[str, RealSet], method: int) -> None:
    """The first 300 segments of some real systems, every reference, 13a tokens."""
    config = BleuConfig()
    n = 0
    for name in ("wmt21-news-en-de", "wmt22-general-zh-en", "ted-detok"):
        s = real[name]
        refs = [r[:300] for r in s.refs()]
        for path in s.sys_paths[:3]:
            hyps = s.system(path)[:300]
            data = tokenize_corpus(hyps, refs, config)
            want = nltk_score(data, (0.25,) * 4, method)
            got = run_variant("nltk", hyps, refs, config, nltk_smoothing=method).score / 100
            assert abs(got - want) <= TOL, (name, path.name, method, got, want)
            n += 1
    print(f"\n[nltk parity] method{method}: {n} real-data subsets")


def test_unknown_nltk_method_is_an_input_error() -> None:
    from bleu_core import InputError

    with pytest.raises(InputError, match="0-4"):
        run_variant("nltk", ["a b"], [["a c"]], BleuConfig(), nltk_smoothing=7)
