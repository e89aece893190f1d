"""A WMT test set given as it is shipped: one WMT XML file (WMT21 on), or WMT24/25 JSONL, in place of REF and
``-i`` (``score``, ``compare``, ``report``).

The file gives the source, the references (``--ref-translator A`` keeps translator A's; all by default, as a folder
gives all) and the systems (a WMT25 JSONL of documents takes its systems' files with ``-i``); its documents make
``--where doc ~ / origlang == / domain ==`` and ``--doc-level`` possible. The target language chooses the tokenizer
as ``-l`` would (ja-mecab for Japanese, zh, ko-mecab), unless ``--tokenize`` or ``-l`` is given. Registering the
options imports nothing heavy.
"""

from __future__ import annotations

import argparse
import os
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

from bleu_core.errors import InputError

if TYPE_CHECKING:
    from bleu_core.config import BleuConfig
    from bleu_core.data.corpus import TextFile
    from bleu_core.data.documents import Documents

    from .slicing import Narrowed

__all__ = ["DOC_LEVEL", "WmtInput", "add_options", "doc_level", "is_wmt", "narrow_wmt", "read_wmt"]

_EXTENSIONS: Final = (".xml", ".jsonl")
DOC_LEVEL: Final = "document level: each document one segment (its segments joined by a space: d-BLEU)"
"""How the text and JSON outputs say that ``--doc-level`` scored documents."""


def add_options(p: argparse.ArgumentParser) -> None:
    """``--ref-translator`` and ``--doc-level``."""
    p.add_argument(
        "--ref-translator",
        nargs="+",
        default=None,
        metavar="T",
        help="with a WMT XML or JSONL file as REF: the references by these translators only (default: all)",
    )
    p.add_argument(
        "--doc-level",
        action="store_true",
        help="with a WMT file: score each document as one segment (its segments joined by a space: d-BLEU), and "
        "resample whole documents in the paired tests",
    )


def is_wmt(args: argparse.Namespace) -> bool:
    """One REF that is a WMT file: its name ends in ``.xml`` or ``.jsonl``."""
    refs = getattr(args, "refs", None) or []
    return len(refs) == 1 and str(refs[0]).lower().endswith(_EXTENSIONS)


@dataclass(frozen=True)
class WmtInput:
    """What a WMT file gave: the files a command scores (systems named as the file names them), the source, the
    documents, and one line saying what was read."""

    references: list[TextFile]
    systems: list[TextFile]
    source: TextFile | None
    documents: Documents
    described: str
    warnings: tuple[str, ...]


def _read_bytes(path: str) -> bytes:
    try:
        with open(path, "rb") as fh:
            return fh.read()
    except OSError as exc:
        raise InputError(f"cannot read: {exc.strerror}", path) from None


def read_wmt(args: argparse.Namespace) -> WmtInput | None:
    """The WMT file given as REF (None when REF is not one), read and checked; the target language chooses the
    tokenizer unless ``--tokenize`` or ``-l`` does (``args`` is set so, before the BLEU options are read).

    Raises:
        InputError: a malformed file (one line naming file, line, document and segment), ``-i`` beside a file
            that has its systems, ``-t`` beside it.
    """
    if not is_wmt(args):
        if getattr(args, "doc_level", False):
            raise InputError("needs a WMT XML or JSONL file as REF (it has the documents)", "--doc-level")
        return None
    if getattr(args, "test_set", None):
        raise InputError("give either a WMT file or a test set (-t), not both", "-t")
    from bleu_core.data.wmt import parse_wmt

    path = args.refs[0]
    data = _read_bytes(path)
    given = list(getattr(args, "input", None) or [])
    jsonl = path.lower().endswith(".jsonl")
    options: dict[str, object] = {"ref_translators": getattr(args, "ref_translator", None)}
    if jsonl:
        options["systems"] = [(_system_label(p), _read_bytes(p)) for p in given]
        if getattr(args, "language_pair", None):
            options["langpair"] = args.language_pair
    w = parse_wmt(data, path, **options)
    systems = [_file(s.name, s.lines) for s in w.corpus.systems]
    if given and not jsonl:
        if systems:
            raise InputError(f"{path} has its systems ({len(systems)}); give no -i beside it", "-i")
        systems = _text_systems(given, w.corpus.n_segments)
    if not systems:
        what = "give each system's JSONL file with -i" if jsonl else "give their outputs with -i"
        raise InputError(f"has no systems: {what}", path)
    _choose_tokenizer(args, w.documents.tgt_lang, path)
    return WmtInput(list(w.corpus.references), systems, w.corpus.source, w.documents, w.describe(), w.corpus.warnings)


