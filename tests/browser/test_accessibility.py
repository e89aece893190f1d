"""axe-core finds no serious or critical WCAG 2.0/2.1/2.2 A or AA violation on any page, light and dark (issue 34).

axe-core's axe.min.js comes from the `axe-playwright-python` test package and is injected by the test into the page
(the app itself loads nothing from outside 127.0.0.1). A violation is printed as its rule id, impact and the first
elements' selectors, so that a failure says where to look.
"""

from __future__ import annotations

from pathlib import Path

import axe_playwright_python
import pytest

from tests.browser.conftest import wait_for_app

AXE_JS = Path(axe_playwright_python.__file__).with_name("axe.min.js")
TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]
BLOCKING = {"serious", "critical"}
MAIN = "[data-testid='stMain']"
CHARTS = f"{MAIN} [data-testid='stVegaLiteChart']"

# (name, path, how many charts the page draws at least): Compare and Corpus open on the demo corpus
PAGES = [
    ("learn", "/", 1),
    ("learn-present", "/learn?present=1&step=clipping", 0),
    ("sentence", "/sentence", 3),
    ("corpus", "/corpus", 3),
    ("compare", "/compare", 3),
    ("class", "/class", 0),
]

# (rule id, a CSS selector axe reports) of violations that come from Streamlit's own widgets and that the app
# cannot change; each is excluded alone, with its reason
EXCLUDED: set[tuple[str, str]] = set()


def _drawn(p, name: str, scheme: str, charts: int) -> None:
    """Wait until the page's content is there in the theme asked for: its charts drawn by Vega (after their element
    appears)."""
    wait_for_app(p)
    p.wait_for_function(  # the app follows the system setting: a dark run must be measured on a dark page
        """(dark) => { const c = getComputedStyle(document.querySelector("[data-testid='stApp']")).backgroundColor
             .match(/\\d+/g).slice(0, 3).map(Number); return ((c[0] + c[1] + c[2]) / 3 < 80) === dark; }""",
        arg=scheme == "dark",
        timeout=30_000,
    )
    if name == "class":
        p.get_by_role("button", name="Create the room").wait_for()
    if charts:
        p.wait_for_function(
            # a chart in a tab not shown (Part II's, on Learn) is drawn when its tab opens: only the shown ones
            """([sel, n]) => { const cs = [...document.querySelectorAll(sel)];
                 return cs.length >= n && cs.filter(c => c.checkVisibility()).every(
                   c => c.querySelector('svg.marks .role-axis-label text')); }""",
            arg=[CHARTS, charts],
            timeout=60_000,
        )


def _axe(p) -> list[dict]:  # type: ignore[type-arg]
    """axe-core's violations on the page, WCAG A and AA rules only."""
    p.evaluate(AXE_JS.read_text(encoding="utf-8"))
    result = p.evaluate(
        "(tags) => axe.run(document, {runOnly: {type: 'tag', values: tags}, resultTypes: ['violations']})",
        TAGS,
    )
    return list(result["violations"])


def _blocking(violations: list[dict]) -> list[str]:  # type: ignore[type-arg]
    """One line per serious or critical violation not excluded: rule id, impact, the first targets."""
    lines = []
    for v in violations:
        if v["impact"] not in BLOCKING:
            continue
        targets = [" ".join(map(str, n["target"])) for n in v["nodes"]]
        kept = [t for t in targets if (v["id"], t) not in EXCLUDED]
        if kept:
            lines.append(f"{v['id']} ({v['impact']}, {len(kept)} elements): {kept[:3]} {v['help']}")
    return lines


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize(("name", "path", "charts"), PAGES, ids=[pg[0] for pg in PAGES])
def test_no_serious_wcag_violation(app_url, new_page, scheme, name, path, charts):
    p = new_page(scheme=scheme, width=1280, height=900)
    p.goto(f"{app_url}{path}")
    _drawn(p, name, scheme, charts)
    violations = _axe(p)
    blocking = _blocking(violations)
    assert not blocking, f"{path} ({scheme}):\n" + "\n".join(blocking)


def test_blocking_keeps_serious_and_drops_minor():
    """The filter itself: a serious violation is reported with its selector, a minor one is not."""
    violations = [
        {"id": "color-contrast", "impact": "serious", "help": "h", "nodes": [{"target": ["#a"]}]},
        {"id": "region", "impact": "moderate", "help": "h", "nodes": [{"target": ["#b"]}]},
    ]
    lines = _blocking(violations)
    assert len(lines) == 1, lines
    assert "color-contrast (serious" in lines[0]
    assert "#a" in lines[0]
