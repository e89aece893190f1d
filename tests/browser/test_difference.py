"""Browser: the compare page's "Why do A and B differ?" section draws (waterfall bars and labels, every system
against the baseline), a gap sentence opens the sentence view with both systems, and the report downloaded
from the page opens from disk without a single request; screenshots in light and dark."""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import expect

from tests.browser.conftest import SHOTS, rerun_settled, wait_for_app

MAIN = "[data-testid='stMain']"
CHART = "[data-testid='stVegaLiteChart']"
GAP = ".st-key-compare-gap"


def _section(p, app_url: str) -> None:
    p.goto(f"{app_url}/compare")
    wait_for_app(p)
    p.get_by_text("Why do A and B differ?").scroll_into_view_if_needed()
    p.locator(CHART, has_text="(A) →").locator("svg g.mark-rect path").first.wait_for(state="attached", timeout=60_000)


def test_waterfall_and_every_system_draw_light_and_dark(app_url, new_page):
    for scheme in ("light", "dark"):
        p = new_page(scheme=scheme, width=1400, height=1100)
        _section(p, app_url)
        waterfall = p.locator(CHART, has_text="(A) →")
        bars = waterfall.locator("svg g.mark-rect path")
        expect(bars).to_have_count(7)  # A, BP, p1..p4, B
        labels = waterfall.locator("svg g.mark-text text").evaluate_all("els => els.map(e => e.textContent)")
        headline = next(t for t in p.inner_text(MAIN).splitlines() if " BLEU: BP " in t)
        for step in headline.split(": ", 1)[1].split(" (log ratio")[0].split(", "):
            assert step.split(" ")[1] in labels, (step, labels)  # every term drawn with its value
        stacked = p.locator(CHART, has_text="Every system against").locator("svg g.mark-rect path")
        expect(stacked).to_have_count(3 * 5 + 3)  # 3 systems x (BP, p1..p4), and each one's net tick
        box = bars.first.bounding_box()
        assert box is not None
        assert box["height"] > 2
        SHOTS.mkdir(parents=True, exist_ok=True)
        waterfall.scroll_into_view_if_needed()
        p.screenshot(path=str(SHOTS / f"compare-difference-{scheme}.png"))
        p.locator(GAP).scroll_into_view_if_needed()
        p.screenshot(path=str(SHOTS / f"compare-gap-{scheme}.png"))


def test_gap_sentence_opens_with_both_systems(app_url, page):
    _section(page, app_url)
    table = page.locator(f"{GAP} [data-testid='stDataFrame']")
    table.scroll_into_view_if_needed()
    table.wait_for()
    box = table.bounding_box()
    assert box is not None
    # the row-selection checkbox of the first body row (header and rows are 35 px high)
    page.mouse.click(box["x"] + 14, box["y"] + 35 + 17)
    page.wait_for_url("**/sentence**", timeout=120_000)
    wait_for_app(page)
    expect(page.locator(MAIN)).to_contain_text("demo, segment")
    expect(page.locator(MAIN)).to_contain_text("careful (A) vs literal (B)")  # the baseline and the best other


def test_report_download_opens_offline(app_url, page, tmp_path: Path):
    page.goto(f"{app_url}/compare")
    wait_for_app(page)
    button = page.get_by_role("button", name="Report: HTML (opens offline)")
    button.scroll_into_view_if_needed()
    with page.expect_download(timeout=120_000) as dl:
        button.click()
    path = tmp_path / "report.html"
    dl.value.save_as(str(path))
    rerun_settled(page)
    report = page.context.new_page()
    requests: list[str] = []
    report.on("request", lambda r: requests.append(r.url))
    report.goto(path.as_uri())
    report.wait_for_load_state("load")
    assert [u for u in requests if not u.startswith("file://")] == []
    assert report.locator("svg").count() >= 7
    assert report.locator("svg g.mark-rect path").count() > 20
    text = report.inner_text("body")
    for name in ("careful", "chatty", "literal", "terse"):
        assert name in text
    assert "Signature:" in text
    report.screenshot(path=str(SHOTS / "report-demo.png"))
    report.close()
