"""The printable handout prints short (issue 20, teaching review proposal I): Chromium's print of
``handout_html()`` (what ``bleu-explorer handout`` writes and the Learn page downloads) on A4 and on US Letter is
at most three pages (it was four on A4 and six on Letter: each example's section was kept whole, leaving pages half
empty), and its print type stays readable (10-11 pt)."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser

from bleu_app.handout import handout, handout_html

MOST_PAGES = 3


def _pages(pdf: bytes) -> int:
    """The number of page objects in a PDF (``/Type /Page``, not the ``/Pages`` tree nodes)."""
    return len(re.findall(rb"/Type\s*/Page(?![a-zA-Z])", pdf))


def test_the_page_counter_counts_pages_not_the_page_tree():
    two = b"<< /Type /Pages /Count 2 >> << /Type /Page /Parent 1 0 R >> << /Type/Page >>"
    assert _pages(two) == 2


@pytest.mark.parametrize("paper", ["A4", "Letter"])
def test_the_handout_prints_on_at_most_three_pages(browser: Browser, paper):
    ctx = browser.new_context()
    try:
        p = ctx.new_page()
        p.set_content(handout_html())
        pdf = p.pdf(format=paper)
        count = _pages(pdf)
        declared = re.search(rb"/Type\s*/Pages\b[^>]*?/Count\s+(\d+)", pdf) or re.search(rb"/Count\s+(\d+)", pdf)
        assert declared is not None
        assert int(declared.group(1)) == count  # the page tree agrees with the objects
        assert 2 <= count <= MOST_PAGES, f"{paper}: {count} pages"
        p.emulate_media(media="print")
        body = p.eval_on_selector("body", "el => parseFloat(getComputedStyle(el).fontSize)")
        assert 10 / 0.75 <= body <= 11 / 0.75  # 10-11 pt in CSS px
        cells = p.eval_on_selector_all("td", "els => els.map(e => parseFloat(getComputedStyle(e).fontSize))")
        assert min(cells) >= 9 / 0.75  # no table text below 9 pt
        worked = sum(len(cands) for _, cands, _ in handout().examples)
        assert p.locator(".cand").count() == worked == 6  # every worked candidate in a block kept on one page
        assert p.eval_on_selector(".cand", "el => getComputedStyle(el).breakInside") == "avoid"
    finally:
        ctx.close()
