"""The learning curve (issue 30): when the systems are checkpoints, their score with its interval by checkpoint
in natural order, drawn by Vega (vl-convert) from real scores, and in the offline report. WMT21 en-de systems
stand in for checkpoints: their files are given checkpoint names in an order a shell's glob would give."""

from __future__ import annotations

import re

import pytest

from bleu_app.charts.checkpoints import learning_curve
from bleu_app.frames import corpus as f
from bleu_app.report import ReportOptions, build_report, corpus_matrices
from bleu_core import corpus_bleu
from bleu_core.config import BleuConfig
from bleu_core.data.corpus import Corpus, System, TextFile
from bleu_core.display.names import checkpoint_order

SYSTEMS = {"ckpt-1000": "UF", "ckpt-2": "ICL", "ckpt-30": "Online-A", "ckpt-10": "Manifold", "ckpt-300": "HuaweiTSC"}
NATURAL = ["ckpt-2", "ckpt-10", "ckpt-30", "ckpt-300", "ckpt-1000"]


@pytest.fixture(scope="module")
def checkpoints(wmt21) -> Corpus:
    ref = TextFile("reference.A.de", tuple(wmt21.refs()[0]))
    return Corpus("ckpts", (ref,), tuple(System(n, tuple(wmt21.system(s))) for n, s in SYSTEMS.items()))


def _drawn(svg: str) -> tuple[dict[str, tuple[float, float]], list[tuple[float, float]]]:
    """The points (by system, from their labels) and the line's vertices of a rendered learning curve."""
    symbols = svg.split('class="mark-symbol role-mark')[1].split("</g>", maxsplit=1)[0]
    points = {
        name: (float(x), float(y))
        for name, x, y in re.findall(
            r'aria-label="[^"]*system: ([^;"]+);[^"]*"[^>]*translate\(([\d.]+),([\d.]+)\)', symbols
        )
    }
    line = svg.split('class="mark-line role-mark')[1].split("</g>", maxsplit=1)[0]
    path = re.search(r' d="M([^"]+)"', line)
    assert path, line[:300]
    vertices = [tuple(float(v) for v in pair.split(",")) for pair in path.group(1).split("L")]
    return points, vertices  # type: ignore[return-value]


def test_the_names_read_as_checkpoints_in_natural_order(checkpoints):
    assert checkpoint_order(list(checkpoints.names)) == NATURAL
    assert checkpoint_order(list(SYSTEMS.values())) is None  # WMT's own names are not checkpoints


def test_the_curve_draws_each_checkpoints_real_score_in_natural_order(checkpoints, wmt21):
    vlc = pytest.importorskip("vl_convert")
    config = BleuConfig()
    systems = f.system_table(corpus_matrices(checkpoints, config), config, nrefs=1)
    spec = learning_curve(systems, NATURAL).to_dict()
    spec["width"] = 500
    points, vertices = _drawn(vlc.vegalite_to_svg(spec))
    assert set(points) == set(NATURAL)
    xs = [points[n][0] for n in NATURAL]
    assert xs == sorted(xs)  # left to right in natural order
    assert len(set(xs)) == len(xs)
    assert vertices == [pytest.approx(points[n], abs=1e-3) for n in NATURAL]  # the line joins them in that order
    real = {n: corpus_bleu(wmt21.system(s), [wmt21.refs()[0]]).score for n, s in SYSTEMS.items()}
    by_height = sorted(NATURAL, key=lambda n: points[n][1])  # SVG y grows downwards: the best is highest
    assert by_height == sorted(NATURAL, key=lambda n: -real[n])


@pytest.mark.slow  # 1.3 s or more: make test runs it, the one-minute loop leaves it out
def test_the_report_has_the_curve_only_for_checkpoints(checkpoints, wmt21):
    pytest.importorskip("vl_convert")
    text = build_report(checkpoints, BleuConfig(), ReportOptions(trials=100))
    curve = text[text.index("<h3>Learning curve</h3>") :]
    points, _ = _drawn(curve[: curve.index("</svg>")])
    xs = [points[n][0] for n in NATURAL]
    assert xs == sorted(xs)
    named = Corpus(
        "wmt",
        checkpoints.references,
        tuple(System(s, c.lines) for s, c in zip(SYSTEMS.values(), checkpoints.systems, strict=True)),
    )
    assert "Learning curve" not in build_report(named, BleuConfig(), ReportOptions(trials=100))
