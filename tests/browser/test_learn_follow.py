"""Phones in step (issue 34), as the review drove the class: the teacher presents the slides from the room's class
view at 1280x720, a student joins on a 390x844 phone and follows them; the phone shows the new slide within two
seconds of the teacher's Next, and the phone's poll answer reaches the projected slide."""

from __future__ import annotations

import time

from playwright.sync_api import Page, expect

from bleu_app.ui.learn import steps
from tests.browser.conftest import rerun_settled, shot, wait_for_app

MAIN = "[data-testid='stMain']"


def _shows(p: Page, key: str, timeout: float) -> None:
    """Wait until a heading of the main area is step ``key``'s."""
    p.wait_for_function(
        "([sel, text]) => [...document.querySelectorAll(sel)].some(h => h.innerText.trim() === text)",
        arg=[f"{MAIN} h2", steps.heading(steps.get(key))],
        timeout=timeout,
    )


def test_a_phone_follows_the_teachers_slides_and_its_vote_reaches_the_projector(app_url, new_page):
    teacher = new_page(width=1280, height=720)
    teacher.goto(f"{app_url}/class")
    wait_for_app(teacher)
    teacher.get_by_role("button", name="Create the room").click()
    rerun_settled(teacher)
    code = teacher.locator("[data-testid='stMetricValue']").first.inner_text().strip()
    teacher.get_by_role("button", name="Present the lecture to this room").click()
    rerun_settled(teacher)
    _shows(teacher, steps.KEYS[0], timeout=60_000)
    assert "teach=" not in teacher.url  # the room's secret is not in the projected address

    phone = new_page(width=390, height=844)
    phone.goto(f"{app_url}/class?room={code}")
    wait_for_app(phone)
    phone.get_by_label("Nickname").fill("mei")
    phone.get_by_role("button", name="Join").click()
    rerun_settled(phone)
    phone.get_by_role("link", name="Follow the lecture's slides").click()
    _shows(phone, steps.KEYS[0], timeout=60_000)
    wait_for_app(phone)
    phone.get_by_role("button", name="Candidate 1", exact=True).click()
    expect(phone.locator(MAIN)).to_contain_text("Your answer: Candidate 1.")
    counts = teacher.locator(".st-key-learn-poll_counts")
    expect(counts).to_contain_text("1 answer", timeout=10_000)  # the projector's fragment, no click
    expect(counts).to_contain_text("Candidate 1: 1")
    shot(phone, "follow-phone-opening")

    start = time.monotonic()
    teacher.get_by_role("button", name="Next →").click()
    _shows(phone, steps.KEYS[1], timeout=10_000)
    took = time.monotonic() - start
    assert took < 2.0, f"the phone showed the teacher's move after {took:.2f} s"
    shot(phone, "follow-phone-next")
