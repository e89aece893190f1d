"""User-visible time in Chromium (issue 24): what a person waits for, and what their first visit costs the server.

Three first visits, each in a fresh browser context (an empty cache) against a fresh server (``bench.load.Server``:
``python -m streamlit run app.py`` of this tree on 127.0.0.1, warmed by one websocket visit of the page so that
imports are not counted):

* the Learn page: from the navigation's start to the page drawn;
* the corpus page and the compare page: the page opens on its demo corpus, then a folder of 50,000 lines x 4
  systems (``bench.load.make_corpus``, built at run time from ../shared/data) is uploaded through the folder
  uploader as a person would; timed from the end of the upload (the last ``/_stcore/upload_file`` PUT's response,
  the browser's own clock) to the page drawn.

"Drawn" (``DRAWN_JS``) is the first moment at which, all at once: Streamlit's script state is ``notRunning`` and
its running indicator is gone, no element is stale, every Vega-Lite chart in the main area has painted (an SVG with
marks, or a canvas with a size), there are at least the expected charts, and the main area's text holds the
expected content (the corpus size, and BLEU figures computed here with ``bleu_core``). An exception element
(``[data-testid="stException"]``) ends the wait at once and is an error, never a figure.

For each visit: the requests the browser made (all must go to 127.0.0.1), the static files among them
(``/static/...``) and the bytes they took on the wire (``request.sizes()``: headers + encoded body), and the
server's CPU (utime + stime in /proc/PID/stat) over the whole visit and over upload + draw.

Run alone: ``python -m bench.browser`` (``--lines 500 --systems 2`` for a quick look); also at the end of
``make bench``. The machine's load average is printed with the figures: on a shared machine they are upper bounds.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import signal
import statistics
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from bench import load
from tests.browser.conftest import CHROMIUM, CHROMIUM_ARGS  # the flags the browser tests use (one list)

ROOT = load.ROOT
TARGETS = {"corpus": 2.5, "compare": 3.0}  # issue 24: seconds from the end of the upload to the page drawn
FOLDER_INPUT = "input[data-testid='stFileUploaderDropzoneInput'][webkitdirectory]"
CONFIRM_MS = 500  # the drawn state is checked again this long after it was reached
CHARTS = {"learn": 1, "corpus": 4, "compare": 3}
PAGES = tuple(CHARTS)  # at least this many Vega-Lite charts drawn (fewer: not drawn yet)
BUCKETS_ON_REQUEST = 5_000  # above this many lines the corpus page's two bucket charts wait for a toggle
# (bleu_app.ui.corpus.difference.BUCKETS_AUTO_SEGMENTS, read by bleu_app.ui.corpus.buckets; not imported: it
# imports Streamlit)


def charts_after_upload(page_name: str, lines: int) -> int:
    """The Vega-Lite charts ``page_name`` draws for a corpus of ``lines`` lines (at least)."""
    return CHARTS[page_name] - 2 if page_name == "corpus" and lines > BUCKETS_ON_REQUEST else CHARTS[page_name]


# Returns false while the page is not drawn; {exception} as soon as one shows; else {t: Date.now(), charts}.
DRAWN_JS = r"""([all, any, minCharts]) => {
  const exc = document.querySelector('[data-testid="stException"]');
  if (exc) return {exception: exc.innerText.slice(0, 500)};
  const app = document.querySelector('[data-testid="stApp"]');
  if (!app || app.getAttribute('data-test-script-state') !== 'notRunning') return false;
  if (document.querySelector('[data-testid^="stStatusWidgetRunning"]')) return false;
  const main = document.querySelector('[data-testid="stMain"]');
  if (!main || main.querySelector('[data-stale="true"]')) return false;
  const text = main.textContent;  // not innerText: a poll must not force a layout of its own
  if (!all.every(t => text.includes(t))) return false;
  const hit = any.length ? any.find(t => text.includes(t)) : '';
  if (hit === undefined) return false;
  // a chart in a tab not shown (Learn's Part II) is drawn when its tab opens: the charts a person sees
  const charts = [...main.querySelectorAll('[data-testid="stVegaLiteChart"]')].filter(c => c.checkVisibility());
  if (charts.length < minCharts) return false;
  const painted = (c) => {
    const svg = c.querySelector('svg.marks');
    if (svg) return !!svg.querySelector('.role-mark path, .role-mark line, .role-mark text, .role-mark rect');
    const canvas = c.querySelector('canvas');  // Vega draws a big scatter on a canvas: some pixel must be inked
    if (!canvas || !canvas.width || !canvas.height) return false;
    const px = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
    for (let i = 3; i < px.length; i += 64) if (px[i] > 0) return true;
    return false;
  };
  if (!charts.every(painted)) return false;
  const marks = charts.reduce((n, c) => n + c.querySelectorAll(
    'svg.marks .role-mark path, svg.marks .role-mark line, svg.marks .role-mark text, svg.marks .role-mark rect'
  ).length, 0);
  return {t: Date.now(), charts: charts.length, marks, hit};
}"""


@dataclass(frozen=True)
class Visit:
    """One first visit in Chromium."""

    page: str
    seconds: float  # Learn: navigation start -> drawn; corpus/compare: end of the upload -> drawn
    upload_s: float  # first upload PUT's start -> last one's end (0 without an upload)
    requests: int
    static_files: int
    static_bytes: int  # on the wire: response headers + encoded body
    visit_cpu: float  # server CPU, navigation to drawn
    upload_cpu: float  # server CPU, the upload (set_input_files to the last PUT's end; 0 without an upload)
    draw_cpu: float  # server CPU, the end of the upload to drawn (0 without an upload)
    browser_upload_cpu: float  # every Chromium process's CPU over the upload
    browser_cpu: dict[str, float]  # every Chromium process's CPU from the end of the upload to drawn (Learn: the
    # visit's): renderer, gpu (software raster), other, total
    browser_busy: float  # the page's renderer main thread busy (CDP TaskDuration): the upload started (Learn:
    # navigation) to drawn, the confirmation pause included
    streamed: int  # bytes the server sent over the websocket from the upload's start to drawn (Learn: the visit)
    charts: int
    marks: int  # SVG marks the charts drew (the compare page's scatter is a canvas: not counted)
    found: str  # the expected content that was found (a BLEU figure computed with bleu_core, or the Learn text)


class NotDrawnError(RuntimeError):
    """The page showed an exception, or never reached the drawn state."""


def launch(pw: Any) -> Any:
    """Debian's Chromium, headless (never a downloaded browser)."""
    return pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)


