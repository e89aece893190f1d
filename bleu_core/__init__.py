"""bleu_core: an exact, explainable BLEU engine (Papineni et al., 2002), sacrebleu-compatible.

Public API (DESIGN.md section 3)::

    from bleu_core import corpus_bleu, sentence_bleu
    s = corpus_bleu(hypotheses, references)          # references[k][i]: reference k of segment i
    s.score, s.counts, s.totals, s.precisions, s.bp, s.sys_len, s.ref_len, s.signature

This package imports no Streamlit, pandas or Altair (an import-linter contract and a test hold it to that).
"""

from ._version import __version__
from .bleu import BleuScore, corpus_bleu, make_signature, score_from_stats, score_many, sentence_bleu
from .config import SMOOTH_DEFAULTS, BleuConfig
from .errors import InputError
from .explain import CorpusExplanation, SegmentExplanation, explain_corpus, explain_segment
from .stats import SegmentStats, closest_ref_len
from .tokenizers import TOKENIZERS, get_tokenizer, preprocess, tokenize_line
from .variants import VARIANTS, Variant, VariantResult, run_variant

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
