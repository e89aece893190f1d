"""Browser: load the WMT22 zh-en folder through the UI, open the significance matrix, click a scatter point and
land on the sentence page; screenshots of both pages in light, dark and a narrow window."""

from __future__ import annotations

from tests.browser.conftest import rerun_settled, shot, wait_for_app

SCATTER = ".st-key-compare-scatter"


def _open_loader(page) -> None:
    page.get_by_text("(load another)").first.click()
    page.wait_for_timeout(300)


def _load_folder(page, folder) -> None:
    _open_loader(page)
    page.locator("[data-testid='stFileUploaderDropzoneInput']").first.set_input_files(str(folder))
    page.wait_for_function("() => document.body.innerText.includes('wmt22-general-zh-en')", timeout=120_000)
    rerun_settled(page, timeout=180_000)


def _click_a_point(page) -> bool:
    points = page.locator(f"{SCATTER} svg g.mark-symbol path")
    points.first.wait_for(state="attached", timeout=60_000)
    page.locator(SCATTER).scroll_into_view_if_needed()
    for k in (0, 7, 50, 300):
        points.nth(k).click(force=True)
        try:
            page.wait_for_url("**/sentence**", timeout=5000)
            return True
        except Exception:
            continue
    return False


def test_wmt22_folder_matrix_scatter_to_sentence(app_url, page, data_dir):
    page.goto(f"{app_url}/compare")
    wait_for_app(page)
    _load_folder(page, data_dir / "wmt22-general-zh-en")
    text = page.inner_text("[data-testid='stMain']")
    assert "12 systems" in text
    assert "1875 segments" in text
    assert "Not loaded" not in text
    heading = page.get_by_text("Which differences are significant?")
    heading.scroll_into_view_if_needed()
    matrix = page.locator("[data-testid='stVegaLiteChart']", has_text="Pairwise significance")
    matrix.wait_for(timeout=60_000)
    matrix.scroll_into_view_if_needed()
    assert "bs:2000 | rs:12345" in page.inner_text("[data-testid='stMain']")
    shot(page, "compare-wmt22-light")
    assert _click_a_point(page), "no scatter point could be clicked"
    wait_for_app(page)
    main = page.inner_text("[data-testid='stMain']")
    assert "wmt22-general-zh-en, segment" in main
    shot(page, "sentence-from-compare-scatter")


def test_corpus_page_row_opens_sentence(app_url, page):
    page.goto(f"{app_url}/corpus")
    wait_for_app(page)
    assert "mean of sentence bleu" in page.inner_text("[data-testid='stMain']").lower()
    shot(page, "corpus-demo-light")


def test_screenshots_dark_and_narrow(app_url, new_page):
    for scheme, width, tag in (("dark", 1400, "dark"), ("light", 420, "narrow"), ("dark", 420, "narrow-dark")):
        for name in ("corpus", "compare"):
            p = new_page(scheme=scheme, width=width)
            p.goto(f"{app_url}/{name}")
            wait_for_app(p)
            p.wait_for_timeout(800)
            shot(p, f"{name}-demo-{tag}")
            p.context.close()


def test_user_text_stays_text(app_url, page):
    page.goto(f"{app_url}/corpus")
    wait_for_app(page)
    _open_loader(page)
    page.get_by_role("tab", name="Paste").click()
    payload = "<img src=x onerror=\"document.title='pwned'\">"
    page.get_by_label("Reference (one segment per line)").fill("a b c")
    page.get_by_label("Name of system A").fill(payload)
    page.get_by_label("System A", exact=True).fill("a b c")
    page.get_by_role("button", name="Score the pasted text").click()
    rerun_settled(page)
    assert page.title() != "pwned"
    assert "onerror" in page.inner_text("[data-testid='stMain']")
