"""bleu_core: an exact, explainable BLEU engine (Papineni et al., 2002), sacrebleu-compatible.

The public API is what ``__all__`` lists, by job (README "Python API", DESIGN.md section 3)::

    from bleu_core import corpus_bleu, sentence_bleu
    s = corpus_bleu(hypotheses, references)          # references[k][i]: reference k of segment i
    s.score, s.counts, s.totals, s.precisions, s.bp, s.sys_len, s.ref_len, s.signature

    from bleu_core import ReferenceSet, compare
    refs = ReferenceSet(references)                  # tokenized once, for many systems
    c = compare(refs.stats(base), [refs.stats(h) for h in others], method="bs", seed=12345)

Everything else (the submodules' helpers) is private to the package and may change; the app is held to
this list by an import-linter contract. This package imports no Streamlit, pandas or Altair.
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

from ._version import __version__

# Public names by the module that defines them. They load on first use (PEP 562), so `import bleu_core`
# and the CLI's start-up import no numpy.
_PUBLIC = {
    # scoring: the sacrebleu drop-ins and BLEU from statistics
    ".bleu": (
        "BleuScore",
        "corpus_bleu",
        "make_signature",
        "score_from_stats",
        "score_many",
        "score_matrix",
        "sentence_bleu",
    ),
    ".config": ("SMOOTH_DEFAULTS", "BleuConfig"),
    ".errors": ("InputError",),
    # one corpus under every BLEU (tokenizers, smoothings, misimplementations, NLTK)
    ".every": ("EveryBleu", "EveryBleuRow", "every_bleu"),
    # counting many systems against one set of references; files of any size
    ".engine": ("ReferenceSet",),
    ".files": ("corpus_bleu_files",),
    # the paper's quantities, explained
    ".explain": ("CorpusExplanation", "SegmentExplanation", "explain_corpus", "explain_segment", "leave_one_out"),
    ".stats": ("closest_ref_len",),
    ".ngrams": ("Ngram",),
    ".paper": ("BEST_MATCH_EXAMPLE", "EXAMPLES", "PaperExample"),
    ".variants": ("VARIANTS", "Variant", "VariantResult", "run_variant"),
    ".decompose": ("Decomposition", "decompose", "decompose_matrices", "leave_one_out_difference"),
    # significance: sacrebleu's paired tests, intervals, Holm, the paper's block test
    ".significance": (
        "Comparison",
        "PairedResult",
        "PairwiseResult",
        "RankedBlockTest",
        "block_test",
        "bootstrap_ci",
        "bootstrap_cis",
        "compare",
        "holm",
        "holm_floor",
        "kendall",
        "paired_ar",
        "paired_bootstrap",
        "pairwise_matrix",
        "pearson",
        "ranked_block_test",
    ),
    # parallel text: files, folders, tables, JSONL, human scores
    ".corpus": (
        "DEFAULT_LIMIT_MB",
        "Corpus",
        "System",
        "TextFile",
        "build_corpus",
        "check_size",
        "decode_lines",
        "parse_folder",
        "parse_human_scores",
        "parse_jsonl",
        "parse_table",
        "read_text_file",
    ),
    ".tokenizers": ("TOKENIZERS", "get_tokenizer"),
}
_LAZY = {name: module for module, names in _PUBLIC.items() for name in names}

__all__ = ["__version__", *_LAZY]  # noqa: PLE0604


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'bleu_core' has no attribute {name!r}")
    value = getattr(import_module(module, __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_LAZY})
