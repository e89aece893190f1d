"""bleu_core: an exact, explainable BLEU engine (Papineni et al., 2002), sacrebleu-compatible.

The user's API is the list below (the README's "Python API" teaches it), about as many names as sacreBLEU
exports::

    from bleu_core import corpus_bleu, sentence_bleu
    s = corpus_bleu(hypotheses, references)          # references[k][i]: reference k of segment i
    s.score, s.counts, s.totals, s.precisions, s.bp, s.sys_len, s.ref_len, s.signature

    from bleu_core import ReferenceSet, compare
    refs = ReferenceSet(references)                  # tokenized once, for many systems
    c = compare(refs.stats(base), [refs.stats(h) for h in others], method="bs", seed=12345)

Everything else lives in the packages by kind (``metrics``, ``engine``, ``significance``, ``data``, ``teaching``,
``display``), each module with its ``__all__``: the app imports those by module, never a ``_private`` module or
name (a test holds it).
The list is written once, as the ``TYPE_CHECKING`` block below: type checkers read it, and at run time this
module reads the same block to load each name on first use (PEP 562), so ``import bleu_core`` and the CLI's
start-up import no numpy. This package imports no Streamlit, pandas or Altair.
"""

from __future__ import annotations

import ast
from importlib import import_module
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ._version import __version__
from .display import notebook as _notebook  # noqa: F401  (fills the renderer registry the result types read)

if TYPE_CHECKING:
    # scoring: the sacreBLEU drop-ins, and one configuration for everything
    from .config import BleuConfig as BleuConfig

    # files of any size, and the folder, table, JSONL and human-score formats
    from .data.files import corpus_bleu_files as corpus_bleu_files
    from .data.readers import (
        parse_folder as parse_folder,
        parse_human_scores as parse_human_scores,
        parse_jsonl as parse_jsonl,
        parse_table as parse_table,
    )
    from .engine.references import ReferenceSet as ReferenceSet
    from .errors import InputError as InputError
    from .metrics.bleu import BleuScore as BleuScore, corpus_bleu as corpus_bleu, sentence_bleu as sentence_bleu

    # chrF and chrF++ as sacreBLEU computes them, and sentence scores of many pairs in one call
    from .metrics.chrf import corpus_chrf as corpus_chrf, sentence_chrf as sentence_chrf
    from .metrics.sentences import sentence_scores as sentence_scores

    # TER as sacreBLEU computes it, and the edits it counts
    from .metrics.ter import corpus_ter as corpus_ter, sentence_ter as sentence_ter
    from .metrics.ter_edits import ter_edits as ter_edits
    from .significance.paired import Comparison as Comparison, compare as compare

    # many systems against one set of references; comparing them with sacreBLEU's paired tests
    from .teaching.decomposition import (
        decompose as decompose,
        decompose_matrices as decompose_matrices,
        leave_one_out_difference as leave_one_out_difference,
    )

    # one corpus under every BLEU, and the labelled misimplementations
    from .teaching.every import every_bleu as every_bleu

    # the paper's quantities, explained
    from .teaching.explain import explain_corpus as explain_corpus, explain_segment as explain_segment
    from .teaching.variants import VARIANTS as VARIANTS, run_variant as run_variant


def _public() -> dict[str, str]:
    """The names of the ``TYPE_CHECKING`` block above, each with the module that defines it."""
    tree = ast.parse(Path(__file__).read_text(encoding="utf-8"))
    block = next(n for n in tree.body if isinstance(n, ast.If) and ast.unparse(n.test) == "TYPE_CHECKING")
    return {
        alias.asname or alias.name: "." + str(node.module)
        for node in block.body
        if isinstance(node, ast.ImportFrom)
        for alias in node.names
    }


_LAZY = _public()
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
