"""Issue 36, S1: the teacher's token (``/class?teach=TOKEN``) never reaches the access log of the nginx that
``make serve-class`` runs, nor of the configuration the README documents: their log formats leave the query
string and the Referer (which repeats the page's URL on every request the page makes) out."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import threading
import time
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from bench import serve_class

ROOT = Path(__file__).resolve().parents[2]
SECRET = "uTR_CtdW3WAswzwReBnvRTe4AEkPIghj"
# nginx variables that carry the query string or a whole URL
LEAKY = ("$request ", '$request"', "$request_uri", "$args", "$query_string", "$arg_", "$http_referer", "$is_args")


class _Ok(BaseHTTPRequestHandler):
    def do_GET(self) -> None:
        self.send_response(200)
        self.send_header("Content-Length", "2")
        self.end_headers()
        self.wfile.write(b"ok")

    def log_message(self, *args: object) -> None:
        pass


@pytest.mark.skipif(not os.access(serve_class.NGINX, os.X_OK), reason="nginx not installed (`make nginx`)")
def test_the_served_class_logs_no_teacher_token(tmp_path):
    app = ThreadingHTTPServer(("127.0.0.1", 0), _Ok)
    threading.Thread(target=app.serve_forever, daemon=True).start()
    port = serve_class.load.free_port()
    conf = serve_class.CONF.format(
        tmp=tmp_path, servers=f"        server 127.0.0.1:{app.server_port};", host="127.0.0.1", port=port, static=""
    )
    (tmp_path / "nginx.conf").write_text(conf)
    nginx = subprocess.Popen(
        [serve_class.NGINX, "-p", str(tmp_path), "-c", str(tmp_path / "nginx.conf"), "-e", str(tmp_path / "error.log")],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.STDOUT,
    )
    log = tmp_path / "access.log"
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                req = urllib.request.Request(
                    f"http://127.0.0.1:{port}/class?teach={SECRET}",
                    headers={"Referer": f"http://127.0.0.1:{port}/class?teach={SECRET}"},
                )
                with urllib.request.urlopen(req, timeout=2) as r:
                    assert r.read() == b"ok"
                break
            except OSError:
                assert nginx.poll() is None, "nginx exited"
                assert time.monotonic() < deadline, "nginx did not answer within 30 s"
                time.sleep(0.1)
        while not (log.exists() and "/class" in log.read_text()) and time.monotonic() < deadline:
            time.sleep(0.05)  # nginx writes the line as the request ends
    finally:
        nginx.send_signal(signal.SIGQUIT)
        nginx.wait(10)
        app.shutdown()
    lines = [line for line in log.read_text().splitlines() if "/class" in line]
    assert len(lines) == 1
    assert '"GET /class HTTP/1.1" 200' in lines[0]
    assert SECRET not in log.read_text()


def _nginx_blocks(text: str) -> list[str]:
    return re.findall(r"```nginx\n(.*?)```", text, flags=re.S)


def test_the_documented_nginx_config_logs_no_query_string():
    (block,) = _nginx_blocks((ROOT / "README.md").read_text())
    formats = dict(re.findall(r"log_format\s+(\w+)\s+((?:'[^']*'\s*)+);", block))
    uses = re.findall(r"access_log\s+\S+\s+(\w+)", block)
    assert uses, "the README's nginx config names its access log's format"
    for name in uses:
        assert name in formats, f"access_log uses {name}, which the README does not define"
        fmt = formats[name] + " "
        assert "$uri" in fmt
        assert not [v for v in LEAKY if v in fmt], fmt
    for fmt in re.findall(r"log_format\s+\w+\s+((?:'[^']*'\s*)+);", serve_class.CONF):
        assert not [v for v in LEAKY if v in fmt + " "], fmt
