"""Chromium checks of the browser review's Learn and Sentence items (notes/review/REPORT.md items 8, 9, 13, 14, 18,
20): measured boxes, not only text. Screenshots at 1280 light and 390 dark go to artifacts/screenshots/."""

from __future__ import annotations

from urllib.parse import quote_plus

import pytest
from playwright.sync_api import Page, expect

from bleu_app.ui.learn import teacher
from tests.browser.conftest import assert_view_looks_right, rerun_settled, shot, wait_for_app

MAIN = "[data-testid='stMain']"


def _top(p: Page, selector: str) -> float:
    """The document y (page scrolled to the top) of the first element ``selector`` names."""
    p.evaluate("() => window.scrollTo(0, 0)")
    box = p.locator(selector).first.bounding_box()
    assert box is not None, selector
    return float(box["y"])


# --- item 8: a deep link puts what it names near the top ---------------------------------------------------------
LINKS = [
    ("tab=cards&item=human", ".st-key-card-human"),
    ("tab=exercise&item=spot-shortest", ".st-key-spot-shortest"),
    ("tab=lab&variant=sentence_bp", f"{MAIN} [role='tabpanel']:visible [data-testid='stMetric']"),
]


@pytest.mark.parametrize(("query", "target"), LINKS, ids=[q.split("&")[0] for q, _ in LINKS])
def test_a_deep_link_puts_its_item_within_two_screens_of_a_phone(app_url, new_page, query, target):
    p = new_page(scheme="dark", width=390, height=844)
    p.goto(f"{app_url}/learn?{query}")
    wait_for_app(p)
    expect(p.get_by_text(teacher.FOLDED)).to_be_visible()  # the intro and the plan are folded
    expect(p.get_by_text("For the teacher: a 50-minute")).to_have_count(0)
    expect(p.locator(target).first).to_be_visible()
    y = _top(p, target)
    assert y < 1.5 * 844, f"{query}: the linked item starts at y = {y:.0f} (two screens are {2 * 844})"
    assert_view_looks_right(p, "dark", 390, f"learn ?{query} 390")
    p.locator(target).first.scroll_into_view_if_needed()
    shot(p, f"review-learn-{query.split('&')[0].replace('=', '-')}-dark-390")


def test_a_deep_link_shows_the_tabs_in_the_first_screen_at_1280(app_url, new_page):
    p = new_page(scheme="light", width=1280, height=720)
    p.goto(f"{app_url}/learn?tab=cards&item=human")
    wait_for_app(p)
    tabs = _top(p, f"{MAIN} [data-testid='stTabs'] [role='tab']")
    card = _top(p, ".st-key-card-human")
    assert tabs < 400, f"the tab bar starts at y = {tabs:.0f}"
    assert card < 720, f"the linked card starts at y = {card:.0f}, below the fold"
    shot(p, "review-learn-cards-human-light-1280")
    p.goto(f"{app_url}/learn")  # the page's own start still opens with the intro
    wait_for_app(p)
    expect(p.locator(MAIN)).to_contain_text("BLEU (Papineni et al., 2002) scores a machine translation")


# --- item 13: the reveal's reference tags stay on their word's line ----------------------------------------------
_TAG_LINES = """() => [...document.querySelectorAll('[data-testid="stMain"] .bleu-tok.matched sub')].map((sub) => {
  const keep = sub.parentElement;                       // the word and its tags
  const word = keep.firstChild;                         // the word's text node
  const r = document.createRange(); r.selectNodeContents(word);
  const rects = r.getClientRects(); const w = rects[rects.length - 1];
  // every line box of the tags (a tag list broken over two lines has two: "R1" here, "R2 R3" on the next)
  const s = [...sub.getClientRects()];
  return {word: word.textContent, tags: sub.textContent, wordTop: w.top, wordBottom: w.bottom,
          subTop: Math.min(...s.map(b => b.top)), subBottom: Math.max(...s.map(b => b.bottom)), lines: s.length};
})"""


