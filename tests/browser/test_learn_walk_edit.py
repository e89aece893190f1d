"""Direct manipulation inside the walk (issue 34), in Chromium: on the clipping slide at 1280x720 a lecturer types
a candidate into the box in the figure, presses Enter, and the clipping table and p₁ change in place; Escape gives
the keys back to the slides."""

from __future__ import annotations

import re

from playwright.sync_api import TimeoutError as PlaywrightTimeout, expect

from bleu_app.ui.learn import steps
from bleu_core.config import BleuConfig
from bleu_core.teaching.explain import explain_segment
from bleu_core.teaching.paper import EXAMPLE_2
from tests.browser.conftest import rerun_settled, shot, wait_for_app

MAIN = "[data-testid='stMain']"
# the slide's clipping table, row by row: the n-gram (its header cell) and its numbers
_ROWS = """() => [...document.querySelectorAll('[data-testid="stMain"] [data-testid="stTable"] tbody tr')]
  .map(tr => [...tr.querySelectorAll('th, td')].map(c => c.innerText.trim()))"""


_COUNTED = """() => [...document.querySelectorAll('[data-testid="stMain"] [data-testid="stCaptionContainer"]')]
  .map(e => e.innerText).find(t => t.includes('words counted')) || ''"""


def test_typing_a_candidate_on_the_clipping_slide_updates_its_table(app_url, new_page):
    p = new_page(scheme="light", width=1280, height=720)
    p.goto(f"{app_url}/learn?present=1&step=clipping")
    wait_for_app(p)
    expect(p.locator(f"{MAIN} h2").first).to_have_text(
        re.compile(rf"^\s*{re.escape(steps.heading(steps.get('clipping')))}")
    )
    box = p.get_by_label("The candidate: edit it", exact=True)
    expect(box).to_have_value(EXAMPLE_2.candidates[0])
    expect(p.locator(f"{MAIN} [data-testid='stMetricValue']").first).to_have_text("2/7")
    typed = "the cat the cat"
    box.fill(typed)
    box.press("Enter")
    rerun_settled(p)
    e = explain_segment(typed, EXAMPLE_2.references, BleuConfig.paper())  # the table's oracle
    want = [
        [" ".join(r.ngram), str(r.count), *map(str, r.ref_counts), str(r.max_ref_count), str(r.clipped)]
        for r in e.orders[0].rows
    ]
    assert want == [["the", "2", "2", "1", "2", "2"], ["cat", "2", "1", "1", "1", "1"]]  # by hand: min(Count, Max)
    rows = f"(want) => JSON.stringify(({_ROWS})()) === JSON.stringify(want)"
    p.wait_for_function(rows, arg=want, timeout=60_000)  # the table changed in place
    expect(p.locator(f"{MAIN} [data-testid='stMetricValue']").first).to_have_text(
        f"{e.orders[0].matches}/{e.orders[0].total}"
    )
    shot(p, "learn-present-clipping-edited")
    box.press("Escape")  # the clicker's keys are the slides' again
    p.keyboard.press("ArrowRight")
    p.wait_for_function("() => location.search.includes('step=bigrams')", timeout=60_000)
    # back again: the typed candidate is still there, also after a rerun (the box had come back empty in the
    # browser, and the next rerun took the empty box for the text: "no words to score")
    rerun_settled(p)
    p.wait_for_function("() => document.bleuStep === 'bigrams'", timeout=60_000)
    p.keyboard.press("ArrowLeft")
    p.wait_for_function("() => location.search.includes('step=clipping')", timeout=60_000)
    rerun_settled(p)
    expect(box).to_have_value(typed)
    p.locator("[class*='st-key-learn-build_prev'] button").first.click()  # a rerun: one word back
    rerun_settled(p)
    p.wait_for_function(f"() => ({_COUNTED})() === '3 of 4 words counted'", timeout=60_000)
    expect(box).to_have_value(typed)
    p.wait_for_function(rows, arg=[["the", "2", "2", "1", "2", "2"], ["cat", "1", "1", "1", "1", "1"]], timeout=60_000)


# what the slide showed, for a failure's message: a lost press and a stuck page look alike from outside
_SEEN = """() => { const m = document.querySelector('[data-testid="stMain"]'), a = document.activeElement;
  const app = document.querySelector('[data-testid="stApp"]').getAttribute('data-test-script-state');
  const key = (e) => e.closest('[class*="st-key-"]').className.match(/st-key-[\\w-]+/)[0];
  return {url: location.search, state: app, step: document.bleuStep,
    height: [m.scrollHeight, m.clientHeight, m.scrollTop],
    focus: a ? `${a.tagName} ${a.getAttribute('data-testid') || ''} ${a.getAttribute('aria-label') || ''}` : '',
    box: [...document.querySelectorAll('[data-testid="stMain"] input[type="text"]')].map(i => i.value),
    alerts: [...document.querySelectorAll('[data-testid="stMain"] [data-testid="stAlert"]')].map(e => e.innerText),
    buttons: [...document.querySelectorAll('[class*="st-key-learn-build_"], [class*="st-key-learn-step_"]')]
      .map(k => k.querySelector('button')).filter(b => b && b.checkVisibility())
      .map(b => key(b) + (b.disabled ? ' off' : ' on')),
    mark: (document.querySelector('[data-bleu-at]') || {getAttribute: () => null}).getAttribute('data-bleu-at'),
    counted: (COUNTED)(), keys: window.bleuKeyLog || []}; }""".replace("COUNTED", _COUNTED)
