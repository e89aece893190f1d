"""Presenter mode in Chromium (issue 20.5): what AppTest cannot see — the type a projector shows, the collapsed
sidebar and the chart text — measured in the DOM at 1280x720, light and dark, and on a phone."""

from __future__ import annotations

import pytest

from tests.browser.conftest import rerun_settled, shot, wait_for_app

MAIN = "[data-testid='stMain']"
FONT = "el => parseFloat(getComputedStyle(el).fontSize)"


@pytest.mark.parametrize(
    ("scheme", "width", "height"), [("light", 1280, 720), ("dark", 1280, 720), ("light", 390, 844)]
)
def test_presenter_mode_is_large_and_steps_with_buttons(app_url, new_page, scheme, width, height):
    p = new_page(scheme=scheme, width=width, height=height)
    p.goto(f"{app_url}/learn?present=1&step=9")
    wait_for_app(p)
    p.wait_for_selector(f"{MAIN} h2")
    assert p.inner_text(f"{MAIN} h2").strip().startswith("9 · The brevity penalty")
    body = p.eval_on_selector(f"{MAIN} [data-testid='stMarkdownContainer'] p", FONT)
    assert body >= 26
    sidebar = p.query_selector("[data-testid='stSidebar']")
    assert sidebar is None or sidebar.get_attribute("data-collapsed") == "true"
    p.wait_for_selector(f"{MAIN} .vega-embed")
    sizes = p.eval_on_selector_all(
        f"{MAIN} .vega-embed svg text",
        "els => els.map(e => parseFloat(e.getAttribute('font-size') || getComputedStyle(e).fontSize))",
    )
    if sizes:  # svg renderer: every axis label and title at least 18 px
        assert min(sizes) >= 18, sizes
    shot(p, f"learn-present-{scheme}-{width}")
    p.get_by_role("button", name="Next →").click()
    rerun_settled(p)
    assert p.inner_text(f"{MAIN} h2").strip().startswith("10 · BLEU, in the log domain")
    assert "step=10" in p.url


def test_arrow_keys_step_through_the_lecture_but_not_while_typing(app_url, new_page):
    p = new_page(scheme="light", width=1280, height=720)
    p.goto(f"{app_url}/learn?present=1&step=9")
    wait_for_app(p)
    p.wait_for_selector(f"{MAIN} h2")
    p.wait_for_function("() => window.document.bleuStepKeys === true")
    p.evaluate("() => document.activeElement && document.activeElement.blur()")  # the page has focus, no field
    p.keyboard.press("ArrowRight")
    p.wait_for_function("() => location.search.includes('step=10')")
    rerun_settled(p)
    assert p.inner_text(f"{MAIN} h2").strip().startswith("10 · BLEU, in the log domain")
    p.keyboard.press("PageUp")  # a presentation clicker's "back"
    p.wait_for_function("() => location.search.includes('step=9')")
    rerun_settled(p)
    assert p.inner_text(f"{MAIN} h2").strip().startswith("9 · The brevity penalty")
    # in the step picker's text field an arrow key moves the caret, not the lecture
    p.locator(f"{MAIN} [data-testid='stSelectbox'] input").first.focus()
    p.keyboard.press("ArrowRight")
    rerun_settled(p)
    assert "step=9" in p.url
