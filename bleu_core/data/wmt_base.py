"""What both WMT readers share, and the markup check. WMT test sets as they are shipped: one XML file (WMT21
on) or JSONL (WMT24/25), read into a corpus and its documents; and the markup check that keeps ``<seg id="1">``
lines from being scored as text.

* :mod:`bleu_core.data.wmt_xml` reads the WMT XML format exactly as sacreBLEU's ``wmt_xml`` reader does
  (``WMTXMLDataset._unwrap_wmt21_or_later``): ``<dataset><collection><doc id origlang domain>`` with ``<src lang>``,
  ``<ref lang translator>`` and ``<hyp system lang>``, each of ``<p><seg id>`` lines; test-suite documents are
  skipped and so are segments no reference translates, as there. Where sacreBLEU would crash or silently shift
  lines (a system without a segment or a document, two segments with one id, two source languages) this reader
  says so in one line naming file, line, document and segment.
* :mod:`bleu_core.data.wmt_jsonl` reads the WMT24/25 JSONL files: segment records (``src_text``, ``tgt_text``
  holding the references and systems by name, ``doc_id``) or the WMT25 document records (``doc_id``, ``src_text``,
  ``refs``, ``src_lang``, ``tgt_lang``, ``domain``) with one ``{doc_id, hypothesis}`` file per system; it reports
  the fields it used.
* :func:`find_markup` finds the first line of a text file that carries ``<seg>`` or SGML markup, so that a reader
  reads the file as the format it is or refuses it (:func:`check_no_markup`), never scores the tags as words.

Both readers return a :class:`WmtCorpus`: today's :class:`~bleu_core.data.corpus.Corpus` (with the source) and the
:class:`~bleu_core.data.documents.Documents` beside it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Final, Literal

from bleu_core.errors import InputError

from .corpus import Corpus, TextFile, build_corpus, system_name
from .document_index import Documents
from .readers import DEFAULT_LIMIT_MB, FOLDER_LIMIT_FACTOR

__all__ = [
    "WMT_LIMIT_MB",
    "Markup",
    "SegmentRows",
    "WmtCorpus",
    "check_no_markup",
    "choose_translators",
    "clean_space",
    "find_markup",
]

WMT_LIMIT_MB: Final = DEFAULT_LIMIT_MB * FOLDER_LIMIT_FACTOR
"""One WMT file holds what a folder holds (source, references, every system), so it gets a folder's limit."""


# --- markup in a text file -------------------------------------------------------------------------------

_MARKUP: Final = re.compile(
    r"""<seg(?:\s[^<>\n]*)?>|</seg\s*>
      | <doc\s[^<>\n]*\b(?:docid|sysid|id|origlang|genre|setid)\s*=[^<>\n]*>|</doc\s*>
      | </?(?:srcset|refset|tstset)\b[^<>\n]*>
      | ^\s*<\?xml\s[^\n]*|<dataset\b[^<>\n]*>""",
    re.VERBOSE | re.MULTILINE,
)


@dataclass(frozen=True, slots=True)
class Markup:
    """Markup found in a text file.

    Attributes:
        line: the 1-based line it is on.
        tag: the markup itself (at most 60 characters of it).
        kind: ``xml`` (a WMT XML file: an XML declaration or ``<dataset>``), ``sgml`` (WMT's SGML up to 2020:
            ``<srcset>``, ``<refset>``, ``<tstset>``, ``<doc docid=...>``) or ``seg`` (``<seg>`` lines alone).
    """

    line: int
    tag: str
    kind: Literal["xml", "sgml", "seg"]


def find_markup(lines: Sequence[str]) -> Markup | None:
    """The first line that carries WMT XML or SGML markup (``<seg id="1">``, ``<doc docid=...>``, ``<srcset>``...),
    or None. Text that merely mentions a tag in running prose (``a <b> tag``) is not markup.

    Example:
        >>> find_markup(["<refset setid='x'>", '<seg id="1">Hallo</seg>'])
        Markup(line=1, tag="<refset setid='x'>", kind='sgml')
        >>> find_markup(["a < b and c > d", "use the <seg> element"]) is None, find_markup(['<seg id="2">x</seg>'])
        (False, Markup(line=1, tag='<seg id="2">', kind='seg'))
        >>> find_markup(["plain text", "more"]) is None
        True
    """
    text = "\n".join(lines)
    first = text.find("<")
    if first < 0:  # every kind of markup holds a "<" and most MT text has none: the regex's scan (0.2 s for 50,000
        return None  # lines, most of an upload's parse) is paid only from the line of the first "<" on
    m = _MARKUP.search(text, text.rfind("\n", 0, first) + 1)
    if m is None:
        return None
    tag = m.group(0).strip()
    low = tag.lower()
    if low.startswith(("<?xml", "<dataset")):
        kind: Literal["xml", "sgml", "seg"] = "xml"
    elif "seg" in low[:5]:
        kind = "seg"
    else:
        kind = "sgml"
    return Markup(text.count("\n", 0, m.start()) + 1, tag[:60], kind)


