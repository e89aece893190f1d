"""Part II of the Learn page (issue 20.3): every number it prints from the paper is in the paper's text, and
every number it computes equals an independent computation."""

from __future__ import annotations

import math
import re
from pathlib import Path

import pytest
from scipy import stats

from bleu_app.frames import part2
from bleu_app.ui.learn import steps
from bleu_core import BleuConfig, explain_segment
from bleu_core.teaching.paper import EXAMPLE_1
from tests.ui.conftest import open_learn

ROOT = Path(__file__).resolve().parents[2]
APP = str(ROOT / "app.py")
SEED = next(Path("/work/shared/seeds").glob("003_*.txt"))
PAPER = " ".join(SEED.read_text(encoding="utf-8").split())
# numbers in Part II's prose that are not the paper's, each with why
NOT_FROM_THE_PAPER = {
    "19": "degrees of freedom of 20 paired blocks (20 - 1), computed",
    "6": "the demo's 6 blocks, for the critical value beside the paper's",
    "3": "n - 3 in Fisher's standard error",
    "30": "the demo corpus's segments",
    "100": "the paper's score of 1 on the app's 0-100 scale",
}


def in_paper(number: str) -> bool:
    return re.search(rf"(?<![\d.]){re.escape(number)}(?!\d)", PAPER) is not None


@pytest.fixture(scope="module")
def tab():
    at = open_learn()
    return at, at.tabs[1]


def _markdown(node) -> str:
    out = []
    for child in getattr(node, "children", {}).values():
        if getattr(child, "type", "") == "markdown":
            out.append(str(child.value))
        out.append(_markdown(child))
    return "\n".join(x for x in out if x)


def test_part_two_has_its_steps(tab):
    _, part = tab
    headers = [h.value for h in part.header]
    assert headers == [steps.heading(s) for s in steps.in_part("part2")]


def test_every_number_in_part_two_prose_is_the_papers(tab):
    _, part = tab
    text = _markdown(part)
    text = text.split("**Where next**")[0]  # that paragraph cites other sources, with their years
    numbers = set(re.findall(r"(?<![\w.])\d+(?:\.\d+)?(?![\w])", text))
    assert {"0.3468", "0.2571", "0.326", "0.114", "0.99", "0.96", "500", "250", "1.7", "3.4"} <= numbers
    wrong = sorted(n for n in numbers if not in_paper(n) and n not in NOT_FROM_THE_PAPER)
    assert not wrong, f"numbers printed as the paper's but not in it: {wrong}"


def test_the_check_can_fail():
    assert not in_paper("0.3467")
    assert not in_paper("1.729")
    assert in_paper("0.3468")


def test_paper_tables_are_printed_as_in_the_paper(tab):
    _, part = tab
    table_1 = part.table[0].value
    assert list(table_1["BLEU (Table 1, 0-1)"]) == list(part2.PAPER_TABLE_1)
    assert "Table 1: BLEU on 500 sentences S1 S2 S3 H1 H2 " + " ".join(part2.PAPER_TABLE_1) in PAPER
    t2 = "Table 2: Paired t-statistics on 20 blocks S1 S2 S3 H1 H2 Mean " + " ".join(part2.PAPER_TABLE_2["Mean"])
    t2 += " StdDev " + " ".join(part2.PAPER_TABLE_2["StdDev"]) + " t " + " ".join(part2.PAPER_TABLE_2["t"])
    assert t2 in PAPER
    table_2 = next(t.value for t in part.table if "StdDev" in t.value.columns)
    assert list(table_2["paired t vs left neighbour (Table 2)"]) == list(part2.PAPER_TABLE_2["t"])
    for n in part2.paper_numbers():
        assert in_paper(n), n


