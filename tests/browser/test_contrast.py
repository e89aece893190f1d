"""Every text the app shows reaches 4.5:1 (WCAG AA, 1.4.3) against what is painted under it, in the light and the
dark theme at 1280x900, in normal mode (presenter mode: test_learn_present_tabs.py, whose measure this reuses).

Measured in the DOM: the main area's and the sidebar's text (captions, buttons, a multiselect's chips, inputs) over
its background, and every Vega chart's text (axis and legend labels, values written beside or on marks) over the
chart's background and the shapes under it. A disabled control is exempt, as WCAG exempts inactive components;
text hidden by design (a select slider's end values until hovered: opacity 0) is not shown, so not measured.
What was under 4.5:1 before: frame.CONTRAST_CSS and docs/decisions/052-contrast-in-both-themes.md."""

from __future__ import annotations

import pytest

from tests.browser.conftest import shot, wait_for_app
from tests.browser.test_learn_present_tabs import _MEASURE, CONTRAST, _faint

MAIN = "[data-testid='stMain']"
SIDEBAR = "[data-testid='stSidebar']"
CHARTS = f"{MAIN} [data-testid='stVegaLiteChart']"

# (name, path, how many charts the page draws at least): Compare and Corpus open on the demo corpus
PAGES = [
    ("learn", "/", 1),
    ("learn-part2", "/learn?tab=part2", 1),  # Part II's systems chart (issue 34, A13), drawn when its tab is shown
    ("sentence", "/sentence", 3),
    ("corpus", "/corpus", 3),
    ("compare", "/compare", 3),
    ("class", "/class", 0),
]


def _charts_drawn(p, at_least: int) -> None:
    """Wait until the page has its charts and Vega drew every one's text (it draws after the element appears)."""
    p.wait_for_function(  # a chart in a tab not shown (Part II's, on Learn) is drawn when its tab opens
        """([sel, n]) => { const cs = [...document.querySelectorAll(sel)].filter(c => c.checkVisibility());
             return cs.length >= n && cs.every(c => c.querySelector('svg.marks .role-axis-label text')); }""",
        arg=[CHARTS, at_least],
        timeout=60_000,
    )


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize(("name", "path", "charts"), PAGES, ids=[pg[0] for pg in PAGES])
def test_every_text_has_contrast(app_url, new_page, scheme, name, path, charts):
    p = new_page(scheme=scheme, width=1280, height=900)
    p.goto(f"{app_url}{path}")
    wait_for_app(p)
    if name == "class":
        p.get_by_role("button", name="Create the room").wait_for()
    if charts:
        _charts_drawn(p, charts)
    texts = p.evaluate(_MEASURE) + p.evaluate(_MEASURE, SIDEBAR)
    assert len(texts) > 15, texts
    assert sum(t["chart"] for t in texts) >= 5 * charts, "the charts' text was not measured"
    faint = _faint(texts)
    assert not faint, f"under {CONTRAST}:1 on {path} ({scheme}): {faint}"
    if name in ("compare", "class"):  # the whole page in one image (the main area scrolls)
        height = p.evaluate(f"() => document.querySelector({MAIN!r}).scrollHeight")
        p.set_viewport_size({"width": 1280, "height": height})
        if charts:
            _charts_drawn(p, charts)
        shot(p, f"contrast-{name}-{scheme}-1280")
