"""The one exception type that carries a user-facing message about bad input."""

from __future__ import annotations


class InputError(ValueError):
    """Bad input, described in one line that names what is wrong and where.

    Args:
        what: what is wrong, in words a user understands.
        where: the file (and line) or argument it concerns, or ``""``.

    Example:
        >>> str(InputError("not UTF-8 (byte 0xff)", "hyp.txt:3"))
        'hyp.txt:3: not UTF-8 (byte 0xff)'
    """

    def __init__(self, what: str, where: str = "") -> None:
        self.what = what
        self.where = where
        super().__init__(f"{where}: {what}" if where else what)
