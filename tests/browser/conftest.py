"""Browser tests: `make run`'s server on 127.0.0.1 driven by Playwright in Debian's Chromium.

The server is started once per test session through `make run` (the README command) on a free port and
stopped (its whole process group) at the end. Chromium is Debian's /usr/bin/chromium: never a downloaded
browser. Screenshots go to artifacts/screenshots/.

Every page these fixtures open records each request the browser makes; a request to any host but 127.0.0.1
fails the test that made it (the app sends nothing anywhere: a classroom may be offline).

`runtime_url` is a second server started by `make run` in a copy of the tracked files under
artifacts/runtime-app/, so its .venv holds only the runtime dependencies (what `make run` installs, not the
test extra): features that lean on a test-only package fail there.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
import time
import weakref
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import (
    Browser,
    BrowserContext,
    Locator,
    Page,
    TimeoutError as PlaywrightTimeout,
    WebSocket,
    expect,
    sync_playwright,
)
from streamlit.proto.BackMsg_pb2 import BackMsg
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

from bench.load import Server, free_port

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
SHOTS = ROOT / "artifacts" / "screenshots"
# a page's retrying assertions (expect) wait as long as a server-side rerun may take on a busy 2-core machine
# (Playwright's default is 5 s)
expect.set_options(timeout=60_000)


@pytest.hookimpl(tryfirst=True)  # before xdist reads the group marks into node ids (see test_groups.py)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if "tests/browser/" in str(item.fspath).replace(os.sep, "/"):
            item.add_marker(pytest.mark.browser)
            item.add_marker(pytest.mark.live)  # the session's app server (serve, below)
            item.add_marker(pytest.mark.xdist_group("browser"))


@contextlib.contextmanager
def serve(root: Path = ROOT, start_timeout: float = 90, data_dir: Path | None = None) -> Iterator[str]:
    """`make run` in ``root`` on a free 127.0.0.1 port (``bench.load.Server``, the project's one launcher); yield
    its URL; stop its whole process group. Its output goes to artifacts/server-PORT.log. The store (class rooms,
    shared views) lives in ``data_dir``, by default a fresh directory under artifacts/ (never the project's data/)."""
    port = free_port()
    if data_dir is None:
        data_dir = ROOT / "artifacts" / f"store-{port}"
        shutil.rmtree(data_dir, ignore_errors=True)
    (ROOT / "artifacts").mkdir(exist_ok=True)
    env = {
        "STREAMLIT_SERVER_FILE_WATCHER_TYPE": "none",
        "BLEU_EXPLORER_DATA_DIR": str(data_dir),
        "BLEU_EXPLORER_DATABASE_URL": "",
    }
    log = ROOT / "artifacts" / f"server-{port}.log"
    with Server(root, port=port, make=True, env=env, log=log, start_timeout=start_timeout) as server:
        yield server.url


@pytest.fixture(scope="session")
def app_url() -> Iterator[str]:
    """The app, served once for the whole session."""
    with serve() as url:
        yield url


def runtime_copy() -> Path:
    """The tracked files (as they are in the work tree) copied to artifacts/runtime-app/, mtimes kept so that
    its `make run` reinstalls only when pyproject.toml or the kernel changed; files no longer tracked go."""
    dest = ROOT / "artifacts" / "runtime-app"
    tracked = (
        subprocess.run(
            ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
            cwd=ROOT,
            capture_output=True,
            check=True,
        )
        .stdout.decode()
        .split("\0")
    )
    wanted = {Path(t) for t in tracked if t and (ROOT / t).is_file()}
    if dest.exists():
        for old in dest.rglob("*"):
            rel = old.relative_to(dest)
            if old.is_file() and rel.parts[0] != ".venv" and rel not in wanted and "egg-info" not in str(rel):
                old.unlink()
    for rel in wanted:
        target = dest / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        if not target.exists() or target.stat().st_mtime != (ROOT / rel).stat().st_mtime:
            shutil.copy2(ROOT / rel, target)
    return dest


@pytest.fixture(scope="session")
def runtime_url() -> Iterator[str]:
    """`make run` in a copy of the project whose .venv has only the runtime dependencies."""
    root = runtime_copy()
    with serve(root, start_timeout=900) as url:  # the first start installs the runtime deps (pip's cache helps)
        yield url


def outside_requests(urls: list[str]) -> list[str]:
    """The recorded requests that went anywhere but 127.0.0.1 (data:, blob: and file: URLs never leave the machine)."""
    return [
        u
        for u in urls
        if urlsplit(u).scheme not in ("data", "blob", "about", "file") and urlsplit(u).hostname != "127.0.0.1"
    ]


@dataclass
class _Runs:
    """A page's script runs, read from its websocket: the rerun requests it sent (BackMsg rerun_script) and the
    runs that ended (ForwardMsg script_finished, not the ones cut short by a newer request)."""

    requested: int = 0
    answered: int = 0  # ``requested`` as it stood when the last run ended
    finished: int = 0
    settled: int = 0  # ``requested`` when wait_for_app last returned
    sockets: int = 0

    def sent(self, payload: str | bytes) -> None:
        if not isinstance(payload, bytes):
            return
        msg = BackMsg.FromString(payload)
        # a fragment's own timer (run_every: presenter mode polls its deck every second) is no interaction's rerun
        if msg.WhichOneof("type") == "rerun_script" and not msg.rerun_script.is_auto_rerun:
            self.requested += 1

    def received(self, payload: str | bytes) -> None:
        if not isinstance(payload, bytes):
            return
        msg = ForwardMsg.FromString(payload)
        if msg.WhichOneof("type") == "script_finished" and msg.script_finished != ForwardMsg.FINISHED_EARLY_FOR_RERUN:
            self.finished += 1
            self.answered = self.requested


_RUNS: weakref.WeakKeyDictionary[Page, _Runs] = weakref.WeakKeyDictionary()


def _track(p: Page) -> None:
    runs = _RUNS[p] = _Runs()

    def socket(ws: WebSocket) -> None:
        if ws.url.endswith("/_stcore/stream"):
            # a new page load (or a reconnection): requests sent on the old socket get no answer, and a run ends on
            # this one before the page counts as loaded
            runs.answered, runs.finished = runs.requested, 0
            runs.sockets += 1
            ws.on("framesent", runs.sent)
            ws.on("framereceived", runs.received)

    p.on("websocket", socket)


def _poll(p: Page, done: Callable[[], bool], timeout: float) -> bool:
    """Whether ``done()`` (a condition on what the page's websocket events recorded) held within ``timeout`` ms;
    Playwright delivers those events while the page is waited on."""
    deadline = time.monotonic() + timeout / 1000
    while not done():
        if time.monotonic() > deadline:
            return False
        p.wait_for_timeout(50)  # a poll interval: events are delivered meanwhile
    return True


def _record(ctx: BrowserContext, urls: list[str]) -> None:
    """Append every request (and websocket) URL of the context's pages to ``urls``; track each page's runs."""
    ctx.on("request", lambda r: urls.append(r.url))
    ctx.on("websocket", lambda ws: urls.append(ws.url))
    ctx.on("page", _track)


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    """Debian's Chromium, headless, with the flags this machine needs."""
    assert Path(CHROMIUM).exists(), "Debian chromium is missing: `make test` installs it (apt-get install chromium)"
    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        yield b
        b.close()


def _context(browser: Browser, scheme: str, width: int = 1400, height: int = 1000, scale: float = 1) -> BrowserContext:
    """``scale``: device pixels per CSS pixel (a projector at 150% zoom: 853x480 CSS pixels at 1.5)."""
    return browser.new_context(  # type: ignore[arg-type]
        viewport={"width": width, "height": height}, color_scheme=scheme, device_scale_factor=scale
    )


@pytest.fixture
def page(browser: Browser) -> Iterator[Page]:
    """A fresh light-theme page, 1400x1000."""
    ctx = _context(browser, "light")
    urls: list[str] = []
    _record(ctx, urls)
    p = ctx.new_page()
    p.set_default_timeout(30_000)
    yield p
    ctx.close()
    assert urls, "no request was recorded"
    assert not outside_requests(urls), f"requests left 127.0.0.1: {outside_requests(urls)[:5]}"


@pytest.fixture
def new_page(browser: Browser) -> Iterator:  # type: ignore[type-arg]
    """Factory: new_page(scheme="dark", width=420) for theme and narrow-window checks."""
    contexts: list[BrowserContext] = []
    urls: list[str] = []

    def make(scheme: str = "light", width: int = 1400, height: int = 1000, scale: float = 1) -> Page:
        ctx = _context(browser, scheme, width, height, scale)
        contexts.append(ctx)
        _record(ctx, urls)
        p = ctx.new_page()
        p.set_default_timeout(30_000)
        return p

    yield make
    for c in contexts:
        c.close()
    assert not outside_requests(urls), f"requests left 127.0.0.1: {outside_requests(urls)[:5]}"


def wait_for_app(p: Page, timeout: float = 60_000) -> None:
    """Wait until Streamlit has finished running the script (stApp reports script state notRunning).

    On a page these fixtures made, first until a run has ended and every rerun the page asked for has been
    answered (its websocket says so). Then: wait for the page to have elements, then for notRunning, twice with
    a pause between (a run still streaming elements, or a rerun it triggered, is waited out).
    """
    runs = _RUNS.get(p)
    answered = runs is None or _poll(p, lambda: runs.finished > 0 and runs.answered == runs.requested, timeout)
    if not answered and runs is not None and runs.sockets:  # (no socket seen: the page's state below decides)
        raise PlaywrightTimeout(f"no run ended, or a rerun was not answered, within {timeout / 1000:.0f} s: {runs}")
    p.wait_for_function(
        '() => document.querySelectorAll(\'[data-testid="stMain"] [data-testid="stElementContainer"]\').length > 0',
        timeout=timeout,
    )
    for _ in range(2):
        p.wait_for_selector("[data-testid='stApp'][data-test-script-state='notRunning']", timeout=timeout)
        p.wait_for_timeout(400)
    if runs is not None:
        runs.settled = runs.requested


def rerun_settled(p: Page, timeout: float = 60_000) -> None:
    """After an interaction: wait for the rerun it triggers to start and then to finish.

    On a page these fixtures made, the rerun request the interaction sent is seen on the websocket (an action
    that reruns nothing sends none: that is waited for 10 s), then wait_for_app waits for its run to end."""
    runs = _RUNS.get(p)
    if runs is not None:
        _poll(p, lambda: runs.requested > runs.settled, 10_000)
    else:
        with contextlib.suppress(PlaywrightTimeout):  # a fast rerun may have started and finished already
            p.wait_for_selector("[data-testid='stApp'][data-test-script-state='running']", timeout=1500)
    wait_for_app(p, timeout)


def once_open(target: Locator) -> Locator:
    """``target`` (inside an expander just clicked open), once visible and the expander's opening animation (500 ms
    of Web Animations on its height) has finished: a click while it runs can land beside the moving target on a
    slow machine."""
    expect(target).to_be_visible()
    target.locator("xpath=ancestor::*[@data-testid='stExpander'][1]").evaluate(
        "el => Promise.all(el.getAnimations({subtree: true}).map(a => a.finished.catch(() => null)))"
    )
    return target


def shot(p: Page, name: str) -> Path:
    """Save a full-page screenshot as artifacts/screenshots/<name>.png."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    path = SHOTS / f"{name}.png"
    p.screenshot(path=str(path), full_page=True)
    return path


# For every Vega chart on the page: its height, how many marks it drew, and per axis the labels that Vega hid
# (labelOverlap sets their opacity to 0) or that overlap their neighbour (text drawn over text).
# a chart in a tab not shown (Learn's Part II) is drawn when its tab opens: only the charts a person sees count
_CHART_REPORT = r"""(sel) => [...document.querySelectorAll(sel)].filter(c => c.checkVisibility()).map((chart) => {
  const svg = chart.querySelector('svg.marks');
  const title = svg ? [...svg.querySelectorAll('.role-title-text')].map(t => t.textContent).join(' ') : '';
  const marks = svg ? svg.querySelectorAll(
    '.role-mark path, .role-mark line, .role-mark text, .role-mark rect').length : 0;
  const axes = svg ? [...svg.querySelectorAll('g.role-axis')].map((axis) => {
    // a log axis gives its minor ticks empty labels: only labels with text count
    const labels = [...axis.querySelectorAll('.role-axis-label text')].filter(t => t.textContent.trim() !== '');
    const shown = labels.filter(t => t.getAttribute('opacity') !== '0' && t.style.opacity !== '0');
    // slanted labels' boxes overlap while their glyphs do not: only level and upright (±90°) labels, whose boxes
    // are their glyphs', are compared (upright matrix names ran together at 390 px)
    const angle = (t) => {
      const m = /rotate\(([-\d.]+)\)/.exec(t.getAttribute('transform') || '');
      return m ? +m[1] : 0;
    };
    const level = shown.filter(t => [0, 90, -90, 270].includes(Math.round(angle(t))));
    const boxes = level.map(t => t.getBoundingClientRect());
    // a numeric axis (linear or log) may thin its tick labels by design; categories may not
    const numeric = labels.length > 0 && labels.every(t => /^[-−+]?[\d.,]+(e[-+]?\d+)?%?$/i.test(t.textContent.trim()));
    let overlaps = 0;
    for (let i = 0; i < boxes.length; i++) for (let j = i + 1; j < boxes.length; j++) {
      const a = boxes[i], b = boxes[j];
      const w = Math.min(a.right, b.right) - Math.max(a.left, b.left);
      const h = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
      if (w > 1 && h > 1) overlaps++;
    }
    return {labels: labels.length, hidden: numeric ? 0 : labels.length - shown.length, overlaps,
            texts: shown.map(t => t.textContent)};
  }) : [];
  // the title inside the chart's box (a glyph's box may rise 3 px above it): a long rotated axis title once pushed
  // a title 16 px above the SVG, where it was cut off
  const box = svg ? svg.getBoundingClientRect() : null;
  const cut = svg ? [...svg.querySelectorAll('.role-title-text text')].filter(t => {
    const r = t.getBoundingClientRect(); return r.top < box.top - 8 || r.left < box.left - 8; }).length : 0;
  return {title, height: chart.getBoundingClientRect().height, svg: !!svg, marks, axes, titleCut: cut};
})"""


def chart_report(p: Page, scope: str = "[data-testid='stMain']") -> list[dict]:  # type: ignore[type-arg]
    """What each Vega chart under ``scope`` drew (see _CHART_REPORT)."""
    return list(p.evaluate(_CHART_REPORT, f"{scope} [data-testid='stVegaLiteChart']"))


def assert_charts_drawn(p: Page, where: str, at_least: int) -> list[dict]:  # type: ignore[type-arg]
    """Every chart is taller than 100 px, drew marks, and shows every axis label (none hidden or overlapping)."""
    charts = "[data-testid='stMain'] [data-testid='stVegaLiteChart']"
    drawn = "svg.marks .role-mark path, svg.marks .role-mark line, svg.marks .role-mark text, svg.marks .role-mark rect"
    shown = f"[...document.querySelectorAll({charts!r})].filter(c => c.checkVisibility())"  # a hidden tab's: not yet
    p.wait_for_function(f"(n) => {shown}.length >= n", arg=at_least, timeout=60_000)
    # Vega draws after its element appears (and a rerun may add a chart element before its SVG): wait until every
    # chart element shown holds an SVG with marks; if one never does, the report below says which
    with contextlib.suppress(PlaywrightTimeout):
        p.wait_for_function(f"""() => {shown}.every(c => c.querySelector({drawn!r}))""", timeout=60_000)
    report = chart_report(p)
    assert len(report) >= at_least, (where, [c["title"] for c in report])
    for chart in report:
        name = f"{where}: {chart['title']!r}"
        assert chart["svg"], f"{name} has no SVG"
        assert not chart["titleCut"], f"{name}: its title is drawn outside the chart's box (cut off)"
        assert chart["height"] > 100, f"{name} is {chart['height']:.0f} px tall"
        assert chart["marks"] > 0, f"{name} drew no marks"
        for axis in chart["axes"]:
            assert axis["hidden"] == 0, f"{name}: {axis['hidden']} of {axis['labels']} axis labels hidden"
            assert axis["overlaps"] == 0, f"{name}: axis labels overlap ({axis['texts']} ...)"
    return report


def assert_view_looks_right(p: Page, scheme: str, width: int, where: str, charts: int = 0) -> None:
    """What a person would notice first: charts drawn, the theme's background, nothing off the side."""
    if charts:
        assert_charts_drawn(p, where, at_least=charts)
    background = p.evaluate("() => getComputedStyle(document.querySelector(\"[data-testid='stApp']\")).backgroundColor")
    channels = [int(c) for c in background[background.index("(") + 1 : background.index(")")].split(",")[:3]]
    assert (sum(channels) / 3 < 80) == (scheme == "dark"), (where, background)
    if width < 600:  # a phone: nothing runs off the side of the page
        main = "[data-testid='stMain']"
        overflow = p.evaluate(
            f"() => {{ const m = document.querySelector({main!r}); return m.scrollWidth - m.clientWidth; }}"
        )
        assert overflow <= 1, (where, overflow)


def open_grid_row(page: Page, table_key: str, row: int) -> None:
    """Select row ``row`` (0-based) of the ``st.dataframe`` keyed ``table_key`` and wait for the sentence page it
    opens. The grid (glide-data-grid) draws on a canvas: the selection column is the first, rows about 35 px high;
    a click while the grid still lays out can miss, so it is retried until the URL says it landed. Each click's
    rerun is waited out first (a second click during a slow rerun would toggle the selection off again)."""
    table = page.locator(f".st-key-{table_key.replace('.', '-')}")
    table.locator("canvas").first.wait_for(state="visible", timeout=60_000)  # the grid has drawn
    table.scroll_into_view_if_needed()
    for attempt in range(3):
        box = table.bounding_box()
        assert box is not None
        page.mouse.click(box["x"] + 18, box["y"] + 35 + 35 * row + 17)
        rerun_settled(page, timeout=120_000)
        try:
            page.wait_for_url("**/sentence**", timeout=5000)  # the run has ended: the URL is the browser's own
            break
        except PlaywrightTimeout:
            if attempt == 2:
                raise
    wait_for_app(page)
