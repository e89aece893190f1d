"""One meaning of ``*`` per run (issue 30): the compare page's ranking, its offline report and the CLI's JSON mark
the same systems for the same test, for each family the CLI offers (all pairs, ``--baseline-only``,
``--consecutive``), and the page and the report say which test it is. WMT21 en-de, six systems, every segment."""

from __future__ import annotations

import html
import json
import re
import subprocess

import pytest
from streamlit.testing.v1 import AppTest

from bleu_app.ui import state
from bleu_core.significance.families import FAMILIES, comparisons
from tests.ui.conftest import downloaded, open_app, recorded_downloads, uploader

SYSTEMS = ("UF", "Online-A", "ICL", "Manifold", "HuaweiTSC", "Online-W")  # UF the baseline, as the CLI's first
FLAGS = {"all": [], "baseline": ["--baseline-only"], "consecutive": ["--consecutive"]}
ROW = re.compile(r'<td class="name" title="([^"]*)">.*?<td class="vs">([^<]*)</td>')


def _ranking_cells(text: str) -> dict[str, str]:
    """The marked column of the first ranking table in ``text`` (HTML), by full system name."""
    table = text[text.index('<table class="bleu-ranking">') :]
    table = table[: table.index("</table>")]
    return {html.unescape(n): html.unescape(v) for n, v in ROW.findall(table)}


@pytest.fixture(scope="module")
def page(wmt21) -> AppTest:
    files = [("w21/reference.A.de", wmt21.ref_paths[0].read_bytes(), "text/plain")]
    files += [(f"w21/systems/{s}.de", wmt21.path(s).read_bytes(), "text/plain") for s in SYSTEMS]
    at = open_app("pages/compare.py")
    at.multiselect(key=state.METRICS_BOX).set_value(["bleu"]).run()
    uploader(at, "compare.in_folder").set_value(files).run()
    at.selectbox(key=state.BASELINE_BOX).set_value("UF").run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def _cli(python: str, wmt21, family: str, trials: int) -> dict[str, bool]:
    hyps = [str(wmt21.path(s)) for s in SYSTEMS]
    args = [python, "-m", "bleu_cli", "compare", str(wmt21.ref_paths[0]), "-i", *hyps, "--json"]
    args += ["--paired-bs-n", str(trials), "--seed", "12345", *FLAGS[family]]
    out = subprocess.run(args, capture_output=True, text=True, check=True, timeout=600)
    data = json.loads(out.stdout)
    assert data["family"] == family
    return {row["system"].removesuffix(".de"): row["significant"] for row in data["systems"]}


@pytest.mark.parametrize("family", FAMILIES)
def test_page_report_and_cli_mark_the_same_systems(page, wmt21, python, family):
    with recorded_downloads() as made:
        page.segmented_control(key=state.COMPARE_FAMILY).set_value(family).run()
    assert not page.exception, [e.value for e in page.exception]
    trials = int(page.session_state[state.COMPARE_TRIALS])
    shown = _ranking_cells(next(h.proto.body for h in page.get("html") if "bleu-ranking" in h.proto.body))
    report = downloaded(page, "Report: HTML (opens offline)", made)
    in_report = _ranking_cells(report)
    assert shown == in_report  # the same differences and marks
    cli = _cli(python, wmt21, family, trials)
    assert {n: v.endswith("*") for n, v in shown.items()} == cli
    n_tests = comparisons(len(SYSTEMS), family)
    said = " ".join(c.value for c in page.caption)
    assert f"corrected over {'all ' if family == 'all' else 'the '}{n_tests}" in said
    assert f"corrected over {'all ' if family == 'all' else 'the '}{n_tests}" in report
    tex = downloaded(page, "LaTeX: ranking", made)  # the LaTeX ranking's caption names the same test
    assert f"corrected over {'all ' if family == 'all' else 'the '}{n_tests}" in tex
    body = tex[tex.index("\\midrule") : tex.index("\\bottomrule")]
    assert body.count("$^{*}$") == sum(cli.values())
    if family == "consecutive":
        assert shown["HuaweiTSC"] == "—"  # the first in natural order has no previous system
    else:
        assert shown["UF"] == "baseline"


def test_each_shown_metric_has_its_own_latex_ranking(wmt21) -> None:
    """Issue 32: chrF is everywhere BLEU is: with BLEU and chrF shown, the page offers both rankings as LaTeX, each
    naming its metric (header, caption, label) and signed by its own test; chrF's rows are chrF's page order."""
    files = [("w21/reference.A.de", wmt21.ref_paths[0].read_bytes(), "text/plain")]
    files += [(f"w21/systems/{s}.de", wmt21.path(s).read_bytes(), "text/plain") for s in SYSTEMS[:4]]
    at = open_app("pages/compare.py")
    at.multiselect(key=state.METRICS_BOX).set_value(["bleu", "chrf"]).run()
    with recorded_downloads() as made:
        uploader(at, "compare.in_folder").set_value(files).run()
    assert not at.exception, [e.value for e in at.exception]
    bleu, chrf = downloaded(at, "LaTeX: ranking", made), downloaded(at, "LaTeX: ranking (chrF2)", made)
    assert "\\label{tab:bleu}" in bleu
    assert "\\label{tab:chrf2}" in chrf
    assert "& chrF2" in chrf.split("\\midrule", 1)[0]
    assert "BLEU" not in chrf.replace("sacreBLEU", "")
    assert "nc:6" in chrf
    assert "nw:0" in chrf
    assert "tok:" not in chrf
    rows = [r for r in chrf.split("\\midrule", 1)[1].split("\\bottomrule", 1)[0].splitlines() if "&" in r]
    scores = [float(r.split(" & ")[2]) for r in rows]
    assert len(scores) == 4
    assert scores == sorted(scores, reverse=True)
