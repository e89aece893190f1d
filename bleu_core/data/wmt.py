"""A WMT test set as it is shipped, in either format: XML (WMT21 on, :mod:`bleu_core.data.wmt_xml`) or JSONL
(WMT24/25, :mod:`bleu_core.data.wmt_jsonl`), and the markup check of text files (:mod:`bleu_core.data.wmt_base`)."""

from __future__ import annotations

from typing import Any

from .wmt_base import Markup, WmtCorpus, check_no_markup, find_markup
from .wmt_jsonl import parse_wmt_jsonl
from .wmt_xml import parse_wmt_xml

__all__ = ["Markup", "WmtCorpus", "check_no_markup", "find_markup", "parse_wmt", "parse_wmt_jsonl", "parse_wmt_xml"]


def parse_wmt(data: bytes, name: str, **options: Any) -> WmtCorpus:
    """A WMT file of either format: XML when it starts with ``<`` (after any byte-order mark and white space),
    else JSONL; ``options`` go to :func:`~bleu_core.data.wmt_xml.parse_wmt_xml` or
    :func:`~bleu_core.data.wmt_jsonl.parse_wmt_jsonl`.

    Example:
        >>> parse_wmt(b'<dataset><doc id="d" origlang="en"><src lang="en"><p><seg id="1">x</seg></p></src>'
        ...           b'<ref lang="de" translator="A"><p><seg id="1">y</seg></p></ref></doc></dataset>', "t.xml").format
        'wmt-xml'
    """
    head = data[:64].removeprefix(b"\xef\xbb\xbf").lstrip()
    if head.startswith(b"<"):
        return parse_wmt_xml(data, name, **options)
    return parse_wmt_jsonl(data, name, **options)
