"""Browser: the metrics chosen in the sidebar (issue 32), as a user picks them. On the Compare page with the WMT22
zh-en folder uploaded, TER is picked in the sidebar's Metrics box: its interval chart and significance matrix draw
(every axis label shown) and its ranking lists the systems lowest TER first. Screenshots of Compare and Corpus
with the metrics side by side, in the light and the dark theme, go to artifacts/screenshots/ for a person to look at.
"""

from __future__ import annotations

import re

from playwright.sync_api import expect

from tests.browser.conftest import assert_charts_drawn, rerun_settled, wait_for_app
from tests.browser.test_corpus_compare import MAIN, TALL, _light_and_dark, _load_folder

SIDEBAR = "[data-testid='stSidebar']"


def _pick_metric(page, label: str) -> None:
    """Type ``label`` into the sidebar's Metrics box and take the option (as a person picks one)."""
    box = page.locator(f"{SIDEBAR} [data-testid='stMultiSelect']").filter(has_text="Metrics")
    box.locator("input").click()
    page.keyboard.type(label)
    page.get_by_role("option", name=label, exact=True).click()
    page.keyboard.press("Escape")
    rerun_settled(page, timeout=300_000)


def test_picking_ter_on_compare_draws_its_ranking(app_url, new_page, data_dir) -> None:
    page = new_page(height=TALL)
    page.goto(f"{app_url}/compare")
    wait_for_app(page)
    _load_folder(page, data_dir / "wmt22-general-zh-en")
    _pick_metric(page, "TER")
    expect(page.locator(MAIN)).to_contain_text("Ranked by TER (lower is better), in significance clusters")
    report = assert_charts_drawn(page, "compare, WMT22, TER", at_least=6)
    titles = [c["title"] for c in report]
    ter_ci = next(c for c in report if c["title"].startswith("Corpus TER per system"))
    assert max(len(a["texts"]) for a in ter_ci["axes"]) == 12  # every system named
    ter_matrix = next(c for c in report if c["title"].startswith("Pairwise significance, TER"))
    assert sorted(len(a["texts"]) for a in ter_matrix["axes"])[-2:] == [12, 12], titles
    # has_text is a case-insensitive substring ("cluster" holds "ter"): the header cell exactly
    ranking = page.locator(f"{MAIN} table.bleu-ranking").filter(has=page.locator("th", has_text=re.compile(r"^TER$")))
    expect(ranking).to_have_count(1)
    scores = [float(t) for t in ranking.locator("tbody tr td:nth-child(4)").all_inner_texts()]
    assert len(scores) == 12
    assert scores == sorted(scores)  # lower is better: the best first
    assert re.search(r"sacreBLEU: nrefs:2 \| bs:1000 \| seed:12345 \| case:lc \| tok:tercom", page.inner_text(MAIN))
    # every metric's ranking whole at the page's width: two to a row cut the score column off (seen at 1280 px)
    cut = page.evaluate(
        "() => [...document.querySelectorAll('.bleu-ranking-wrap')].filter(w => w.scrollWidth > w.clientWidth + 1)"
        ".length"
    )
    assert page.locator(".bleu-ranking-wrap").count() == 3
    assert cut == 0
    _light_and_dark(page, "compare-metrics-wmt22", charts=6)

    page.get_by_role("link", name="Corpus").first.click()  # the same session: the metrics chosen stay chosen
    rerun_settled(page, timeout=300_000)
    expect(page.locator(f"{MAIN} h1").first).to_contain_text("A corpus, one system")
    expect(page.locator(MAIN)).to_contain_text("Corpus TER of")
    _light_and_dark(page, "corpus-metrics-wmt22", charts=2)