def test_the_reveals_tags_stay_beside_their_word_at_390(app_url, new_page):
    p = new_page(scheme="dark", width=390, height=844)
    p.goto(f"{app_url}/learn?step=opening")
    wait_for_app(p)
    p.locator(f"{MAIN} [data-testid='stRadio']").get_by_text("Candidate 1", exact=True).click()
    rerun_settled(p)
    p.get_by_role("button", name="Reveal what each shares with the references").click()
    rerun_settled(p)
    for width in range(330, 431, 4):  # phones' widths: the lines break at other words on each
        p.set_viewport_size({"width": width, "height": 844})
        p.wait_for_function("(w) => window.innerWidth === w", arg=width)
        p.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")  # laid out, drawn
        tags = p.evaluate(_TAG_LINES)
        assert len(tags) >= 6, tags  # Candidate 1's runs alone carry six
        for t in tags:
            # the same line: the tag's box lies within the word's line box (a wrapped tag starts a line lower)
            assert t["subTop"] < t["wordBottom"], (width, t)
            assert t["subBottom"] > t["wordTop"], (width, t)
            assert t["lines"] == 1, (width, t)
            assert t["subBottom"] <= t["wordBottom"] + 12, (width, t)  # no part of the tags a line lower
    p.set_viewport_size({"width": 390, "height": 844})
    p.locator(f"{MAIN} .bleu-tok.matched").first.scroll_into_view_if_needed()
    shot(p, "review-reveal-dark-390")


# --- item 20: presenter mode starts its content higher, with big radio circles ----------------------------------
_PRESENT = """() => {
  const main = document.querySelector('[data-testid="stMain"]');
  const h2 = main.querySelector('h2');
  const conts = [...main.querySelectorAll('[data-testid="stElementContainer"]')];
  const i = conts.findIndex(c => c.contains(h2));
  const after = conts.slice(i + 1).find(c => c.getBoundingClientRect().height > 5);
  const circle = main.querySelector('[data-testid="stRadioOption"] > div > div:first-child');
  return {h1: !!main.querySelector('h1'), content: after.getBoundingClientRect().top,
          circle: circle ? circle.getBoundingClientRect().width : null};
}"""


def test_presenter_mode_starts_the_steps_content_higher_at_1280x720(app_url, new_page):
    p = new_page(scheme="light", width=1280, height=720)
    p.goto(f"{app_url}/learn?present=1&step=opening")
    wait_for_app(p)
    p.locator(f"{MAIN} [data-testid='stRadioOption']").first.wait_for(state="attached")  # the step's vote, drawn
    m = p.evaluate(_PRESENT)
    assert not m["h1"], "the page title is still shown in presenter mode"
    # measured before the fix: the step's first paragraph at y = 375 (page title, picker, heading)
    assert m["content"] < 300, m
    assert m["circle"] is not None, m
    assert m["circle"] >= 24, m  # 16 px before, beside 26 px text
    picker = p.locator(f"{MAIN} [data-testid='stButton']").first.bounding_box()
    header = p.locator("[data-testid='stHeader']").bounding_box()
    assert picker is not None
    assert header is not None
    assert picker["y"] >= header["y"] + header["height"] - 1, (picker, header)  # not under the top bar
    shot(p, "review-present0-light-1280")


# --- item 9: the Sentence page's log-scale chart with p2-p4 = 0 -------------------------------------------------
_DECAY = """() => {
  const chart = [...document.querySelectorAll('[data-testid="stMain"] [data-testid="stVegaLiteChart"]')]
    .find(c => (c.querySelector('.role-title-text') || {}).textContent === 'Precision decay across n (log scale)');
  if (!chart) return null;
  const box = chart.getBoundingClientRect();
  const title = chart.querySelector('.role-title-text').getBoundingClientRect();
  const yAxis = [...chart.querySelectorAll('g.role-axis')].find(a => a.getAttribute('aria-label')?.includes('Y-axis'));
  const grid = yAxis ? yAxis.querySelector('.role-axis-domain, .role-axis-tick') : null;
  const plot = [...chart.querySelectorAll('.role-axis-grid')].map(g => g.getBoundingClientRect());
  const texts = [...chart.querySelectorAll('.role-mark text')].map(t => t.textContent);
  return {titleInside: title.top >= box.top - 6 && title.bottom <= box.bottom + 1 && title.height > 0,
          plotHeight: Math.max(0, ...plot.map(r => r.height)), texts, axis: !!grid};
}"""


