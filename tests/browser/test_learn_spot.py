"""Spot the errors in Chromium (issue 20.6): a link opens one excerpt of the article, the student picks the kind
of error and checks it, and the paper's sentence and the computed number appear; light at 1400 px and dark on a
390x844 phone (nothing runs off the side), with the card deep link's frame."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from bleu_app.lessons import spot
from bleu_app.lessons.cards import cards
from tests.browser.conftest import assert_view_looks_right, rerun_settled, shot, wait_for_app

MAIN = "[data-testid='stMain']"


@pytest.mark.parametrize(("scheme", "width", "height"), [("light", 1400, 1000), ("dark", 390, 844)])
def test_answer_one_spot_the_error_item(app_url, new_page, scheme, width, height):
    p = new_page(scheme=scheme, width=width, height=height)
    p.goto(f"{app_url}/learn?tab=exercise&item=spot-clip")
    wait_for_app(p)
    main = p.locator(MAIN)
    expect(main).to_contain_text("Spot the errors")
    expect(main).to_contain_text("Count(S_{ref},w)")  # the article's formula as printed, not rendered
    block = p.locator(".st-key-spot-clip")
    expect(block).to_be_visible()
    radio = p.locator(MAIN).get_by_role("radiogroup", name="What is it?")
    radio.get_by_text(spot.KINDS["correct"], exact=True).click()
    p.locator(MAIN).get_by_role("button", name="Check").click()
    rerun_settled(p)
    expect(main).to_contain_text(spot.SPOTS["clip"].hint)
    radio.get_by_text(spot.KINDS["clipping"], exact=True).click()
    p.locator(MAIN).get_by_role("button", name="Check").click()
    rerun_settled(p)
    expect(main).to_contain_text(f"Right: “{spot.KINDS['clipping']}”.")
    expect(main).to_contain_text("The paper, section 2.1: “To compute this, one first counts the maximum")
    expect(main).to_contain_text("by Reference 2's count alone, 1/7")
    expect(main).to_contain_text("0 at the first try")
    assert_view_looks_right(p, scheme, width, "spot the errors")
    shot(p, f"learn-spot-{scheme}-{width}")


def test_a_card_link_frames_that_card_first(app_url, page):
    card = next(c for c in cards() if c.key == "human")
    page.goto(f"{app_url}/learn?tab=cards&item=human")
    wait_for_app(page)
    linked = page.locator(f".st-key-card-{card.key}")
    expect(linked).to_contain_text("The card your link points to")
    expect(linked).to_contain_text(card.myth)
    border = linked.evaluate("el => getComputedStyle(el).borderTopWidth + ' ' + getComputedStyle(el).borderTopColor")
    assert border == "3px rgb(213, 94, 0)", border
    first = page.locator(f"{MAIN} [class*='st-key-card-']").first
    assert "st-key-card-human" in (first.get_attribute("class") or "")
    shot(page, "learn-card-linked-light-1400")