@contextmanager
def _recorded_page(browser: Any) -> Iterator[tuple[Any, list[Any], Any, list[int]]]:
    """A page in a fresh context (empty cache), the finished requests (appended as they finish), a CDP session
    whose Performance domain is on (``busy``) and a one-item list counting the bytes received over websockets."""
    ctx = browser.new_context(viewport={"width": 1400, "height": 1000})
    finished: list[Any] = []
    # a lambda: Playwright's sync API sets an attribute on the handler, which a bound builtin method refuses
    ctx.on("requestfinished", lambda r: finished.append(r))  # noqa: PLW0108
    try:
        page = ctx.new_page()
        page.set_default_timeout(120_000)
        received = [0]

        def count(payload: str | bytes) -> None:
            received[0] += len(payload)

        page.on("websocket", lambda ws: ws.on("framereceived", count))
        cdp = ctx.new_cdp_session(page)
        cdp.send("Performance.enable")
        yield page, finished, cdp, received
    finally:
        ctx.close()


def wait_drawn(
    page: Any, all_of: list[str], any_of: list[str], charts: int, timeout: float = 300_000
) -> dict[str, Any]:
    """Wait for ``DRAWN_JS``; return its result. An exception element or a timeout raises ``NotDrawnError``."""
    try:
        handle = page.wait_for_function(DRAWN_JS, arg=[all_of, any_of, charts], polling=50, timeout=timeout)
    except Exception as exc:  # Playwright's TimeoutError: say what was awaited and what the page showed
        text = page.inner_text("body")[:600] if not page.is_closed() else ""
        raise NotDrawnError(f"not drawn within {timeout / 1000:.0f} s (awaited {all_of} {any_of}): {text!r}") from exc
    result: dict[str, Any] = handle.json_value()
    if "exception" in result:
        raise NotDrawnError(f"the page showed an exception: {result['exception']}")
    # still drawn a moment later (outside the timing): a rerun the app starts by itself must not end in an error
    page.wait_for_timeout(CONFIRM_MS)
    again = page.evaluate(DRAWN_JS, [all_of, any_of, charts])
    if not again or "exception" in again:
        raise NotDrawnError(f"the page changed after it was drawn: {again}")
    return result


