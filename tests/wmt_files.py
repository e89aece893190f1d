"""A WMT XML file built from the real WMT21 en-de data (source, references A, C and D, systems) with document
boundaries chosen here, for the CLI's and the pages' tests (the shared data ships plain text only)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from xml.sax.saxutils import escape, quoteattr

from tests.conftest import RealSet

DOC = 25  # segments per document
DOMAINS = ("news", "social", None)  # WMT21 and WMT22 give no domain: one document in three has none here


@dataclass(frozen=True)
class WmtSet:
    """The plain text an XML file was built from, and its documents."""

    source: list[str]
    refs: dict[str, list[str]]
    systems: dict[str, list[str]]

    @property
    def n_docs(self) -> int:
        return -(-len(self.source) // DOC)

    def doc_id(self, d: int) -> str:
        return f"newstest2021.en-de.{d:03d}"

    def origlang(self, d: int) -> str:
        return "de" if d % 3 == 1 else "en"

    def domain(self, d: int) -> str | None:
        # sacreBLEU keeps the domain field only when the last document has one
        return "news" if d == self.n_docs - 1 else DOMAINS[d % len(DOMAINS)]

    def blocks(self) -> list[range]:
        return [range(d * DOC, min((d + 1) * DOC, len(self.source))) for d in range(self.n_docs)]

    def lines_where(self, keep: object) -> list[int]:
        """The 0-based lines whose document ``keep(d)`` keeps."""
        return [i for d, b in enumerate(self.blocks()) if keep(d) for i in b]  # type: ignore[operator]


def wmt_set(real: RealSet, systems: int | None = None, segments: int | None = None) -> WmtSet:
    """WMT21 en-de's text (the first ``systems`` systems, the first ``segments`` segments; all by default)."""
    cut = slice(0, segments)
    names = real.names[:systems]
    refs = dict(zip("ACD", (r[cut] for r in real.refs()), strict=True))
    return WmtSet(real.source()[cut], refs, {n: real.system(n)[cut] for n in names})


def _segs(lines: list[str], block: range) -> str:
    return "".join(f'<seg id="{i - block.start + 1}">{escape(lines[i])}</seg>' for i in block)


def build_xml(w: WmtSet, *, hyps: bool = True) -> str:
    """The WMT XML text of ``w``: one ``<doc>`` per block, with its origlang and (where it has one) domain."""
    out = ['<?xml version="1.0" encoding="utf-8"?>', '<dataset id="newstest2021">', '<collection id="general">']
    for d, block in enumerate(w.blocks()):
        dom = w.domain(d)
        attrs = f"id={quoteattr(w.doc_id(d))} origlang={quoteattr(w.origlang(d))}"
        attrs += f" domain={quoteattr(dom)}" if dom is not None else ""
        out.append(f"<doc {attrs}>")
        out.append(f'<src lang="en"><p>{_segs(w.source, block)}</p></src>')
        for t, lines in w.refs.items():
            out.append(f'<ref lang="de" translator="{t}"><p>{_segs(lines, block)}</p></ref>')
        for s, lines in w.systems.items() if hyps else ():
            out.append(f'<hyp system={quoteattr(s)} lang="de"><p>{_segs(lines, block)}</p></hyp>')
        out.append("</doc>")
    out += ["</collection>", "</dataset>", ""]
    return "\n".join(out)


def write_xml(w: WmtSet, path: Path) -> Path:
    """``build_xml(w)`` written to ``path``."""
    path.write_text(build_xml(w), encoding="utf-8")
    return path
