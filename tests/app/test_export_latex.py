"""Issue 24.6: a system name holding a blank line (possible from a quoted CSV header or a JSONL key) stays on its
table row in the compare page's LaTeX table (bleu_core.display.latex.escape_latex folds whitespace; held here for the
app's own table too)."""

from __future__ import annotations

import pandas as pd

from bleu_app.frames.corpus import BLEU, BP, CI_HIGH, CI_LOW, RATIO, SYSTEM
from bleu_app.ui.export import latex_table


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
