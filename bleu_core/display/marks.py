"""The mark (``*``) beside each system, by name: which comparison each system's mark is about and whether it is
significant, for any order a caller holds its systems in. The CLI, the compare page and the report all mark
through :func:`family_marks`, so one run's ``*`` means one test wherever it is shown
(:mod:`bleu_core.significance.families` says which test each family is).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from bleu_core.significance.families import Family, FamilyTest, family_test

from .names import natural_key

__all__ = ["Marks", "family_marks", "order_of_test"]


def order_of_test(names: Sequence[str], baseline: str | None, family: Family) -> list[str]:
    """The systems in the order the family tests them: for ``consecutive`` in natural order (``ckpt-2`` before
    ``ckpt-10``), otherwise the baseline first and the others as given.

    Example:
        >>> order_of_test(["b", "base", "a"], "base", "all"), order_of_test(["c-10", "c-2"], None, "consecutive")
        (['base', 'b', 'a'], ['c-2', 'c-10'])
    """
    if family == "consecutive":
        return sorted(names, key=natural_key)
    first = [baseline] if baseline is not None and baseline in names else []
    return first + [n for n in names if n != baseline]


@dataclass(frozen=True, slots=True)
class Marks:
    """Each system's one comparison in a run, by name.

    Attributes:
        order: the systems in the test's order (:func:`order_of_test`).
        test: the family's test in that order.
    """

    order: tuple[str, ...]
    test: FamilyTest

    def against(self, name: str) -> str | None:
        """The system ``name`` is compared with (None: the baseline itself, or the first checkpoint)."""
        j = self.test.against[self.order.index(name)]
        return None if j is None else self.order[j]

    def adjusted(self, name: str) -> float | None:
        """``name``'s Holm-corrected p-value over the family (None where it has no comparison)."""
        return self.test.adjusted[self.order.index(name)]

    def marked(self, name: str) -> bool:
        """Whether ``name``'s comparison is significant after the correction."""
        return self.test.marked(self.order.index(name))

    @property
    def words(self) -> str:
        """What the mark means (:attr:`FamilyTest.words`)."""
        return self.test.words


def family_marks(
    names: Sequence[str],
    p_values: Sequence[Sequence[float]],
    adjusted_all: Sequence[Sequence[float]],
    *,
    baseline: str | None,
    family: Family,
    alpha: float = 0.05,
) -> Marks:
    """The marks of ``family`` over ``names``; ``p_values`` and ``adjusted_all`` (Holm over every pair) are the
    N x N matrices in the order of ``names``, which may be any order.

    Example:
        >>> nan = math.nan
        >>> p = [[nan, 0.01, 0.04], [0.01, nan, 0.5], [0.04, 0.5, nan]]
        >>> m = family_marks(["x", "base", "y"], p, p, baseline="base", family="baseline")
        >>> m.order, m.against("x"), m.adjusted("x"), m.marked("y"), m.against("base")
        (('base', 'x', 'y'), 'base', 0.02, False, None)
    """
    order = order_of_test(names, baseline, family)
    where = [list(names).index(n) for n in order]
    raw = [[_value(p_values, i, j) for j in where] for i in where]
    adjusted = [[_value(adjusted_all, i, j) for j in where] for i in where]
    return Marks(tuple(order), family_test(raw, adjusted, family, alpha))


def _value(matrix: Sequence[Sequence[float]], i: int, j: int) -> float:
    return math.nan if i == j else float(matrix[i][j])
