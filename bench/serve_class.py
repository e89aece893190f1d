"""A class on several processes: N app processes behind Debian's nginx, all in a temporary directory.

``make serve-class N=2`` (or ``python -m bench.serve_class --processes 2 --port 8080 --host 0.0.0.0``) starts N
``streamlit run app.py`` processes on free 127.0.0.1 ports (each with the repo's ``.streamlit/config.toml``: what
``make run`` starts) and one nginx (``/usr/sbin/nginx``, run as the user with its config, pid, logs and temporary
files in a fresh temporary directory) that listens on ``--host:--port`` and:

- is sticky by the XSRF cookie Streamlit sets on a browser's first health check (``hash $cookie__streamlit_xsrf
  consistent``): the websocket and the uploads of a session must reach the process that holds it;
- serves Streamlit's own static files (``/static/``: the frontend's JS, CSS, fonts and media, 7.6 MB in 157 files
  on a first visit) itself, from a copy in the temporary directory compressed once at start (``gzip_static``),
  with a year's ``Cache-Control: immutable`` (their names carry a content hash), so the app processes spend
  their CPU on script runs; ``static=False`` proxies them too, for the comparison in :func:`first_visit_costs`.

Ctrl-C (or leaving the context manager) stops nginx and every process, and removes the directory.

``python -m bench.serve_class --measure`` prints what a browser (Debian's Chromium, a fresh profile per visit)
fetches on a first visit of the Learn page, and the app processes' CPU per first visit, with and without nginx
serving the static files.
"""

from __future__ import annotations

import argparse
import contextlib
import gzip
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import streamlit

from bench import load

NGINX = "/usr/sbin/nginx"
STATIC = Path(streamlit.__file__).parent / "static"
COMPRESSIBLE = (".js", ".css", ".json", ".svg", ".html", ".map", ".txt", ".ttf", ".otf", ".wasm")

CONF = """
worker_processes 1;
daemon off;
pid {tmp}/nginx.pid;
error_log {tmp}/error.log warn;
events {{ worker_connections 4096; }}
http {{
    include /etc/nginx/mime.types;
    default_type application/octet-stream;
    # the path without its query string ($uri, not $request), and no Referer: a teacher's page is /class?teach=TOKEN
    log_format up '$remote_addr [$time_local] "$request_method $uri $server_protocol" '
                  '$status $body_bytes_sent up=$upstream_addr';
    access_log {tmp}/access.log up;
    client_body_temp_path {tmp}/body;
    proxy_temp_path {tmp}/proxy;
    fastcgi_temp_path {tmp}/fastcgi;
    uwsgi_temp_path {tmp}/uwsgi;
    scgi_temp_path {tmp}/scgi;
    client_max_body_size 60m;          # uploads (server.maxUploadSize is 50 MB per file)
    sendfile on;
    upstream bleu_explorer {{
        # sticky by the XSRF cookie Streamlit sets on the first health check: every later request of that browser
        # (the websocket, uploads) carries it; ip_hash would put a class behind one router on one process
        hash $cookie__streamlit_xsrf consistent;
{servers}
    }}
    map $http_upgrade $connection_upgrade {{ default upgrade; "" close; }}
    server {{
        listen {host}:{port};
{static}
        location / {{
            proxy_pass http://bleu_explorer;
            proxy_http_version 1.1;                  # websocket upgrade for /_stcore/stream
            proxy_set_header Upgrade $http_upgrade;
            proxy_set_header Connection $connection_upgrade;
            proxy_set_header Host $http_host;
            proxy_read_timeout 86400;                # a class keeps its tabs open
            proxy_buffering off;
            add_header X-Upstream $upstream_addr always;
        }}
    }}
}}
"""

STATIC_BLOCK = """
        location /static/ {{
            alias {tmp}/www/static/;
            gzip_static on;                          # the .gz made once at start
            add_header Cache-Control "public, max-age=31536000, immutable";
        }}
        location = /favicon.png {{ root {tmp}/www; }}
        location = /manifest.json {{ root {tmp}/www; }}
"""


def static_copy(dest: Path) -> int:
    """Copy Streamlit's static files to ``dest`` and write a .gz beside each compressible one; returns the count."""
    shutil.copytree(STATIC, dest)
    n = 0
    for path in dest.rglob("*"):
        if path.is_file() and path.suffix in COMPRESSIBLE:
            data = path.read_bytes()
            path.with_name(path.name + ".gz").write_bytes(gzip.compress(data, 9, mtime=0))
            n += 1
    return n


