"""How long the compare page takes to redraw after a setting change, with WMT22 zh-en (12 systems, 2 refs) loaded.

Measured through AppTest (the script run, no browser): the first draw computes every statistics matrix; a
setting that keeps the tokens (smoothing) reuses them, so the redraw pays only for the arithmetic on the
matrices (scores, bootstrap CIs, the significance matrix). Import ``measure()`` or run
``python -m bench.app_redraw``.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT.parent / "shared" / "data" / "wmt22-general-zh-en"


@dataclass(frozen=True, slots=True)
class Redraw:
    """Milliseconds of the first draw and of the redraws after setting changes."""

    first_ms: float
    smoothing_ms: float
    tokenizer_ms: float

    @property
    def ratio(self) -> float:
        """Redraw after a smoothing change over the first draw."""
        return self.smoothing_ms / self.first_ms if self.first_ms else 0.0

    def report(self) -> str:
        """One line per measurement."""
        return (
            f"compare page, WMT22 zh-en (12 systems x 1875 segments, 2 refs): first draw {self.first_ms:.0f} ms; "
            f"redraw after a smoothing change {self.smoothing_ms:.0f} ms ({self.ratio:.2f} x first); "
            f"after a tokenizer change (re-tokenizes, by design) {self.tokenizer_ms:.0f} ms"
        )


def _folder() -> list[tuple[str, bytes, str]]:
    out = []
    for root, _, files in os.walk(DATA):
        for f in sorted(files):
            p = Path(root) / f
            out.append((str(p.relative_to(DATA.parent)), p.read_bytes(), "text/plain"))
    return out


def measure() -> Redraw:
    """Load the folder through the compare page's uploader, then time draws (the page's own time, not upload)."""
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=600)
    at.query_params["tok"] = "13a"
    at.query_params["lc"] = "false"
    at.query_params["smooth"] = "exp"
    at.run()
    at.switch_page("pages/compare.py").run()
    uploader = next(u for u in at.get("file_uploader") if "compare.in_folder" in u.proto.id)
    uploader.set_value(_folder())
    t = time.perf_counter()
    at.run()  # parse + first draw with every matrix computed
    first = (time.perf_counter() - t) * 1000
    assert not at.exception, [e.value for e in at.exception]
    at.session_state["smooth"] = "floor"
    t = time.perf_counter()
    at.run()
    smoothing = (time.perf_counter() - t) * 1000
    assert not at.exception, [e.value for e in at.exception]
    at.session_state["tok"] = "intl"
    t = time.perf_counter()
    at.run()
    tokenizer = (time.perf_counter() - t) * 1000
    return Redraw(first, smoothing, tokenizer)


if __name__ == "__main__":
    print(measure().report())
