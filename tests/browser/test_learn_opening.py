"""The Learn page's opening vote and the teacher's handout in Chromium (issue 20, teaching review proposals A and
I): the class votes, the reveal shows the paper's list and the engine's runs, light at 1280x720 and dark on a
390x844 phone (in presenter mode, where the lecture starts); the handout downloads as the engine's page."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from bleu_app.handout import handout_html
from bleu_app.ui.learn import steps, teacher
from tests.browser.conftest import assert_view_looks_right, once_open, rerun_settled, shot, wait_for_app

MAIN = "[data-testid='stMain']"


OPENING = steps.heading(steps.get("opening"))


def _vote_and_reveal(p: Page, scheme: str, width: int, *, slide: bool = False) -> None:
    main = p.locator(MAIN)
    expect(main.locator("h2").first).to_contain_text(OPENING)
    expect(main).to_contain_text("It is to insure the troops forever hearing the activity guidebook")
    # the vote's part is drawn to its end (the page streams in order; in presenter mode nothing follows it)
    expect(p.get_by_role("button", name="Reveal what each shares with the references")).to_be_visible()
    assert "17/18" not in p.inner_text(MAIN).split(OPENING, 1)[1].split(steps.heading(steps.get("plain")))[0]
    p.locator(f"{MAIN} [data-testid='stRadio']").get_by_text("Candidate 1", exact=True).click()
    rerun_settled(p)
    p.get_by_role("button", name="Reveal what each shares with the references").click()
    rerun_settled(p)
    expect(main).to_contain_text("The class picked Candidate 1, as the paper does.")
    if not slide:  # on a slide the reveal's prose is the speaker's notes (issue 34)
        expect(main).to_contain_text("“It is a guide to action” with Reference 1")
    expect(main).to_contain_text("found in (computed)")
    expect(main).to_contain_text("17 of 18")
    # the engine's runs: the first six words are one run shared with Reference 1, "obeys" is in no reference
    run = main.locator(".bleu-tok.matched").filter(has_text="it is a guide to action").first
    expect(run).to_contain_text("R1")
    expect(main.locator(".bleu-tok.unmatched").filter(has_text="obeys").first).to_be_visible()
    assert_view_looks_right(p, scheme, width, f"opening {scheme} {width}")
    run.scroll_into_view_if_needed()
    shot(p, f"learn-opening-{scheme}-{width}")


def test_vote_and_reveal_on_the_page_light(app_url, new_page):
    p = new_page(scheme="light", width=1280, height=720)
    p.goto(f"{app_url}/learn")
    wait_for_app(p)
    _vote_and_reveal(p, "light", 1280)


def test_vote_and_reveal_in_presenter_mode_on_a_dark_phone(app_url, new_page):
    p = new_page(scheme="dark", width=390, height=844)
    p.goto(f"{app_url}/learn?present=1")
    wait_for_app(p)
    expect(p).to_have_url(re.compile("step=opening"))  # the lecture starts on the vote
    _vote_and_reveal(p, "dark", 390, slide=True)
    p.get_by_role("button", name="Next →").click()  # on to the next step and back: the class's vote is still there
    rerun_settled(p)
    expect(p.locator(f"{MAIN} h2").first).to_contain_text(steps.heading(steps.get("plain")))
    p.get_by_role("button", name="← Previous").click()
    rerun_settled(p)
    expect(p.locator(MAIN)).to_contain_text("The class picked Candidate 1")  # the revealed slide: the verdict
    p.get_by_role("button", name="Hide the answer").click()  # and the vote again, as the class left it
    rerun_settled(p)
    chosen = p.locator(f"{MAIN} [data-testid='stRadioOption'][data-selected='true']")
    expect(chosen).to_have_count(1)
    expect(chosen).to_have_text("Candidate 1")


@pytest.mark.parametrize("scheme", ["light"])
def test_a_plan_link_opens_its_step_and_the_handout_downloads(app_url, page, tmp_path: Path, scheme):
    page.goto(f"{app_url}/learn")
    wait_for_app(page)
    page.get_by_text(teacher.EXPANDER).click()
    expect(page.locator(MAIN)).to_contain_text(f"{app_url}/learn?present=1&step=opening")  # a full address (item 10)
    part2 = steps.number("evaluation")
    with page.context.expect_page() as opened:  # Streamlit opens a Markdown link in a new tab
        once_open(page.get_by_role("link", name=f"step {part2}", exact=True)).click()
    slide = opened.value
    wait_for_app(slide)
    expect(slide.locator(f"{MAIN} h2").first).to_contain_text(steps.heading(steps.get("evaluation")))
    assert "step=evaluation" in slide.url
    slide.close()
    button = page.get_by_role("button", name="Download the handout")
    with page.expect_download(timeout=60_000) as info:
        button.click()
    download = info.value
    assert download.failure() is None
    assert download.suggested_filename == teacher.FILE_NAME
    path = tmp_path / download.suggested_filename
    download.save_as(path)
    body = path.read_text(encoding="utf-8")
    assert body == handout_html()
    assert "<td>17/18</td>" in body
    shot(page, f"learn-teacher-tools-{scheme}")


def test_the_plan_fits_a_phone(app_url, new_page):
    p = new_page(scheme="light", width=390, height=844)
    p.goto(f"{app_url}/learn")
    wait_for_app(p)
    p.get_by_text(teacher.EXPANDER).click()
    links = p.locator(f"{MAIN} a[href*='/learn?']")  # full addresses (review item 10)
    plan = (Path(__file__).resolve().parents[2] / "docs" / "learn" / "plan.md").read_text(encoding="utf-8")
    n = plan.count("](?")  # the plan's links, one a row
    expect(links).to_have_count(n)
    for i in range(n):  # every link of the plan lies inside the screen (a wider table cut them off)
        box = links.nth(i).bounding_box()
        assert box is not None
        assert box["x"] >= 0
        assert box["x"] + box["width"] <= 390, (i, box)
    assert_view_looks_right(p, "light", 390, "lesson plan 390")
    shot(p, "learn-teacher-tools-light-390")
