"""Our sacreBLEU-format signature equals sacreBLEU's own ``get_signature()`` for every setting it can express."""

from __future__ import annotations

import itertools

import pytest
from sacrebleu.metrics.bleu import BLEU
from sacrebleu.significance import PairedTest

from bleu_core.config import BleuConfig
from bleu_core.engine.tokenizers import TOKENIZERS
from bleu_core.metrics.signature import sacrebleu_signature

HYPS = ["The cat sat on the mat.", "A dog barked loudly at night."]
REFS = [["The cat is on the mat.", "A dog barked at night."], ["There is a cat on the mat.", "The dog barked."]]

SETTINGS = list(
    itertools.product(
        sorted(set(TOKENIZERS) & {"13a", "intl", "zh", "char", "none"}),
        [False, True],
        [("none", None), ("floor", None), ("floor", 0.3), ("add-k", None), ("add-k", 2), ("exp", None)],
        [False, True],
    )
)


@pytest.mark.parametrize(("tok", "lc", "smooth", "eff"), SETTINGS)
def test_signature_equals_sacrebleus(tok: str, lc: bool, smooth: tuple[str, float | None], eff: bool) -> None:
    method, value = smooth
    metric = BLEU(tokenize=tok, lowercase=lc, smooth_method=method, smooth_value=value, effective_order=eff)
    metric.corpus_score(HYPS, REFS)
    config = BleuConfig(tokenize=tok, lowercase=lc, smooth_method=method, smooth_value=value, use_effective_order=eff)  # type: ignore[arg-type]
    ours = sacrebleu_signature(config, len(REFS))
    assert ours.long == metric.get_signature().format()
    assert ours.short == metric.get_signature().format(short=True)


@pytest.mark.parametrize(("test_type", "n", "confidence"), [("bs", 100, -1), ("ar", 200, 50), ("ar", 200, -1)])
def test_paired_test_signature_equals_sacrebleus(test_type: str, n: int, confidence: int) -> None:
    named = [("base", HYPS), ("other", [h.lower() for h in HYPS])]
    metric = BLEU(references=REFS)
    sigs, _ = PairedTest(named, {"BLEU": metric}, None, test_type=test_type, n_samples=n, n_ar_confidence=confidence)()
    theirs = sigs["BLEU"]
    ours = sacrebleu_signature(
        BleuConfig(),
        len(REFS),
        test=test_type,  # type: ignore[arg-type]
        trials=n,
        seed=12345,
        confidence_trials=confidence if confidence > 0 else None,
    )
    assert ours.long == theirs.format()
    assert ours.short == theirs.format(short=True)


@pytest.mark.parametrize(
    ("config", "says"),
    [
        (BleuConfig.paper(), "'paper' tokenizer"),
        (BleuConfig(weights=(0.4, 0.3, 0.2, 0.1)), "custom weights"),
        (BleuConfig(max_ngram_order=2), "order 2"),
    ],
)
def test_settings_sacrebleu_cannot_express_have_none(config: BleuConfig, says: str) -> None:
    sig = sacrebleu_signature(config, 1)
    assert sig.long is None
    assert sig.short is None
    assert sig.why_none is not None
    assert says in sig.why_none
    assert says in str(sig)
