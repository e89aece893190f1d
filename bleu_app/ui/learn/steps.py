"""The Learn page's steps, in order: the one registry.

A step's number is its position (the opening is 0), written by :func:`heading` and wherever a text says
``{step:KEY}`` (``lecture.expand``); its link is its key, ``?step=clipping``. Inserting a step is one line here:
every heading, presenter title, link of the lesson plan and reference in the prose follows. The numbers links
carried before steps had keys (``?step=11``) still open the step they named then (:data:`NUMBERED`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Final, Literal

import streamlit as st

from bleu_app.ui.learn import after, cards, exercise, lab, lecture, opening, part2, walk
from bleu_app.ui.learn.lecture import Lecture
from bleu_core.config import BleuConfig

__all__ = [
    "NUMBERED",
    "STEPS",
    "TABS",
    "Step",
    "draw",
    "draw_slide",
    "expand",
    "first_of",
    "get",
    "heading",
    "in_part",
    "load",
    "number",
    "resolve",
]

Part = Literal["walk", "part2", "after", "cards", "lab", "exercise"]
# the page's tabs, in order, with their labels (``?tab=KEY``)
TABS: Final[dict[Part, str]] = {
    "walk": "Part I: the metric",
    "part2": "Part II: does BLEU work?",
    "after": "After BLEU",
    "cards": "Misconceptions",
    "lab": "Misimplementation lab",
    "exercise": "Exercise",
}


@dataclass(frozen=True, slots=True)
class Step:
    """One step of the Learn page.

    Attributes:
        key: its link (``?step=KEY``) and its name in texts (``{step:KEY}``).
        part: the tab it is in.
        section: the paper's section it follows ("" for a tab's own screen).
        title: its title, without number or section.
        doc: its opening prose, ``docs/learn/<doc>.md`` ("" when none): the page draws it under the heading of the
            lecture's steps; a tab's own screen draws its own.
        show: draws the rest of the step.
        slide: draws the step's figure or table on a presenter's slide (one screen at 1280x720, under the doc's
            lines above its ``## Notes``); None: ``show``.
        more: the other texts ``show`` draws (``docs/learn/<name>.md``): on a slide they are the speaker's, after
            the doc's notes.
    """

    key: str
    part: Part
    section: str
    title: str
    doc: str
    show: Callable[[Lecture], None]
    slide: Callable[[Lecture], None] | None = None
    more: tuple[str, ...] = ()


STEPS: Final = (
    Step(
        "opening",
        "walk",
        "§2",
        "Which translation is better?",
        "opening",
        opening.show,
        opening.slide,
        ("opening_reveal", "opening_runs"),
    ),
    Step("plain", "walk", "§2.1", "Plain precision: Example 2", "plain", walk.plain, walk.plain_slide, ("counted",)),
    Step(
        "clipping",
        "walk",
        "§2.1",
        "Clipping: the modified unigram precision",
        "clipping",
        walk.clipping,
        walk.clipping_slide,
        ("clipping_edit", "clipping_example1"),
    ),
    Step("bigrams", "walk", "§2.1", "Bigrams and longer n-grams", "bigrams", walk.bigrams, walk.bigrams_slide),
    Step("corpus", "walk", "§2.1.1", "A corpus: add the counts, then divide", "corpus", walk.corpus),
    Step("decay", "walk", "§2.1.3", "Precision decays with n", "decay", walk.decay, walk.decay_slide),
    Step("geomean", "walk", "§2.1.3", "The geometric mean", "geomean", walk.geomean),
    Step("short", "walk", "§2.2", "Short candidates: Example 3", "short", walk.short),
    Step("recall", "walk", "§2.2.1", "Why not recall: Example 4", "recall", walk.recall),
    Step(
        "brevity",
        "walk",
        "§2.2.2",
        "The brevity penalty",
        "brevity",
        walk.brevity,
        walk.brevity_slide,
        ("brevity_edit", "brevity_best_match"),
    ),
    Step("logdomain", "walk", "§2.3", "BLEU, in the log domain", "logdomain", walk.logdomain, walk.logdomain_slide),
    Step("zero", "walk", "§2.1.3, footnote 5", "Why five of the six candidates score 0", "zero", walk.zero),
    Step(
        "evaluation",
        "part2",
        "§3",
        "The evaluation: 500 sentences, five systems",
        "evaluation",
        part2.evaluation,
        part2.evaluation_slide,
    ),
    Step(
        "references",
        "part2",
        "§3",
        "More references, higher scores",
        "references",
        part2.references,
        part2.references_slide,
    ),
    Step("blocks", "part2", "§3", "Is the difference reliable? 20 blocks", "blocks", part2.blocks, part2.blocks_slide),
    Step("human", "part2", "§4", "The human evaluation", "human", part2.human),
    Step("correlation", "part2", "§5", "BLEU against the humans: 0.99 and 0.96", "correlation", part2.correlation),
    Step(
        "blind",
        "part2",
        "footnote 4, §6",
        "What BLEU does not see, and where next",
        "blind",
        part2.blind,
        part2.blind_slide,
    ),
    # After BLEU (issue 33): not the paper; every claim sourced in its docs, every number computed
    Step("chrf", "after", "", "chrF: characters, not words", "after_chrf", after.chrf, after.chrf_slide),
    Step("ter", "after", "", "TER: the edits to a reference", "after_ter", after.ter, after.ter_slide),
    Step(
        "chrf_bug",
        "after",
        "",
        "A chrF bug: predict the score",
        "after_chrf_bug",
        after.chrf_bug,
        after.chrf_bug_slide,
    ),
    Step("people", "after", "", "Would people notice the difference?", "after_people", after.people),
    # the other tabs, one screen each, after Part II (so Next and the arrow keys reach them)
    Step("cards", "cards", "", TABS["cards"], "", cards.show),
    Step("lab", "lab", "", TABS["lab"], "lab", lab.show),
    Step("exercise", "exercise", "", TABS["exercise"], "exercise", exercise.show),
)
KEYS: Final = tuple(s.key for s in STEPS)
NUMBERS: Final = {key: n for n, key in enumerate(KEYS)}
_BY_KEY: Final = {s.key: s for s in STEPS}
# The steps links numbered before steps had keys, in that order (frozen: a step added later does not move them).
NUMBERED: Final = (
    "opening", "plain", "clipping", "bigrams", "corpus", "decay", "geomean", "short", "recall", "brevity",
    "logdomain", "zero", "evaluation", "references", "blocks", "human", "correlation", "blind", "cards", "lab",
    "exercise",
)  # fmt: skip
LECTURE: Final = (
    "walk",
    "part2",
    "after",
)  # the lecture's steps: the page draws their numbered heading and their prose
OWN_HEADING: Final = ("lab", "exercise")  # these screens draw their own heading; the cards have none on the page


def get(key: str) -> Step:
    """The step called ``key``."""
    return _BY_KEY[key]


def number(key: str) -> int:
    """A step's number: its position."""
    return NUMBERS[key]


def heading(step: Step) -> str:
    """A step's title as its heading and in the presenter's list: number, title and the paper's section.

    Example:
        >>> heading(get("brevity"))
        '9 · The brevity penalty (§2.2.2)'
    """
    return f"{number(step.key)} · {step.title}" + (f" ({step.section})" if step.section else "")


def in_part(part: Part) -> tuple[Step, ...]:
    """The steps of one tab, in order."""
    return tuple(s for s in STEPS if s.part == part)


def first_of(tab: str) -> str | None:
    """The key of the step a tab starts at (``?present=1&tab=lab`` projects the lab), or None for no tab."""
    return next((s.key for s in STEPS if s.part == tab), None)


def resolve(raw: str | None) -> str | None:
    """The step a ``?step=`` value names: a key, or a number of the old numbered links; None for anything else."""
    if raw in _BY_KEY:
        return raw
    if raw is not None and raw.isdigit() and int(raw) < len(NUMBERED):
        return NUMBERED[int(raw)]
    return None


def expand(text: str) -> str:
    """``text`` with every ``{step:KEY}`` written as that step's number."""
    return lecture.expand(text, NUMBERS)


def load(config: BleuConfig) -> Lecture:
    """What the steps are drawn from under ``config``; raises ``InputError`` when the settings cannot score the
    paper's examples."""
    return lecture.load(config, NUMBERS)


def draw_slide(step: Step, w: Lecture) -> None:
    """A step as a presenter's slide: its heading, the lines of its doc above ``## Notes`` (a lecture's step), then
    its figure (``slide``, else ``show``); the rest of its prose is in the speaker's notes."""
    if step.part not in OWN_HEADING:
        st.header(heading(step))
    if step.part in LECTURE and step.doc:
        w.slide(step.doc)
    (step.slide or step.show)(w)


def draw(step: Step, w: Lecture, *, alone: bool = False) -> None:
    """One step: its numbered heading and opening prose (the lecture's steps; alone, the cards get a heading too),
    then the rest."""
    if step.part in LECTURE or (alone and step.part not in OWN_HEADING):
        st.header(heading(step))
    if step.part in LECTURE and step.doc:
        w.doc(step.doc)
    step.show(w)
