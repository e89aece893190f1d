"""Browser: the Compare page on WMT21 en-de with its files named as WMT names them (a shared prefix), at 1280 px and
in a phone-width window (researcher walk B2, B3, P4).

- The A-vs-B scatter's title, after A and B are changed, shows both its lines whole inside the chart (its first
  line was half cut after load and gone after a change) and names A and B by the short names of the tables.
- Every chip of the degenerate outputs' "Flags" box is whole: Streamlit 1.67 draws a chip as a ``span[data-tag]``
  (react-aria; there is no ``[data-baseweb='tag']``), its text in a ``span[title]`` that an ellipsis cuts when the
  chip is squeezed. Each chip's text must fit its span and each chip must lie inside the box, left of its clear
  button.
"""

from __future__ import annotations

import shutil
from io import BytesIO
from pathlib import Path
from typing import Any

import pytest
from PIL import Image
from playwright.sync_api import Page, expect

from tests.browser.conftest import rerun_settled, shot, wait_for_app
from tests.browser.test_corpus_compare import MAIN, SCATTER, _load_folder

SYSTEMS = ("UEdin", "Online-B", "Facebook-AI", "VolcTrans-GLAT")  # 4 x 1002 lines: diagnosed as the page opens
PREFIX = "newstest2021.en-de."
WIDTHS = (1280, 420)

# The title's lines (Vega draws a multi-line title as tspans) against the chart's SVG, which clips what lies outside
_TITLE = r"""(sel) => {
  const svg = document.querySelector(sel + ' svg.marks');
  const box = svg.getBoundingClientRect();
  return [...svg.querySelectorAll('.role-title-text tspan')].map(t => {
    const r = t.getBoundingClientRect();
    return {text: t.textContent, top: r.top - box.top, bottom: r.bottom - box.top, left: r.left - box.left,
            right: r.right - box.left, width: box.width, height: box.height};
  });
}"""

# Each chip of the multiselect labelled ``label``: its text's widths (an ellipsis cuts it when scrollWidth exceeds
# clientWidth) and its box against the box of the whole field and the field's clear button
_CHIPS = r"""(label) => {
  const box = [...document.querySelectorAll("[data-testid='stMain'] [data-testid='stMultiSelect']")]
    .find(m => m.querySelector('label') && m.querySelector('label').textContent.trim() === label);
  const field = box.querySelector('.react-aria-ComboBox [role=group]').getBoundingClientRect();
  const clear = box.querySelector(".react-aria-ComboBox button[aria-label='Clear all']");
  const stop = clear ? clear.getBoundingClientRect().left : field.right;
  return [...box.querySelectorAll('.react-aria-ComboBox span[data-tag]')].map(tag => {
    const text = tag.querySelector('span[title]');
    const r = tag.getBoundingClientRect();
    return {name: text.textContent, scroll: text.scrollWidth, client: text.clientWidth, left: r.left - field.left,
            right: r.right, top: r.top - field.top, bottom: r.bottom - field.bottom, stop};
  });
}"""


# names that share nothing to strip and are longer than a phone's chart is wide
LONG = {
    "UEdin": "UEdin-deep-transformer-with-back-translation",
    "Online-B": "Online-B-commercial-system-snapshot-2021",
    "Facebook-AI": "Facebook-AI-multilingual-dense-and-sparse",
    "VolcTrans-GLAT": "VolcTrans-GLAT-non-autoregressive-glancing",
}


@pytest.fixture(scope="module")
def wmt21_long(tmp_path_factory: pytest.TempPathFactory, data_dir: Path) -> Path:
    """The same files under long names with nothing in common (outside the project)."""
    src = data_dir / "wmt21-news-en-de"
    folder = tmp_path_factory.mktemp("long") / "wmt21-long"
    (folder / "systems").mkdir(parents=True)
    shutil.copy(src / "reference.A.de", folder / "reference.A.de")
    for s, name in LONG.items():
        shutil.copy(src / "systems" / f"{s}.de", folder / "systems" / f"{name}.de")
    return folder


