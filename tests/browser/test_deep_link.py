"""Every page answers its own URL, as the first visit to a fresh server and as a later visit.

The page scripts live in `pages/`. With that folder beside app.py, Streamlit 1.67 runs a deep-linked page
script on its own (legacy multipage mode) until some session has run app.py's st.navigation: no settings
sidebar, no navigation, file names as titles. Each page's first call, `frame.guard()`, hands such a bare run
to the frame. `/learn` is the default page's address too (Streamlit ignores a default page's url_path, so
the frame adds a hidden alias): it must not open Streamlit's "Page not found" dialog.
"""

from __future__ import annotations

import re
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import expect

from bleu_app.ui.learn import steps
from tests.browser.conftest import serve, wait_for_app

MAIN = "[data-testid='stMain']"
# (path, text only that page shows)
PAGES = [
    ("/", "Learn BLEU, step by step"),
    ("/learn", "Learn BLEU, step by step"),
    ("/sentence?ex=ex2", "Debug one translation"),
    ("/corpus", "A corpus, one system"),
    ("/compare", "Compare systems"),
]


def _assert_in_frame(page, path: str, title: str) -> None:
    wait_for_app(page)
    sidebar = page.locator("[data-testid='stSidebar']")
    expect(sidebar, path).to_contain_text("BLEU settings")
    expect(sidebar, path).to_contain_text("Learn BLEU")  # st.navigation's titles, not file names
    expect(sidebar, path).to_contain_text("Compare systems")
    expect(page.locator(f"{MAIN} h1").first, path).to_have_text(re.compile(r"^\s*" + re.escape(title)))
    assert "Page not found" not in page.inner_text("body"), path
    assert urlsplit(page.url).path.rstrip("/") == urlsplit(path).path.rstrip("/"), (path, page.url)


@pytest.mark.parametrize(("path", "title"), PAGES, ids=[p for p, _ in PAGES])
def test_page_url_as_first_visit_and_later(new_page, path, title):
    with serve() as url:  # a fresh server: this link is its first visit
        first = new_page()
        first.goto(f"{url}{path}")
        _assert_in_frame(first, path, title)
        if path.startswith("/sentence"):
            expect(first.locator(MAIN), path).to_contain_text("2/7")  # the linked example, Example 2
        later = new_page()
        later.goto(f"{url}{path}")
        _assert_in_frame(later, path, title)


@pytest.mark.parametrize("step", ["clipping", "2"], ids=["by key", "an old numbered link"])
def test_a_step_link_opens_that_step(app_url, new_page, step):
    """``?step=KEY`` opens one step; a link numbered before steps had keys opens the step it named then, and the
    address then names it by key."""
    p = new_page()
    p.goto(f"{app_url}/learn?step={step}")
    wait_for_app(p)
    expect(p.locator(f"{MAIN} h2").first).to_have_text(steps.heading(steps.get("clipping")))
    expect(p).to_have_url(re.compile(r"[?&]step=clipping\b"))
