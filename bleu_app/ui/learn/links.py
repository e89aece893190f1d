"""The Learn page's deep links, as the URL carries them: ``?step=KEY`` (one step), ``?tab=walk|part2|cards|lab|
exercise`` (a tab), ``&item=KEY`` (an exercise item's or a card's key: ``spot-KEY`` and ``quiz-KEY`` name an excerpt
of Spot the errors and a question), the lab's ``&variant=KEY&corpus=KEY`` and presenter mode's ``?present=1&deck=ID``
(``&notes=1``: that deck's speaker notes)."""

from __future__ import annotations

from typing import Final

import streamlit as st

__all__ = ["DECK", "ITEM", "NOTES", "PRESENT", "STEP", "TAB", "item", "link", "linked"]

STEP: Final = "step"
TAB: Final = "tab"
ITEM: Final = "item"
PRESENT: Final = "present"
NOTES: Final = "notes"  # ``?present=1&notes=1``: the speaker's notes of the deck the link names
DECK: Final = "deck"  # a presenter's deck: the slides and the notes windows that show the same step


def linked() -> bool:
    """Whether the URL names a tab or an item (a deep link into the page, not the page's start)."""
    return bool(st.query_params.get(TAB) or st.query_params.get(ITEM))


def item() -> str | None:
    """``?item=`` (an exercise item's or a card's key), or None."""
    return st.query_params.get(ITEM)


def link(name: str) -> str | None:
    """Another query parameter a tab reads (the lab's ``variant`` and ``corpus``), or None."""
    return st.query_params.get(name)