_LOG_KEYS = """() => { window.bleuKeyLog = [];
  const app = () => document.querySelector('[data-testid="stApp"]').getAttribute('data-test-script-state');
  const at = () => Math.round(performance.now());
  window.addEventListener('keydown', e => window.bleuKeyLog.push(`${at()} ${e.key} ${app()}`), true);
  window.addEventListener('click', e => { const k = e.target.closest && e.target.closest('[class*="st-key-"]');
    const name = k ? k.className.match(/st-key-[\\w-]+/)[0] : e.target.tagName;
    window.bleuKeyLog.push(`${at()} click ${name} ${app()}`); }, true);
}"""


def _await(p, condition: str, arg: object, what: str) -> None:
    """wait_for_function, failing with what the slide showed (issue 34: CI once saw a press change nothing)."""
    try:
        p.wait_for_function(condition, arg=arg, timeout=60_000)
    except PlaywrightTimeout:
        raise AssertionError(f"{what}: the slide showed {p.evaluate(_SEEN)}") from None


_HEIGHT = (
    "() => { const m = document.querySelector('[data-testid=\"stMain\"]'); return [m.scrollHeight, m.clientHeight]; }"
)
_USED = "() => document.querySelectorAll('[data-testid=\"stMain\"] .bleu-tok.used:not(.legend)').length"


def test_the_clicker_builds_the_clipping_word_by_word_then_moves_on(app_url, new_page):
    """Issue 34's build-up: coming forward, the clipping slide starts with no word counted; each → counts one word
    (the table grows, a reference copy is struck through, the third "the" finds none left); the press after the
    seventh word moves to the next slide; coming back, the slide is whole and ← takes one word back."""
    p = new_page(scheme="light", width=1280, height=720)
    p.goto(f"{app_url}/learn?present=1&step=plain")
    wait_for_app(p)
    p.wait_for_function("() => document.bleuStep === 'plain' && !!document.bleuStepKeys", timeout=60_000)
    p.evaluate(_LOG_KEYS)
    p.keyboard.press("ArrowRight")
    p.wait_for_function("() => location.search.includes('step=clipping')", timeout=60_000)
    p.wait_for_function(f"() => ({_COUNTED})() === '0 of 7 words counted'", timeout=60_000)
    p.wait_for_function("() => document.bleuStep === 'clipping'", timeout=60_000)
    for k in range(1, 8):
        p.keyboard.press("PageDown" if k % 2 else "ArrowRight")  # a clicker and the keyboard alike
        counted = f"{k} of 7 words counted" if k < 7 else ""  # whole: the caption is Example 1's again
        _await(p, f"(c) => ({_COUNTED})() === c", counted, f"press {k} of the build")
        rerun_settled(p)
        assert "step=clipping" in p.url, f"the lecture moved on at word {k}"
        clipped = min(k, 2)  # Count_clip of "the": Reference 1 holds two
        p.wait_for_function(
            f"(w) => JSON.stringify(({_ROWS})()) === JSON.stringify(w)",
            arg=[["the", str(k), "2", "1", "2", str(clipped)]],
            timeout=60_000,
        )
        assert p.evaluate(_USED) == (2 if k == 1 else 3)  # both references' "the", then Reference 1's second
        if k == 3:
            shot(p, "learn-present-clipping-build-3")
    expect(p.locator(f"{MAIN} [data-testid='stMetricValue']").first).to_have_text("2/7")
    height, screen = p.evaluate(_HEIGHT)
    assert height <= screen + 4, f"the built slide is {height} px tall on a {screen} px screen"
    p.keyboard.press("ArrowRight")  # every word counted: the next slide
    _await(p, "() => location.search.includes('step=bigrams')", None, "the press after the last word")
    rerun_settled(p)
    p.wait_for_function("() => document.bleuStep === 'bigrams'", timeout=60_000)
    p.keyboard.press("PageUp")  # back: the clipping whole, then one word back
    _await(p, "() => location.search.includes('step=clipping')", None, "PageUp back to the clipping")
    p.wait_for_function("() => document.bleuStep === 'clipping'", timeout=60_000)
    rerun_settled(p)
    expect(p.locator(f"{MAIN} [data-testid='stMetricValue']").first).to_have_text("2/7")  # whole again
    expect(p.locator("[class*='st-key-learn-build_next'] button").first).to_be_disabled()
    p.keyboard.press("ArrowLeft")
    _await(p, f"(c) => ({_COUNTED})() === c", "6 of 7 words counted", "← on the whole slide")
    assert "step=clipping" in p.url