@pytest.mark.parametrize(("scheme", "width"), [("light", 1280), ("dark", 390)])
def test_the_repetition_samples_decay_chart_keeps_its_height_title_and_zeros(app_url, new_page, scheme, width):
    p = new_page(scheme=scheme, width=width, height=900 if width > 600 else 844)
    hyp, ref = "the the the the", "the cat is on the mat"
    p.goto(f"{app_url}/sentence?preset=paper&hyp={quote_plus(hyp)}&ref={quote_plus(ref)}")
    wait_for_app(p)
    p.wait_for_function(f"() => ({_DECAY})() && ({_DECAY})().texts.length >= 3", timeout=60_000)
    d = p.evaluate(_DECAY)
    assert d["titleInside"], d
    assert d["plotHeight"] > 80, d  # about 45 px before (its gridlines' span; 99 px in a 220 px chart now)
    for frac in ("p2 = 0/3", "p3 = 0/2", "p4 = 0/1"):  # the zero orders on the floor with their fraction
        assert frac in d["texts"], d
    assert_view_looks_right(p, scheme, width, f"sentence repetition {scheme} {width}")
    p.get_by_text("Precision per order and the brevity penalty").scroll_into_view_if_needed()
    shot(p, f"review-sentence-repetition-{scheme}-{width}")


# --- item 18: the delete-reference button is whole, and only offered with two references ----------------------
def test_delete_reference_is_whole_and_only_with_two_references(app_url, new_page):
    p = new_page(scheme="light", width=1280, height=900)
    p.goto(f"{app_url}/sentence?hyp=the+cat&ref=the+cat+sat")
    wait_for_app(p)
    delete = p.locator(f"{MAIN} .st-key-sentence-del_ref-0, {MAIN} .st-key-sentence-del_ref-1")
    expect(delete).to_have_count(0)  # one reference: nothing to delete
    p.get_by_role("button", name="Add a reference").click()
    rerun_settled(p)
    expect(delete).to_have_count(2)
    for i in range(2):
        button = delete.nth(i).locator("button:visible").first
        icon = button.locator("[data-testid='stIconMaterial']").first
        b, ic = button.bounding_box(), icon.bounding_box()
        column = delete.nth(i).locator("xpath=ancestor::*[@data-testid='stColumn'][1]").bounding_box()
        assert b is not None
        assert ic is not None
        assert column is not None
        # the icon inside its button and the button inside its column: nothing cut off
        assert ic["x"] >= b["x"] - 0.5, (ic, b)
        assert ic["x"] + ic["width"] <= b["x"] + b["width"] + 0.5, (ic, b)
        assert b["x"] >= column["x"] - 0.5, (b, column)
        assert b["x"] + b["width"] <= column["x"] + column["width"] + 0.5, (b, column)
        assert ic["width"] >= 16, ic
    delete.nth(1).locator("button:visible").first.click()
    rerun_settled(p)
    expect(delete).to_have_count(0)
    shot(p, "review-sentence-refs-light-1280")


# --- item 14: the lab starts with its controls -------------------------------------------------------------------
def test_the_lab_shows_its_controls_first_and_nltk_only_for_nltk(app_url, new_page):
    p = new_page(scheme="dark", width=390, height=844)
    p.goto(f"{app_url}/learn?tab=lab&variant=sentence_bp")
    wait_for_app(p)
    lab = p.locator(f"{MAIN} [data-testid='stTabs'] [role='tabpanel']:visible")
    header = lab.locator("h2").first
    toggle = lab.get_by_text("Prediction game: hide each number")
    h, t = header.bounding_box(), toggle.bounding_box()
    assert h is not None
    assert t is not None
    assert t["y"] - (h["y"] + h["height"]) < 250, (h, t)  # about 1.5 screens of text before
    expect(lab.get_by_text("NLTK smoothing (SmoothingFunction)")).to_have_count(0)
    expect(lab.locator("[data-testid='stExpander']").get_by_text("How the lab works", exact=True)).to_be_visible()
    shot(p, "review-lab-dark-390")
