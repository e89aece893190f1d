"""What the Learn page's steps are drawn from: the settings, the paper's examples under them (from the cache layer,
built once for every session) and the steps' numbers. A text names a step by its key, ``{step:KEY}``, and shows
that step's number: the numbers follow the registry (``steps``), so inserting a step renumbers nothing by hand."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

import streamlit as st

from bleu_app import prose
from bleu_app.ui import cached
from bleu_core.config import BleuConfig
from bleu_core.teaching.explain import SegmentExplanation

__all__ = ["STEP_REF", "Lecture", "expand", "load"]

ZERO_KEYS: Final = ("ex1", "ex1c2", "ex2", "ex3", "ex4", "ex4c2")
STEP_REF: Final = re.compile(r"\{step:([a-z0-9_]+)\}")


def expand(text: str, numbers: Mapping[str, int]) -> str:
    """``text`` with every ``{step:KEY}`` of a step written as the step's number. Anything else is left as it is:
    a grader's message may hold an answer as typed (``tests/ui/test_learn_steps.py`` checks that every key the
    texts name is a step's).

    Example:
        >>> expand("({step:clipping}) {step:typed}", {"clipping": 2})
        '(2) {step:typed}'
    """
    return STEP_REF.sub(lambda m: str(numbers[m.group(1)]) if m.group(1) in numbers else m.group(0), text)


@dataclass(frozen=True, slots=True)
class Lecture:
    """The steps' material under one setting (everything but the numbers shared by every session)."""

    config: BleuConfig
    c1: SegmentExplanation
    c2: SegmentExplanation
    e2: SegmentExplanation
    e3: SegmentExplanation
    e4a: SegmentExplanation
    e4b: SegmentExplanation
    pooled: Any
    zero_orders: Any
    numbers: Mapping[str, int]

    def expand(self, text: str) -> str:
        """``text`` with its ``{step:KEY}`` written as numbers."""
        return expand(text, self.numbers)

    def markdown(self, text: str) -> None:
        """Markdown that may name steps."""
        st.markdown(self.expand(text))

    def doc(self, name: str) -> None:
        """Render ``docs/learn/<name>.md`` as the page shows it (a step's slide lines, then its notes)."""
        self.markdown(prose.page(name))

    def slide(self, name: str) -> None:
        """Render the few lines a presenter's slide shows of ``docs/learn/<name>.md`` (above its ``## Notes``)."""
        lines = prose.slide(name)
        if lines:  # a slide may have no lines (its figure says it all): no empty block
            self.markdown(lines)

    def notes(self, name: str) -> None:
        """Render the speaker's notes of ``docs/learn/<name>.md`` (below its ``## Notes``; the whole text when the
        file has no notes)."""
        self.markdown(prose.notes(name) or prose.slide(name))


def load(config: BleuConfig, numbers: Mapping[str, int]) -> Lecture:
    """The paper's examples under ``config``; raises ``InputError`` when the settings cannot score them."""
    return Lecture(
        config,
        cached.example("ex1", config),
        cached.example("ex1c2", config),
        cached.example("ex2", config),
        cached.example("ex3", config),
        cached.example("ex4", config),
        cached.example("ex4c2", config),
        cached.pooling_table(config),
        cached.zero_orders_table(ZERO_KEYS, config),
        numbers,
    )
