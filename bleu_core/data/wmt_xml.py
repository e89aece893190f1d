"""The WMT XML test-set format (WMT21 on), read exactly as sacreBLEU's ``wmt_xml`` reader reads it
(``WMTXMLDataset._unwrap_wmt21_or_later``), with one-line messages where sacreBLEU would crash or shift lines."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Final
from xml.parsers import expat

from bleu_core.errors import InputError

from .readers import check_size, decode_text
from .wmt_base import WMT_LIMIT_MB, SegmentRows, WmtCorpus, choose_translators, clean_space

__all__ = ["parse_wmt_xml"]


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
    """A WMT XML test set (WMT21 on): source, references and systems from one file, as sacreBLEU reads it:
    documents anywhere under the root, test-suite documents skipped, segments in order of their id within each
    document, a segment no reference translates skipped (counted in the warnings), a translator without a segment
    gives ``""``. Entities are decoded once, by the parser (``&amp;amp;`` reads ``&amp;``). ``normalize_space``
    trims each text and makes its runs of white space one space, as sacreBLEU's ``Dataset._clean`` does.
    ``ref_translators`` keeps references by ``translator`` (``None``: all, in file order). A file with no
    ``<hyp>`` gives a corpus without systems (add them from text files).

    Raises:
        InputError: not UTF-8, over ``limit_mb``, not well-formed (naming the line and the element left open), a
            DOCTYPE, two languages, a document without id or segments, a duplicate id, a missing document or
            segment, an unknown translator.

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
    langs = (_one_language(root, "src", "source", name), _one_language(root, "ref", "reference", name))
    translators = list(dict.fromkeys(r.attrs.get("translator", "") for r in root.iter("ref")))
    chosen = choose_translators(translators, ref_translators, name)
    docs = [d for d in root.iter("doc") if "testsuite" not in d.attrs]
    if not docs:
        raise InputError("no <doc> to score (a WMT XML file holds <doc> elements; test suites are skipped)", name)
    rows = SegmentRows(chosen, list(dict.fromkeys(h.attrs.get("system", "") for d in docs for h in d.iter("hyp"))))
    skipped = sum(_read_document(doc, rows, name, normalize_space) for doc in docs)
    notes = []
    if skipped:
        notes.append(f"{name}: {skipped} segment(s) no reference translates were skipped, as sacreBLEU skips them")
    testsuites = sum(1 for d in root.iter("doc") if "testsuite" in d.attrs)
    if testsuites:
        notes.append(f"{name}: {testsuites} test-suite document(s) skipped, as sacreBLEU skips them")
    fields = (
        ("source", "<src>"),
        ("references", "<ref translator>"),
        ("systems", "<hyp system>"),
        ("documents", "<doc id origlang domain>"),
    )
    return rows.result(name, notes, langs, "wmt-xml", translators, fields)


def _one_language(root: _Element, tag: str, what: str, name: str) -> str:
    """The one language of every ``<tag lang>``; two are refused, naming both lines."""
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


_TAGS: Final = {
    "ref": ("translator", "reference", "two references by translator"),
    "hyp": ("system", "system", "two outputs of system"),
}


def _by_attribute(doc: _Element, tag: str, name: str, doc_id: str) -> dict[str, tuple[dict[int, tuple[str, int]], int]]:
    """``{translator or system: ({seg id: (text, line)}, line)}`` of one document's ``<ref>`` or ``<hyp>``s."""
    attr, what, twice = _TAGS[tag]
    out: dict[str, tuple[dict[int, tuple[str, int]], int]] = {}
    for el in doc.iter(tag):
        key = el.attrs.get(attr, "")
        if key in out:
            raise InputError(f"document {doc_id!r}: {twice} {key!r}", f"{name}:{el.line}")
        out[key] = (_seg_ids(el, list(el.iter("seg")), name, f"{what} {key!r}", doc_id), el.line)
    return out


def _read_document(doc: _Element, rows: SegmentRows, name: str, normalize: bool) -> int:
    """Add one document's segments to ``rows``; returns how many no reference translates (skipped, as
    sacreBLEU skips them)."""
    doc_id = doc.attrs.get("id")
    if doc_id is None:
        raise InputError("a <doc> has no id", f"{name}:{doc.line}")
    src = _seg_ids(doc, [s for el in doc.iter("src") for s in el.iter("seg")], name, "the source", doc_id)
    if not src:
        raise InputError(f"document {doc_id!r} is empty: its source has no <seg>", f"{name}:{doc.line}")
    by_translator = {t: segs for t, (segs, _) in _by_attribute(doc, "ref", name, doc_id).items()}
    by_system = _by_attribute(doc, "hyp", name, doc_id)
    for s in rows.systems:
        if s not in by_system:
            raise InputError(f"system {s!r} has no translation of document {doc_id!r}", f"{name}:{doc.line}")
    skipped = 0
    for seg_id in sorted(src):
        if not any(t.get(seg_id, ("", 0))[0] for t in by_translator.values()):
            skipped += 1
            continue
        for t in rows.chosen:
            rows.refs[t].append(clean_space(by_translator.get(t, {}).get(seg_id, ("", 0))[0], normalize))
        for s in rows.systems:
            segs, line = by_system[s]
            if seg_id not in segs:
                raise InputError(f'system {s!r} has no <seg id="{seg_id}"> in document {doc_id!r}', f"{name}:{line}")
            rows.hyps[s].append(clean_space(segs[seg_id][0], normalize))
        rows.source.append(clean_space(src[seg_id][0], normalize))
        rows.doc_ids.append(doc_id)
        rows.origlangs.append(doc.attrs.get("origlang"))
        rows.domains.append(doc.attrs.get("domain"))
    return skipped
