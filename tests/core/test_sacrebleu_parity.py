"""Randomised parity with sacrebleu 2.6 (the oracle): statistics, score and signature, case by case.

Run with ``-s`` to see how many generated cases each family checked, e.g.
``.venv/bin/python -m pytest tests/core/test_sacrebleu_parity.py -s -q``.
"""

from __future__ import annotations

import logging
import random
from collections import Counter
from functools import cache

import pytest
from sacrebleu.metrics import BLEU

from bleu_core import corpus_bleu, sentence_bleu
from tests.conftest import examples
from tests.core.cases import (
    ALL_FAMILIES,
    SMOOTH,
    TOKENIZERS,
    Case,
    assert_same_as_sacrebleu,
    random_case,
    random_corpus,
    sacre_signature,
    strip_signature,
)

logging.getLogger("sacrebleu").setLevel(logging.ERROR)

TOL = 1e-9


@cache
def sacre(
    tokenize: str,
    smooth_method: str,
    smooth_value: float | None,
    effective_order: bool,
    lowercase: bool,
    max_ngram_order: int,
) -> BLEU:
    return BLEU(
        tokenize=tokenize,
        smooth_method=smooth_method,
        smooth_value=smooth_value,
        effective_order=effective_order,
        lowercase=lowercase,
        max_ngram_order=max_ngram_order,
        force=True,
    )


def check_case(case: Case, *, signature: bool = True) -> str | None:
    """Our corpus_bleu against sacrebleu's BLEU on one case; a failure names the case.

    Numbers are asserted here; with ``signature=False`` a signature mismatch is returned (not raised) so a
    block of cases can check every case's numbers first and report signature mismatches together.
    """
    bleu = sacre(**case.sacre_kwargs())  # type: ignore[arg-type]
    want = bleu.corpus_score(case.hyps, case.refs)
    got = corpus_bleu(case.hyps, case.refs, **case.our_kwargs())  # type: ignore[arg-type]
    where = f"case {case.info} {case.our_kwargs()} hyps={case.hyps!r} refs={case.refs!r}"
    assert got.counts == want.counts, where
    assert got.totals == want.totals, where
    assert (got.sys_len, got.ref_len) == (want.sys_len, want.ref_len), where
    assert len(got.precisions) == len(want.precisions), where
    for a, b in zip(got.precisions, want.precisions, strict=True):
        assert abs(a - b) <= TOL, where
    assert abs(got.bp - want.bp) <= TOL, where
    assert abs(got.score - want.score) <= TOL, where
    assert f"|order:{case.max_ngram_order}|" in got.signature, where
    ours, theirs = strip_signature(got.signature), sacre_signature(bleu.get_signature().format())
    if signature:
        assert ours == theirs, where
    return None if ours == theirs else f"{ours} != {theirs} ({where})"


def assert_no_signature_mismatch(mismatches: list[str], n: int) -> None:
    bad = [m for m in mismatches if m]
    assert not bad, f"{len(bad)} of {n} signatures differ from sacrebleu's; first: {bad[0]}"


def _family_counts(cases: list[Case]) -> str:
    c: Counter[str] = Counter()
    for k in cases:
        c[f"tok={k.tokenize}"] += 1
        c[f"smooth={k.smooth_method}{'' if k.smooth_value is None else '+v'}"] += 1
        c["eff"] += k.use_effective_order
        c["lc"] += k.lowercase
        c[f"nrefs={len(k.refs)}"] += 1
        c["var-refs"] += any(r is None for s in k.refs for r in s)
        text = "\n".join([*k.hyps, *(r for s in k.refs for r in s if r is not None)])
        for fam, words in ALL_FAMILIES.items():
            c[f"has-{fam}"] += any(w in text for w in words)
    return ", ".join(f"{k}:{v}" for k, v in sorted(c.items()))


@pytest.mark.parametrize("block", range(8))
def test_random_corpus_parity(block: int) -> None:
    """8 blocks x 400 = 3200 seeded corpora (a fifth in make test-core) across every tokenizer, smoothing, value,
    eff, lowercase, refs."""
    rng = random.Random(1000 + block)
    cases, sigs = [], []
    for i in range(examples(400)):
        case = random_case(rng)
        case.info = {"seed": 1000 + block, "i": i}
        sigs.append(check_case(case, signature=False))
        cases.append(case)
    print(f"\n[parity] corpus_bleu block {block}: {len(cases)} cases; {_family_counts(cases)}")
    # the generator must actually cover the option space it claims to
    assert {k.tokenize for k in cases} == set(TOKENIZERS)
    assert {k.smooth_method for k in cases} == set(SMOOTH)
    assert any(any(r is None for s in k.refs for r in s) for k in cases)
    assert_no_signature_mismatch(sigs, len(cases))


