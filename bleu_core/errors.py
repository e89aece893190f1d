"""The one exception type that carries a user-facing message about bad input."""

from __future__ import annotations

__all__ = ["InputError"]


class InputError(ValueError):
    """Bad input, described in one line that names what is wrong and where.

    Args:
        what: what is wrong, in words a user understands.
        where: the file (and line) or argument it concerns, or ``""``.

    Example:
        >>> str(InputError("not UTF-8 (byte 0xff)", "hyp.txt:3"))
        'hyp.txt:3: not UTF-8 (byte 0xff)'
        >>> print(InputError("no such file", "a\\nb.txt"))
        a\\nb.txt: no such file
    """

    def __init__(self, what: str, where: str = "") -> None:
        self.what = what
        self.where = where
        # one line even when a file name or a quoted value holds a line break (shown escaped)
        super().__init__((f"{where}: {what}" if where else what).translate(_LINE_BREAKS))


# Everything str.splitlines() breaks at.
_LINE_BREAKS = {c: repr(chr(c))[1:-1] for c in (0x0A, 0x0B, 0x0C, 0x0D, 0x1C, 0x1D, 0x1E, 0x85, 0x2028, 0x2029)}
