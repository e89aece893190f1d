"""Issue 24.6: a system name holding a blank line (possible from a quoted CSV header or a JSONL key) stays on its
table row in the compare page's LaTeX table (bleu_core.display.latex.escape_latex folds whitespace; held here for the
app's own table too)."""

from __future__ import annotations

import pandas as pd
import pytest

from bleu_app.frames.corpus import BLEU, BP, CI_HIGH, CI_LOW, RATIO, SYSTEM
from bleu_app.ui.components.export import latex_table


def test_a_name_with_a_blank_line_stays_in_its_row() -> None:
    names = ["first\n\nsecond $x$", "plain"]
    df = pd.DataFrame(
        {SYSTEM: names, BLEU: [1.0, 2.0], CI_LOW: [0.5, 1.5], CI_HIGH: [1.5, 2.5], BP: [1.0, 1.0], RATIO: [1.0, 1.0]}
    )
    tex = latex_table(df, signature="nrefs:1|tok:13a")
    body = tex.split("\\midrule\n", 1)[1].split("\\bottomrule", 1)[0].splitlines()
    assert body == [
        "first second \\$x\\$ & 1.00 [0.50, 1.50] & 1.000 & 1.000 \\\\",
        "plain & 2.00 [1.50, 2.50] & 1.000 & 1.000 \\\\",
    ]
    assert "\n\n" not in tex


@pytest.mark.tex
def test_a_ter_ranking_is_named_ter_with_both_signatures_and_compiles(wmt22, tmp_path) -> None:
    """The compare page's LaTeX ranking of another metric (TER on WMT22 zh-en, four systems, 200 segments): its
    header, caption and label name the metric, the lowest TER ranks first, and pdflatex compiles it."""
    from bleu_app.frames import corpus as f, metrics as mf
    from bleu_app.ui.components.export import ranking_latex
    from bleu_app.views.ranking import ranking_view
    from bleu_core.metrics import get_metric
    from tests.conftest import compile_latex

    ter = get_metric("ter")
    refs = ter.prepare([wmt22.refs()[0][:200]])
    mats = {p.stem: refs.stats(wmt22.system(p)[:200]) for p in wmt22.sys_paths[:4]}
    names = list(mats)
    table = f.system_table(mats, ter, nrefs=1, baseline=names[0])
    p, ph, delta = f.pairwise(list(mats.values()), ter, trials=300)
    sig = f.significance_frame(names, p, ph, delta)
    view = ranking_view(table, sig, names, names[0], metric=ter)
    tex = ranking_latex(view, names[0], mf.signed(ter, 1, {"bs": 300, "rs": 12345}), metric="TER")
    assert "& TER" in tex.split("\\midrule", 1)[0]
    assert "BLEU" not in tex.replace("sacreBLEU", "")
    assert "tok:tercom" in tex
    assert "\\label{tab:ter}" in tex
    rows = [line for line in tex.split("\\midrule", 1)[1].split("\\bottomrule", 1)[0].splitlines() if "&" in line]
    shown = [line.split(" & ")[1] for line in rows]
    assert len(shown) == 4
    assert [float(line.split(" & ")[2]) for line in rows] == sorted(float(line.split(" & ")[2]) for line in rows)
    compile_latex(tex, tmp_path)
