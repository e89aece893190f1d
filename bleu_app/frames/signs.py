"""Signed numbers as the app shows them in text and tables: the real minus sign (U+2212, as the charts' axes
draw it), and no sign on a number that rounds to zero (never "-0.0000"). Exports keep Python's own format."""

from __future__ import annotations

import math

MINUS = "\u2212"


def signed(x: float, digits: int = 2) -> str:
    """``x`` with an explicit sign, ``digits`` decimals, a real minus, and 0 unsigned when it rounds to zero.

    Example:
        >>> signed(-5.3349), signed(0.35), signed(-0.00004, 4), signed(0.0), signed(float("nan"))
        ('−5.33', '+0.35', '0.0000', '0.00', 'nan')
    """
    if not math.isfinite(x):
        return f"{x}".replace("-", MINUS)
    text = f"{x:+.{digits}f}"
    if float(text) == 0:
        return text[1:]
    return text.replace("-", MINUS)


def zero_unsigned(values: object, digits: int, *, rounded: bool = True) -> object:
    """Round to ``digits`` decimals and turn -0.0 into 0.0 (a table's number formatter then prints no "-0.00");
    ``rounded=False`` keeps every value exact but those that round to zero (what is computed from the column, a
    share beside it, still matches).

    Example:
        >>> import numpy as np
        >>> zero_unsigned(np.array([-0.00004, -1.23456]), 4).tolist()
        [0.0, -1.2346]
        >>> zero_unsigned(np.array([-0.00004, -1.23456]), 4, rounded=False).tolist()
        [0.0, -1.23456]
    """
    import numpy as np

    v = np.asarray(values, dtype=float)
    return np.round(v, digits) + 0.0 if rounded else np.where(np.round(v, digits) == 0, 0.0, v)
