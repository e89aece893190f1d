"""The Learn page's misconception cards: each with its computed numbers and a one-click demo that opens the
Sentence page pre-filled (through the same handoff the corpus pages use)."""

from __future__ import annotations

import streamlit as st

from bleu_app.lessons import cards as lesson
from bleu_app.ui import cached, nav, state
from bleu_app.ui.components import scores
from bleu_app.ui.learn import links
from bleu_app.ui.learn.lecture import Lecture

__all__ = ["show"]

HIGHLIGHT = "#d55e00"  # Okabe & Ito's vermillion: visible on the light and the dark theme


def _open(card: lesson.Card) -> None:
    """on_click of a card's demo: hand the sentence (and the tokenizer it needs) to the Sentence page."""
    if card.tokenize:
        state.set_tokenizer(card.tokenize)
    state.hand_off({"hyp": card.hyp, "refs": list(card.refs), "label": f"misconception card: {card.myth}"})


def show(w: Lecture) -> None:
    """Every card; a demo button switches to the Sentence page with the card's sentence loaded."""
    st.markdown(
        "Six things students believe about BLEU. Each card's numbers are computed live with the paper's preset "
        "(the signatures under each card); **Show it** opens the Sentence page with the example loaded."
    )
    all_cards = cached.cards()
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
            st.markdown(card.truth)
            for what, signature in card.signatures:  # every number with the settings that made it
                scores.signature(signature, what=what)
            if card.hyp:
                st.button("Show it on the Sentence page", key=f"learn.card.{card.key}", on_click=_open, args=(card,))
    nav.follow_handoff()
