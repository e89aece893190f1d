"""bleu_core: an exact, explainable BLEU engine (Papineni et al., 2002), sacrebleu-compatible.

Public API (DESIGN.md section 3)::

    from bleu_core import corpus_bleu, sentence_bleu
    s = corpus_bleu(hypotheses, references)          # references[k][i]: reference k of segment i
    s.score, s.counts, s.totals, s.precisions, s.bp, s.sys_len, s.ref_len, s.signature

This package imports no Streamlit, pandas or Altair (an import-linter contract and a test hold it to that).
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

from ._version import __version__

# Public names load on first use (PEP 562), so `import bleu_core` and the CLI's start-up import no numpy.
_LAZY = {
    "BleuScore": ".bleu",
    "corpus_bleu": ".bleu",
    "make_signature": ".bleu",
    "score_from_stats": ".bleu",
    "score_many": ".bleu",
    "sentence_bleu": ".bleu",
    "SMOOTH_DEFAULTS": ".config",
    "BleuConfig": ".config",
    "InputError": ".errors",
    "CorpusExplanation": ".explain",
    "SegmentExplanation": ".explain",
    "explain_corpus": ".explain",
    "explain_segment": ".explain",
    "SegmentStats": ".stats",
    "closest_ref_len": ".stats",
    "TOKENIZERS": ".tokenizers",
    "get_tokenizer": ".tokenizers",
    "preprocess": ".tokenizers",
    "tokenize_line": ".tokenizers",
    "VARIANTS": ".variants",
    "Variant": ".variants",
    "VariantResult": ".variants",
    "run_variant": ".variants",
}

__all__ = [
    "SMOOTH_DEFAULTS",
    "TOKENIZERS",
    "VARIANTS",
    "BleuConfig",
    "BleuScore",
    "CorpusExplanation",
    "InputError",
    "SegmentExplanation",
    "SegmentStats",
    "Variant",
    "VariantResult",
    "__version__",
    "closest_ref_len",
    "corpus_bleu",
    "explain_corpus",
    "explain_segment",
    "get_tokenizer",
    "make_signature",
    "preprocess",
    "run_variant",
    "score_from_stats",
    "score_many",
    "sentence_bleu",
    "tokenize_line",
]


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'bleu_core' has no attribute {name!r}")
    value = getattr(import_module(module, __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_LAZY})