def chromium_cpu() -> dict[tuple[int, str], float]:
    """CPU seconds (utime + stime) of every Chromium process under this one (Playwright's driver starts the
    browser, which starts its renderers, GPU and network processes), by (pid, kind): ``renderer``, ``gpu`` (the
    software rasterizer here: --disable-gpu) or ``other`` (the browser process, network, storage)."""
    parent: dict[int, int] = {}
    comm: dict[int, str] = {}
    cpu: dict[int, float] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            text = stat.read_text()
        except OSError:  # gone meanwhile
            continue
        pid, rest = int(text.split(" ", 1)[0]), text.rsplit(")", 1)[1].split()
        comm[pid] = text[text.index("(") + 1 : text.rindex(")")]
        parent[pid] = int(rest[1])
        cpu[pid] = (int(rest[11]) + int(rest[12])) / load.CLK_TCK
    mine, me = {}, os.getpid()
    for pid, seconds in cpu.items():
        p = pid
        while p > 1 and p != me:
            p = parent.get(p, 0)
        if p == me and "chrom" in comm[pid]:
            try:
                cmd = Path(f"/proc/{pid}/cmdline").read_bytes()
            except OSError:
                continue
            kind = "renderer" if b"--type=renderer" in cmd else "gpu" if b"--type=gpu-process" in cmd else "other"
            mine[pid, kind] = seconds
    return mine


def cpu_since(before: dict[tuple[int, str], float]) -> dict[str, float]:
    """Chromium's CPU seconds since ``before`` (``chromium_cpu()``; a process started since counts from 0), by
    kind, and their ``total``."""
    out = {"renderer": 0.0, "gpu": 0.0, "other": 0.0}
    for key, c in chromium_cpu().items():
        out[key[1]] += c - before.get(key, 0.0)
    return out | {"total": sum(out.values())}


def busy(cdp: Any) -> float:
    """Seconds the page's renderer main thread has been busy so far (CDP Performance ``TaskDuration``)."""
    metrics = cdp.send("Performance.getMetrics")["metrics"]
    return float(next(m["value"] for m in metrics if m["name"] == "TaskDuration"))


def _traffic(page: str, finished: list[Any]) -> tuple[int, int, int]:
    """(requests, static files, their bytes on the wire); every request must stay on 127.0.0.1."""
    outside = [r.url for r in finished if urlsplit(r.url).scheme in ("http", "https", "ws", "wss")]
    outside = [u for u in outside if urlsplit(u).hostname != "127.0.0.1"]
    if outside:
        raise RuntimeError(f"{page}: requests left 127.0.0.1: {outside[:5]}")
    static = [r for r in finished if urlsplit(r.url).path.startswith("/static/")]
    sizes = [r.sizes() for r in static]
    nbytes = sum(max(s["responseBodySize"], 0) + max(s["responseHeadersSize"], 0) for s in sizes)
    return len(finished), len(static), nbytes


def learn_visit(browser: Any, server: load.Server, expect: str = "17/18") -> Visit:
    """A plain first visit of the Learn page: navigation start to drawn."""
    with _recorded_page(browser) as (page, finished, cdp, received):
        cpu0, chrome0 = server.cpu_seconds(), chromium_cpu()
        page.goto(server.url + "/")
        done = wait_drawn(page, [expect], [], CHARTS["learn"])
        cpu, chrome = server.cpu_seconds() - cpu0, cpu_since(chrome0)
        browser_s = busy(cdp)
        origin = page.evaluate("() => performance.timeOrigin")
        n, files, nbytes = _traffic("learn", finished)
    return Visit(
        "learn",
        (done["t"] - origin) / 1000,
        0.0,
        n,
        files,
        nbytes,
        cpu,
        0.0,
        0.0,
        0.0,
        chrome,
        browser_s,
        received[0],
        done["charts"],
        done["marks"],
        expect,
    )


def _is_upload(request: Any) -> bool:
    return request.method == "PUT" and "/_stcore/upload_file/" in request.url