def check_no_markup(file: TextFile) -> None:
    """Refuse a text file whose lines carry WMT XML or SGML markup: scored as text, the tags count as words
    (on 20 segments of WMT21 en-de wrapped in ``<seg id="N">`` tags, BLEU 56.33 instead of 27.38).

    Raises:
        InputError: naming the file, the line and the markup.

    Example:
        >>> check_no_markup(TextFile("hyp.txt", ("Hallo", '<seg id="2">Welt</seg>')))  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        bleu_core.errors.InputError: hyp.txt:2: holds markup ('<seg id="2">'); scored as text the tags would ...
    """
    found = find_markup(file.lines)
    if found is None:
        return
    what = {
        "xml": "this is a WMT XML file: read it as one",
        "sgml": "this is WMT SGML (up to 2020): extract the text first",
        "seg": "give the WMT XML file itself, or remove the markup",
    }[found.kind]
    raise InputError(
        f"holds markup ({found.tag!r}); scored as text the tags would count as words: {what}",
        f"{file.name}:{found.line}",
    )


# --- the result ------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class WmtCorpus:
    """A WMT test set read from one file: the corpus and, per segment, its document.

    Attributes:
        corpus: references (those chosen), systems and the source, one segment per line.
        documents: per segment its document id, origlang and domain; the file's languages.
        format: ``wmt-xml`` or ``wmt-jsonl``.
        translators: the translator of each reference in ``corpus.references``, in order.
        available: every translator the file has.
        fields: (what, where it was read from) pairs: which elements or JSON fields gave what.
    """

    corpus: Corpus
    documents: Documents
    format: Literal["wmt-xml", "wmt-jsonl"]
    translators: tuple[str, ...]
    available: tuple[str, ...]
    fields: tuple[tuple[str, str], ...] = ()

    def describe(self) -> str:
        """One line: what was read, from where.

        Example:
            >>> c = Corpus("t", (TextFile("r", ("a",)),), ())
            >>> WmtCorpus(c, Documents(("d",), ("en",), (None,), "en", "de"), "wmt-xml", ("A",), ("A", "B")).describe()
            'WMT XML, en-de: 1 segment in 1 document, 1 reference (translator A of A, B), 0 systems'
        """
        fmt = "WMT XML" if self.format == "wmt-xml" else "WMT JSONL"
        n, d = self.corpus.n_segments, len(self.documents.names)
        langs = f"{self.documents.src_lang or '?'}-{self.documents.tgt_lang or '?'}"
        refs = f"{len(self.translators)} reference{'' if len(self.translators) == 1 else 's'}"
        if self.available:
            refs += f" (translator {', '.join(self.translators)} of {', '.join(self.available)})"
        k = len(self.corpus.systems)
        line = (
            f"{fmt}, {langs}: {n} segment{'' if n == 1 else 's'} in {d} document{'' if d == 1 else 's'}, "
            f"{refs}, {k} system{'' if k == 1 else 's'}"
        )
        if self.fields:
            line += "; read " + ", ".join(f"{what} from {where}" for what, where in self.fields)
        return line


_SPACE: Final = re.compile(r"\s+")


def clean_space(text: str, normalize: bool) -> str:
    """``text`` with its white space cleaned as sacreBLEU cleans a WMT XML test set's fields (when ``normalize``)."""
    # sacreBLEU writes every field of a WMT XML file through Dataset._clean: spaces trimmed and runs collapsed
    return _SPACE.sub(" ", text.strip()) if normalize else text


def choose_translators(translators: Sequence[str], chosen: Sequence[str] | None, name: str) -> list[str]:
    """The references to keep, by translator (``None``: all); an unknown translator is one line naming the file."""
    if chosen is None:
        return list(translators)
    out = []
    for t in chosen:
        if t not in translators:
            have = ", ".join(repr(x) for x in translators) or "none"
            raise InputError(f"no reference by translator {t!r} (the file has: {have})", name)
        if t not in out:
            out.append(t)
    if not out:
        raise InputError("no reference chosen; choose at least one translator", name)
    return out


@dataclass(slots=True)
class SegmentRows:
    """What a reader collects segment by segment: the source, each chosen reference and each system, and per
    segment its document; :meth:`result` makes the :class:`WmtCorpus`."""

    chosen: list[str]
    systems: list[str]
    source: list[str] = field(default_factory=list)
    refs: dict[str, list[str]] = field(default_factory=dict)
    hyps: dict[str, list[str]] = field(default_factory=dict)
    doc_ids: list[str] = field(default_factory=list)
    origlangs: list[str | None] = field(default_factory=list)
    domains: list[str | None] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.refs = {t: [] for t in self.chosen}
        self.hyps = {s: [] for s in self.systems}

    def result(
        self,
        name: str,
        notes: list[str],
        langs: tuple[str, str],
        fmt: Literal["wmt-xml", "wmt-jsonl"],
        translators: Sequence[str],
        fields: tuple[tuple[str, str], ...],
    ) -> WmtCorpus:
        """The corpus (named after the file) and its documents, with the reader's notes as warnings."""
        label = system_name(name)
        ref_files = [TextFile(f"{name}[ref {t}]", tuple(lines)) for t, lines in self.refs.items()]
        sys_files = [TextFile(f"{name}[{s}]", tuple(lines)) for s, lines in self.hyps.items()]
        src = TextFile(f"{name}[src]", tuple(self.source))
        if not self.source:
            raise InputError("no segment with a reference: nothing to score", name)
        if sys_files:
            corpus = build_corpus(label, ref_files, sys_files, source=src, names=list(self.hyps), warnings=notes)
        else:  # a test set without outputs: the systems come later (text files, or another WMT file)
            corpus = Corpus(label, tuple(ref_files), (), src, warnings=tuple(notes))
        documents = Documents(tuple(self.doc_ids), tuple(self.origlangs), tuple(self.domains), *langs)
        corpus = replace(corpus, documents=documents)
        return WmtCorpus(corpus, documents, fmt, tuple(self.chosen), tuple(translators), fields)
