"""The app starts through `make run` and opens on the paper's Example 1."""

from tests.browser.conftest import shot, wait_for_app


def test_make_run_serves_example_1(app_url, page):
    page.goto(app_url)
    wait_for_app(page)
    assert "17/18" in page.inner_text("[data-testid='stMain']")
    shot(page, "smoke-learn")
