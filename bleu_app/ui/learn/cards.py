"""The Learn page's misconception cards: each with its computed numbers and a demo that opens the Sentence page in a
new tab with the card's sentence and settings in its link (issue 34: the demo wrote the tokenizer into the session,
and the rest of the lecture was scored with it)."""

from __future__ import annotations

from dataclasses import replace
from urllib.parse import urlencode

import streamlit as st

from bleu_app.lessons import cards as lesson
from bleu_app.ui import cached, state
from bleu_app.ui.components import scores
from bleu_app.ui.learn import links
from bleu_app.ui.learn.lecture import Lecture
from bleu_core.config import BleuConfig

__all__ = ["ANSWER", "demo_link", "settings_query", "show"]

_COUNT = {6: "Six", 7: "Seven", 8: "Eight", 9: "Nine", 10: "Ten"}
ANSWER = "Turn the card: the answer"
HIGHLIGHT = "#d55e00"  # Okabe & Ito's vermillion: visible on the light and the dark theme


def settings_query(config: BleuConfig) -> dict[str, str]:
    """``config`` as the query of a link that opens a page under it: the sidebar's bound settings, their preset
    named when one has exactly these values (a demo's link carries its settings, and never writes the session's).

    Example:
        >>> settings_query(BleuConfig.paper())["preset"], settings_query(BleuConfig.paper())["tok"]
        ('paper', 'paper')
    """
    values = {
        state.TOKENIZE: config.tokenize,
        state.LOWERCASE: config.lowercase,
        state.MAX_ORDER: config.max_ngram_order,
        state.SMOOTH: config.smooth_method,
        state.SMOOTH_VALUE: state.PRESETS["paper"].values[state.SMOOTH_VALUE]
        if config.smooth_value is None
        else config.smooth_value,
        state.EFFECTIVE: config.use_effective_order,
    }
    same = (
        name
        for name, p in state.PRESETS.items()
        if all(values[k] == v for k, v in p.values.items() if k != state.SMOOTH_VALUE)
    )
    preset = next(same, state.CUSTOM)
    shown = {k: str(v).lower() if isinstance(v, bool) else str(v) for k, v in values.items()}
    return {state.PRESET: preset, **shown}


def demo_link(card: lesson.Card) -> str:
    """The Sentence page with the card's sentence under the card's settings (the paper's, with the tokenizer the
    demo needs), as a link relative to the Learn page: the link carries them, the session keeps its own."""
    config = replace(BleuConfig.paper(), tokenize=card.tokenize) if card.tokenize else BleuConfig.paper()
    query = {**settings_query(config), state.URL_HYP: card.hyp, state.URL_REF: list(card.refs)}
    return "sentence?" + urlencode(query, doseq=True)


def show(w: Lecture) -> None:
    """Every card; a demo button switches to the Sentence page with the card's sentence loaded."""
    all_cards = cached.cards()
    st.markdown(
        f"{_COUNT.get(len(all_cards), str(len(all_cards)))} things students believe about BLEU: ask the class, "
        "then turn the card. Each card's numbers are computed live (BLEU with the paper's preset) "
        "(the signatures under each card); **Show it** opens the Sentence page with the example and its settings "
        "in a new tab (this page's settings stay as they are)."
    )
    if links.item() in {c.key for c in all_cards}:
        state.put(state.CARD_LINKED, links.item())
    linked = state.get(state.CARD_LINKED)
    if linked:  # the linked card first, framed
        st.markdown(
            f"<style>.st-key-card-{linked} {{ border: 3px solid {HIGHLIGHT} !important; }}</style>",
            unsafe_allow_html=True,
        )
    for card in sorted(all_cards, key=lambda c: c.key != linked):
        with st.container(border=True, key=f"card-{card.key}"):
            if card.key == linked:
                st.markdown(":material/link: **The card your link points to**")
            st.markdown(f"**Myth:** {card.myth}")
            # the card's back, turned over by a click (issue 34: myth and answer side by side left nothing to
            # ask the class); a card a link points to opens turned, since its answer is what the link is for
            with st.expander(ANSWER, expanded=card.key == linked, icon=":material/flip:"):
                _back(card)


def _back(card: lesson.Card) -> None:
    """A card's answer: the truth, its numbers' signatures and the demo."""
    st.markdown(card.truth)
    for what, signature in card.signatures:  # every number with the settings that made it
        scores.signature(signature, what=what)
    if card.hyp:
        st.link_button(
            "Show it on the Sentence page",
            demo_link(card),
            key=f"learn.card.{card.key}",
            icon=":material/open_in_new:",
            help="Opens in a new tab, with the card's settings in its link; close it to come back here.",
        )
