"""The examples of Papineni et al. (2002), as data, with the fractions the paper gives for them."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

__all__ = ["BEST_MATCH_EXAMPLE", "EXAMPLES", "EXAMPLE_1", "EXAMPLE_2", "EXAMPLE_3", "EXAMPLE_4", "PaperExample"]


@dataclass(frozen=True, slots=True)
class PaperExample:
    """One of the paper's examples.

    Attributes:
        key: a short id used in URLs (``ex1``).
        title: its title in the app.
        candidates: the candidate translations.
        references: the reference translations.
        expected: for each candidate, the paper's modified precisions as (matches, total) per order, as far
            as the paper gives them.
    """

    key: str
    title: str
    candidates: tuple[str, ...]
    references: tuple[str, ...]
    expected: tuple[tuple[tuple[int, int], ...], ...]


_REFS_1: Final = (
    "It is a guide to action that ensures that the military will forever heed Party commands.",
    "It is the guiding principle which guarantees the military forces always being under the command of the Party.",
    "It is the practical guide for the army always to heed the directions of the party.",
)

EXAMPLE_1: Final = PaperExample(
    "ex1",
    "Example 1: two candidates, three references",
    (
        "It is a guide to action which ensures that the military always obeys the commands of the party.",
        "It is to insure the troops forever hearing the activity guidebook that party direct.",
    ),
    _REFS_1,
    # Section 2.1 gives 17/18 and 10/17 for candidate 1, 8/14 and 1/13 for candidate 2; 7/16 and 4/15 follow
    # from the same counting (the references as printed).
    (((17, 18), (10, 17), (7, 16), (4, 15)), ((8, 14), (1, 13))),
)

EXAMPLE_2: Final = PaperExample(
    "ex2",
    "Example 2: why clip (the the the ...)",
    ("the the the the the the the.",),
    ("The cat is on the mat.", "There is a cat on the mat."),
    (((2, 7), (0, 6)),),
)

EXAMPLE_3: Final = PaperExample(
    "ex3",
    "Example 3: a short candidate and the brevity penalty",
    ("of the",),
    _REFS_1,
    (((2, 2), (1, 1)),),
)

EXAMPLE_4: Final = PaperExample(
    "ex4",
    "Example 4: the trouble with recall",
    ("I always invariably perpetually do.", "I always do."),
    ("I always do.", "I invariably do.", "I perpetually do."),
    (),
)

# Section 2.2.2: references of 12, 15 and 17 words and a terse 12-word candidate: BP = 1.
BEST_MATCH_EXAMPLE: Final = (12, (12, 15, 17))

EXAMPLES: Final = {e.key: e for e in (EXAMPLE_1, EXAMPLE_2, EXAMPLE_3, EXAMPLE_4)}
