"""A shared link opened as the *first* visit to a fresh server still gets the whole app.

With a folder named `pages/` beside app.py, Streamlit 1.67 runs a deep-linked page script on its own
(legacy multipage mode) until some session has run app.py's st.navigation: no settings sidebar, no
navigation. The page scripts live in `app_pages/` so that cannot happen; this test holds that.
"""

from tests.browser.conftest import serve, wait_for_app


def test_first_visit_by_deep_link_runs_the_frame(new_page):
    with serve() as url:
        page = new_page()
        page.goto(f"{url}/sentence?ex=ex2")
        wait_for_app(page)
        sidebar = page.inner_text("[data-testid='stSidebar']")
        assert "BLEU settings" in sidebar
        assert "Learn BLEU" in sidebar  # st.navigation's titles, not file names
        assert "2/7" in page.inner_text("[data-testid='stMain']")  # the linked example, Example 2