@pytest.fixture(scope="module")
def wmt21_named(tmp_path_factory: pytest.TempPathFactory, data_dir: Path) -> Path:
    """The WMT21 reference A and five systems in a folder, each file named as WMT names it (outside the project)."""
    src = data_dir / "wmt21-news-en-de"
    folder = tmp_path_factory.mktemp("named") / "wmt21-named"
    (folder / "systems").mkdir(parents=True)
    shutil.copy(src / "reference.A.de", folder / "reference.A.de")
    for s in SYSTEMS:
        shutil.copy(src / "systems" / f"{s}.de", folder / "systems" / f"{PREFIX}{s}.de")
    return folder


def _choose(page: Page, label: str, short: str) -> None:
    """Pick ``short`` (as the picker shows it) in the selectbox labelled ``label``."""
    box = page.locator(f"{MAIN} [data-testid='stSelectbox']").filter(has_text=label).first
    box.scroll_into_view_if_needed()
    box.click()
    page.get_by_role("option", name=short, exact=True).click()
    rerun_settled(page, timeout=180_000)


def _title_lines(page: Page) -> list[dict[str, Any]]:
    page.locator(SCATTER).scroll_into_view_if_needed()
    page.wait_for_function(f"() => document.querySelector({SCATTER + ' svg.marks .role-title-text tspan'!r})")
    return list(page.evaluate(_TITLE, SCATTER))


def _assert_whole(lines: list[dict[str, Any]], a: str, b: str, where: str) -> None:
    first, second = (line["text"] for line in lines)
    assert first == "Sentence BLEU", where
    pair = f"{a} (A) vs {b} (B)"  # or cut with an ellipsis where it is wider than the chart
    assert second == pair or (second.endswith("…") and pair.startswith(second[:-1])), (where, second)
    for line in lines:
        # a glyph's box may rise 3 px above the SVG's top with its ink below it (as every chart's title check allows)
        assert line["top"] >= -3, (where, line)
        assert line["left"] >= -1, (where, line)
        assert line["right"] <= line["width"] + 1, (where, line)  # not cut at the right in a narrow window
        assert line["bottom"] <= line["height"], (where, line)


@pytest.mark.parametrize(("width", "names"), [(1280, "wmt"), (420, "wmt"), (420, "long")])
def test_the_scatters_title_is_whole_after_a_and_b_change(app_url, new_page, wmt21_named, wmt21_long, width, names):
    page = new_page(width=width, height=1000)
    page.goto(f"{app_url}/compare")
    wait_for_app(page)
    _load_folder(page, wmt21_named if names == "wmt" else wmt21_long)
    a, b = ("Online-B", "VolcTrans-GLAT") if names == "wmt" else (LONG["Online-B"], LONG["VolcTrans-GLAT"])
    _choose(page, "System A", a)
    _choose(page, "System B", b)
    lines = _title_lines(page)
    _assert_whole(lines, a, b, f"{width} px, {names} names")
    shot(page, f"compare_scatter_title_{width}_{names}")
    # the ink: no dark pixel of the title on the chart's top row (a cut glyph would end there)
    image = Image.open(BytesIO(page.locator(SCATTER).screenshot())).convert("L")
    top_row = [image.getpixel((x, 0)) for x in range(min(image.width, int(lines[0]["right"]) + 1))]
    assert min(top_row) >= 128, f"{width} px: the title's ink reaches the chart's top edge (cut)"


@pytest.mark.parametrize("width", WIDTHS)
def test_every_flags_chip_is_whole(app_url, new_page, wmt21_named, width):
    page = new_page(width=width, height=1000)
    page.goto(f"{app_url}/compare")
    wait_for_app(page)
    _load_folder(page, wmt21_named)
    flags = page.locator(f"{MAIN} [data-testid='stMultiSelect']").filter(has_text="Flags").first
    expect(flags).to_be_attached(timeout=120_000)
    flags.scroll_into_view_if_needed()
    chips = page.evaluate(_CHIPS, "Flags")
    assert [c["name"] for c in chips] == ["empty", "repetition", "length", "copy", "untranslated"], chips
    for chip in chips:
        assert chip["scroll"] <= chip["client"], (width, chip)  # its text is not cut by an ellipsis
        assert chip["left"] >= 0, (width, chip)
        assert chip["right"] <= chip["stop"], (width, chip)  # left of the clear button, not under it
        assert chip["top"] >= 0, (width, chip)
        assert chip["bottom"] <= 0, (width, chip)
    shot(page, f"compare_flags_{width}")
