"""A misconception card's demo in Chromium (issue 20.4; issue 34): one click opens the Sentence page in a new tab
with the card's sentence and settings in its link, and the page shows the card's number; the lecture it came from
keeps its own settings (the demo once switched the rest of the lecture to 13a: step 10 showed 54.02). The card's
answer and its demo are on its back, turned by a click."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from bleu_app.lessons.cards import cards
from bleu_app.ui.learn import steps
from bleu_app.ui.learn.cards import ANSWER
from tests.browser.conftest import once_open, rerun_settled, wait_for_app

MAIN = "[data-testid='stMain']"


def test_tokenization_card_opens_the_sentence_page_with_13a_and_the_lecture_stays_at_50_46(app_url, new_page):
    card = next(c for c in cards() if c.key == "tokenization")
    page = new_page(scheme="light", width=1280, height=720)
    page.goto(f"{app_url}/learn?present=1&step=cards")
    wait_for_app(page)
    expect(page.locator(MAIN)).to_contain_text(card.myth)
    front = page.locator(f".st-key-card-{card.key}")
    link = front.get_by_role("link", name="Show it on the Sentence page")
    expect(link).to_be_hidden()  # the card's back, until it is turned
    front.get_by_text(ANSWER).click()
    with page.context.expect_page() as opened:
        once_open(link).click()
    demo = opened.value
    wait_for_app(demo)
    expect(demo.locator(f"{MAIN} h1")).to_contain_text("Debug one translation")
    expect(demo.locator(MAIN)).to_contain_text(card.numbers["13a"])
    expect(demo.locator(MAIN)).to_contain_text("tok:13a")
    demo.close()  # back to the lecture, as a teacher closes the demo's tab
    page.locator(f"{MAIN} [data-testid='stSelectbox']").first.click()
    page.keyboard.type("log domain")  # the list is long: filter it
    page.get_by_role("option", name=steps.heading(steps.get("logdomain"))).click()
    rerun_settled(page)
    expect(page.locator(f"{MAIN} h2").first).to_have_text(
        re.compile(rf"^\s*{re.escape(steps.heading(steps.get('logdomain')))}")
    )
    expect(page.locator(f"{MAIN} [data-testid='stMetricValue']").first).to_contain_text("50.46")
    expect(page.locator(f"{MAIN} [data-testid='stAlert']")).to_have_count(0)  # no "settings differ" banner
    assert "tok=" not in page.url
