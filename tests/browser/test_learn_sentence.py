"""Browser: the learn and sentence pages in Debian Chromium against `make run`'s server.

Pastes a candidate, counts highlighted matches, checks the 17/18 table, that an XSS payload stays text, and
saves screenshots of both pages in light and dark theme and in a narrow window.
"""

from __future__ import annotations

from playwright.sync_api import expect

from tests.browser.conftest import assert_view_looks_right, rerun_settled, shot, wait_for_app

MAIN = "[data-testid='stMain']"
XSS = '<img src=x onerror="window.__xss=1"><script>window.__xss=2</script>'


def _sentence(p, app_url: str, query: str = "") -> None:
    p.goto(f"{app_url}/sentence{query}")
    wait_for_app(p)
    p.wait_for_selector(".bleu-tok.matched")


def _fill(p, label: str, text: str) -> None:
    box = p.get_by_label(label, exact=True)
    box.fill(text)
    box.press("Control+Enter")
    rerun_settled(p)


def test_learn_page_shows_the_17_18_table(app_url, page):
    page.goto(app_url)
    wait_for_app(page)
    expect(page.locator(MAIN)).to_contain_text("Max_Ref_Count")  # retries while the page streams in
    expect(page.locator(MAIN)).to_contain_text("17/18")
    first_table = page.locator(f"{MAIN} [data-testid='stTable']").first.inner_text()
    assert "Count_clip" in first_table, first_table[:300]
    assert "the" in first_table


def test_sentence_page_highlights_and_table(app_url, page):
    _sentence(page, app_url, "?ex=ex1")
    first = page.locator(".bleu-text").nth(0)
    # the example link is applied on the first run and may re-render once: wait for the counts
    expect(first.locator(".bleu-tok.matched")).to_have_count(17)
    expect(first.locator(".bleu-tok.unmatched")).to_have_count(1)
    expect(page.locator(MAIN)).to_contain_text("Count_clip")  # the clipping table (the page may still stream)

    _fill(page, "Candidate (the machine translation)", "It is the guiding principle of the party.")
    first = page.locator(".bleu-text").nth(0)
    expect(first.locator(".bleu-tok.matched")).to_have_count(8)
    expect(page.locator(MAIN)).to_contain_text("8/8")


def test_xss_payload_stays_text(app_url, page):
    _sentence(page, app_url)
    page.evaluate("window.__xss = 0")
    _fill(page, "Candidate (the machine translation)", XSS + " it is a guide")
    # the highlighted candidate shows the payload as its own words (waits for the rerun that draws it)
    expect(page.locator(".bleu-text").nth(0)).to_contain_text("onerror")
    assert page.evaluate("window.__xss") == 0
    assert page.locator(f"{MAIN} .bleu-text img").count() == 0
    assert page.locator(f"{MAIN} .bleu-text script").count() == 0


# Streamlit scrolls inside its own container, so a full-page screenshot is one viewport: tall viewports
# capture whole pages.
LEARN_HEIGHT, SENTENCE_HEIGHT = 7600, 3400


def test_screenshots_light_dark_and_narrow(app_url, new_page):
    for scheme in ("light", "dark"):
        p = new_page(scheme=scheme, height=LEARN_HEIGHT)
        p.goto(app_url)
        wait_for_app(p)
        assert_view_looks_right(p, scheme, 1400, f"learn {scheme}", charts=3)
        shot(p, f"learn-{scheme}")
        p.set_viewport_size({"width": 1400, "height": SENTENCE_HEIGHT})
        _sentence(p, app_url, "?ex=ex1")
        p.locator("[data-testid='stDataFrame']").first.wait_for()
        assert_view_looks_right(p, scheme, 1400, f"sentence {scheme}", charts=2)
        shot(p, f"sentence-{scheme}")
    narrow = new_page(scheme="light", width=420, height=LEARN_HEIGHT + 4000)
    narrow.goto(app_url)
    wait_for_app(narrow)
    _collapse_sidebar(narrow)
    assert_view_looks_right(narrow, "light", 420, "learn narrow", charts=3)
    shot(narrow, "learn-narrow")
    _sentence(narrow, app_url, "?ex=ex2")
    _collapse_sidebar(narrow)
    assert_view_looks_right(narrow, "light", 420, "sentence narrow", charts=2)
    shot(narrow, "sentence-narrow")


def _collapse_sidebar(p) -> None:
    # app.py opens the sidebar expanded; on a phone-width window it covers the page, so close it as a user would.
    button = p.locator("[data-testid='stSidebarCollapseButton'] button")
    if button.count() and button.first.is_visible():
        button.first.click()
        expect(p.locator("[data-testid='stSidebar']")).to_have_attribute("aria-expanded", "false")


def test_the_clipping_tables_answer_column_is_on_screen_at_1280(app_url, new_page):
    # teacher walk W15: with the sidebar open at 1280x720, Count_clip was scrolled off ("Cour…")
    p = new_page(scheme="light", width=1280, height=720)
    _sentence(p, app_url, "?ex=ex1")
    expect(p.locator(MAIN)).to_contain_text("Count_clip")
    table = p.locator(f"{MAIN} [data-testid='stTable']").filter(has_text="Count_clip").first
    header = table.locator("th", has_text="Count_clip").first
    box = header.bounding_box()
    assert box is not None
    frame = table.bounding_box()
    assert frame is not None
    # the answer column ends inside the table's visible frame (it was drawn at x = 798 in a frame ending at 758)
    assert box["x"] + box["width"] <= frame["x"] + frame["width"] + 1, (box, frame)
    control = p.locator(f"{MAIN} [data-testid='stButtonGroup']").filter(has_text="Longest matched").first
    label = control.get_by_text("Longest matched n-gram", exact=True)
    assert label.evaluate("el => el.scrollWidth <= el.clientWidth + 1")  # W22: the label is not clipped
