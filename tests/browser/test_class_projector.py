"""The class dashboard on a projector in Chromium (issue 34): the teacher's token is in no address the browser
shows, and the projector view, opened in a tab of the teacher's own browser, leaves out a hidden translation and
the nicknames, in 26 px type with no sidebar."""

from __future__ import annotations

from playwright.sync_api import expect

from bleu_app.ui.classroom import room as links
from tests.browser.conftest import rerun_settled, wait_for_app
from tests.browser.test_class import _metric, _wait_metric

MAIN = "[data-testid='stMain']"
RUDE = "This lecture is boring and BLEU is stupid."
FINE = "It is a guide to action which ensures that the military always obeys the commands of the party."


def _student(new_page, join: str, nick: str, text: str) -> None:
    s = new_page(width=420, height=900)
    s.goto(join)
    wait_for_app(s)
    s.get_by_label("Nickname").fill(nick)
    s.get_by_role("button", name="Join").click()
    rerun_settled(s)
    s.get_by_label("Your translation").fill(text)
    s.get_by_role("button", name="Send", exact=True).click()
    rerun_settled(s)
    expect(s.locator(MAIN)).to_contain_text("Your sentence BLEU")


def test_the_projector_view_shows_no_token_and_no_hidden_translation(app_url, new_page):
    teacher = new_page(width=1280, height=720)
    teacher.goto(f"{app_url}/class")
    wait_for_app(teacher)
    teacher.get_by_role("button", name="Create the room").click()
    rerun_settled(teacher)
    code = _metric(teacher, "Room code")
    # the browser keeps the token in a cookie; the address bar names the room's code only
    teacher.wait_for_function(f"() => document.cookie.includes('{links.TEACHER_COOKIE}{code}=')")
    token = next(c["value"] for c in teacher.context.cookies() if c["name"] == f"{links.TEACHER_COOKIE}{code}")
    assert len(token) >= 32
    teacher.wait_for_url(f"**{links.TEACHER}={code}**")
    assert token not in teacher.url

    join = f"{app_url}/class?room={code}"
    _student(new_page, join, "Rude Ravi", RUDE)
    _student(new_page, join, "Mei", FINE)
    _wait_metric(teacher, "Translations", "2")
    box = teacher.locator(f"{MAIN} [data-testid='stSelectbox']").filter(has_text="Hide or show").first
    box.scroll_into_view_if_needed()
    box.click()
    teacher.get_by_role("option").filter(has_text=RUDE[:40]).click()
    rerun_settled(teacher)
    teacher.get_by_role("button", name="Hide", exact=True).click()
    rerun_settled(teacher)

    projector = teacher.context.new_page()  # a tab of the teacher's browser, for the second screen
    projector.goto(f"{app_url}/class?{links.TEACHER}={code}&{links.PROJECT}=1")
    wait_for_app(projector)
    table = projector.locator(f"{MAIN} [data-testid='stTable']")
    expect(table).to_contain_text(FINE[:40])
    main = projector.locator(MAIN)
    expect(main).not_to_contain_text(RUDE)
    expect(main).not_to_contain_text("Rude Ravi")
    expect(main).not_to_contain_text("Mei")
    assert token not in projector.url
    assert token not in projector.content()  # neither a link nor a script of the page carries it
    expect(projector.locator("[data-testid='stSidebar']")).to_be_hidden()
    # no widget (the elements' own toolbars, copy and full screen, change nothing)
    widgets = ", ".join(
        f"[data-testid='{w}']"
        for w in ("stButton", "stLinkButton", "stDownloadButton", "stSelectbox", "stCheckbox", "stPopover")
    )
    expect(main.locator(widgets)).to_have_count(0)
    size = table.locator("td").first.evaluate("td => getComputedStyle(td).fontSize")
    assert size == "26px"
    axis = projector.locator(f"{MAIN} [data-testid='stVegaLiteChart'] .role-axis-label text").first
    assert float(axis.evaluate("t => getComputedStyle(t).fontSize").removesuffix("px")) >= 18
