"""Browser: at 390 px every display formula of the walk fits its column (review 29 item 6: two equations set side
by side in one display block put p₁'s definition, wₙ = 1/N and log BLEU off screen in a scroll box with no visible
scroll bar, so a student on a phone never saw them)."""

from __future__ import annotations

from tests.browser.conftest import wait_for_app


def test_every_walk_formula_fits_a_phone(app_url, new_page):
    page = new_page(width=390, height=844)
    page.goto(f"{app_url}/learn")
    wait_for_app(page)
    page.wait_for_function("() => document.querySelectorAll('[data-testid=stMain] .katex-display').length >= 5")
    wide = page.evaluate(
        """() => [...document.querySelectorAll('[data-testid=stMain] .katex-display')]
             .filter(e => e.scrollWidth > e.clientWidth + 1)
             .map(e => [e.scrollWidth, e.clientWidth, e.innerText.replace(/\\s+/g, ' ').slice(0, 60)])"""
    )
    assert not wide, wide
