"""Presenter mode in Chromium (issue 20.5): what AppTest cannot see — the type a projector shows, the collapsed
sidebar and the chart text — measured in the DOM at 1280x720, light and dark, and on a phone."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from bleu_app.ui.learn import steps
from tests.browser.conftest import rerun_settled, shot, wait_for_app

MAIN = "[data-testid='stMain']"
FONT = "el => parseFloat(getComputedStyle(el).fontSize)"


def _starts(key: str) -> re.Pattern[str]:
    """A step's heading, as a pattern of the text it starts with."""
    return re.compile(rf"^\s*{re.escape(steps.heading(steps.get(key)))}")


@pytest.mark.parametrize(
    ("scheme", "width", "height"), [("light", 1280, 720), ("dark", 1280, 720), ("light", 390, 844)]
)
def test_presenter_mode_is_large_and_steps_with_buttons(app_url, new_page, scheme, width, height):
    p = new_page(scheme=scheme, width=width, height=height)
    p.goto(f"{app_url}/learn?present=1&step=brevity")
    wait_for_app(p)
    p.wait_for_selector(f"{MAIN} h2")
    assert p.inner_text(f"{MAIN} h2").strip() == steps.heading(steps.get("brevity"))
    body = p.eval_on_selector(f"{MAIN} [data-testid='stMarkdownContainer'] p", FONT)
    assert body >= 26
    sidebar = p.query_selector("[data-testid='stSidebar']")
    assert sidebar is None or sidebar.get_attribute("data-collapsed") == "true"
    p.wait_for_selector(f"{MAIN} .vega-embed :is(svg.marks, canvas)")  # Vega has drawn (an SVG, or a canvas)
    sizes = p.eval_on_selector_all(
        f"{MAIN} .vega-embed svg text",
        "els => els.map(e => parseFloat(e.getAttribute('font-size') || getComputedStyle(e).fontSize))",
    )
    if sizes:  # svg renderer: every axis label and title at least 18 px
        assert min(sizes) >= 18, sizes
    shot(p, f"learn-present-{scheme}-{width}")
    p.get_by_role("button", name="Next →").click()
    rerun_settled(p)
    expect(p.locator(f"{MAIN} h2").first).to_have_text(
        re.compile(rf"^\s*{re.escape(steps.heading(steps.get('logdomain')))}")
    )
    expect(p).to_have_url(re.compile("step=logdomain"))


def test_arrow_keys_step_through_the_lecture_but_not_while_typing(app_url, new_page):
    p = new_page(scheme="light", width=1280, height=720)
    p.goto(f"{app_url}/learn?present=1&step=brevity")
    wait_for_app(p)
    p.wait_for_selector(f"{MAIN} h2")
    p.wait_for_function("() => !!window.document.bleuStepKeys", timeout=60_000)
    p.evaluate("() => document.activeElement && document.activeElement.blur()")  # the page has focus, no field
    p.keyboard.press("ArrowRight")
    p.wait_for_function("() => location.search.includes('step=logdomain')", timeout=60_000)
    rerun_settled(p)
    expect(p.locator(f"{MAIN} h2").first).to_have_text(
        re.compile(rf"^\s*{re.escape(steps.heading(steps.get('logdomain')))}")
    )
    p.keyboard.press("PageUp")  # a presentation clicker's "back"
    p.wait_for_function("() => location.search.includes('step=brevity')", timeout=60_000)
    rerun_settled(p)
    expect(p.locator(f"{MAIN} h2").first).to_have_text(
        re.compile(rf"^\s*{re.escape(steps.heading(steps.get('brevity')))}")
    )
    # in the step picker's text field an arrow key moves the caret, not the lecture
    p.locator(f"{MAIN} [data-testid='stSelectbox'] input").first.focus()
    p.keyboard.press("ArrowRight")
    rerun_settled(p)
    assert "step=brevity" in p.url


