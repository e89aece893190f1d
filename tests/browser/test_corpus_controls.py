"""Browser: the corpus page's table controls at 1280x720 (a projector): no label is cut to an ellipsis."""

from __future__ import annotations

from tests.browser.conftest import wait_for_app

# Every widget label in the main column whose text is wider than its box (Streamlit cuts it with an ellipsis): the
# label's Markdown box hides what overflows, so the text's own width (a Range over it) is compared with the box.
_CUT_LABELS = r"""() => [...document.querySelectorAll(
    '[data-testid="stMain"] [data-testid="stWidgetLabel"] [data-testid="stMarkdownContainer"]')]
  .filter((box) => {
    if (box.clientWidth === 0) return false;
    const range = document.createRange();
    range.selectNodeContents(box);
    return range.getBoundingClientRect().width > box.clientWidth + 1;
  }).map((box) => box.textContent)"""


def test_sentence_table_controls_show_whole_labels(app_url, new_page):
    p = new_page(width=1280, height=720)
    p.goto(f"{app_url}/corpus")
    wait_for_app(p)
    toggle = p.get_by_text("Descending", exact=True)
    toggle.wait_for()
    assert toggle.is_visible()
    assert p.evaluate(_CUT_LABELS) == []
