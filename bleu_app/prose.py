"""The app's prose, read from Markdown under ``docs/`` (teaching text lives in Markdown, not in Python strings).

Two shapes. A page's text is one file, ``docs/<section>/<name>.md``, shown whole (:func:`text`); a Learn step's
file has a ``## Notes`` line: a presenter's slide shows the few lines above it (:func:`slide`), the speaker's notes
window the rest (:func:`notes`), and the page both (:func:`page`). A lesson's
content (``docs/learn/lessons/<name>.md``, read by ``bleu_app.lessons``) is a set of entries (:func:`entries`):
``## KEY`` starts an entry and ``### FIELD`` one of its fields; anything before the first entry is a note for
the reader of the file. A field's value is its paragraphs with their lines joined by spaces (the file wraps them;
the page does not), or, when the field is one fenced block, the block's content exactly (an article's excerpt
keeps its line breaks and indentation). A lesson module fills a field's ``{name}`` slots with computed numbers
(:func:`fill`); ``{step:KEY}`` names a Learn step and is left for the page, which writes its number.

A missing file, entry or field raises: it is a bug of the app, not something a user can fix.
"""

from __future__ import annotations

import functools
import re
from pathlib import Path
from typing import Final

__all__ = ["NOTES", "ROOT", "entries", "fill", "items", "notes", "page", "paragraphs", "quotes", "slide", "text"]

ROOT: Final = Path(__file__).resolve().parents[1] / "docs"
_SLOT: Final = re.compile(r"\{(\w+)\}")
_FENCE: Final = re.compile(r"\A```[\w-]*\n(.*)\n```\Z", re.S)
NOTES: Final = "## Notes"  # a Learn step's text: the slide's few lines above this line, the speaker's notes below
_NOTES_LINE: Final = re.compile(r"^## Notes[ \t]*$", re.M)


def text(name: str, section: str = "learn") -> str:
    """The text of ``docs/<section>/<name>.md``."""
    path = ROOT / section / f"{name}.md"
    return _read(path, path.stat().st_mtime_ns)


def _split(source: str) -> tuple[str, str, str]:
    found = _NOTES_LINE.search(source)
    if found is None:
        return source.strip(), "", ""
    return source[: found.start()].strip(), found.group(0), source[found.end() :].strip()


def slide(name: str, section: str = "learn") -> str:
    """What a presenter's slide shows of ``docs/<section>/<name>.md``: the text above its ``## Notes`` line (the
    whole text when it has none).

    Example:
        >>> slide("brevity").startswith("BLEU multiplies")
        True
    """
    return _split(text(name, section))[0]


def notes(name: str, section: str = "learn") -> str:
    """The speaker's notes of ``docs/<section>/<name>.md``: the text below its ``## Notes`` line ("" when none)."""
    return _split(text(name, section))[2]


def page(name: str, section: str = "learn") -> str:
    """``docs/<section>/<name>.md`` as a page shows it: the slide's lines, then the notes (without their heading).

    Example:
        >>> "## Notes" in page("brevity"), page("brevity").startswith(slide("brevity"))
        (False, True)
    """
    head, _, tail = _split(text(name, section))
    return "\n\n".join(part for part in (head, tail) if part)


@functools.lru_cache(maxsize=256)
def _read(path: Path, mtime_ns: int) -> str:
    """A file's text, read once per version of the file (every session shows the same prose)."""
    return path.read_text(encoding="utf-8")


def paragraphs(body: str) -> str:
    """A field's Markdown as its value: a fenced block's content as it is, else the paragraphs, each on one line
    (a list keeps one item a line).

    Example:
        >>> paragraphs("one\\ntwo\\n\\nthree")
        'one two\\n\\nthree'
        >>> paragraphs("- a\\n  b\\n- c")
        '- a b\\n- c'
        >>> paragraphs("```text\\n  kept\\n as is\\n```")
        '  kept\\n as is'
    """
    body = body.strip("\n")
    fenced = _FENCE.match(body)
    if fenced:
        return fenced.group(1)
    return "\n\n".join(_joined(p) for p in re.split(r"\n\s*\n", body.strip()))


def _joined(paragraph: str) -> str:
    items = re.split(r"\n(?=- )", paragraph)  # a list's items start a line with "- "
    return "\n".join(" ".join(line.strip() for line in item.splitlines()) for item in items)


def items(value: str) -> list[str]:
    """A list field's items, without their "- ".

    Example:
        >>> items("- a b\\n- c")
        ['a b', 'c']
    """
    return [line.removeprefix("- ") for line in value.splitlines() if line.strip()]


def entries(name: str, section: str = "learn/lessons") -> dict[str, dict[str, str]]:
    """A lesson file's entries: key -> field -> value (see the module's docstring).

    Example:
        >>> entries("spot")["clip"]["where"]
        'section 4, Modified Precision'
    """
    return _parse(text(name, section))


@functools.lru_cache(maxsize=32)
def _parse(source: str) -> dict[str, dict[str, str]]:
    out: dict[str, dict[str, str]] = {}
    for entry in re.split(r"^## ", source, flags=re.M)[1:]:
        key, _, rest = entry.partition("\n")
        fields = re.split(r"^### (.+)\n", rest, flags=re.M)
        out[key.strip()] = {f.strip(): paragraphs(body) for f, body in zip(fields[1::2], fields[2::2], strict=True)}
    return out


def quotes(value: str) -> tuple[tuple[str, str], ...]:
    """A list field of quotations, ``- SECTION: "QUOTE"`` a line, as (section, quotation) pairs.

    Example:
        >>> quotes('- 2.1: "a \\"b\\" c"')
        (('2.1', 'a "b" c'),)
    """
    pairs = []
    for item in items(value):
        section, _, quotation = item.partition(': "')
        pairs.append((section, quotation.removesuffix('"')))
    return tuple(pairs)


def fill(template: str, **values: object) -> str:
    """A field's ``{name}`` slots filled with ``values`` (a slot without a value raises ``KeyError``: a bug);
    ``{step:KEY}`` is left for the page.

    Example:
        >>> fill("BLEU {score} (step {step:brevity})", score="22.18")
        'BLEU 22.18 (step {step:brevity})'
    """
    return _SLOT.sub(lambda m: str(values[m.group(1)]), template)
