"""A misconception card's demo in Chromium (issue 20.4): one click opens the Sentence page with the card's
sentence and settings, and the page shows the card's number."""

from __future__ import annotations

from playwright.sync_api import expect

from bleu_app.lessons.cards import cards
from tests.browser.conftest import rerun_settled, wait_for_app

MAIN = "[data-testid='stMain']"


def test_tokenization_card_opens_the_sentence_page_with_13a(app_url, page):
    card = next(c for c in cards() if c.key == "tokenization")
    page.goto(f"{app_url}/learn?tab=cards")
    wait_for_app(page)
    expect(page.locator(MAIN)).to_contain_text(card.myth)
    page.locator(f".st-key-card-{card.key}").get_by_role("button", name="Show it on the Sentence page").click()
    rerun_settled(page)
    expect(page.locator(f"{MAIN} h1")).to_contain_text("Debug one translation")
    expect(page.locator(MAIN)).to_contain_text(card.numbers["13a"])
    expect(page.locator(MAIN)).to_contain_text("tok:13a")
