"""Browser tests: `make run`'s server on 127.0.0.1 driven by Playwright in Debian's Chromium.

The server is started once per test session through `make run` (the README command) on a free port and
stopped (its whole process group) at the end. Chromium is Debian's /usr/bin/chromium: never a downloaded
browser. Screenshots go to artifacts/screenshots/.
"""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, sync_playwright
from playwright.sync_api import TimeoutError as PlaywrightTimeout

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


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if "tests/browser/" in str(item.fspath).replace(os.sep, "/"):
            item.add_marker(pytest.mark.browser)
            item.add_marker(pytest.mark.xdist_group("browser"))


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextlib.contextmanager
def serve() -> Iterator[str]:
    """Start `make run` on a free 127.0.0.1 port; yield its URL; stop its whole process group."""
    port = _free_port()
    (ROOT / "artifacts").mkdir(exist_ok=True)
    log = open(ROOT / "artifacts" / f"server-{port}.log", "w")  # noqa: SIM115
    proc = subprocess.Popen(
        ["make", "--no-print-directory", "run", f"PORT={port}"],
        cwd=ROOT,
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
        env={**os.environ, "STREAMLIT_SERVER_FILE_WATCHER_TYPE": "none"},
    )
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 90
    try:
        while True:
            try:
                with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as r:
                    if r.status == 200:
                        break
            except OSError:
                pass
            if proc.poll() is not None:
                raise RuntimeError(f"`make run` exited with {proc.returncode}; see {log.name}")
            if time.monotonic() > deadline:
                raise RuntimeError(f"`make run` did not answer on {url} within 90 s; see {log.name}")
            time.sleep(0.5)
        yield url
    finally:
        try:
            os.killpg(proc.pid, signal.SIGTERM)
            proc.wait(timeout=15)
        except (ProcessLookupError, subprocess.TimeoutExpired):
            os.killpg(proc.pid, signal.SIGKILL)
        log.close()


@pytest.fixture(scope="session")
def app_url() -> Iterator[str]:
    """The app, served once for the whole session."""
    with serve() as url:
        yield url


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    """Debian's Chromium, headless, with the flags this machine needs."""
    assert Path(CHROMIUM).exists(), "Debian chromium is missing: `make test` installs it (apt-get install chromium)"
    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        yield b
        b.close()


def _context(browser: Browser, scheme: str, width: int = 1400, height: int = 1000) -> BrowserContext:
    return browser.new_context(viewport={"width": width, "height": height}, color_scheme=scheme)  # type: ignore[arg-type]


@pytest.fixture
def page(browser: Browser) -> Iterator[Page]:
    """A fresh light-theme page, 1400x1000."""
    ctx = _context(browser, "light")
    p = ctx.new_page()
    p.set_default_timeout(30_000)
    yield p
    ctx.close()


@pytest.fixture
def new_page(browser: Browser) -> Iterator:  # type: ignore[type-arg]
    """Factory: new_page(scheme="dark", width=420) for theme and narrow-window checks."""
    contexts: list[BrowserContext] = []

    def make(scheme: str = "light", width: int = 1400, height: int = 1000) -> Page:
        ctx = _context(browser, scheme, width, height)
        contexts.append(ctx)
        p = ctx.new_page()
        p.set_default_timeout(30_000)
        return p

    yield make
    for c in contexts:
        c.close()


def wait_for_app(p: Page, timeout: float = 60_000) -> None:
    """Wait until Streamlit has finished running the script (stApp reports script state notRunning).

    On a first load the state reads notRunning before the first run starts, so: wait for the page to
    have elements, then for notRunning, twice with a pause between (a run still streaming elements, or
    a rerun it triggered, is waited out).
    """
    p.wait_for_function(
        '() => document.querySelectorAll(\'[data-testid="stMain"] [data-testid="stElementContainer"]\').length > 0',
        timeout=timeout,
    )
    for _ in range(2):
        p.wait_for_selector("[data-testid='stApp'][data-test-script-state='notRunning']", timeout=timeout)
        p.wait_for_timeout(400)


def rerun_settled(p: Page, timeout: float = 60_000) -> None:
    """After an interaction: wait for the rerun it triggers to start (briefly) and then to finish."""
    with contextlib.suppress(PlaywrightTimeout):  # a fast rerun may have started and finished already
        p.wait_for_selector("[data-testid='stApp'][data-test-script-state='running']", timeout=1500)
    wait_for_app(p, timeout)


def shot(p: Page, name: str) -> Path:
    """Save a full-page screenshot as artifacts/screenshots/<name>.png."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    path = SHOTS / f"{name}.png"
    p.screenshot(path=str(path), full_page=True)
    return path
