"""Writing a command's output file: a failure is an InputError naming the file (exit 2, one line), not a traceback."""

from __future__ import annotations

from bleu_core.errors import InputError


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
