"""Everything of the Compare page in one zip (researcher walk, feature 9: "Download everything as one zip"): every
CSV, LaTeX table and chart the page's buttons give, file for file the same bytes, and a README.txt that says what was
compared, how, what each file is and every signature of the numbers in them."""

from __future__ import annotations

import io
import zipfile

from bleu_app.ui import state
from tests.ui.conftest import downloaded, open_app, recorded_downloads


def _bytes(at, label: str, made) -> bytes:
    button = next(b for b in at.get("download_button") if b.proto.label == label)
    data = made[button.proto.deferred_file_id]()
    return data.encode() if isinstance(data, str) else data


def test_the_zip_holds_every_download_and_a_readme_that_names_them():
    with recorded_downloads() as made:
        at = open_app("pages/compare.py")
    assert not at.exception
    labels = [b.proto.label for b in at.get("download_button")]
    assert "Everything: zip" in labels
    with zipfile.ZipFile(io.BytesIO(_bytes(at, "Everything: zip", made))) as z:
        names = z.namelist()
        files = {n: z.read(n) for n in names}
    assert names[0] == "README.txt"
    # every CSV, LaTeX and chart download is in the zip, byte for byte (PNGs are left out: the SVGs are the same
    # charts as vectors)
    by_file = {}
    for b in at.get("download_button"):
        if b.proto.label.startswith(("CSV:", "LaTeX:", "Chart:")) and not b.proto.label.endswith("PNG"):
            by_file[b.proto.label] = _bytes(at, b.proto.label, made)
    assert len(by_file) >= 12, sorted(by_file)  # 4 CSVs, 3 LaTeX (two rankings, the table), 4 SVGs, 2 HTML
    contents = set(files.values())
    missing = [label for label, data in by_file.items() if data not in contents]
    assert not missing, missing
    assert not [n for n in names if n.endswith(".png")]
    assert {"systems.csv", "significance.csv", "ranking.tex", "chrF2_ranking.tex", "bleu_ci.svg"} <= set(names)
    readme = files["README.txt"].decode()
    baseline = at.session_state[state.COMPARE_BASELINE]
    assert f"(baseline {baseline})" in readme
    assert "paired bootstrap, 1000 trials, seed 12345" in readme
    assert "* = " in readme  # what the rankings' marks are, as the page says it
    for n in names[1:]:
        assert n in readme, n  # every file is listed
    systems = downloaded(at, "CSV: systems", made)
    header = systems.splitlines()[0]
    assert header.endswith("sacreBLEU signature,signature")
    for cell in systems.splitlines()[1].split(",")[-2:]:  # the CSV's signatures are the README's
        for part in cell.split(";"):
            assert part.split(": ", 1)[1].strip() in readme, part
