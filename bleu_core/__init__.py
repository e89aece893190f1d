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
from typing import TYPE_CHECKING, Any

from . import notebook as _notebook  # noqa: F401  (fills the display registry the result types read)
from ._version import __version__

# Public names by the module that defines them. They load on first use (PEP 562), so `import bleu_core`
# and the CLI's start-up import no numpy.
_PUBLIC = {
    # scoring: the sacrebleu drop-ins and BLEU from statistics
    ".bleu": (
        "BleuScore",
        "brevity_penalties",
        "brevity_penalty",
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
    ".engine": ("Encoded", "MatchArrays", "NgramDiff", "ReferenceSet"),
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
        "TRIALS_OFFERED",
        "compare",
        "default_trials",
        "holm",
        "holm_floor",
        "kendall",
        "paired_ar",
        "paired_bootstrap",
        "pairwise_matrix",
        "pearson",
        "ranked_block_test",
        "resample_sums",
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

if TYPE_CHECKING:  # the same names, re-exported for type checkers (test_import_purity holds them equal)
    from .bleu import (
        BleuScore as BleuScore,
    )
    from .bleu import (
        brevity_penalties as brevity_penalties,
    )
    from .bleu import (
        brevity_penalty as brevity_penalty,
    )
    from .bleu import (
        corpus_bleu as corpus_bleu,
    )
    from .bleu import (
        make_signature as make_signature,
    )
    from .bleu import (
        score_from_stats as score_from_stats,
    )
    from .bleu import (
        score_many as score_many,
    )
    from .bleu import (
        score_matrix as score_matrix,
    )
    from .bleu import (
        sentence_bleu as sentence_bleu,
    )
    from .config import SMOOTH_DEFAULTS as SMOOTH_DEFAULTS
    from .config import BleuConfig as BleuConfig
    from .corpus import (
        DEFAULT_LIMIT_MB as DEFAULT_LIMIT_MB,
    )
    from .corpus import (
        Corpus as Corpus,
    )
    from .corpus import (
        System as System,
    )
    from .corpus import (
        TextFile as TextFile,
    )
    from .corpus import (
        build_corpus as build_corpus,
    )
    from .corpus import (
        check_size as check_size,
    )
    from .corpus import (
        decode_lines as decode_lines,
    )
    from .corpus import (
        parse_folder as parse_folder,
    )
    from .corpus import (
        parse_human_scores as parse_human_scores,
    )
    from .corpus import (
        parse_jsonl as parse_jsonl,
    )
    from .corpus import (
        parse_table as parse_table,
    )
    from .corpus import (
        read_text_file as read_text_file,
    )
    from .decompose import (
        Decomposition as Decomposition,
    )
    from .decompose import (
        decompose as decompose,
    )
    from .decompose import (
        decompose_matrices as decompose_matrices,
    )
    from .decompose import (
        leave_one_out_difference as leave_one_out_difference,
    )
    from .engine import Encoded as Encoded
    from .engine import MatchArrays as MatchArrays
    from .engine import NgramDiff as NgramDiff
    from .engine import ReferenceSet as ReferenceSet
    from .errors import InputError as InputError
    from .every import EveryBleu as EveryBleu
    from .every import EveryBleuRow as EveryBleuRow
    from .every import every_bleu as every_bleu
    from .explain import (
        CorpusExplanation as CorpusExplanation,
    )
    from .explain import (
        SegmentExplanation as SegmentExplanation,
    )
    from .explain import (
        explain_corpus as explain_corpus,
    )
    from .explain import (
        explain_segment as explain_segment,
    )
    from .explain import (
        leave_one_out as leave_one_out,
    )
    from .files import corpus_bleu_files as corpus_bleu_files
    from .ngrams import Ngram as Ngram
    from .paper import BEST_MATCH_EXAMPLE as BEST_MATCH_EXAMPLE
    from .paper import EXAMPLES as EXAMPLES
    from .paper import PaperExample as PaperExample
    from .significance import (
        TRIALS_OFFERED as TRIALS_OFFERED,
    )
    from .significance import (
        Comparison as Comparison,
    )
    from .significance import (
        PairedResult as PairedResult,
    )
    from .significance import (
        PairwiseResult as PairwiseResult,
    )
    from .significance import (
        RankedBlockTest as RankedBlockTest,
    )
    from .significance import (
        block_test as block_test,
    )
    from .significance import (
        bootstrap_ci as bootstrap_ci,
    )
    from .significance import (
        bootstrap_cis as bootstrap_cis,
    )
    from .significance import (
        compare as compare,
    )
    from .significance import (
        default_trials as default_trials,
    )
    from .significance import (
        holm as holm,
    )
    from .significance import (
        holm_floor as holm_floor,
    )
    from .significance import (
        kendall as kendall,
    )
    from .significance import (
        paired_ar as paired_ar,
    )
    from .significance import (
        paired_bootstrap as paired_bootstrap,
    )
    from .significance import (
        pairwise_matrix as pairwise_matrix,
    )
    from .significance import (
        pearson as pearson,
    )
    from .significance import (
        ranked_block_test as ranked_block_test,
    )
    from .significance import (
        resample_sums as resample_sums,
    )
    from .stats import closest_ref_len as closest_ref_len
    from .tokenizers import TOKENIZERS as TOKENIZERS
    from .tokenizers import get_tokenizer as get_tokenizer
    from .variants import (
        VARIANTS as VARIANTS,
    )
    from .variants import (
        Variant as Variant,
    )
    from .variants import (
        VariantResult as VariantResult,
    )
    from .variants import (
        run_variant as run_variant,
    )

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
