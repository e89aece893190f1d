"""The WMT24/25 general task's JSONL files: segment records or the WMT25 document records with one file per
system, read into a corpus and its documents; the reader reports which fields it used."""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from typing import Any, Final, Literal

from bleu_core.errors import InputError

from .corpus import system_name
from .readers import check_size, decode_text
from .wmt_base import WMT_LIMIT_MB, SegmentRows, WmtCorpus, choose_translators, clean_space

__all__ = ["parse_wmt_jsonl"]

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


def _only_pair(
    rows: list[tuple[int, dict[str, Any]]], langpair: str | None, name: str
) -> tuple[list[tuple[int, dict[str, Any]]], tuple[str, str]]:
    """The records of the one language pair (``langpair``, or the file's only one) and that pair split."""
    pairs = [_pair(obj, str(obj.get("doc_id", ""))) for _, obj in rows]
    wanted = _one_pair(pairs, langpair, name)
    if wanted is not None:
        rows = [r for r, p in zip(rows, pairs, strict=True) if _same_pair(p, wanted)]
        pairs = [p for p in pairs if _same_pair(p, wanted)]
    return rows, _split_pair(pairs[0]) if pairs else ("", "")


def _common_systems(rows: list[tuple[int, dict[str, Any]]], name: str) -> tuple[list[str], list[str]]:
    """The systems present on every segment, and every system seen (a human-evaluation file lists each
    segment's annotated systems only)."""
    common: dict[str, None] | None = None
    for lineno, obj in rows:
        tgt = obj.get("tgt_text")
        if not isinstance(tgt, dict):
            raise InputError("'tgt_text' must be an object mapping names to texts", f"{name}:{lineno}")
        names = [k for k in tgt if not _REF_KEY.match(k)]
        common = dict.fromkeys(names) if common is None else {k: None for k in common if k in tgt}
    seen = list(dict.fromkeys(k for _, obj in rows for k in obj["tgt_text"] if not _REF_KEY.match(k)))
    return list(common or {}), seen


def _jsonl_segments(
    rows: list[tuple[int, dict[str, Any]]],
    name: str,
    ref_translators: Sequence[str] | None,
    langpair: str | None,
    normalize: bool,
) -> WmtCorpus:
    rows, langs = _only_pair(rows, langpair, name)
    ref_keys = [k for k in rows[0][1]["tgt_text"] if _REF_KEY.match(k)]
    if not ref_keys:
        raise InputError(
            f"no reference in tgt_text (its names: {', '.join(list(rows[0][1]['tgt_text'])[:8])}); references are "
            "named ref, refA, refB, ...",
            f"{name}:{rows[0][0]}",
        )
    translators = [_translator(k) for k in ref_keys]
    key_of = dict(zip(translators, ref_keys, strict=True))
    kept, all_systems = _common_systems(rows, name)
    out = SegmentRows(choose_translators(translators, ref_translators, name), kept)
    for lineno, obj in rows:
        _add_segment(out, obj, key_of, f"{name}:{lineno}", normalize)
    notes = []
    dropped = [s for s in all_systems if s not in kept]
    if dropped:
        shown = ", ".join(dropped[:6]) + (f" and {len(dropped) - 6} more" if len(dropped) > 6 else "")
        notes.append(f"{name}: {len(dropped)} system(s) missing from some segments left out: {shown}")
    fields = (
        ("source", "src_text"),
        ("references", ", ".join(f"tgt_text[{key_of[t]}]" for t in out.chosen)),
        ("systems", "the other names in tgt_text"),
        ("documents", "doc_id without its _#_<n>"),
        ("domain", "domain, else the document id"),
    )
    return out.result(name, notes, langs, "wmt-jsonl", translators, fields)


