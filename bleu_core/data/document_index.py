"""Documents of a test set, as values: which document, original language and domain each segment belongs to, and
the segments a condition on them chooses (``--where doc ~ ...``). What documents allow (document-level scores, the
document-block bootstrap, sacreBLEU's subsets) is in :mod:`bleu_core.data.documents`; this module stays below
:mod:`bleu_core.data.corpus`, whose corpora carry their documents."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Final, Literal

from bleu_core.errors import InputError

from .patterns import compile_pattern

__all__ = ["DOC_FIELDS", "DocField", "Documents"]

DocField = Literal["doc", "origlang", "domain"]
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
            pattern = compile_pattern(value, "--where")
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
