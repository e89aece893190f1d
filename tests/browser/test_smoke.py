"""The app starts through `make run` and opens on the paper's Example 1."""

from playwright.sync_api import expect

from tests.browser.conftest import shot, wait_for_app


def test_make_run_serves_example_1(app_url, page):
    page.goto(app_url)
    wait_for_app(page)
    expect(page.locator("[data-testid='stMain']")).to_contain_text("17/18")
    shot(page, "smoke-learn")
