"""Every download button, clicked in the browser against a server whose environment has only the runtime
dependencies (`make run` in a copy of the project: no test extra), each file checked for its type.

PNG and SVG go through vl-convert: when it was only in the test extra, these buttons did nothing after
`make run` while the test suite (one venv with both) never saw it.
"""

from __future__ import annotations

import contextlib
import csv
import io
import re
import zipfile
from pathlib import Path

from playwright.sync_api import TimeoutError as PlaywrightTimeout

from tests.browser.conftest import once_open, wait_for_app

MAIN = "[data-testid='stMain']"


def _check(name: str, data: bytes) -> None:
    if name.endswith(".png"):
        assert data.startswith(b"\x89PNG\r\n\x1a\n"), name
        assert len(data) > 2000, (name, len(data))
    elif name.endswith(".svg"):
        text = data.decode()
        assert re.search(r"<svg[^>]*xmlns=\"http://www.w3.org/2000/svg\"", text), name
        assert text.rstrip().endswith("</svg>"), name
        assert "role-mark" in text, name  # marks were drawn
    elif name.endswith(".csv"):
        text = data.decode()
        rows = list(csv.reader(io.StringIO(text)))
        assert len(rows) >= 2, (name, rows[:2])
        assert all(len(r) == len(rows[0]) for r in rows), name
        assert rows[0][-1] == "signature", (name, rows[0])  # a column, not a "# signature" line read as data
        assert rows[1][-1].split(": ", 1)[-1].startswith("nrefs:"), (name, rows[1])  # "BLEU: nrefs:..." per metric
    elif name.endswith(".tex"):
        text = data.decode()
        assert "\\begin{tabular}" in text, name
        assert "\\end{tabular}" in text, name
        assert "careful" in text, name  # a demo system's row
    elif name.endswith(".zip"):  # everything of the page: each file checked as its own download is, and a README
        with zipfile.ZipFile(io.BytesIO(data)) as z:
            names = z.namelist()
            assert names[0] == "README.txt", names
            assert len(names) >= 13, names
            for member in names[1:]:
                _check(member, z.read(member))
    elif name.endswith(".html"):
        text = data.decode()
        assert text.lstrip().lower().startswith("<!doctype html") or "<html" in text[:200].lower(), name
        assert "vegaEmbed" in text or "<svg" in text, name  # an interactive chart, or the report's inline SVG
        assert not re.search(r"<script[^>]+src=[\"']https?:", text), name  # scripts inline: opens offline
    else:
        raise AssertionError(f"unexpected download {name}")


def test_every_download_on_a_runtime_only_install(runtime_url, page, tmp_path: Path):
    page.goto(f"{runtime_url}/compare")
    wait_for_app(page, timeout=180_000)
    buttons = page.locator(f"{MAIN} [data-testid='stDownloadButton'] button")
    with contextlib.suppress(PlaywrightTimeout):  # the export row is the last thing the page draws: its 12th button
        buttons.nth(11).wait_for(timeout=120_000)  # (fewer: the assert below says how many)
    count = buttons.count()
    assert count >= 12, count  # 4 CSV, 2 LaTeX (ranking, table), 6 charts (and the report)
    seen = {}
    for i in range(count):
        button = buttons.nth(i)
        button.scroll_into_view_if_needed()
        label = button.inner_text().strip()
        try:
            with page.expect_download(timeout=120_000) as info:
                button.click()
        except Exception as exc:  # Streamlit shows nothing when the lazy callable fails: name the button
            raise AssertionError(f"{label!r} gave no file (see the server log): {exc}") from exc
        download = info.value
        assert download.failure() is None, (label, download.failure())
        path = tmp_path / download.suggested_filename
        download.save_as(path)
        _check(download.suggested_filename, path.read_bytes())
        seen[label] = download.suggested_filename
    assert {Path(n).suffix for n in seen.values()} == {".csv", ".tex", ".png", ".svg", ".html", ".zip"}, seen


def test_the_learn_pages_new_features_on_a_runtime_only_install(runtime_url, page, tmp_path: Path):
    """The handout and a round of the lab's game need nothing from the test extra: each is clicked on
    `make run`'s own environment."""
    from playwright.sync_api import expect

    from bleu_app.handout import handout_html
    from bleu_app.ui.learn import teacher
    from tests.browser.conftest import rerun_settled

    page.goto(f"{runtime_url}/learn")
    wait_for_app(page)
    page.get_by_text(teacher.EXPANDER).click()
    handout = once_open(page.get_by_role("button", name="Download the handout"))  # (a stress run saw no download)
    with page.expect_download(timeout=60_000) as info:
        handout.click()
    path = tmp_path / info.value.suggested_filename
    info.value.save_as(path)
    assert path.read_text(encoding="utf-8") == handout_html()

    page.goto(f"{runtime_url}/learn?tab=lab&variant=sentence_bp")
    wait_for_app(page)
    game = page.locator(".st-key-lab-game")
    game.get_by_text("lower BLEU", exact=True).click()
    rerun_settled(page)
    game.get_by_role("button", name="Reveal").click()
    rerun_settled(page)
    expect(page.locator(MAIN)).to_contain_text("Right: on this corpus it lowers BLEU")
    assert not page.locator("[data-testid='stException']").count()
