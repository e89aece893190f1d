"""A command's files: reading its inputs (references, systems, a source; ``-`` for standard input, ``-t`` for a
test set in sacreBLEU's cache) and writing its output file. A failure is an InputError naming the file (exit 2,
one line), never a traceback."""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING

from bleu_core.errors import InputError

if TYPE_CHECKING:
    from bleu_core.data.corpus import TextFile

__all__ = ["STDIN", "read_file", "read_inputs", "read_source", "write_text"]

STDIN = "-"
"""The file name that means standard input (``-i -``), read once."""


def read_file(path: str) -> TextFile:
    """A text file, or standard input for ``-`` (read whole, checked as a file is)."""
    from bleu_core.data.readers import decode_lines, read_text_file

    if path != STDIN:
        return read_text_file(path)
    try:
        data = sys.stdin.buffer.read()
    except (OSError, AttributeError, ValueError) as exc:
        raise InputError(f"cannot read standard input ({exc})", STDIN) from None
    return decode_lines(data, STDIN)


def read_inputs(
    refs: Sequence[str], hyps: Sequence[str], *, test_set: str | None = None, langpair: str | None = None
) -> tuple[list[TextFile], list[TextFile]]:
    """The reference and system files, checked to be parallel and not empty; systems are labelled by their base
    names, so two with the same one are refused (as sacreBLEU does). ``-`` is standard input (once); with
    ``test_set`` the references are that test set's in sacreBLEU's local cache (and ``refs`` must be empty).

    Raises:
        InputError: naming the file (and line) that is wrong.
    """
    from bleu_core.data.corpus import check_parallel, check_unique_names

    if list(hyps).count(STDIN) > 1 or list(refs).count(STDIN) + list(hyps).count(STDIN) > 1:
        raise InputError("standard input can be read once: give - for one file only", "-i")
    check_unique_names([os.path.basename(p) for p in hyps], hyps)
    if test_set is not None:
        if refs:
            raise InputError("give either reference files or a test set (-t), not both (as sacreBLEU)", "-t")
        from .testsets import reference_files

        ref_files = reference_files(test_set, langpair)
    elif not refs:
        raise InputError("give reference files (before -i) or a test set with -t TESTSET -l SRC-TGT", "REF")
    else:
        ref_files = [read_file(p) for p in refs]
    hyp_files = [read_file(p) for p in hyps]
    _no_markup([*ref_files, *hyp_files])
    check_parallel([*ref_files, *hyp_files])
    if not ref_files[0].lines:
        raise InputError("is empty: no segments to score", ref_files[0].name)
    return ref_files, hyp_files


def _no_markup(files: Sequence[TextFile]) -> None:
    """A text file with WMT markup (``<seg id="1">`` lines, SGML) is refused, naming file, line and markup: scored
    as text its tags would count as words (a WMT XML file is given as the one REF instead)."""
    from bleu_core.data.wmt_base import check_no_markup  # not the readers' facade: no numpy at start-up

    for f in files:
        check_no_markup(f)


def read_source(path: str | None, n_lines: int) -> TextFile | None:
    """The ``--source`` file, checked to have the references' number of lines (None without one)."""
    if path is None:
        return None
    from bleu_core.data.readers import read_text_file

    source = read_text_file(path)
    if len(source.lines) != n_lines:
        raise InputError(f"has {len(source.lines)} lines, the references have {n_lines}", path)
    return source


def write_text(path: str, text: str) -> None:
    """Write ``text`` to ``path`` as UTF-8.

    Example:
        >>> write_text("/nonexistent-dir/out.html", "x")
        Traceback (most recent call last):
        ...
        bleu_core.errors.InputError: /nonexistent-dir/out.html: cannot write: No such file or directory
    """
    try:
        with open(path, "w", encoding="utf-8") as out:
            out.write(text)
    except OSError as exc:
        raise InputError(f"cannot write: {exc.strerror}", path) from None
