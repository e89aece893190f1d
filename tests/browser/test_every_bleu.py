"""Browser: the corpus page's "under every BLEU" section draws one dot per row, in light (WMT22 zh-en loaded
through the UI) and dark (the demo) theme; screenshots of the section in artifacts/screenshots/."""

from __future__ import annotations

import re

from playwright.sync_api import Locator, Page, expect

from tests.browser.conftest import SHOTS, rerun_settled, wait_for_app
from tests.browser.test_corpus_compare import _load_folder

CHART = "[data-testid='stVegaLiteChart']"


def _show_section(page: Page) -> Locator:
    """Turn the section on; wait for its chart to draw; return its dots."""
    page.get_by_text("Score this system under every BLEU").click()
    rerun_settled(page, timeout=180_000)
    chart = page.locator(CHART, has_text="The same corpus under every BLEU")
    chart.wait_for(timeout=120_000)
    chart.scroll_into_view_if_needed()
    dots = chart.locator("svg g.mark-symbol.role-mark path")
    dots.first.wait_for(state="attached", timeout=60_000)
    page.get_by_text("This corpus under every BLEU", exact=True).scroll_into_view_if_needed()
    return dots


def _section_shot(page: Page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    heading = page.get_by_text("This corpus under every BLEU", exact=True)
    heading.evaluate("e => e.scrollIntoView({block: 'start'})")
    expect(heading).to_be_in_viewport()
    page.screenshot(path=str(SHOTS / f"{name}.png"))


def test_every_bleu_section_wmt22_light(app_url, page, data_dir) -> None:
    page.goto(f"{app_url}/corpus")
    wait_for_app(page)
    _load_folder(page, data_dir / "wmt22-general-zh-en")
    dots = _show_section(page)
    main = page.locator("[data-testid='stMain']")
    expect(main).to_contain_text("BLEU points")
    expect(main).to_contain_text(re.compile("2 references|nrefs:2"))
    expect(dots).to_have_count(23)  # 1 default + 7 tokenizer/case + 3 smoothing + 7 misimplementations + 5 NLTK
    _section_shot(page, "corpus-every-bleu-wmt22-light")


def test_every_bleu_section_demo_dark(app_url, new_page) -> None:
    page = new_page(scheme="dark")
    page.goto(f"{app_url}/corpus")
    wait_for_app(page)
    expect(_show_section(page)).to_have_count(23)
    _section_shot(page, "corpus-every-bleu-demo-dark")