@dataclass
class ClassServer:
    """N app processes behind nginx; a context manager. ``url`` is nginx's address."""

    processes: int = 2
    port: int = 0
    host: str = "127.0.0.1"
    static: bool = True  # nginx serves Streamlit's static files (False: proxied to the app processes too)
    backends: list[load.Server] = field(default_factory=list)
    tmp: Path | None = None
    nginx: subprocess.Popen[bytes] | None = None

    def __enter__(self) -> ClassServer:
        if not os.access(NGINX, os.X_OK):
            raise RuntimeError(f"{NGINX} is missing: `make nginx` installs Debian's nginx")
        self.port = self.port or load.free_port()
        self.tmp = Path(tempfile.mkdtemp(prefix="bleu-class-"))
        self.tmp.chmod(0o755)  # nginx started as root runs its workers as nobody: they read the static copy
        try:
            for _ in range(self.processes):
                self.backends.append(load.Server(load.ROOT).__enter__())
            if self.static:
                static_copy(self.tmp / "www")
            servers = "\n".join(f"        server 127.0.0.1:{b.port};" for b in self.backends)
            block = STATIC_BLOCK.format(tmp=self.tmp) if self.static else ""
            conf = CONF.format(tmp=self.tmp, servers=servers, host=self.host, port=self.port, static=block)
            (self.tmp / "nginx.conf").write_text(conf)
            self.nginx = subprocess.Popen(
                [NGINX, "-p", str(self.tmp), "-c", str(self.tmp / "nginx.conf"), "-e", str(self.tmp / "error.log")],
                stdout=subprocess.DEVNULL,
                stderr=subprocess.STDOUT,
            )
            self._wait()
        except BaseException:
            self.__exit__()
            raise
        return self

    def _wait(self) -> None:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            assert self.nginx is not None
            if self.nginx.poll() is not None:
                raise RuntimeError(f"nginx exited: {self.error_log()[-2000:]}")
            try:
                with urllib.request.urlopen(f"{self.url}/_stcore/health", timeout=2) as r:
                    if r.status == 200:
                        return
            except OSError:
                time.sleep(0.1)
        raise RuntimeError("nginx did not answer within 30 s")

    def error_log(self) -> str:
        assert self.tmp is not None
        path = self.tmp / "error.log"
        return path.read_text() if path.exists() else ""

    def access_log(self) -> list[str]:
        assert self.tmp is not None
        path = self.tmp / "access.log"
        return path.read_text().splitlines() if path.exists() else []

    def __exit__(self, *exc: object) -> None:
        if self.nginx is not None and self.nginx.poll() is None:
            self.nginx.send_signal(signal.SIGQUIT)  # graceful: workers finish, then the master exits
            try:
                self.nginx.wait(10)
            except subprocess.TimeoutExpired:
                self.nginx.kill()
                self.nginx.wait()
        for b in self.backends:
            b.__exit__()
        if self.tmp is not None:
            shutil.rmtree(self.tmp, ignore_errors=True)

    @property
    def url(self) -> str:
        host = "127.0.0.1" if self.host in ("0.0.0.0", "") else self.host
        return f"http://{host}:{self.port}"

    def cpu_seconds(self) -> float:
        """CPU of every app process (nginx's not included)."""
        return sum(b.cpu_seconds() for b in self.backends)

    def memory_mb(self) -> tuple[float, float]:
        """(VmRSS, VmHWM) summed over the app processes, in MB (``bench.load.class_burst`` reads it)."""
        pairs = [b.memory_mb() for b in self.backends]
        return sum(p[0] for p in pairs), sum(p[1] for p in pairs)


# --- what a browser's first visit costs ---------------------------------------------------------------------
@dataclass(frozen=True)
class FirstVisit:
    requests: int  # HTTP requests the page made (the websocket not counted)
    from_app: int  # of those, answered by an app process (nginx's X-Upstream header)
    kb: float  # bytes on the wire (response bodies as sent, compressed where they were)
    cpu_s: float  # the app processes' CPU over the visit


