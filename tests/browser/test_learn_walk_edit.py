"""Direct manipulation inside the walk (issue 34), in Chromium: on the clipping slide at 1280x720 a lecturer types
a candidate into the box in the figure, presses Enter, and the clipping table and p₁ change in place; Escape gives
the keys back to the slides."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from bleu_app.ui.learn import steps
from bleu_core.config import BleuConfig
from bleu_core.teaching.explain import explain_segment
from bleu_core.teaching.paper import EXAMPLE_2
from tests.browser.conftest import rerun_settled, shot, wait_for_app

MAIN = "[data-testid='stMain']"
# the slide's clipping table, row by row: the n-gram (its header cell) and its numbers
_ROWS = """() => [...document.querySelectorAll('[data-testid="stMain"] [data-testid="stTable"] tbody tr')]
  .map(tr => [...tr.querySelectorAll('th, td')].map(c => c.innerText.trim()))"""


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
