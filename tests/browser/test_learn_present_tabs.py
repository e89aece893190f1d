"""Presenter mode on every tab of the Learn page (issue 20.5): ``?present=1&tab=KEY`` projects that tab, and every
visible text on it is large and has contrast, measured in the DOM at 1280x720 in the light and the dark theme.

Sizes: body text (paragraphs, list items, radio options, buttons, inputs, expander headers, tables, code blocks,
alerts, metric labels) at least 26 px; secondary text (captions: signatures, links, attributions; the reference
labels beside highlighted words; a formula's sub- and superscripts) at least 20 px; chart text at least 18 px.
Contrast at least 4.5:1 for all of it, against the colour actually painted under it (alerts and code blocks have
their own background). A disabled control (Next on the last step, Reveal before a guess) is exempt from contrast,
as WCAG 1.4.3 exempts inactive components."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from playwright.sync_api import Page

from bleu_app.ui.learn import steps
from tests.browser.conftest import rerun_settled, shot, wait_for_app

MAIN = "[data-testid='stMain']"
BODY, SECONDARY, CHART, CONTRAST = 26, 20, 18, 4.5

# Every visible text of the main area (or of the area a selector given names): its font size, the contrast of its
# colour (alpha and opacity applied) over the colours painted under it, whether it is secondary text and whether it
# belongs to a disabled control; and every Vega chart's SVG text likewise, over the chart's shapes under it
# (tests/browser/test_contrast.py reuses it).
_MEASURE = r"""(root) => {
  const main = document.querySelector(root || '[data-testid="stMain"]');
  const parse = (c) => { const m = c.match(/[\d.]+/g); if (!m) return [0, 0, 0, 0];
    const v = m.map(Number); return v.length === 3 ? [...v, 1] : v; };
  const lum = ([r, g, b]) => { const f = (v) => { v /= 255;
    return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); };
    return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b); };
  const over = (top, under) => [0, 1, 2].map(i => top[i] * top[3] + under[i] * (1 - top[3])).concat([1]);
  const ratio = (a, b) => { const x = lum(a), y = lum(b); return (Math.max(x, y) + 0.05) / (Math.min(x, y) + 0.05); };
  const appBg = parse(getComputedStyle(document.querySelector('[data-testid="stApp"]')).backgroundColor);
  const under = (el) => {  // the background painted under el and the opacity of el and its ancestors
    const layers = []; let opacity = 1; let opaque = false;
    const r = el.getBoundingClientRect(), x = r.left + r.width / 2, y = r.top + r.height / 2;
    for (let e = el; e && e !== document.documentElement; e = e.parentElement) {
      const cs = getComputedStyle(e);
      opacity *= parseFloat(cs.opacity);
      const b = e.getBoundingClientRect();  // an ancestor's background is under el only if el is inside its box
      const inside = x >= b.left && x <= b.right && y >= b.top && y <= b.bottom;  // (a slider's value is above it)
      if (!inside) continue;
      const c = parse(cs.backgroundColor);
      if (c[3] > 0 && !opaque) layers.push(c);
      if (c[3] >= 1) opaque = true;
    }
    let bg = appBg; for (const l of layers.reverse()) bg = over(l, bg);
    return [bg, opacity];
  };
  const shown = (el) => { const r = el.getBoundingClientRect(); const cs = getComputedStyle(el);
    return r.width >= 1 && r.height >= 1 && cs.visibility !== 'hidden' && cs.display !== 'none'; };
  // a formula's sub- and superscripts (KaTeX draws them at 0.7 of the formula's size) count as secondary text
  const script = (el) => { const k = el.closest('.katex');
    return !!k && parseFloat(getComputedStyle(el).fontSize) < parseFloat(getComputedStyle(k).fontSize); };
  const els = new Set();
  const walker = document.createTreeWalker(main, NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) {
    const n = walker.currentNode;
    // KaTeX's zero-width struts are no text
    if (n.textContent.replace(/[\s\u200b]/g, '') && n.parentElement) els.add(n.parentElement);
  }
  main.querySelectorAll('input[type=text], input:not([type]), textarea').forEach(e => els.add(e));
  const out = [];
  for (const el of els) {
    if (el.closest('svg, style, script, noscript, iframe')) continue;
    const cs = getComputedStyle(el);
    if (!shown(el) || cs.fontFamily.includes('Material')) continue;  // icons are glyphs, not text
    const [bg, opacity] = under(el);
    if (opacity === 0) continue;  // hidden by design (a select slider's end values until it is hovered)
    const fg = parse(cs.color);
    out.push({
      text: (el.tagName === 'INPUT' || el.tagName === 'TEXTAREA' ? `<${el.tagName.toLowerCase()}>` : '') +
        el.textContent.trim().slice(0, 60),
      size: parseFloat(cs.fontSize),
      ratio: ratio(over([fg[0], fg[1], fg[2], fg[3] * opacity], bg), bg),
      chart: false,
      secondary: !!el.closest('[data-testid="stCaptionContainer"], .bleu-reflabel, .bleu-legend') || script(el),
      disabled: !!el.closest('button:disabled, [aria-disabled="true"], input:disabled'),
    });
  }
  // a chart's shapes with a fill (bars, cells, the plot's background), in paint order, with their boxes
  const shapes = new Map();
  const shapesOf = (svg) => {
    if (!shapes.has(svg)) shapes.set(svg, [...svg.querySelectorAll('path, rect, circle, ellipse, polygon')].map(m => {
      const cs = getComputedStyle(m);
      if (!cs.fill.startsWith('rgb')) return null;
      const c = parse(cs.fill);
      const alpha = c[3] * parseFloat(cs.fillOpacity) * parseFloat(cs.opacity);
      return alpha > 0 ? {m, box: m.getBoundingClientRect(), fill: [c[0], c[1], c[2], alpha]} : null;
    }).filter(Boolean));
    return shapes.get(svg);
  };
  for (const t of main.querySelectorAll('.vega-embed svg text')) {
    if (!t.textContent.trim() || t.getAttribute('opacity') === '0' || t.getBoundingClientRect().width < 1) continue;
    // chart text over the shapes painted before it under its centre (a value written on a bar or a cell)
    let [bg] = under(t.closest('.vega-embed'));
    const r = t.getBoundingClientRect(), x = r.left + r.width / 2, y = r.top + r.height / 2;
    for (const s of shapesOf(t.ownerSVGElement)) {
      if (x < s.box.left || x > s.box.right || y < s.box.top || y > s.box.bottom) continue;
      if (!(s.m.compareDocumentPosition(t) & Node.DOCUMENT_POSITION_FOLLOWING)) continue;  // painted after the text
      if (s.m.isPointInFill(new DOMPoint(x, y).matrixTransform(s.m.getScreenCTM().inverse()))) bg = over(s.fill, bg);
    }
    const fill = parse(getComputedStyle(t).fill);
    const alpha = parseFloat(t.getAttribute('fill-opacity') || t.getAttribute('opacity') || '1');
    out.push({text: t.textContent, size: parseFloat(t.getAttribute('font-size') || getComputedStyle(t).fontSize),
              ratio: ratio(over([fill[0], fill[1], fill[2], fill[3] * alpha], bg), bg),
              chart: true, secondary: false, disabled: false});
  }
  return out;
}"""


def _too_small(texts: list[dict]) -> list[tuple[str, float]]:  # type: ignore[type-arg]
    least = lambda t: CHART if t["chart"] else SECONDARY if t["secondary"] else BODY  # noqa: E731
    return sorted({(t["text"], t["size"]) for t in texts if t["size"] < least(t)})


def _faint(texts: list[dict]) -> list[tuple[str, float]]:  # type: ignore[type-arg]
    return sorted({(t["text"], round(t["ratio"], 2)) for t in texts if t["ratio"] < CONTRAST and not t["disabled"]})


def _pick(p: Page, within: str, nth: int) -> None:
    """Pick option ``nth`` of the last radio group under ``within`` (the group's inputs are visually hidden)."""
    p.locator(f"{within} [data-testid='stRadio']").last.get_by_role("radio").nth(nth).check(force=True)
    rerun_settled(p)


def _lab(p: Page) -> None:  # predict, reveal: the metric, the verdict, the variants table; the corpus opened
    _pick(p, MAIN, 0)
    p.get_by_role("button", name="Reveal").click()
    rerun_settled(p)
    p.get_by_text("Every variant at a glance").wait_for()


def _spot(p: Page) -> None:  # a wrong answer twice: the error, the answer and what decides it
    _pick(p, MAIN, 0)
    for _ in range(2):
        p.get_by_role("button", name="Check").click()
        rerun_settled(p)
    p.get_by_text("The answer:").wait_for()


def _quiz(p: Page) -> None:
    _pick(p, MAIN, 1)
    p.get_by_role("button", name="Check").click()
    rerun_settled(p)
    p.locator(f"{MAIN} [data-testid='stAlert']").first.wait_for()


def _nothing(p: Page) -> None:
    return None


# (what, query, the heading the screen starts with, what a teacher does on it before it is measured)
SCREENS: list[tuple[str, str, str, Callable[[Page], None]]] = [
    ("walk", "tab=walk", steps.heading(steps.get("opening")), _nothing),
    ("walk-chart", "step=brevity", steps.heading(steps.get("brevity")), _nothing),
    ("part2", "tab=part2", steps.heading(steps.get("evaluation")), _nothing),
    ("part2-blocks", "step=blocks", steps.heading(steps.get("blocks")), _nothing),
    ("cards", "tab=cards", steps.heading(steps.get("cards")), _nothing),
    ("lab", "tab=lab", "Misimplementation lab", _lab),
    ("compute", "tab=exercise", "Exercise", _nothing),
    ("spot", "tab=exercise&item=spot-geomean", "Exercise", _spot),
    ("quiz", "tab=exercise&item=quiz-addref", "Exercise", _quiz),
]


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize(("what", "query", "heading", "act"), SCREENS, ids=[s[0] for s in SCREENS])
def test_every_tab_is_large_and_legible_in_presenter_mode(app_url, new_page, scheme, what, query, heading, act):
    p = new_page(scheme=scheme, width=1280, height=720)
    p.goto(f"{app_url}/learn?present=1&{query}")
    wait_for_app(p)
    assert p.inner_text(f"{MAIN} h2").strip().startswith(heading), p.inner_text(f"{MAIN} h2")
    act(p)
    for summary in p.locator(f"{MAIN} [data-testid='stExpander'] summary").all():  # expanders' bodies too
        summary.click()
    if what == "walk-chart":  # Vega draws after its element appears: wait for the axes
        p.wait_for_selector(f"{MAIN} .vega-embed svg .role-axis-label text")
    texts = p.evaluate(_MEASURE)
    assert len(texts) > 15, texts
    assert not _too_small(texts), _too_small(texts)
    assert not _faint(texts), _faint(texts)
    # a data grid draws on a canvas at 14 px that no CSS reaches: presenter mode shows static tables instead
    assert p.locator(f"{MAIN} [data-testid='stDataFrame']").count() == 0
    if what == "spot":  # the excerpt is a code block: measured above, and present
        assert p.locator(f"{MAIN} [data-testid='stCode'] code").count() >= 1
    if what == "compute":
        assert p.locator(f"{MAIN} [data-testid='stTextInput'] input").count() == 1
    if what == "walk-chart":
        assert sum(t["chart"] for t in texts) > 5
    height = p.evaluate(f"() => document.querySelector({MAIN!r}).scrollHeight")
    p.set_viewport_size({"width": 1280, "height": height})  # the whole screen in one image (the main area scrolls)
    shot(p, f"learn-present-{what}-{scheme}-1280")


def test_the_step_list_reaches_every_tab_in_large_type(app_url, new_page):
    """The step picker lists the tabs after the lecture; its open list is as large as the rest, and Next goes on."""
    p = new_page(scheme="light", width=1280, height=720)
    last = steps.in_part("after")[-1].key  # the lecture's last step (After BLEU's, after Part II)
    p.goto(f"{app_url}/learn?present=1&step={last}")
    wait_for_app(p)
    p.locator(f"{MAIN} [data-testid='stSelectbox']").first.click()
    options = p.locator("[role='option']")
    options.first.wait_for()
    names = options.all_inner_texts()
    tabs = [steps.heading(steps.get(k)) for k in ("cards", "lab", "exercise")]
    assert [n for n in names if n in tabs] == tabs, names  # numbered after Part II (the registry's order)
    assert min(options.evaluate_all("els => els.map(e => parseFloat(getComputedStyle(e).fontSize))")) >= BODY
    p.keyboard.press("Escape")
    p.get_by_role("button", name="Next →").click()
    rerun_settled(p)
    assert p.inner_text(f"{MAIN} h2").strip() == tabs[0]
    assert "step=cards" in p.url


# The places where a heading's line breaks inside a word (a character on a lower line than the one before it, with
# no space between them).
_BROKEN_WORDS = r"""(h) => {
  const walker = document.createTreeWalker(h, NodeFilter.SHOW_TEXT);
  const chars = [];
  while (walker.nextNode()) {
    const n = walker.currentNode;
    for (let i = 0; i < n.length; i++) {
      const r = document.createRange(); r.setStart(n, i); r.setEnd(n, i + 1);
      const box = r.getBoundingClientRect();
      if (box.width > 0) chars.push([n.data[i], box.top]);
    }
  }
  const out = [];
  for (let i = 1; i < chars.length; i++)
    if (chars[i][1] > chars[i - 1][1] + 2 && !/\s/.test(chars[i - 1][0]) && !/\s/.test(chars[i][0]))
      out.push(chars.slice(Math.max(0, i - 6), i + 3).map(c => c[0]).join(''));
  return out;
}"""


@pytest.mark.parametrize("query", ["tab=lab", "tab=exercise&item=spot-geomean"])
def test_presenter_tabs_fit_a_phone(app_url, new_page, query):
    """At 390x844 the lab's heading broke inside its one long word ("Misimplementatio / n"); nothing runs off
    the side."""
    p = new_page(scheme="light", width=390, height=844)
    p.goto(f"{app_url}/learn?present=1&{query}")
    wait_for_app(p)
    broken = p.eval_on_selector(f"{MAIN} h2", _BROKEN_WORDS)
    assert broken == [], broken
    overflow = p.evaluate(
        f"() => {{ const m = document.querySelector({MAIN!r}); return m.scrollWidth - m.clientWidth; }}"
    )
    assert overflow <= 1, overflow
    assert (
        p.eval_on_selector(
            f"{MAIN} [data-testid='stMarkdownContainer'] p", "el => parseFloat(getComputedStyle(el).fontSize)"
        )
        >= BODY
    )
    shot(p, f"learn-present-{query.split('&')[0].split('=')[1]}-light-390")
