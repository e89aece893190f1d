"""Reading and validating parallel text: bytes in, lines out, or an InputError naming file and line.

``bleu_core`` does no file I/O of its own accord; these functions take bytes (the app's uploads) or,
for the CLI, a path the caller chose to read.
"""

from __future__ import annotations

import gzip
import os
from collections.abc import Sequence
from dataclasses import dataclass

from .errors import InputError

__all__ = ["TextFile", "check_parallel", "decode_lines", "read_text_file"]


@dataclass(frozen=True, slots=True)
class TextFile:
    """A named text: one segment per line."""

    name: str
    lines: tuple[str, ...]


def decode_lines(data: bytes, name: str) -> TextFile:
    """Decode UTF-8 bytes into lines (split on ``\\n`` only, as sacrebleu reads files).

    Raises:
        InputError: for a binary file (a NUL byte) or bytes that are not UTF-8, naming the line.

    Example:
        >>> decode_lines(b"a b\\nc\\n", "hyp.txt").lines
        ('a b', 'c')
        >>> decode_lines(b"ok\\n\\xff\\n", "hyp.txt")
        Traceback (most recent call last):
        ...
        bleu_core.errors.InputError: hyp.txt:2: not UTF-8 (byte 0xff at column 1); save the file as UTF-8
    """
    nul = data.find(b"\x00")
    if nul != -1:
        line = data.count(b"\n", 0, nul) + 1
        raise InputError("binary file (NUL byte), expected plain text with one segment per line", f"{name}:{line}")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        col = exc.start - (data.rfind(b"\n", 0, exc.start) + 1) + 1
        bad = data[exc.start]
        raise InputError(f"not UTF-8 (byte 0x{bad:02x} at column {col}); save the file as UTF-8",
                         f"{name}:{line}") from None
    if text.startswith("\ufeff"):  # a byte-order mark is not part of the first segment
        text = text[1:]
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return TextFile(name, tuple(line.removesuffix("\r") for line in lines))


def read_text_file(path: str | os.PathLike[str]) -> TextFile:
    """Read a UTF-8 text file (``.gz`` too) into lines.

    Raises:
        InputError: missing file, a directory, unreadable, binary or not UTF-8.
    """
    name = os.fspath(path)
    if not os.path.exists(name):
        raise InputError("no such file", name)
    if os.path.isdir(name):
        raise InputError("is a directory, expected a text file", name)
    try:
        if name.endswith(".gz"):
            with gzip.open(name, "rb") as fh:
                data = fh.read()
        else:
            with open(name, "rb") as fh:
                data = fh.read()
    except (OSError, EOFError) as exc:
        raise InputError(f"cannot read ({exc.__class__.__name__}: {exc})", name) from None
    return decode_lines(data, name)


def check_parallel(files: Sequence[TextFile]) -> None:
    """All files must have the same number of lines; name the first that differs and both counts.

    Example:
        >>> check_parallel([TextFile("ref.txt", ("a", "b")), TextFile("hyp.txt", ("a",))])
        Traceback (most recent call last):
        ...
        bleu_core.errors.InputError: hyp.txt: has 1 line but ref.txt has 2 lines; every file needs one line per segment
    """
    if not files:
        return
    first = files[0]
    for other in files[1:]:
        if len(other.lines) != len(first.lines):
            raise InputError(
                f"has {_n(len(other.lines))} but {first.name} has {_n(len(first.lines))}; "
                "every file needs one line per segment",
                other.name,
            )


def _n(k: int) -> str:
    return f"{k} line" if k == 1 else f"{k} lines"