def _add_segment(out: SegmentRows, obj: dict[str, Any], key_of: dict[str, str], where: str, normalize: bool) -> None:
    tgt = obj["tgt_text"]
    raw_id = obj.get("doc_id")
    if not isinstance(raw_id, str):
        raise InputError("'doc_id' must be a string (the segment's document)", where)
    doc = _SEG_SUFFIX.sub("", raw_id)
    out.source.append(clean_space(_text(obj, "src_text", where), normalize))
    for t in out.chosen:
        k = key_of[t]
        if not isinstance(tgt.get(k), str):
            raise InputError(f"segment {raw_id!r} has no reference {k!r} in tgt_text", where)
        out.refs[t].append(clean_space(tgt[k], normalize))
    for s in out.systems:
        if not isinstance(tgt[s], str):
            raise InputError(f"tgt_text[{s!r}] must be a string", where)
        out.hyps[s].append(clean_space(tgt[s], normalize))
    out.doc_ids.append(doc)
    out.domains.append(_domain(obj, doc))
    origlang = obj.get("origlang")
    out.origlangs.append(origlang if isinstance(origlang, str) else None)


def _ref_text(value: Any) -> str | None:
    if isinstance(value, str):
        return value
    if isinstance(value, dict) and isinstance(value.get("ref"), str):
        return str(value["ref"])
    return None


def _system_outputs(
    systems: Sequence[tuple[str, bytes]], name: str, limit_mb: float
) -> dict[str, tuple[str, dict[str, str]]]:
    """``{system: (file, {doc_id: hypothesis})}`` of WMT25's one ``{doc_id, hypothesis}`` file per system."""
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
    return outputs


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
    rows, langs = _only_pair(rows, langpair, name)
    with_refs = [(lineno, obj) for lineno, obj in rows if isinstance(obj.get("refs"), dict) and obj["refs"]]
    if not with_refs:
        raise InputError("no document has a reference (refs is empty on every line)", name)
    ref_keys = list(dict.fromkeys(k for _, obj in with_refs for k in obj["refs"]))
    translators = [_translator(k) for k in ref_keys]
    key_of = dict(zip(translators, ref_keys, strict=True))
    outputs = _system_outputs(systems, name, limit_mb)
    out = SegmentRows(choose_translators(translators, ref_translators, name), list(outputs))
    for lineno, obj in with_refs:
        _add_document(out, obj, key_of, outputs, unit, f"{name}:{lineno}", normalize)
    notes = []
    if len(with_refs) < len(rows):
        notes.append(f"{name}: {len(rows) - len(with_refs)} document(s) without a reference skipped")
    fields = (
        ("source", "src_text"),
        ("references", ", ".join(f"refs.{key_of[t]}.ref" for t in out.chosen)),
        ("systems", "hypothesis of each system file"),
        ("documents", "doc_id"),
        ("domain", "domain"),
        ("segments", "paragraphs (split at blank lines)" if unit == "paragraph" else "whole documents"),
    )
    return out.result(name, notes, langs, "wmt-jsonl", translators, fields)


def _add_document(
    out: SegmentRows,
    obj: dict[str, Any],
    key_of: dict[str, str],
    outputs: dict[str, tuple[str, dict[str, str]]],
    unit: Literal["paragraph", "document"],
    where: str,
    normalize: bool,
) -> None:
    def pieces(text: str) -> list[str]:
        return text.split("\n\n") if unit == "paragraph" else [text]

    doc = _text(obj, "doc_id", where)
    src = pieces(_text(obj, "src_text", where))
    n = len(src)
    for t in out.chosen:
        text = _ref_text(obj["refs"].get(key_of[t]))
        if text is None:
            raise InputError(f"document {doc!r} has no reference {key_of[t]!r} (refs.{key_of[t]}.ref)", where)
        parts = pieces(text)
        if len(parts) != n:
            raise InputError(
                f"document {doc!r}: reference {key_of[t]!r} has {len(parts)} paragraphs, the source {n}", where
            )
        out.refs[t] += [clean_space(p, normalize) for p in parts]
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
        out.hyps[s] += [clean_space(p, normalize) for p in parts]
    out.source += [clean_space(p, normalize) for p in src]
    out.doc_ids += [doc] * n
    out.origlangs += [None] * n
    out.domains += [_domain(obj, doc)] * n