def _system_label(path: str) -> str:
    base = os.path.basename(path)
    return base[: -len(".jsonl")] if base.lower().endswith(".jsonl") else base


def _file(name: str, lines: tuple[str, ...]) -> TextFile:
    from bleu_core.data.corpus import TextFile

    return TextFile(name, lines)


def _text_systems(paths: list[str], n: int) -> list[TextFile]:
    """Plain-text system outputs for a WMT file without ``<hyp>``: one line per segment it scores, no markup."""
    from bleu_core.data.readers import read_text_file
    from bleu_core.data.wmt import check_no_markup

    out = []
    for p in paths:
        f = read_text_file(p)
        check_no_markup(f)
        if len(f.lines) != n:
            raise InputError(f"has {len(f.lines)} lines, the WMT file has {n} segments", p)
        out.append(f)
    return out


def _choose_tokenizer(args: argparse.Namespace, target: str, path: str) -> None:
    """The target language's tokenizer, as ``-l`` chooses it, when neither ``--tokenize`` nor ``-l`` is given
    (WMT25 writes a target with its region, ``ja_JP``)."""
    if getattr(args, "tokenize", None) is not None or getattr(args, "language_pair", None):
        return
    from bleu_core.data.languages import tokenizer_for

    chosen = tokenizer_for(target.split("_", maxsplit=1)[0].split("-", maxsplit=1)[0]) if target else "13a"
    if chosen == "13a":  # every preset's own choice already (the paper preset's is its own)
        return
    from bleu_core.engine.tokenizers import get_tokenizer

    try:
        _ = get_tokenizer(chosen).signature  # a missing optional package: say which, and why it is needed
    except InputError as exc:
        raise InputError(f"its target language {target!r} is scored with {chosen}, but {exc.what}", path) from None
    args.tokenize = chosen


def doc_level(args: argparse.Namespace, narrowed: Narrowed) -> Narrowed:
    """With ``--doc-level``: the narrowed files with each document's segments joined by a space (one segment per
    document, documents in order of first appearance); otherwise as they were."""
    if not getattr(args, "doc_level", False):
        return narrowed
    if narrowed.documents is None:
        raise InputError("needs a WMT XML or JSONL file as REF (it has the documents)", "--doc-level")
    from bleu_core.data.corpus import TextFile
    from bleu_core.data.documents import join_documents

    from .slicing import Narrowed, as_corpus

    corpus = as_corpus(narrowed.references, narrowed.systems, narrowed.source)
    joined, docs = join_documents(corpus, narrowed.documents)
    systems = [TextFile(s.file, s.lines) for s in joined.systems]
    return Narrowed(list(joined.references), systems, joined.source, narrowed.slice, docs)


def narrow_wmt(args: argparse.Namespace, config: BleuConfig, wmt: WmtInput) -> Narrowed:
    """The WMT file's files narrowed to ``--where`` (documents too), joined per document with ``--doc-level``;
    the reader's notes (segments skipped as sacreBLEU skips them) as warnings."""
    from .slicing import narrow, warn

    for note in wmt.warnings:
        warn(note)
    return doc_level(args, narrow(args, config, wmt.references, wmt.systems, wmt.source, wmt.documents))