def upload_visit(
    browser: Any,
    server: load.Server,
    page_name: str,
    folder: Path,
    all_of: list[str],
    any_of: list[str],
    charts: int | None = None,
) -> Visit:
    """First visit of ``page_name`` (corpus or compare), then ``folder`` uploaded through the folder uploader;
    timed from the end of the upload to the page drawn with ``all_of`` and one of ``any_of`` in its text and at
    least ``charts`` charts (default: ``CHARTS[page_name]``)."""
    with _recorded_page(browser) as (page, finished, cdp, received):
        cpu0 = server.cpu_seconds()
        page.goto(f"{server.url}/{load.PAGES[page_name]}")
        wait_drawn(page, ["(load another)"], [], CHARTS[page_name])  # the demo corpus, drawn
        page.get_by_text("(load another)").first.click()
        page.locator(FOLDER_INPUT).wait_for(state="attached")
        # the CPU figures as each upload PUT finishes (the handler runs while Playwright waits): the last is the
        # upload's end, where the timed span starts
        at_put: list[tuple[float, dict[tuple[int, str], float]]] = []
        page.on(
            "requestfinished",
            lambda r: at_put.append((server.cpu_seconds(), chromium_cpu())) if _is_upload(r) else None,
        )
        cpu1, busy1, chrome1, received1 = server.cpu_seconds(), busy(cdp), chromium_cpu(), received[0]
        page.locator(FOLDER_INPUT).set_input_files(str(folder))
        done = wait_drawn(page, all_of, any_of, CHARTS[page_name] if charts is None else charts)
        cpu, browser_s = server.cpu_seconds(), busy(cdp) - busy1
        puts = [r for r in finished if _is_upload(r)]
        if not puts or not at_put:
            raise NotDrawnError(f"{page_name}: no upload request was made")
        cpu2, chrome2 = at_put[-1]
        streamed = received[0] - received1
        chrome = cpu_since(chrome2)
        chrome_upload = sum(c - chrome1.get(k, 0.0) for k, c in chrome2.items())
        starts = [r.timing["startTime"] for r in puts]
        ends = [r.timing["startTime"] + r.timing["responseEnd"] for r in puts]
        n, files, nbytes = _traffic(page_name, finished)
    seconds = (done["t"] - max(ends)) / 1000
    if seconds <= 0:
        raise RuntimeError(f"{page_name}: drawn before the upload ended ({seconds:.3f} s): clocks disagree")
    return Visit(
        page_name,
        seconds,
        (max(ends) - min(starts)) / 1000,
        n,
        files,
        nbytes,
        cpu - cpu0,
        cpu2 - cpu1,
        cpu - cpu2,
        chrome_upload,
        chrome,
        browser_s,
        streamed,
        done["charts"],
        done["marks"],
        done["hit"] or ", ".join(all_of),
    )


def expected_bleu(items: list[tuple[str, bytes]]) -> list[float]:
    """Corpus BLEU (sacreBLEU's defaults, reference A) of each system in ``items`` (``load.make_corpus``'s)."""
    from bleu_core import corpus_bleu

    def rows(data: bytes) -> list[str]:
        return data.decode("utf-8").split("\n")[:-1]

    ref = next(rows(d) for n, d in items if "/reference." in n)
    return [corpus_bleu(rows(d), [ref]).score for n, d in items if "/systems/" in n]


def expectations(page_name: str, items: list[tuple[str, bytes]]) -> tuple[list[str], list[str]]:
    """What the page must show once drawn: the corpus's size, and its systems' BLEU (the corpus page shows the
    selected system's, on both scales; the compare page's ranking shows every system's)."""
    lines = items[-1][1].count(b"\n")
    systems = sum("/systems/" in n for n, _ in items)
    size = f"{systems} systems · {lines} segments"
    bleu = expected_bleu(items)
    if page_name == "corpus":
        return [size], [f"({b / 100:.4f})" for b in bleu]  # the 0-1 scale, in brackets: one system's
    return [size, *(f"{b:.2f}" for b in bleu)], []


def measure(
    browser: Any, page_name: str, folder: Path | None = None, items: list[tuple[str, bytes]] | None = None
) -> Visit:
    """One first visit of ``page_name`` on a fresh, warmed server of this tree."""
    with load.Server(ROOT) as server:
        load._run(load._warm(server, load.PAGES[page_name], ""))
        if page_name == "learn":
            return learn_visit(browser, server)
        assert folder is not None, "an upload visit needs the folder"
        assert items is not None, "and its files"
        all_of, any_of = expectations(page_name, items)
        lines = items[-1][1].count(b"\n")
        return upload_visit(browser, server, page_name, folder, all_of, any_of, charts_after_upload(page_name, lines))


def loadavg() -> str:
    return " ".join(Path("/proc/loadavg").read_text().split()[:3])


def run(
    lines: int, systems: int, repeat: int, loads: list[float], pages: Sequence[str] = PAGES
) -> dict[str, list[Visit]]:
    """``repeat`` rounds of the first visits of ``pages``; the 1-minute load average after each is appended to
    ``loads``."""
    from playwright.sync_api import sync_playwright

    out: dict[str, list[Visit]] = {p: [] for p in pages}
    with tempfile.TemporaryDirectory(prefix="bench-browser-") as d, sync_playwright() as pw:
        folder = Path(d) / f"wmt21x{lines}"
        items = load.make_corpus(folder, lines, systems)
        browser = launch(pw)
        try:
            for _ in range(repeat):
                for page_name, visits in out.items():
                    v = measure(browser, page_name, folder, items)
                    visits.append(v)
                    loads.append(float(loadavg().split()[0]))
                    print(f"  {v} (load {loadavg()})", flush=True)
        finally:
            browser.close()
    return out