# Per Vega chart: the plot's height (its grid) and how far the title's box starts above the SVG's top edge
# (the SVG clips what lies outside it), as a share of the title's own height.
_CHART_FIT = r"""() => [...document.querySelectorAll(
    '[data-testid="stMain"] [data-testid="stVegaLiteChart"] svg.marks')].map((svg) => {
    const top = svg.getBoundingClientRect().top;
    const grid = [...svg.querySelectorAll('.role-axis-grid')].map(g => g.getBoundingClientRect().height);
    const title = svg.querySelector('.role-title-text');
    const box = title ? title.getBoundingClientRect() : null;
    return {plot: Math.max(0, ...grid), cut: box ? Math.max(0, top - box.top) / box.height : 0,
            title: title ? title.textContent : ''};
  })"""


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_presenter_mode_charts_keep_their_plot_and_title(app_url, new_page, scheme):
    """At 1280x720 in presenter mode the larger chart text once squeezed the brevity-penalty and precision-decay
    plots into a strip about 75 px tall and cut their titles in half at the top; the metric values stayed body
    size (the body rule outranked theirs) and the step list and reference labels stayed at 13 px."""
    p = new_page(scheme=scheme, width=1280, height=720)
    for step, n_charts in (("brevity", 1), ("decay", 2)):
        p.goto(f"{app_url}/learn?present=1&step={step}")
        wait_for_app(p)
        p.wait_for_function(
            """(n) => [...document.querySelectorAll('[data-testid="stMain"] svg.marks')]
                 .filter(s => s.querySelector('.role-axis-grid')).length >= n""",
            arg=n_charts,
            timeout=60_000,
        )
        charts = p.evaluate(_CHART_FIT)
        assert len(charts) == n_charts, charts
        for chart in charts:
            assert chart["plot"] >= 150, (step, chart)  # the specs ask for 220 px
            assert chart["cut"] < 0.25, (step, chart)  # the glyphs sit in the lower part of the box
        shot(p, f"learn-present-{scheme}-1280-step{step}")
    p.goto(f"{app_url}/learn?present=1&step=brevity")
    wait_for_app(p)
    expect(p.locator(f"{MAIN} [data-testid='stMetricValue'] p")).to_have_count(4)  # c, r, BP and BLEU
    values = p.eval_on_selector_all(
        f"{MAIN} [data-testid='stMetricValue'] p", "els => els.map(e => parseFloat(getComputedStyle(e).fontSize))"
    )
    assert len(values) == 4, values
    assert min(values) >= 40, values
    assert p.eval_on_selector(f"{MAIN} [data-testid='stSelectbox'] input", FONT) >= 24
    p.goto(f"{app_url}/learn?present=1&step=recall")  # a slide with the references' labels (Example 4's three)
    wait_for_app(p)
    expect(p.locator(f"{MAIN} .bleu-reflabel")).to_have_count(3)
    labels = p.eval_on_selector_all(
        f"{MAIN} .bleu-reflabel", "els => els.map(e => parseFloat(getComputedStyle(e).fontSize))"
    )
    assert len(labels) == 3, labels
    assert min(labels) >= 18, labels


_CONTRAST = r"""() => {
  const rgb = (c) => c.match(/[\d.]+/g).map(Number);
  const lum = (c) => { const [r, g, b] = rgb(c).slice(0, 3).map((v) => { v /= 255;
    return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b; };
  const bg = lum(getComputedStyle(document.querySelector('[data-testid="stApp"]')).backgroundColor);
  const sel = '[data-testid="stMain"] .vega-embed :is(.role-axis-label, .role-axis-title, .role-legend-label, '
    + '.role-legend-title, .role-title) text';
  return [...document.querySelectorAll(sel)].map((t) => {
    const fg = lum(getComputedStyle(t).fill);
    return [t.textContent, (Math.max(fg, bg) + 0.05) / (Math.min(fg, bg) + 0.05)];
  });
}"""


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_presenter_mode_chart_text_has_contrast(app_url, new_page, scheme):
    # issue 20.5: contrast at least 4.5:1 everywhere, chart axis text included (it was Vega's grey, 3.7:1 on white)
    p = new_page(scheme=scheme, width=1280, height=720)
    p.goto(f"{app_url}/learn?present=1&step=brevity")
    wait_for_app(p)
    p.wait_for_selector(f"{MAIN} .vega-embed svg .role-axis-label text")
    ratios = p.evaluate(_CONTRAST)
    assert len(ratios) > 5
    low = [(t, round(r, 2)) for t, r in ratios if r < 4.5]
    assert not low, low
