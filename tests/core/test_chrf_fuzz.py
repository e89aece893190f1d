"""chrF fuzzed against sacreBLEU 2.6.0 (hypothesis): random text, every option, several and variable references.

Lines are drawn from awkward pieces: words that recur (so n-grams match and clip), punctuation at either end of a
word, every character Python's ``str.split()`` splits at (and ones it does not, such as U+200B), combining marks,
CJK, astral characters, lone surrogates, NUL, characters whose lowercase is longer (``İ``) or depends on context
(``Σ``), empty lines. Each corpus is counted by the kernel and by the ``Counter`` path, both held equal to
``CHRF._extract_corpus_statistics`` and their scores to sacreBLEU's, corpus and sentence level.

The quick run (in ``make test``) is derandomized; ``pytest -m fuzz`` runs the same properties with many more examples.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st
from sacrebleu.metrics import CHRF

from bleu_core import corpus_chrf, sentence_scores
from bleu_core.metrics.chrf import Chrf

QUICK = settings(
    max_examples=int(os.environ.get("BLEU_FUZZ_QUICK", "150")),
    derandomize=True,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
LONG = settings(
    max_examples=int(os.environ.get("BLEU_FUZZ_LONG", "5000")),
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


def both(name: str, *strategies: st.SearchStrategy[Any]) -> Callable[[Callable[..., None]], None]:
    """Register the property as ``test_<name>`` (quick) and ``test_<name>_long`` (behind the ``fuzz`` marker)."""

    def register(prop: Callable[..., None]) -> None:
        quick = QUICK(given(*strategies)(prop))
        long = pytest.mark.fuzz(LONG(given(*strategies)(prop)))
        quick.__name__, long.__name__ = f"test_{name}", f"test_{name}_long"
        globals()[quick.__name__], globals()[long.__name__] = quick, long

    return register


WORDS = ["the", "The", "cat", "a", "Straße", "İstanbul", "ΣΟΦΟΣ", "σοφός", "中国", "的", "e\u0301", "é", "🙂", "ǅ"]
PUNCT = [*"!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~", "«", "»", "…", "。", "—"]
SPACES = [" ", "  ", "\t", "\n", "\x0b", "\x0c", "\r", "\x1c", "\x1f", "\x85", "\xa0", "\u1680", "\u2000", "\u2028"]
SPACES += ["\u202f", "\u205f", "\u3000"]
ODD = ["\u200b", "\x00", "\ud800", "\udfff", "\u0301", "\u0308", "ﬁ", "ẞ", "İ", "Σ", "𝔸", "\U0010ffff", "\ufeff"]

token = st.one_of(
    st.sampled_from(WORDS),
    st.tuples(st.sampled_from(PUNCT), st.sampled_from(WORDS)).map("".join),
    st.tuples(st.sampled_from(WORDS), st.sampled_from(PUNCT)).map("".join),
    st.sampled_from(PUNCT),
    st.sampled_from(ODD),
    st.text(st.sampled_from(["a", "b", "中", "\u0301", "-", "."]), min_size=1, max_size=6),
    st.text(max_size=4),
)
line = st.one_of(
    st.lists(st.tuples(token, st.sampled_from(SPACES)), max_size=12).map(lambda ts: "".join(a + b for a, b in ts)),
    st.just(""),
    st.text(max_size=20),
)

options = st.fixed_dictionaries(
    {
        "char_order": st.integers(1, 8),
        "word_order": st.integers(0, 3),
        "beta": st.sampled_from([0, 1, 2, 3, 0.5, 1.7]),
        "lowercase": st.booleans(),
        "whitespace": st.booleans(),
        "eps_smoothing": st.booleans(),
    }
)


@st.composite
def corpora(draw: st.DrawFn) -> tuple[list[str], list[list[str | None]]]:
    """Hypotheses and 1-3 reference streams; with several, a reference may be missing (None) but never all."""
    n = draw(st.integers(1, 6))
    k = draw(st.integers(1, 3))
    hyps = draw(st.lists(line, min_size=n, max_size=n))
    refs: list[list[str | None]] = [draw(st.lists(line, min_size=n, max_size=n)) for _ in range(k)]
    if k > 1:
        for i in range(n):
            for j in draw(st.lists(st.integers(1, k - 1), max_size=k - 1)):
                refs[j][i] = None
    return hyps, refs


@both("stats_and_scores_equal_sacrebleus", corpora(), options)
def _stats_and_scores(corpus: tuple[list[str], list[list[str | None]]], opts: dict[str, Any]) -> None:
    hyps, refs = corpus
    sb = CHRF(**opts)
    want = sb._extract_corpus_statistics(hyps, refs)
    metric = Chrf(**opts)
    for engine in ("kernel", "explain"):
        prepared = metric.prepare(refs, engine=engine)
        got = prepared.stats(hyps)
        assert got.tolist() == want, engine
        assert prepared.nrefs == sb.num_refs
        score = corpus_chrf(hyps, refs, engine=engine, **opts)
        assert score.score == sb._aggregate_and_compute(want).score, engine
        assert score.sacrebleu_signature == sb.get_signature().format()
    # sentence level: each segment alone, through sacreBLEU's own sentence_score
    sentences = sentence_scores(hyps, refs, metric=metric).tolist()
    for i, h in enumerate(hyps):
        mine = [r[i] for r in refs if r[i] is not None]
        assert sentences[i] == CHRF(**opts).sentence_score(h, mine).score


@both("float32_scores_equal_sacrebleus", options.map(lambda o: {**o, "char_order": min(o["char_order"], 4)}), st.data())
def _float32_scores(opts: dict[str, Any], data: st.DataObject) -> None:
    metric = Chrf(**opts)
    sb = CHRF(**opts)
    rows = data.draw(
        st.lists(
            st.lists(
                st.one_of(
                    st.just((0, 0, 0)), st.tuples(st.integers(0, 3000), st.integers(0, 3000), st.integers(0, 3000))
                ),
                min_size=metric.width // 3,
                max_size=metric.width // 3,
            ),
            min_size=1,
            max_size=30,
        )
    )
    # a statistic's match count is at most its hypothesis and reference counts
    matrix = np.array([[x for h, r, m in row for x in (h, r, min(m, h, r))] for row in rows], dtype=np.float64)
    want = np.array([sb._compute_score_from_stats(row).score for row in matrix.astype(np.float32)])
    got = metric.score_many(matrix, float32=True)
    assert got.dtype == want.dtype
    assert np.array_equal(got.view(np.uint8), want.view(np.uint8))
    assert metric.score_many(matrix).tolist() == [sb._compute_f_score([int(x) for x in row]) for row in matrix]