def print_table(res: dict[str, list[Visit]], lines: int, systems: int, loads: list[float]) -> None:
    """Medians over the fresh servers, with the range of the drawn time; the targets checked."""
    visits = len(next(iter(res.values())))
    print(
        f"\nIn Chromium, {lines:,} lines x {systems} systems; median of {visits} visits, each on a fresh "
        f"server; {os.cpu_count()} CPUs, 1-minute load average {min(loads):.1f}-{max(loads):.1f} during the runs"
    )
    print(f"{'':<30} {'':>17} {'':>12} {'static files':>12} {'server':>6} {'upload':>18} {'upload end to drawn':>30}")
    print(
        f"{'first visit':<30} {'drawn s (range)':>17} {'target ratio':>12} {'n':>5} {'MB':>6} {'CPU s':>6} "
        f"{'s':>5} {'server':>6} {'Chrom.':>6} {'server':>6} {'Chromium (rend./GPU)':>20} {'main thr.':>9} {'MB':>9}"
    )
    for page_name, runs in res.items():

        def med(f: Any, runs: list[Visit] = runs) -> float:
            return float(statistics.median(f(v) for v in runs))

        secs = med(lambda v: v.seconds)
        spread = f"{min(v.seconds for v in runs):.2f}-{max(v.seconds for v in runs):.2f}"
        target = TARGETS.get(page_name)
        what = "Learn: navigation to drawn" if page_name == "learn" else f"{page_name}: upload end to drawn"
        goal = f"{target:6.1f} {secs / target:5.2f}" if target else f"{'-':>6} {'-':>5}"
        print(
            f"{what:<30} {secs:6.2f} ({spread:>9}) {goal} {med(lambda v: v.static_files):5.0f} "
            f"{med(lambda v: v.static_bytes) / 1e6:6.2f} {med(lambda v: v.visit_cpu):6.2f} "
            f"{med(lambda v: v.upload_s):5.2f} {med(lambda v: v.upload_cpu):6.2f} "
            f"{med(lambda v: v.browser_upload_cpu):6.2f} {med(lambda v: v.draw_cpu):6.2f} "
            f"{med(lambda v: v.browser_cpu['total']):8.2f} ({med(lambda v: v.browser_cpu['renderer']):4.2f}"
            f"/{med(lambda v: v.browser_cpu['gpu']):4.2f}) {med(lambda v: v.browser_busy):9.2f}"
            f" {med(lambda v: v.streamed) / 1e6:9.2f}"
        )
    print(
        "(s. static files: fetched from /static/ on the first visit and their MB on the wire; server CPU s: the"
        " whole visit (the demo corpus drawn, the upload, the new draw); upload: the PUTs' span, and the CPU the"
        " server and Chromium spent in it; upload end to drawn: the server's and every Chromium process's CPU,"
        " of it the page's renderer and the GPU process (software raster: --disable-gpu); main thr.: the renderer"
        " main thread busy (wall) from the upload's start; websocket MB: what the server sent from the upload's start."
        " Learn: Chromium and the websocket over the whole visit.)"
    )
    for page_name, target in TARGETS.items():
        if page_name not in res:
            continue
        secs = statistics.median(v.seconds for v in res[page_name])
        print(f"  {'met    ' if secs <= target else 'NOT MET'} {page_name} drawn {secs:.2f} s (at most {target:g} s)")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--lines", type=int, default=50_000, help="lines of the uploaded corpus (default 50,000)")
    ap.add_argument("--systems", type=int, default=4, help="systems in it (default 4)")
    ap.add_argument("--repeat", type=int, default=3, help="fresh servers per page (the median is reported)")
    ap.add_argument("--pages", nargs="+", choices=PAGES, default=list(PAGES), help="the pages visited (default all)")
    args = ap.parse_args(argv)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))  # stop the servers and remove temp dirs on a kill
    t = time.perf_counter()
    loads: list[float] = []
    res = run(args.lines, args.systems, args.repeat, loads, args.pages)
    print_table(res, args.lines, args.systems, loads)
    out = ROOT / "artifacts" / "bench-browser.json"
    out.parent.mkdir(exist_ok=True)
    runs = {k: [dataclasses.asdict(v) for v in vs] for k, vs in res.items()}
    out.write_text(json.dumps({"lines": args.lines, "systems": args.systems, "loads": loads, "runs": runs}, indent=1))
    print(f"wrote {out.relative_to(ROOT)}")
    print(f"browser bench took {time.perf_counter() - t:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
