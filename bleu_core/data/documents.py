"""Documents of a test set: which document, original language and domain each segment belongs to, and what that
allows: document-level scores (d-BLEU), a paired bootstrap that resamples whole documents, and sacreBLEU's
``--origlang`` / ``--subset`` selections.

The WMT readers (:mod:`bleu_core.data.wmt`) give a :class:`Documents` beside the :class:`~bleu_core.data.corpus.Corpus`
they read; everything here is a function of the two, or of statistics matrices whose rows are the corpus's
segments.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Final, Literal

import numpy as np

from bleu_core.config import BleuConfig
from bleu_core.errors import InputError
from bleu_core.metrics.bleu import make_signature
from bleu_core.significance import Comparison, compare
from bleu_core.significance.resample import DEFAULT_SEED

from .corpus import Corpus, System, TextFile
from .slices import pattern_problem

__all__ = [
    "DOC_FIELDS",
    "Documents",
    "document_comparison",
    "document_sums",
    "join_documents",
    "sacrebleu_subset",
]

DocField = Literal["doc", "origlang", "domain"]
Method = Literal["bs", "ar"]
DOC_FIELDS: Final = ("doc", "origlang", "domain")
"""What a segment's document tells: its id, its original language, its domain (``--where doc ~ ...``)."""


@dataclass(frozen=True, slots=True)
class Documents:
    """Per segment of a corpus: its document id, the document's original language and domain.

    Attributes:
        doc_ids: ``doc_ids[i]`` is the id of segment ``i``'s document.
        origlangs: the document's ``origlang`` (``None`` where the file gives none).
        domains: the document's ``domain`` (``None`` where the file gives none; WMT21 and WMT22 have none).
        src_lang: the source language the file declares (``""``: none).
        tgt_lang: the target language (the references'), or ``""``.
        names: the document ids in order of first appearance (computed once).
        index: per segment, the position of its document in ``names`` (computed once).

    Example:
        >>> d = Documents(("d1", "d1", "d2"), ("en", "en", "de"), (None, None, None), "en", "de")
        >>> d.names, d.index, d.n_segments, d.blocks()
        (('d1', 'd2'), (0, 0, 1), 3, ((0, 1), (2,)))
    """

    doc_ids: tuple[str, ...]
    origlangs: tuple[str | None, ...]
    domains: tuple[str | None, ...]
    src_lang: str = ""
    tgt_lang: str = ""
    names: tuple[str, ...] = field(init=False, repr=False, compare=False)
    index: tuple[int, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        n = len(self.doc_ids)
        if len(self.origlangs) != n or len(self.domains) != n:
            raise InputError(
                f"{n} document ids but {len(self.origlangs)} origlangs and {len(self.domains)} domains", "documents"
            )
        positions: dict[str, int] = {}
        index = tuple(positions.setdefault(d, len(positions)) for d in self.doc_ids)
        object.__setattr__(self, "names", tuple(positions))
        object.__setattr__(self, "index", index)

    @property
    def n_segments(self) -> int:
        """The segments described."""
        return len(self.doc_ids)

    def blocks(self) -> tuple[tuple[int, ...], ...]:
        """The segments (0-based) of each document, documents in the order of :attr:`names`."""
        out: list[list[int]] = [[] for _ in self.names]
        for i, d in enumerate(self.index):
            out[d].append(i)
        return tuple(tuple(b) for b in out)

    def value(self, what: DocField, i: int) -> str | None:
        """Segment ``i``'s document id, origlang or domain."""
        if what == "doc":
            return self.doc_ids[i]
        return self.origlangs[i] if what == "origlang" else self.domains[i]

    def where(self, what: DocField, op: Literal["==", "!=", "~"], value: str) -> tuple[int, ...]:
        """The segments (0-based, in order) whose document's ``what`` compares so with ``value``: ``==`` and ``!=``
        compare the whole text, ``~`` searches a regular expression (as ``--where src ~``). A segment whose
        document has no such attribute matches ``!=`` only.

        Raises:
            InputError: an unknown field or operator, a bad or dangerous regular expression.

        Example:
            >>> d = Documents(("a.1", "a.1", "b.7"), ("en", "en", "de"), ("news", "news", None))
            >>> d.where("origlang", "==", "de"), d.where("doc", "~", r"^a\\."), d.where("domain", "!=", "news")
            ((2,), (0, 1), (2,))
        """
        if what not in DOC_FIELDS:
            raise InputError(f"unknown document field {what!r} (known: {', '.join(DOC_FIELDS)})", "--where")
        if op == "~":
            pattern = _regex(value, "--where")
            found = ((i, self.value(what, i)) for i in range(self.n_segments))
            return tuple(i for i, v in found if v is not None and pattern.search(v))
        if op not in ("==", "!="):
            raise InputError(f"{op!r} does not compare texts (use ==, != or ~)", "--where")
        same = op == "=="
        return tuple(i for i in range(self.n_segments) if (self.value(what, i) == value) == same)

    def take(self, lines: Sequence[int]) -> Documents:
        """The documents of the chosen segments, in the order given."""
        return Documents(
            tuple(self.doc_ids[i] for i in lines),
            tuple(self.origlangs[i] for i in lines),
            tuple(self.domains[i] for i in lines),
            self.src_lang,
            self.tgt_lang,
        )


def _regex(pattern: str, where: str) -> re.Pattern[str]:
    """A user's regular expression, refused when too long or when it can backtrack for ever (as slices do)."""
    problem = pattern_problem(pattern)
    if problem is not None:
        raise InputError(problem, where)
    try:
        return re.compile(pattern)
    except re.error as e:
        raise InputError(f"bad regular expression {pattern!r} ({e})", where) from None


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
    )
    docs = Documents(
        documents.names,
        tuple(documents.origlangs[i] for i in first),
        tuple(documents.domains[i] for i in first),
        documents.src_lang,
        documents.tgt_lang,
    )
    return joined, docs


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
    pattern = _regex(subset, "--subset") if subset is not None else None
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
