"""One round of the lab's prediction game in Chromium (issue 20; teaching-text proposal G): a link opens the
per-sentence brevity penalty on its built-in corpus, the number is hidden, the student picks "lower BLEU", reveals,
and reads the verdict with both numbers and the table of every variant: light at 1280x720, dark on a phone."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from bleu_app.lessons import lab
from bleu_core.config import BleuConfig
from bleu_core.teaching.variants import VARIANTS, run_variant
from tests.browser.conftest import SHOTS, assert_view_looks_right, rerun_settled, wait_for_app

MAIN = "[data-testid='stMain']"


def _shot(p, locator, name: str) -> None:
    """A screenshot of the window with ``locator`` scrolled into it (the page scrolls inside stMain, so a full-page
    shot shows only the top)."""
    locator.scroll_into_view_if_needed()
    SHOTS.mkdir(parents=True, exist_ok=True)
    p.screenshot(path=str(SHOTS / f"{name}.png"))


@pytest.mark.parametrize(("scheme", "width", "height"), [("light", 1280, 720), ("dark", 390, 844)])
def test_one_round_of_the_prediction_game(app_url, new_page, scheme, width, height):
    corpus = lab.CORPORA["short_bp"]
    want = run_variant(
        "sentence_bp", list(corpus.hyps), [list(r) for r in corpus.refs], BleuConfig.paper(), nltk_smoothing=0
    )
    p = new_page(scheme=scheme, width=width, height=height)
    p.goto(f"{app_url}/learn?tab=lab&variant=sentence_bp")
    wait_for_app(p)
    game = p.locator(".st-key-lab-game")
    expect(game).to_be_visible()
    expect(game).to_contain_text("Will this mistake raise, lower or not change BLEU on this corpus?")
    label = VARIANTS["sentence_bp"].label
    metric = p.locator(f"{MAIN} [data-testid='stMetric']").filter(has_text=label)
    expect(metric.locator("[data-testid='stMetricValue']")).to_have_text("?")
    expect(p.locator(MAIN)).to_contain_text(f"{len(VARIANTS)} rounds on this corpus still to answer")
    expect(game.get_by_role("button", name="Reveal")).to_be_disabled()
    _shot(p, metric, f"learn-lab-predict-{scheme}-{width}")
    game.get_by_text("lower BLEU", exact=True).click()
    rerun_settled(p)
    reveal = p.locator(".st-key-lab-game").get_by_role("button", name="Reveal")
    expect(reveal).to_be_enabled()
    reveal.click()
    rerun_settled(p)
    expect(p.locator(MAIN)).to_contain_text(
        f"Right: on this corpus it lowers BLEU ({want.score:.2f} against the correct {want.correct:.2f})."
    )
    expect(metric.locator("[data-testid='stMetricValue']")).to_have_text(f"{want.score:.2f}")
    expect(p.locator(".st-key-lab-game")).to_have_count(0)
    expect(p.locator(MAIN)).to_contain_text("Correct BLEU (every variant changes one thing in it)")
    # the table shows the round just answered, not the next rounds' numbers (issue 34, A11)
    expect(p.locator(MAIN)).to_contain_text(f"{len(VARIANTS) - 1} rounds on this corpus still to answer")
    assert_view_looks_right(p, scheme, width, f"lab {scheme} {width}")
    _shot(p, p.locator(MAIN).get_by_text("Right: on this corpus"), f"learn-lab-revealed-{scheme}-{width}")