@pytest.mark.parametrize("order", range(1, 10))
def test_random_parity_every_max_order(order: int) -> None:
    """Orders 1-9 through ``sacrebleu.metrics.BLEU(max_ngram_order=n)``: 150 cases per order (a fifth in make
    test-core)."""
    rng = random.Random(77 + order)
    sigs = []
    n = examples(150)
    for i in range(n):
        case = random_case(rng, max_order=order)
        case.info = {"order": order, "i": i}
        sigs.append(check_case(case, signature=False))
    print(f"\n[parity] max order {order}: {n} cases")
    assert_no_signature_mismatch(sigs, n)


@pytest.mark.parametrize("tokenize", TOKENIZERS)
def test_random_sentence_bleu_parity(tokenize: str) -> None:
    """``sentence_bleu`` (effective order on by default) against sacrebleu's ``sentence_score``: 200 per tokenizer
    (a fifth in make test-core)."""
    rng = random.Random(TOKENIZERS.index(tokenize) + 500)
    for i in range(examples(200)):
        hyps, refs = random_corpus(rng, max_segments=1, allow_none=False, exotic=True)
        method = rng.choice(SMOOTH)
        bleu = BLEU(tokenize=tokenize, smooth_method=method, effective_order=True)
        want = bleu.sentence_score(hyps[0], [r[0] for r in refs])
        got = sentence_bleu(hyps[0], [r[0] for r in refs], tokenize=tokenize, smooth_method=method)
        where = (i, hyps, refs, method)
        assert_same_as_sacrebleu(got, want, where, metric=bleu, tol=TOL)
    print(f"\n[parity] sentence_bleu tok={tokenize}: 200 cases")


@pytest.mark.parametrize("method", SMOOTH)
@pytest.mark.parametrize("value", [None, 0.0, 0.5, 2.0])
def test_signature_for_every_smoothing_value(method: str, value: float | None) -> None:
    """sacrebleu shows a value only for floor and add-k (their default when none is given).

    ``exp`` and ``none`` ignore ``smooth_value`` and sacrebleu's signature says ``smooth:exp`` even when a
    value is passed; ours must not print ``smooth:exp[0.50]`` for a value that changed nothing.
    """
    hyps, refs = ["the cat sat on the mat"], [["the cat is on the mat"]]
    bleu = BLEU(smooth_method=method, smooth_value=value)
    bleu.corpus_score(hyps, refs)
    ours = corpus_bleu(hyps, refs, smooth_method=method, smooth_value=value)
    assert strip_signature(ours.signature) == sacre_signature(bleu.get_signature().format())


def test_variable_references_signature_is_var() -> None:
    got = corpus_bleu(["a b", "c d"], [["a b", "c d"], [None, "c"]])
    assert got.signature.startswith("nrefs:var|")


def test_empty_corpus_is_zero_not_a_crash() -> None:
    """sacrebleu raises IndexError on an empty corpus; we return a well-formed 0."""
    got = corpus_bleu([], [[]])
    assert got.score == 0.0
    assert (got.sys_len, got.ref_len, got.counts, got.totals) == (0, 0, [0] * 4, [0] * 4)


@pytest.mark.parametrize(
    ("hyps", "refs"),
    [
        ([""], [[""]]),
        (["", "a"], [["", "a"]]),
        (["a b"], [[""]]),
        ([""], [["a b c"]]),
        (["a a a a a"], [["a"], ["a a"]]),
        (["<skipped>"], [["<skipped>"]]),
        (["&amp; &lt;"], [["& <"]]),
        (["  \t "], [["x"]]),
    ],
)
@pytest.mark.parametrize("tokenize", TOKENIZERS)
@pytest.mark.parametrize("eff", [False, True])
def test_edge_cases(hyps: list[str], refs: list[list[str]], tokenize: str, eff: bool) -> None:
    for method in SMOOTH:
        check_case(Case(hyps, refs, tokenize, method, None, eff, False))  # type: ignore[arg-type]