def test_computed_numbers_beside_the_quotes(tab):
    _, part = tab
    metrics = {m.label: m.value for m in part.metric}
    assert metrics["one-sided 95%, 19 df (computed)"] == f"{stats.t.ppf(0.95, 19):.3f}" == "1.729"
    assert metrics["two-sided 95%, 19 df (computed)"] == f"{stats.t.ppf(0.975, 19):.3f}" == "2.093"
    assert metrics["one-sided 95%, 5 df (computed)"] == f"{stats.t.ppf(0.95, 5):.3f}" == "2.015"
    table_2 = next(t.value for t in part.table if "StdDev" in t.value.columns)
    unpaired = table_2["unpaired t from Mean and StdDev (computed)"]
    assert unpaired["S3"] == f"{(0.090 - 0.081) / math.sqrt((0.025**2 + 0.020**2) / 20):.2f}" == "1.26"
    assert float(unpaired["S3"]) < 1.7 < 3.4
    # Fisher intervals for five points (teaching-text proposal C: 0.99 -> [0.85, 0.999], 0.96 -> [0.51, 0.997])
    corr = next(t.value for t in part.table if "r (the paper)" in t.value.columns).set_index("group")
    assert corr.loc["monolingual (Figure 5)", "95% interval (computed)"] == "0.85 to 0.999"
    assert corr.loc["bilingual (Figure 6)", "95% interval (computed)"] == "0.51 to 0.997"
    # Figure 7's normalization applied to Table 1
    norm = part.table[0].value["normalized by the range (computed)"]
    assert norm["S1"] == "0.000"
    assert norm["H2"] == "1.000"
    assert norm["S2"] == f"{(0.0829 - 0.0527) / (0.2571 - 0.0527):.3f}"


def test_more_references_live_on_example_1(tab):
    _, part = tab
    table = next(t.value for t in part.table if "references" in t.value.columns).set_index("references")
    paper = BleuConfig.paper()
    refs = list(EXAMPLE_1.references)
    want = [explain_segment(EXAMPLE_1.candidates[0], r, paper).score.score for r in (refs, *[[x] for x in refs])]
    assert list(table["BLEU"]) == [f"{x:.2f}" for x in want] == ["50.46", "42.09", "0.00", "0.00"]
    demo = next(t.value for t in part.table if "2 references" in t.value.columns)
    for system, row in demo.iterrows():
        both = float(row["2 references"].split()[0])
        assert both > float(row["reference.A.txt alone"].split()[0]), system
        assert both > float(row["reference.B.txt alone"].split()[0]), system


def test_what_bleu_does_not_see_is_computed(tab):
    _, part = tab
    table = next(t.value for t in part.table if "candidate" in t.value.columns)
    east = table.iloc[0]
    assert "East Asian economy" in east["candidate"]
    assert east["BLEU"] == "0.00"
    assert east["p₁ … p₄"].split(" · ")[2] == "0/4"
    humans = table.iloc[1:]
    assert len(humans) == 3
    assert all(float(x) < 100 for x in humans["BLEU"])
    text = _markdown(part)
    for source in ("chrF", "COMET", "BERTScore", "METEOR", "Popović, 2015", "Rei et al., 2020"):
        assert source in text


def test_part_two_draws_the_papers_systems_from_its_own_numbers(tab):
    # issue 34 (A13): Part II printed the paper's tables and drew nothing
    import json

    import vl_convert as vlc

    from tests.ui.test_charts_render import vega_specs

    at, _ = tab
    (spec,) = [s for s in vega_specs(at) if "Table 1" in json.dumps(s.get("title", ""))]
    df = part2.systems_frame()
    # every number drawn is the paper's, as printed in section 3's Tables 1 and 2
    for col, printed in (
        (part2.TABLE_1_BLEU, part2.PAPER_TABLE_1),
        (part2.BLOCK_MEAN, part2.PAPER_TABLE_2["Mean"]),
        (part2.BLOCK_SD, part2.PAPER_TABLE_2["StdDev"]),
    ):
        digits = len(printed[0].split(".")[1])
        assert [f"{x:.{digits}f}" for x in df[col]] == list(printed)
        assert all(in_paper(p) for p in printed)
    values = next(iter(spec["datasets"].values()))
    assert [row[part2.TABLE_1_BLEU] for row in values] == [float(x) for x in part2.PAPER_TABLE_1]
    for s, m, sd in zip(part2.SYSTEMS, part2.PAPER_TABLE_2["Mean"], part2.PAPER_TABLE_2["StdDev"], strict=True):
        assert f"{s} {m} ± {sd}" in spec["description"]
    svg = vlc.vegalite_to_svg(spec)
    # five bars, five spread lines, five mean dots: one of each mark per system
    for mark, element in (("rect", "path"), ("rule", "line"), ("symbol", "path")):
        groups = re.findall(rf'<g class="mark-{mark} role-mark[^"]*"[^>]*>(.*?)</g>', svg, flags=re.S)
        assert sum(g.count(f"<{element}") for g in groups) == len(part2.SYSTEMS), mark
