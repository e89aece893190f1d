"""Documents of a test set: which document, original language and domain each segment belongs to, and what that
allows: document-level scores (d-BLEU), a paired bootstrap that resamples whole documents, and sacreBLEU's
``--origlang`` / ``--subset`` selections.

The WMT readers (:mod:`bleu_core.data.wmt`) give a :class:`Documents` beside the :class:`~bleu_core.data.corpus.Corpus`
they read; everything here is a function of the two, or of statistics matrices whose rows are the corpus's
segments.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Literal

import numpy as np

from bleu_core.config import BleuConfig
from bleu_core.errors import InputError
from bleu_core.metrics.bleu import make_signature
from bleu_core.significance import Comparison, compare
from bleu_core.significance.resample import DEFAULT_SEED

from .corpus import Corpus, System, TextFile
from .document_index import DOC_FIELDS, Documents
from .patterns import compile_pattern

Method = Literal["bs", "ar"]

__all__ = [
    "DOC_FIELDS",
    "Documents",
    "document_comparison",
    "document_sums",
    "join_documents",
    "sacrebleu_subset",
]


def _check(documents: Documents, n: int, what: str) -> None:
    if documents.n_segments != n:
        raise InputError(f"{what} has {n} segments but the documents describe {documents.n_segments}", "documents")


# --- document-level scores: each document one segment ------------------------------------------------------


def join_documents(corpus: Corpus, documents: Documents, *, separator: str = " ") -> tuple[Corpus, Documents]:
    """The corpus with each document's segments joined into one segment (with a space), for document-level
    scores: d-BLEU, d-chrF (Liu et al. 2020's d-BLEU is BLEU on documents joined so). sacreBLEU has no document
    mode; its corpus score of the joined text is the oracle (tests/core/test_wmt_data.py).

    A document's segments are joined in corpus order; documents come in order of first appearance.

    Returns:
        The joined corpus (one segment per document; same systems, references and source) and its
        :class:`Documents` (one row per document).

    Raises:
        InputError: documents that do not describe the corpus's segments.

    Example:
        >>> c = Corpus("t", (TextFile("ref", ("a b", "c", "d")),), (System("S", ("a b", "c", "e")),))
        >>> d = Documents(("x", "x", "y"), ("en",) * 3, (None,) * 3)
        >>> joined, docs = join_documents(c, d)
        >>> joined.references[0].lines, joined.systems[0].lines, docs.doc_ids
        (('a b c', 'd'), ('a b c', 'e'), ('x', 'y'))
    """
    _check(documents, corpus.n_segments, corpus.name)
    blocks = documents.blocks()

    def join(lines: Sequence[str]) -> tuple[str, ...]:
        return tuple(separator.join(lines[i] for i in b) for b in blocks)

    first = [b[0] for b in blocks]
    joined = dataclasses.replace(
        corpus,
        name=f"{corpus.name} (documents)",
        references=tuple(TextFile(r.name, join(r.lines)) for r in corpus.references),
        systems=tuple(System(s.name, join(s.lines), s.file) for s in corpus.systems),
        source=None if corpus.source is None else TextFile(corpus.source.name, join(corpus.source.lines)),
        scores=(),  # segment scores do not add up to a document's
        documents=None,
    )
    docs = Documents(
        documents.names,
        tuple(documents.origlangs[i] for i in first),
        tuple(documents.domains[i] for i in first),
        documents.src_lang,
        documents.tgt_lang,
    )
    return dataclasses.replace(joined, documents=docs), docs


# --- the document-block paired bootstrap ------------------------------------------------------------------


def document_sums(matrix: np.ndarray, documents: Documents) -> np.ndarray:
    """A (segments x statistics) matrix summed per document: (documents x statistics), documents in the order
    of :attr:`Documents.names`. A document's statistics are the sums of its segments' rows, so any corpus score
    of the document rows equals that of the segment rows.

    Example:
        >>> m = np.array([[1, 2], [3, 4], [5, 6]])
        >>> document_sums(m, Documents(("x", "y", "x"), (None,) * 3, (None,) * 3)).tolist()
        [[6, 8], [3, 4]]
    """
    m = np.asarray(matrix)
    _check(documents, len(m), "the statistics matrix")
    out = np.zeros((len(documents.names), m.shape[1]), dtype=m.dtype)
    np.add.at(out, np.asarray(documents.index, dtype=np.intp), m)
    return out


def document_comparison(
    baseline: np.ndarray,
    systems: Sequence[np.ndarray],
    documents: Documents,
    config: BleuConfig = BleuConfig(),
    *,
    method: Method = "bs",
    trials: int | None = None,
    seed: int = DEFAULT_SEED,
    nrefs: int | str = 1,
) -> Comparison:
    """The paired test with **documents** as the resampled unit (a block bootstrap, or for ``ar`` a shuffle that
    swaps whole documents): segments of one document are not independent (one topic, one translator, one
    system's consistent choices), so resampling them one by one understates the variance; resampling documents
    keeps each document's segments together. Each document's statistics are the sums of its segments' rows, and
    sacreBLEU's test (:func:`~bleu_core.significance.compare`, the same draws and p-value) runs on those rows.

    The corpus scores are the segment-level ones (sums are sums); the p-values and intervals are the block
    test's. Every signature says so with ``block:doc`` (not a sacreBLEU setting: sacreBLEU resamples segments).

    Example:
        >>> rng = np.random.default_rng(0)
        >>> base = rng.integers(0, 5, size=(60, 10)); base[:, 0] = base[:, 6] = 10; base[:, 1] = 11
        >>> docs = Documents(tuple(f"d{i // 6}" for i in range(60)), (None,) * 60, (None,) * 60)
        >>> c = document_comparison(base, [base], docs, trials=100)
        >>> c.signature.split("|")[:4], c.results[0].p_value == 1 / 101
        (['nrefs:1', 'bs:100', 'rs:12345', 'block:doc'], True)
    """
    mats = [np.asarray(baseline), *(np.asarray(s) for s in systems)]
    for m in mats:
        _check(documents, len(m), "a statistics matrix")
    summed = [document_sums(m, documents) for m in mats]
    c = compare(summed[0], summed[1:], config, method=method, trials=trials, seed=seed, nrefs=nrefs)
    first = c.results[0] if c.results else None
    n_trials = first.trials if first is not None else (trials or (1000 if method == "bs" else 10000))
    sig = make_signature(config, nrefs, **{method: n_trials, "rs": seed, "block": "doc"})
    return dataclasses.replace(
        c, signature=sig, results=tuple(dataclasses.replace(r, signature=sig) for r in c.results)
    )


# --- sacreBLEU's --origlang and --subset ------------------------------------------------------------------


def sacrebleu_subset(
    documents: Documents, *, origlang: str | None = None, subset: str | None = None
) -> tuple[int, ...]:
    """The segments sacreBLEU keeps for ``--origlang`` and ``--subset`` on a WMT XML test set
    (``sacrebleu.utils.filter_subset``): ``origlang=xx`` keeps documents whose origlang is ``xx``, ``non-xx``
    those whose origlang is not ``xx``; ``subset`` is a regular expression searched in the document's domain
    (a ``country:`` prefix is dropped, as sacreBLEU drops it), and a document with no domain is never in a
    subset. Both given: both must hold. Neither: every segment.

    Raises:
        InputError: a bad or dangerous regular expression.

    Example:
        >>> d = Documents(("a", "b", "c"), ("en", "de", "cs"), ("news", "social", None))
        >>> sacrebleu_subset(d, origlang="en"), sacrebleu_subset(d, origlang="non-en"), sacrebleu_subset(d, subset="so")
        ((0,), (1, 2), (1,))
    """
    if origlang is None and subset is None:
        return tuple(range(documents.n_segments))
    if subset is not None and subset.startswith("country:"):
        subset = subset[8:]
    pattern = compile_pattern(subset, "--subset") if subset is not None else None
    keep = []
    for i in range(documents.n_segments):
        doc_origlang, doc_domain = documents.origlangs[i], documents.domains[i]
        if origlang is None:
            include = True
        elif origlang.startswith("non-"):
            include = doc_origlang != origlang[4:]
        else:
            include = doc_origlang == origlang
        if pattern is not None and (doc_domain is None or not pattern.search(doc_domain)):
            include = False
        if include:
            keep.append(i)
    return tuple(keep)
