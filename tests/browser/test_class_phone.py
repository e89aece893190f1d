"""The class on phones and the teacher's picker in Chromium (issue 34, the lecturer's walk): at 390x844 the Class
page's title takes one or two lines and a student's clipping table (a room with the default sentence: Example 1's
three references) keeps every header inside the table; on the teacher's dashboard, hiding row #3 leaves the
Hide/Show picker on row #3, labelled hidden, and a better translation that renumbers it leaves the picker on it."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from bleu_core.teaching.paper import EXAMPLE_1
from tests.browser.conftest import rerun_settled, shot, wait_for_app
from tests.browser.test_class import _metric, _wait_metric

MAIN = "[data-testid='stMain']"
PHONE = {"width": 390, "height": 844}

# the distinct tops of a text's line boxes (a Range gives one rect per line fragment)
_LINES = """(el) => { const r = document.createRange(); r.selectNodeContents(el);
  return new Set([...r.getClientRects()].filter(b => b.width > 0).map(b => Math.round(b.top))).size; }"""


def _create(app_url: str, new_page) -> tuple[Page, str]:
    """A teacher's room made with the default sentence (Example 1, three references); its code."""
    teacher = new_page(width=1280, height=720)
    teacher.goto(f"{app_url}/class")
    wait_for_app(teacher)
    teacher.get_by_role("button", name="Create the room").click()
    rerun_settled(teacher)
    return teacher, _metric(teacher, "Room code")


def _send(new_page, app_url: str, code: str, nick: str, text: str) -> Page:
    phone = new_page(**PHONE)
    phone.goto(f"{app_url}/class?room={code}")
    wait_for_app(phone)
    phone.get_by_label("Nickname").fill(nick)
    phone.get_by_role("button", name="Join").click()
    rerun_settled(phone)
    phone.get_by_label("Your translation").fill(text)
    phone.get_by_role("button", name="Send", exact=True).click()
    rerun_settled(phone)
    expect(phone.locator(MAIN)).to_contain_text("Your sentence BLEU")
    return phone


def test_the_class_title_takes_at_most_two_lines_on_a_phone(app_url, new_page):
    phone = new_page(**PHONE)
    phone.goto(f"{app_url}/class")
    wait_for_app(phone)
    title = phone.locator(f"{MAIN} h1").first
    expect(title).to_be_visible()
    lines = title.evaluate(_LINES)
    height = title.evaluate("el => el.getBoundingClientRect().height")
    assert 1 <= lines <= 2, f"the title takes {lines} lines ({height:.0f} px) at 390x844"


def test_a_students_clipping_table_keeps_its_headers_inside_on_a_phone(app_url, new_page):
    _, code = _create(app_url, new_page)
    phone = _send(new_page, app_url, code, "mei", EXAMPLE_1.candidates[0])
    table = phone.locator(f"{MAIN} [data-testid='stTable']").first
    expect(table).to_contain_text("Count_clip")
    table.scroll_into_view_if_needed()
    shot(phone, "class-phone-clip-table")
    edge = table.evaluate("el => el.getBoundingClientRect().right")
    cells = table.locator("th").evaluate_all(
        "ths => ths.map(th => [th.innerText.trim(), th.getBoundingClientRect().left, th.getBoundingClientRect().right])"
    )
    assert cells, "the table has no header cells"
    past = [(text, round(left), round(right)) for text, left, right in cells if right > edge + 1]
    assert not past, f"header cells past the table's right edge at x = {edge:.0f}: {past}"


def test_hiding_row_3_leaves_the_picker_on_row_3(app_url, new_page):
    teacher, code = _create(app_url, new_page)
    for i, text in enumerate((*EXAMPLE_1.candidates, "It is a guide.")):
        _send(new_page, app_url, code, f"s{i}", text)
    _wait_metric(teacher, "Translations", "3")
    box = teacher.locator(f"{MAIN} [data-testid='stSelectbox']").filter(has_text="Hide or show").first
    box.scroll_into_view_if_needed()
    box.click()
    teacher.get_by_role("option").filter(has_text="#3").click()
    rerun_settled(teacher)
    pick = box.get_by_role("combobox")
    expect(pick).to_have_value(re.compile(r"^#3 "))
    teacher.get_by_role("button", name="Hide", exact=True).click()
    rerun_settled(teacher)
    expect(teacher.get_by_role("button", name="Show", exact=True)).to_be_visible()
    expect(pick).to_have_value(re.compile(r"^#3 .*\(hidden\)$"))
    # a new translation that ranks above it renumbers the row: the picker stays on it all the same
    _send(new_page, app_url, code, "s3", EXAMPLE_1.references[0])
    _wait_metric(teacher, "Translations", "4")
    expect(pick).to_have_value(re.compile(r"^#4 s2: It is a guide\. \(hidden\)$"))
