"""The Learn page's deep links, as the URL carries them: ``?step=KEY`` (one step), ``?tab=walk|part2|cards|lab|
exercise`` (a tab), ``&item=KEY`` (an exercise item's or a card's key: ``spot-KEY`` and ``quiz-KEY`` name an excerpt
of Spot the errors and a question) and the lab's ``&variant=KEY&corpus=KEY``."""

from __future__ import annotations

from typing import Final

import streamlit as st

__all__ = ["ITEM", "PRESENT", "STEP", "TAB", "item", "link", "linked"]

STEP: Final = "step"
TAB: Final = "tab"
ITEM: Final = "item"
PRESENT: Final = "present"


def linked() -> bool:
    """Whether the URL names a tab or an item (a deep link into the page, not the page's start)."""
    return bool(st.query_params.get(TAB) or st.query_params.get(ITEM))


def item() -> str | None:
    """``?item=`` (an exercise item's or a card's key), or None."""
    return st.query_params.get(ITEM)


def link(name: str) -> str | None:
    """Another query parameter a tab reads (the lab's ``variant`` and ``corpus``), or None."""
    return st.query_params.get(name)
