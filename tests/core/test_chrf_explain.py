"""chrF explained on one sentence: the chosen reference's per-order counts are sacreBLEU's statistics for the
segment, the choice is sacreBLEU's (best sentence F, first of equals), on real WMT sentences."""

from __future__ import annotations

import pytest
from sacrebleu.metrics.chrf import CHRF

from bleu_core.errors import InputError
from bleu_core.metrics.chrf import Chrf
from bleu_core.teaching.chrf_explain import explain_chrf
from tests.conftest import RealSet

SETTINGS = [Chrf(), Chrf(word_order=2), Chrf(lowercase=True, whitespace=True), Chrf(eps_smoothing=True)]


def _theirs(m: Chrf) -> CHRF:
    return CHRF(m.char_order, m.word_order, m.beta, m.lowercase, m.whitespace, m.eps_smoothing)


def _sample(s: RealSet, every: int) -> list[tuple[str, list[str]]]:
    refs, out = s.refs(), []
    for k, path in enumerate(s.sys_paths[:3]):
        hyps = s.system(path)
        out += [(hyps[i], [r[i] for r in refs]) for i in range(k, len(hyps), every)]
    return out


@pytest.mark.parametrize("metric", SETTINGS, ids=lambda m: m.sacrebleu_signature(1))
@pytest.mark.parametrize("which", ["wmt21", "wmt22"])
def test_orders_are_sacrebleus_statistics(which: str, metric: Chrf, request: pytest.FixtureRequest) -> None:
    real: RealSet = request.getfixturevalue(which)
    theirs = _theirs(metric)
    chosen_later = 0
    for hyp, refs in _sample(real, 41):
        e = explain_chrf(hyp, refs, metric=metric)
        assert e.statistics == theirs._extract_corpus_statistics([hyp], [[r] for r in refs])[0]
        assert e.score == theirs.sentence_score(hyp, refs).score
        singles = [theirs.sentence_score(hyp, [r]).score for r in refs]
        assert list(e.ref_scores) == singles
        assert e.ref_index == singles.index(max(singles))  # the first of equals
        chosen_later += e.ref_index > 0
        kinds = [(o.kind, o.n) for o in e.orders]
        chars = [("char", n) for n in range(1, metric.char_order + 1)]
        assert kinds == chars + [("word", n) for n in range(1, metric.word_order + 1)]
    assert chosen_later > 0  # the sample exercises the choice of another reference


def test_precision_recall_and_f_of_one_order() -> None:
    e = explain_chrf("the cat sat", ["the cat sat down"])
    o = e.orders[0]  # 9 characters of 13, all matched
    assert (o.hyp, o.ref, o.matches) == (9, 13, 9)
    assert o.precision == 1.0
    assert o.recall == pytest.approx(9 / 13)
    assert o.f(2) == pytest.approx(5 * (9 / 13) / (4 + 9 / 13))
    assert dict(o.matched)["t"] == 3


def test_word_orders_and_an_order_the_reference_lacks() -> None:
    e = explain_chrf("a b c", ["a b"], metric=Chrf(char_order=3, word_order=3))
    words = [o for o in e.orders if o.kind == "word"]
    assert [(o.hyp, o.ref, o.matches) for o in words] == [(3, 2, 2), (2, 1, 1), (0, 0, 0)]
    assert words[1].matched == (("a b", 1),)
    assert e.orders[2].hyp == 0
    assert e.orders[2].precision == 0.0


def test_bad_input_names_it() -> None:
    with pytest.raises(InputError, match="references"):
        explain_chrf("a", [])
    with pytest.raises(InputError, match="hypothesis"):
        explain_chrf(None, ["a"])  # type: ignore[arg-type]
