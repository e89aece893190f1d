"""WMT test sets as they are shipped: one XML file (WMT21 on) or JSONL (WMT24/25), read into a corpus and its
documents; and the markup check that keeps ``<seg id="1">`` lines from being scored as text.

* :func:`parse_wmt_xml` reads the WMT XML format exactly as sacreBLEU's ``wmt_xml`` reader does
  (``WMTXMLDataset._unwrap_wmt21_or_later``): ``<dataset><collection><doc id origlang domain>`` with ``<src lang>``,
  ``<ref lang translator>`` and ``<hyp system lang>``, each of ``<p><seg id>`` lines; test-suite documents are
  skipped and so are segments no reference translates, as there. Where sacreBLEU would crash or silently shift
  lines (a system without a segment or a document, two segments with one id, two source languages) this reader
  says so in one line naming file, line, document and segment.
* :func:`parse_wmt_jsonl` reads the WMT24/25 JSONL files: segment records (``src_text``, ``tgt_text`` holding the
  references and systems by name, ``doc_id``) or the WMT25 document records (``doc_id``, ``src_text``, ``refs``,
  ``src_lang``, ``tgt_lang``, ``domain``) with one ``{doc_id, hypothesis}`` file per system; it reports the fields
  it used.
* :func:`find_markup` finds the first line of a text file that carries ``<seg>`` or SGML markup, so that a reader
  reads the file as the format it is or refuses it (:func:`check_no_markup`), never scores the tags as words.

Both readers return a :class:`WmtCorpus`: today's :class:`~bleu_core.corpus.Corpus` (with the source) and the
:class:`~bleu_core.data.documents.Documents` beside it.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any, Final, Literal
from xml.parsers import expat

from bleu_core.corpus import Corpus, TextFile, build_corpus, system_name
from bleu_core.errors import InputError
from bleu_core.readers import DEFAULT_LIMIT_MB, FOLDER_LIMIT_FACTOR, check_size, decode_text

from .documents import Documents

__all__ = [
    "WMT_LIMIT_MB",
    "Markup",
    "WmtCorpus",
    "check_no_markup",
    "find_markup",
    "parse_wmt",
    "parse_wmt_jsonl",
    "parse_wmt_xml",
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
    m = _MARKUP.search(text)
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


def _clean(text: str, normalize: bool) -> str:
    # sacreBLEU writes every field of a WMT XML file through Dataset._clean: spaces trimmed and runs collapsed
    return _SPACE.sub(" ", text.strip()) if normalize else text


def _choose(translators: Sequence[str], chosen: Sequence[str] | None, name: str) -> list[str]:
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


def _make(
    name: str,
    source: list[str],
    refs: dict[str, list[str]],
    systems: dict[str, list[str]],
    notes: list[str],
) -> Corpus:
    label = system_name(name)
    ref_files = [TextFile(f"{name}[ref {t}]", tuple(lines)) for t, lines in refs.items()]
    sys_files = [TextFile(f"{name}[{s}]", tuple(lines)) for s, lines in systems.items()]
    src = TextFile(f"{name}[src]", tuple(source))
    if not source:
        raise InputError("no segment with a reference: nothing to score", name)
    if not sys_files:  # a test set without outputs: the systems come later (text files, or another WMT file)
        return Corpus(label, tuple(ref_files), (), src, warnings=tuple(notes))
    return build_corpus(label, ref_files, sys_files, source=src, names=list(systems), warnings=notes)


# --- WMT XML ---------------------------------------------------------------------------------------------


class _Element:
    """An XML element with the line it starts on; ``text`` is kept for ``<seg>`` only."""

    __slots__ = ("attrs", "children", "line", "tag", "text")

    def __init__(self, tag: str, attrs: dict[str, str], line: int) -> None:
        self.tag = tag
        self.attrs = attrs
        self.line = line
        self.children: list[_Element] = []
        self.text: list[str] = []

    def iter(self, tag: str) -> Iterator[_Element]:
        """Descendants called ``tag``, in document order (``.//tag``)."""
        for c in self.children:
            if c.tag == tag:
                yield c
            yield from c.iter(tag)


class _RefusedError(Exception):
    def __init__(self, what: str) -> None:
        self.what = what


def _parse_xml(text: str, name: str) -> _Element:
    """The element tree with line numbers, by the standard library's expat. A document type declaration is
    refused outright (WMT files have none), which leaves no entity to expand: no external entity is fetched and
    no entity bomb (billion laughs) is expanded."""
    parser = expat.ParserCreate()
    parser.buffer_text = True
    parser.SetParamEntityParsing(expat.XML_PARAM_ENTITY_PARSING_NEVER)
    root = _Element("", {}, 0)
    stack = [root]

    def refuse_dtd(*_: object) -> None:
        raise _RefusedError("has a document type declaration (<!DOCTYPE ...>); WMT XML has none, and it is not read")

    def start(tag: str, attrs: dict[str, str]) -> None:
        parent = stack[-1]
        if parent.tag == "seg" and tag == "seg":
            raise _RefusedError(f"<seg> opened at line {parent.line} is not closed (a <seg> starts inside it)")
        if parent.tag == "seg":
            raise _RefusedError(f"a <{tag}> element inside <seg> (opened at line {parent.line}); a segment is text")
        el = _Element(tag, attrs, parser.CurrentLineNumber)
        parent.children.append(el)
        stack.append(el)

    def end(_: str) -> None:
        stack.pop()

    def data(chunk: str) -> None:
        if stack[-1].tag == "seg":
            stack[-1].text.append(chunk)

    parser.StartDoctypeDeclHandler = refuse_dtd
    parser.EntityDeclHandler = refuse_dtd
    parser.StartElementHandler = start
    parser.EndElementHandler = end
    parser.CharacterDataHandler = data
    try:
        parser.Parse(text, True)
    except _RefusedError as r:
        raise InputError(r.what, f"{name}:{parser.CurrentLineNumber}") from None
    except expat.ExpatError as e:
        what = expat.ErrorString(e.code) or "not well-formed"
        open_el = stack[-1] if len(stack) > 1 else None
        if open_el is not None and what in ("mismatched tag", "no element found", "unclosed token"):
            what = f"<{open_el.tag}> opened at line {open_el.line} is not closed ({what} at column {e.offset + 1})"
        else:
            what = f"not well-formed XML ({what} at column {e.offset + 1})"
        raise InputError(what, f"{name}:{e.lineno}") from None
    return root


def _seg_ids(el: _Element, segs: Sequence[_Element], name: str, what: str, doc: str) -> dict[int, tuple[str, int]]:
    """``{seg id: (text, line)}``; refusing an id that is not a whole number or that comes twice."""
    out: dict[int, tuple[str, int]] = {}
    for s in segs:
        raw = s.attrs.get("id")
        where = f"{name}:{s.line}"
        if raw is None:
            raise InputError(f"document {doc!r}: a <seg> in {what} has no id", where)
        try:
            i = int(raw)
        except ValueError:
            raise InputError(f"document {doc!r}: <seg id={raw!r}> in {what} is not a whole number", where) from None
        if i in out:
            raise InputError(
                f"document {doc!r}: two segments with id {i} in {what} (lines {out[i][1]} and {s.line})", where
            )
        out[i] = ("".join(s.text), s.line)
    return out


def parse_wmt_xml(
    data: bytes,
    name: str,
    *,
    ref_translators: Sequence[str] | None = None,
    normalize_space: bool = True,
    limit_mb: float = WMT_LIMIT_MB,
) -> WmtCorpus:
    """A WMT XML test set (WMT21 on): source, references and systems from one file, as sacreBLEU reads it.

    What sacreBLEU does, this does: documents anywhere under the root (``<collection>`` or not), test-suite
    documents (``testsuite=`` attribute) skipped, segments in order of their id within each document, a segment
    no reference translates skipped (counted in the warnings), a translator without a segment gives ``""``.
    Entities are decoded once, by the parser (``&amp;amp;`` in a file reads ``&amp;``). With ``normalize_space``
    each text is trimmed and its runs of white space made one space, as sacreBLEU's text files of a WMT XML test
    set are (``Dataset._clean``).

    Args:
        data: the file's bytes (UTF-8).
        name: the file name, for messages.
        ref_translators: the references to keep, by ``translator`` attribute (``None``: all, in file order).
        normalize_space: clean white space as sacreBLEU does.
        limit_mb: the size limit.

    Returns:
        A :class:`WmtCorpus`. A file with no ``<hyp>`` gives a corpus without systems (add them from text files).

    Raises:
        InputError: not UTF-8, over the limit, not well-formed (naming the line and the element left open), a
            document type declaration, two source or reference languages, a document without id or segments,
            two segments with one id, a system missing a document or a segment, an unknown translator.

    Example:
        >>> xml = b'''<dataset id="t"><collection id="c"><doc id="d1" origlang="en" domain="news">
        ... <src lang="en"><p><seg id="1">A cat &amp;amp; a dog.</seg><seg id="2">Hi.</seg></p></src>
        ... <ref lang="de" translator="A"><p><seg id="1">Eine Katze.</seg><seg id="2">Hallo.</seg></p></ref>
        ... <hyp system="S1" lang="de"><p><seg id="1">Katze.</seg><seg id="2">Hallo .</seg></p></hyp>
        ... </doc></collection></dataset>'''
        >>> w = parse_wmt_xml(xml, "t.xml")
        >>> w.corpus.source.lines, w.corpus.names, w.documents.doc_ids, w.documents.domains, w.translators
        (('A cat &amp; a dog.', 'Hi.'), ('S1',), ('d1', 'd1'), ('news', 'news'), ('A',))
        >>> parse_wmt_xml(xml.replace(b"</p></hyp>", b"</hyp>"), "t.xml")
        Traceback (most recent call last):
        ...
        bleu_core.errors.InputError: t.xml:4: <p> opened at line 4 is not closed (mismatched tag at column 82)
    """
    check_size(name, len(data), limit_mb)
    root = _parse_xml(decode_text(data, name).removeprefix("\ufeff"), name)

    def one_language(tag: str, what: str) -> str:
        seen: dict[str, int] = {}
        for el in root.iter(tag):
            lang = el.attrs.get("lang", "")
            if lang not in seen:
                seen[lang] = el.line
                if len(seen) > 1:
                    (a, la), (b, lb) = list(seen.items())[:2]
                    raise InputError(
                        f"two {what} languages ({a!r} at line {la}, {b!r} at line {lb}); a WMT file holds one "
                        "language pair",
                        f"{name}:{el.line}",
                    )
        return next(iter(seen), "")

    src_lang = one_language("src", "source")
    tgt_lang = one_language("ref", "reference")
    translators = list(dict.fromkeys(r.attrs.get("translator", "") for r in root.iter("ref")))
    chosen = _choose(translators, ref_translators, name)
    docs = [d for d in root.iter("doc") if "testsuite" not in d.attrs]
    if not docs:
        raise InputError("no <doc> to score (a WMT XML file holds <doc> elements; test suites are skipped)", name)
    systems = list(dict.fromkeys(h.attrs.get("system", "") for d in docs for h in d.iter("hyp")))
    source: list[str] = []
    refs: dict[str, list[str]] = {t: [] for t in chosen}
    hyps: dict[str, list[str]] = {s: [] for s in systems}
    doc_ids: list[str] = []
    origlangs: list[str | None] = []
    domains: list[str | None] = []
    skipped = 0
    for doc in docs:
        doc_id = doc.attrs.get("id")
        if doc_id is None:
            raise InputError("a <doc> has no id", f"{name}:{doc.line}")
        src = _seg_ids(doc, [s for el in doc.iter("src") for s in el.iter("seg")], name, "the source", doc_id)
        if not src:
            raise InputError(f"document {doc_id!r} is empty: its source has no <seg>", f"{name}:{doc.line}")
        by_translator: dict[str, dict[int, tuple[str, int]]] = {}
        for r in doc.iter("ref"):
            t = r.attrs.get("translator", "")
            if t in by_translator:
                raise InputError(f"document {doc_id!r}: two references by translator {t!r}", f"{name}:{r.line}")
            by_translator[t] = _seg_ids(r, list(r.iter("seg")), name, f"reference {t!r}", doc_id)
        by_system: dict[str, tuple[dict[int, tuple[str, int]], int]] = {}
        for h in doc.iter("hyp"):
            s = h.attrs.get("system", "")
            if s in by_system:
                raise InputError(f"document {doc_id!r}: two outputs of system {s!r}", f"{name}:{h.line}")
            by_system[s] = (_seg_ids(h, list(h.iter("seg")), name, f"system {s!r}", doc_id), h.line)
        for s in systems:
            if s not in by_system:
                raise InputError(f"system {s!r} has no translation of document {doc_id!r}", f"{name}:{doc.line}")
        for seg_id in sorted(src):
            # sacreBLEU: a segment that no reference translates is not scored
            if not any(t.get(seg_id, ("", 0))[0] for t in by_translator.values()):
                skipped += 1
                continue
            for t in chosen:
                refs[t].append(_clean(by_translator.get(t, {}).get(seg_id, ("", 0))[0], normalize_space))
            for s in systems:
                segs, line = by_system[s]
                if seg_id not in segs:
                    raise InputError(
                        f'system {s!r} has no <seg id="{seg_id}"> in document {doc_id!r}', f"{name}:{line}"
                    )
                hyps[s].append(_clean(segs[seg_id][0], normalize_space))
            source.append(_clean(src[seg_id][0], normalize_space))
            doc_ids.append(doc_id)
            origlangs.append(doc.attrs.get("origlang"))
            domains.append(doc.attrs.get("domain"))
    notes = []
    if skipped:
        notes.append(f"{name}: {skipped} segment(s) no reference translates were skipped, as sacreBLEU skips them")
    testsuites = sum(1 for d in root.iter("doc") if "testsuite" in d.attrs)
    if testsuites:
        notes.append(f"{name}: {testsuites} test-suite document(s) skipped, as sacreBLEU skips them")
    corpus = _make(name, source, refs, hyps, notes)
    documents = Documents(tuple(doc_ids), tuple(origlangs), tuple(domains), src_lang, tgt_lang)
    fields = (
        ("source", "<src>"),
        ("references", "<ref translator>"),
        ("systems", "<hyp system>"),
        ("documents", "<doc id origlang domain>"),
    )
    return WmtCorpus(corpus, documents, "wmt-xml", tuple(chosen), tuple(translators), fields)


# --- WMT JSONL -------------------------------------------------------------------------------------------

_REF_KEY: Final = re.compile(r"^ref(?:erence)?[-_:]?([A-Za-z0-9]*)$")
_SEG_SUFFIX: Final = re.compile(r"_#_\d+$")  # WMT24/25 segment ids: <document id>_#_<segment number>
_WMT24_DOC: Final = re.compile(r"^test-[a-z]{2,3}-([a-z]+)_")  # test-en-news_<source>: the domain is its third part


def _loads(text: str, name: str) -> list[tuple[int, dict[str, Any]]]:
    out = []
    for i, line in enumerate(text.split("\n")):
        if not line.strip():
            continue
        where = f"{name}:{i + 1}"
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as exc:
            raise InputError(f"not JSON ({exc.msg} at column {exc.colno})", where) from None
        except (RecursionError, ValueError):
            raise InputError("a JSON value cannot be read (nested too deeply, or a number too long)", where) from None
        if not isinstance(obj, dict):
            raise InputError("expected a JSON object per line", where)
        out.append((i + 1, obj))
    if not out:
        raise InputError("the file is empty", name)
    return out


def _text(obj: dict[str, Any], key: str, where: str) -> str:
    value = obj.get(key)
    if not isinstance(value, str):
        raise InputError(f"{key!r} must be a string, found {type(value).__name__}", where)
    return value


def _translator(key: str) -> str:
    m = _REF_KEY.match(key)
    return (m.group(1) or key) if m else key


def _pair(obj: dict[str, Any], doc_id: str) -> str:
    """The language pair of a record: ``src_lang``-``tgt_lang``, ``langs``, or a WMT25 document id's first part."""
    if isinstance(obj.get("src_lang"), str) and isinstance(obj.get("tgt_lang"), str):
        return f"{obj['src_lang']}-{obj['tgt_lang']}"
    if isinstance(obj.get("langs"), str):
        return str(obj["langs"])
    parts = doc_id.split("_#_")
    return parts[0] if len(parts) >= 3 else ""


def _domain(obj: dict[str, Any], doc_id: str) -> str | None:
    if isinstance(obj.get("domain"), str):
        return str(obj["domain"])
    parts = doc_id.split("_#_")
    if len(parts) >= 3:  # WMT25: <pair>_#_<domain>_#_<name>
        return parts[1]
    m = _WMT24_DOC.match(doc_id)
    return m.group(1) if m else None


def _same_pair(pair: str, wanted: str) -> bool:
    """``en-de`` chooses ``en-de_DE`` too (WMT25 writes the target with its region)."""
    if pair == wanted:
        return True
    src, _, tgt = pair.partition("-")
    return f"{src.split('_')[0]}-{tgt.split('_')[0]}" == wanted


def _one_pair(pairs: Sequence[str], langpair: str | None, name: str) -> str | None:
    found = sorted(set(pairs))
    if langpair is None:
        if len(found) > 1:
            raise InputError(
                f"holds {len(found)} language pairs ({', '.join(found[:8])}{'...' if len(found) > 8 else ''}); "
                "choose one",
                name,
            )
        return None
    if not any(_same_pair(p, langpair) for p in found):
        raise InputError(f"no language pair {langpair!r} (the file has: {', '.join(found[:12])})", name)
    return langpair


def _split_pair(pair: str) -> tuple[str, str]:
    src, _, tgt = pair.partition("-")
    return src, tgt


def parse_wmt_jsonl(
    data: bytes,
    name: str,
    *,
    systems: Sequence[tuple[str, bytes]] = (),
    ref_translators: Sequence[str] | None = None,
    langpair: str | None = None,
    unit: Literal["paragraph", "document"] = "paragraph",
    normalize_space: bool = True,
    limit_mb: float = WMT_LIMIT_MB,
) -> WmtCorpus:
    """A WMT24/25 JSONL file, in either of its two shapes (found from the first record):

    * **segments** (WMT24/25 human-evaluation files, ``wmt2x-genmt-humeval.jsonl``): one record per segment with
      ``src_text``, ``tgt_text`` (a mapping from name to text: ``refA``-like names are references, the others
      systems) and ``doc_id`` (``<document>_#_<n>``: the document is the part before ``_#_<n>``). Such files
      hold each segment's annotated systems only: the systems present on every segment are kept and the others
      named in the warnings.
    * **documents** (the WMT25 test set, ``wmt25-genmt.jsonl``): one record per document with ``doc_id``,
      ``src_text``, ``refs`` (``{"refA": {"ref": text}}``), ``src_lang``, ``tgt_lang`` and ``domain``; the systems
      come from ``systems``, one ``{"doc_id", "hypothesis"}`` file each (WMT25's ``systems/<NAME>.jsonl``).
      ``unit="paragraph"`` splits each document at blank lines, as WMT25's own scripts do (every system must give
      as many paragraphs as the source); ``"document"`` keeps each document one segment. Documents without a
      reference are skipped (as sacreBLEU skips segments no reference translates).

    Domain: the ``domain`` field, else a WMT25 document id's second part (``en-de_DE_#_news_#_...``), else a
    WMT24 id's (``test-en-news_...``). Language pair: ``src_lang``/``tgt_lang``, ``langs``, or the WMT25 id's
    first part; a file of several pairs needs ``langpair`` (``en-de`` also chooses ``en-de_DE``).

    Returns:
        A :class:`WmtCorpus` whose ``fields`` say which fields gave what.

    Raises:
        InputError: naming file and line (or document): not JSON, a missing or mistyped field, a reference
            missing from a segment, a system missing a document, paragraphs that do not line up.

    Example:
        >>> rows = [{"doc_id": f"en-de_DE_#_news_#_d{i // 2}_#_{i}", "src_text": f"s{i}",
        ...          "tgt_text": {"refA": f"r {i}", "S1": f"r {i}", "S2": "x"}} for i in range(3)]
        >>> w = parse_wmt_jsonl("\\n".join(json.dumps(r) for r in rows).encode(), "h.jsonl")
        >>> w.corpus.names, w.translators, w.documents.names, w.documents.index
        (('S1', 'S2'), ('A',), ('en-de_DE_#_news_#_d0', 'en-de_DE_#_news_#_d1'), (0, 0, 1))
        >>> w.documents.domains[0], w.documents.src_lang, w.documents.tgt_lang
        ('news', 'en', 'de_DE')
        >>> w.fields[:2]
        (('source', 'src_text'), ('references', 'tgt_text[refA]'))
    """
    check_size(name, len(data), limit_mb)
    rows = _loads(decode_text(data, name).removeprefix("\ufeff"), name)
    first = rows[0][1]
    if isinstance(first.get("tgt_text"), dict) and "src_text" in first:
        return _jsonl_segments(rows, name, ref_translators, langpair, normalize_space)
    if "src_text" in first and "doc_id" in first:
        return _jsonl_documents(rows, name, systems, ref_translators, langpair, unit, normalize_space, limit_mb)
    keys = ", ".join(sorted(first)[:10])
    raise InputError(
        "not a WMT JSONL file: expected src_text with tgt_text (one segment a line) or doc_id with src_text (one "
        f"document a line); the first record has {keys or 'no fields'}",
        f"{name}:{rows[0][0]}",
    )


def _jsonl_segments(
    rows: list[tuple[int, dict[str, Any]]],
    name: str,
    ref_translators: Sequence[str] | None,
    langpair: str | None,
    normalize: bool,
) -> WmtCorpus:
    pairs = [_pair(obj, str(obj.get("doc_id", ""))) for _, obj in rows]
    wanted = _one_pair(pairs, langpair, name)
    if wanted is not None:
        rows = [r for r, p in zip(rows, pairs, strict=True) if _same_pair(p, wanted)]
        pairs = [p for p in pairs if _same_pair(p, wanted)]
    ref_keys = [k for k in rows[0][1]["tgt_text"] if _REF_KEY.match(k)]
    if not ref_keys:
        raise InputError(
            f"no reference in tgt_text (its names: {', '.join(list(rows[0][1]['tgt_text'])[:8])}); references are "
            "named ref, refA, refB, ...",
            f"{name}:{rows[0][0]}",
        )
    translators = [_translator(k) for k in ref_keys]
    chosen = _choose(translators, ref_translators, name)
    key_of = dict(zip(translators, ref_keys, strict=True))
    common: dict[str, None] | None = None
    for lineno, obj in rows:
        tgt = obj.get("tgt_text")
        if not isinstance(tgt, dict):
            raise InputError("'tgt_text' must be an object mapping names to texts", f"{name}:{lineno}")
        names = [k for k in tgt if not _REF_KEY.match(k)]
        common = dict.fromkeys(names) if common is None else {k: None for k in common if k in tgt}
    kept = list(common or {})
    all_systems = list(dict.fromkeys(k for _, obj in rows for k in obj["tgt_text"] if not _REF_KEY.match(k)))
    source: list[str] = []
    refs: dict[str, list[str]] = {t: [] for t in chosen}
    hyps: dict[str, list[str]] = {s: [] for s in kept}
    doc_ids: list[str] = []
    domains: list[str | None] = []
    origlangs: list[str | None] = []
    for lineno, obj in rows:
        where = f"{name}:{lineno}"
        tgt = obj["tgt_text"]
        raw_id = obj.get("doc_id")
        if not isinstance(raw_id, str):
            raise InputError("'doc_id' must be a string (the segment's document)", where)
        doc = _SEG_SUFFIX.sub("", raw_id)
        source.append(_clean(_text(obj, "src_text", where), normalize))
        for t in chosen:
            k = key_of[t]
            if not isinstance(tgt.get(k), str):
                raise InputError(f"segment {raw_id!r} has no reference {k!r} in tgt_text", where)
            refs[t].append(_clean(tgt[k], normalize))
        for s in kept:
            if not isinstance(tgt[s], str):
                raise InputError(f"tgt_text[{s!r}] must be a string", where)
            hyps[s].append(_clean(tgt[s], normalize))
        doc_ids.append(doc)
        domains.append(_domain(obj, doc))
        origlang = obj.get("origlang")
        origlangs.append(origlang if isinstance(origlang, str) else None)
    notes = []
    dropped = [s for s in all_systems if s not in kept]
    if dropped:
        shown = ", ".join(dropped[:6]) + (f" and {len(dropped) - 6} more" if len(dropped) > 6 else "")
        notes.append(f"{name}: {len(dropped)} system(s) missing from some segments left out: {shown}")
    src_lang, tgt_lang = _split_pair(pairs[0]) if pairs else ("", "")
    corpus = _make(name, source, refs, hyps, notes)
    documents = Documents(tuple(doc_ids), tuple(origlangs), tuple(domains), src_lang, tgt_lang)
    fields = (
        ("source", "src_text"),
        ("references", ", ".join(f"tgt_text[{key_of[t]}]" for t in chosen)),
        ("systems", "the other names in tgt_text"),
        ("documents", "doc_id without its _#_<n>"),
        ("domain", "domain, else the document id"),
    )
    return WmtCorpus(corpus, documents, "wmt-jsonl", tuple(chosen), tuple(translators), fields)


def _ref_text(value: Any) -> str | None:
    if isinstance(value, str):
        return value
    if isinstance(value, dict) and isinstance(value.get("ref"), str):
        return str(value["ref"])
    return None


def _jsonl_documents(
    rows: list[tuple[int, dict[str, Any]]],
    name: str,
    systems: Sequence[tuple[str, bytes]],
    ref_translators: Sequence[str] | None,
    langpair: str | None,
    unit: Literal["paragraph", "document"],
    normalize: bool,
    limit_mb: float,
) -> WmtCorpus:
    pairs = [_pair(obj, str(obj.get("doc_id", ""))) for _, obj in rows]
    wanted = _one_pair(pairs, langpair, name)
    if wanted is not None:
        rows = [r for r, p in zip(rows, pairs, strict=True) if _same_pair(p, wanted)]
        pairs = [p for p in pairs if _same_pair(p, wanted)]
    with_refs = [(lineno, obj) for lineno, obj in rows if isinstance(obj.get("refs"), dict) and obj["refs"]]
    if not with_refs:
        raise InputError("no document has a reference (refs is empty on every line)", name)
    ref_keys = list(dict.fromkeys(k for _, obj in with_refs for k in obj["refs"]))
    translators = [_translator(k) for k in ref_keys]
    chosen = _choose(translators, ref_translators, name)
    key_of = dict(zip(translators, ref_keys, strict=True))
    outputs: dict[str, tuple[str, dict[str, str]]] = {}
    for file_name, raw in systems:
        check_size(file_name, len(raw), limit_mb)
        by_doc: dict[str, str] = {}
        for lineno, obj in _loads(decode_text(raw, file_name).removeprefix("\ufeff"), file_name):
            where = f"{file_name}:{lineno}"
            doc = _text(obj, "doc_id", where)
            if doc in by_doc:
                raise InputError(f"document {doc!r} is given twice", where)
            by_doc[doc] = _text(obj, "hypothesis", where)
        base = file_name.replace("\\", "/").rsplit("/", 1)[-1]
        sys_name = base.removesuffix(".jsonl") if base.endswith(".jsonl") else system_name(base)
        if sys_name in outputs:
            raise InputError(f"two systems are called {sys_name!r} ({outputs[sys_name][0]} and {file_name})", name)
        outputs[sys_name] = (file_name, by_doc)

    def pieces(text: str) -> list[str]:
        return text.split("\n\n") if unit == "paragraph" else [text]

    source: list[str] = []
    refs: dict[str, list[str]] = {t: [] for t in chosen}
    hyps: dict[str, list[str]] = {s: [] for s in outputs}
    doc_ids: list[str] = []
    domains: list[str | None] = []
    for lineno, obj in with_refs:
        where = f"{name}:{lineno}"
        doc = _text(obj, "doc_id", where)
        src = pieces(_text(obj, "src_text", where))
        n = len(src)
        for t in chosen:
            text = _ref_text(obj["refs"].get(key_of[t]))
            if text is None:
                raise InputError(f"document {doc!r} has no reference {key_of[t]!r} (refs.{key_of[t]}.ref)", where)
            parts = pieces(text)
            if len(parts) != n:
                raise InputError(
                    f"document {doc!r}: reference {key_of[t]!r} has {len(parts)} paragraphs, the source {n}", where
                )
            refs[t] += [_clean(p, normalize) for p in parts]
        for s, (file_name, by_doc) in outputs.items():
            if doc not in by_doc:
                raise InputError(f"system {s!r} has no translation of document {doc!r}", file_name)
            parts = pieces(by_doc[doc])
            if len(parts) != n:
                raise InputError(
                    f"document {doc!r} has {len(parts)} paragraphs but the source has {n} (paragraphs are split at "
                    "blank lines)",
                    file_name,
                )
            hyps[s] += [_clean(p, normalize) for p in parts]
        source += [_clean(p, normalize) for p in src]
        doc_ids += [doc] * n
        domains += [_domain(obj, doc)] * n
    notes = []
    if len(with_refs) < len(rows):
        notes.append(f"{name}: {len(rows) - len(with_refs)} document(s) without a reference skipped")
    src_lang, tgt_lang = _split_pair(pairs[0]) if pairs else ("", "")
    corpus = _make(name, source, refs, hyps, notes)
    documents = Documents(tuple(doc_ids), (None,) * len(doc_ids), tuple(domains), src_lang, tgt_lang)
    fields = (
        ("source", "src_text"),
        ("references", ", ".join(f"refs.{key_of[t]}.ref" for t in chosen)),
        ("systems", "hypothesis of each system file"),
        ("documents", "doc_id"),
        ("domain", "domain"),
        ("segments", "paragraphs (split at blank lines)" if unit == "paragraph" else "whole documents"),
    )
    return WmtCorpus(corpus, documents, "wmt-jsonl", tuple(chosen), tuple(translators), fields)


def parse_wmt(data: bytes, name: str, **options: Any) -> WmtCorpus:
    """A WMT file of either format: XML when it starts with ``<`` (after any byte-order mark and white space),
    else JSONL; ``options`` go to :func:`parse_wmt_xml` or :func:`parse_wmt_jsonl`.

    Example:
        >>> parse_wmt(b'<dataset><doc id="d" origlang="en"><src lang="en"><p><seg id="1">x</seg></p></src>'
        ...           b'<ref lang="de" translator="A"><p><seg id="1">y</seg></p></ref></doc></dataset>', "t.xml").format
        'wmt-xml'
    """
    head = data[:64].removeprefix(b"\xef\xbb\xbf").lstrip()
    if head.startswith(b"<"):
        return parse_wmt_xml(data, name, **options)
    return parse_wmt_jsonl(data, name, **options)
