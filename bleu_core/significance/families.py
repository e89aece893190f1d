"""Which comparisons a run tests, and Holm's correction over exactly those: the one meaning of a run's mark.

A comparison of N systems can test every pair (``all``: what the significance clusters need, N(N-1)/2 tests),
each system against the baseline (``baseline``: N-1 tests) or each against the one before it (``consecutive``:
checkpoints in order, N-1 tests). The mark beside a system (``*``) is then its comparison's Holm-corrected p-value
below alpha, corrected over that family and no other, in text, JSON and LaTeX alike; :func:`family_test` gives the
values and :attr:`FamilyTest.words` the sentence that says which test it is.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final, Literal

from .pairwise import holm

__all__ = ["FAMILIES", "Family", "FamilyTest", "comparisons", "family_test"]

Family = Literal["all", "baseline", "consecutive"]
FAMILIES: Final = ("all", "baseline", "consecutive")


def comparisons(n_systems: int, family: Family) -> int:
    """How many tests Holm corrects over.

    Example:
        >>> comparisons(16, "all"), comparisons(16, "baseline"), comparisons(50, "consecutive")
        (120, 15, 49)
    """
    return n_systems * (n_systems - 1) // 2 if family == "all" else max(0, n_systems - 1)


@dataclass(frozen=True, slots=True)
class FamilyTest:
    """Each system's one comparison in a run and its Holm-corrected p-value.

    Attributes:
        family: ``all``, ``baseline`` or ``consecutive``.
        against: for system ``j`` (input order), the index of the system it is compared with (None: none, the
            baseline or the first checkpoint).
        raw: the comparison's raw p-value (None where there is none).
        adjusted: Holm-corrected over the family (for ``all``, over every pair).
        alpha: the level of the mark.
        n_tests: how many tests the correction is over.
    """

    family: Family
    against: tuple[int | None, ...]
    raw: tuple[float | None, ...]
    adjusted: tuple[float | None, ...]
    alpha: float
    n_tests: int

    def marked(self, j: int) -> bool:
        """Whether system ``j``'s comparison is significant at ``alpha`` after the correction."""
        p = self.adjusted[j]
        return p is not None and p < self.alpha

    @property
    def words(self) -> str:
        """What the mark means, as a sentence fragment (plain text).

        Example:
            >>> import math
            >>> p = [[math.nan, 0.01, 0.2], [0.01, math.nan, 0.03], [0.2, 0.03, math.nan]]
            >>> family_test(p, p, "consecutive", 0.05).words
            'Holm-corrected p < 0.05 against the previous system, corrected over the 2 consecutive comparisons'
        """
        if self.family == "all":
            return (
                f"Holm-corrected p < {self.alpha:g} against the baseline, corrected over all {self.n_tests} pairs "
                "(the clusters' test)"
            )
        if self.family == "baseline":
            return (
                f"Holm-corrected p < {self.alpha:g} against the baseline, corrected over the {self.n_tests} "
                "comparisons with it"
            )
        return (
            f"Holm-corrected p < {self.alpha:g} against the previous system, corrected over the {self.n_tests} "
            "consecutive comparisons"
        )


def family_test(
    p_values: Sequence[Sequence[float]], adjusted_all: Sequence[Sequence[float]], family: Family, alpha: float
) -> FamilyTest:
    """Each system's comparison (against the baseline, system 0, or the one before it) with its p-value Holm-corrected
    over ``family``. ``p_values``: the raw matrix of every pair; ``adjusted_all``: Holm over every pair (the
    matrix :func:`~bleu_core.significance.pairwise_matrix` gives), used as it is for ``all``.

    Example:
        >>> import math
        >>> p = [[math.nan, 0.01, 0.04], [0.01, math.nan, 0.5], [0.04, 0.5, math.nan]]
        >>> t = family_test(p, p, "baseline", 0.05)
        >>> t.against, t.adjusted, [t.marked(j) for j in range(3)]
        ((None, 0, 0), (None, 0.02, 0.04), [False, True, True])
    """
    n = len(p_values)
    against: list[int | None] = [None] + [j - 1 if family == "consecutive" else 0 for j in range(1, n)]
    raw: list[float | None] = [None if a is None else float(p_values[a][j]) for j, a in enumerate(against)]
    if family == "all":
        adjusted: list[float | None] = [None if a is None else float(adjusted_all[a][j]) for j, a in enumerate(against)]
    else:
        tested = [p for p in raw if p is not None and not math.isnan(p)]
        corrected = iter(holm(tested))
        adjusted = [None if p is None or math.isnan(p) else next(corrected) for p in raw]
    return FamilyTest(family, tuple(against), tuple(raw), tuple(adjusted), alpha, comparisons(n, family))