def browser_first_visits(url: str, visits: int, cpu: Any) -> list[FirstVisit]:
    """``visits`` first visits of the Learn page in Chromium (a fresh context each: nothing cached), each until
    its title is drawn and the app is idle; ``cpu()`` is read before and after each."""
    from playwright.sync_api import sync_playwright

    from tests.browser.conftest import CHROMIUM, CHROMIUM_ARGS

    out = []
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        for _ in range(visits):
            ctx = browser.new_context()
            page = ctx.new_page()
            responses: list[Any] = []
            page.on("response", lambda r, into=responses: into.append(r))
            pending: set[Any] = set()  # requests not finished yet
            page.on("request", lambda r, s=pending: s.add(r))
            page.on("requestfinished", lambda r, s=pending: s.discard(r))
            page.on("requestfailed", lambda r, s=pending: s.discard(r))
            c0 = cpu()
            page.goto(url + "/", wait_until="load")
            page.get_by_role("heading", name="Learn BLEU, step by step").first.wait_for(timeout=120_000)
            # drawn: the walk's first table (17/18) is on the page, or an exception is, the run has ended (the
            # heading and an idle status can both show before the run has streamed the walk) and every chart has
            # drawn its marks (the chart code is fetched when a chart first shows)
            page.wait_for_function(
                """() => {
                    const main = document.querySelector('[data-testid="stMain"]');
                    if (!main) return false;
                    if (main.querySelector('[data-testid="stException"]')) return true;
                    const charts = [...main.querySelectorAll('[data-testid="stVegaLiteChart"]')]
                        .filter(c => c.checkVisibility());  // a hidden tab's chart is drawn when it opens
                    const marks = '.role-mark path, .role-mark line, .role-mark text, .role-mark rect';
                    const drawn = charts.length > 0 && charts.every(c => c.querySelector(marks));
                    const app = document.querySelector('[data-testid="stApp"]');
                    return main.innerText.includes('17/18') && drawn && app
                        && app.getAttribute('data-test-script-state') === 'notRunning';
                }""",
                timeout=120_000,
            )
            c1 = cpu()
            # every request the drawn page made has been answered (fonts and code fetched late on a busy machine
            # would be missing from one visit's count and not from another's)
            deadline = time.monotonic() + 120
            while pending and time.monotonic() < deadline:
                page.wait_for_timeout(50)  # a poll interval: Playwright delivers the request events meanwhile
            # what was timed is the page a student sees: no exception element, the walk's first table drawn
            if page.locator('[data-testid="stException"]').count():
                raise RuntimeError("the first visit timed a page that shows an exception")
            if "17/18" not in page.inner_text('[data-testid="stMain"]'):
                raise RuntimeError("the first visit timed a page without the Learn walk's 17/18")
            sizes, upstream = 0, 0
            for r in responses:
                with contextlib.suppress(Exception):  # a response without sizes (aborted): not counted
                    sizes += r.request.sizes()["responseBodySize"]
                upstream += 1 if r.headers.get("x-upstream") else 0
            out.append(FirstVisit(len(responses), upstream, sizes / 1024, c1 - c0))
            ctx.close()
        browser.close()
    return out


def first_visit_costs(processes: int = 1, visits: int = 5) -> dict[str, list[FirstVisit]]:
    """First visits through nginx with the static files served by nginx and with everything proxied."""
    res = {}
    for static in (False, True):
        with ClassServer(processes, static=static) as cls:
            browser_first_visits(cls.url, 1, cls.cpu_seconds)  # warm: imports and the shared caches
            res["nginx serves static" if static else "all proxied"] = browser_first_visits(
                cls.url, visits, cls.cpu_seconds
            )
    return res


def median(xs: list[float]) -> float:
    xs = sorted(xs)
    return xs[len(xs) // 2]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--processes", type=int, default=2)
    ap.add_argument("--port", type=int, default=8501)
    ap.add_argument("--host", default="127.0.0.1")
    ap.add_argument("--measure", action="store_true", help="print a browser's first-visit costs and exit")
    ap.add_argument("--visits", type=int, default=5)
    ap.add_argument("--bench", default="", help="class sizes (e.g. 50,100): first visits at once through nginx")
    args = ap.parse_args(argv)
    if args.bench:
        with ClassServer(args.processes) as cls:
            for _ in range(4 * args.processes):  # warm every process (sessions land by their cookie)
                load.class_burst(cls, 1)  # type: ignore[arg-type]
            for n in (int(x) for x in args.bench.split(",")):
                b = load.class_burst(cls, n)  # type: ignore[arg-type]
                print(
                    f"{n} first visits at once through nginx, {args.processes} processes: p50 {b.p50:.2f} s, "
                    f"p95 {b.p95:.2f} s, max {max(b.times):.2f} s, app CPU {b.cpu_per_session:.3f} s/session, "
                    f"failures {b.failures}",
                    flush=True,
                )
        return 0
    if args.measure:
        for label, runs in first_visit_costs(1, args.visits).items():
            print(
                f"first visit, {label:20}: {median([r.requests for r in runs]):.0f} requests "
                f"({median([r.from_app for r in runs]):.0f} answered by the app), "
                f"{median([r.kb for r in runs]) / 1024:.2f} MB on the wire, "
                f"app CPU {median([r.cpu_s for r in runs]):.3f} s (median of {len(runs)})",
                flush=True,
            )
        return 0
    with ClassServer(args.processes, port=args.port, host=args.host) as cls:
        print(f"{args.processes} app processes behind nginx on http://{args.host}:{args.port} (Ctrl-C stops)")
        print(f"app processes: {', '.join(b.url for b in cls.backends)}; nginx files in {cls.tmp}", flush=True)
        try:
            assert cls.nginx is not None
            cls.nginx.wait()
        except KeyboardInterrupt:
            pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
