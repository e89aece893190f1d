"""The ranking's LaTeX table: hostile names stay text, and pdflatex compiles what we print (when it is installed)."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from bleu_core.display.latex import escape_latex, ranking_table
from bleu_core.significance.ranking import rank_systems
from tests.conftest import compile_latex

HOSTILE = ["sys_1 & 100% {x}", "a\n\nb $x^2$ #1", "\\input{/etc/passwd} ~^|<>", "plain"]
P = [
    [math.nan, 0.001, 0.001, 0.001],
    [0.001, math.nan, 0.4, 0.001],
    [0.001, 0.4, math.nan, 0.002],
    [0.001, 0.001, 0.002, math.nan],
]
SCORES = [40.0, 30.5, 30.0, 20.0]


def _table(names=HOSTILE) -> str:
    r = rank_systems(names, SCORES, P)
    iv = {n: (s - 1.5, s + 1.5) for n, s in zip(names, SCORES, strict=True)}
    p = {(a, b): P[i][j] for i, a in enumerate(names) for j, b in enumerate(names) if i != j}
    return ranking_table(
        r, intervals=iv, baseline=names[3], adjusted=p, signature="nrefs:1|case:mixed|tok:13a|version:2.6.0"
    )


@pytest.mark.parametrize("name", HOSTILE)
def test_escaped_name_has_no_active_specials(name: str) -> None:
    out = escape_latex(name)
    assert "\n" not in out
    stripped = out
    for macro in (r"\textbackslash{}", r"\textasciitilde{}", r"\textasciicircum{}", r"\textless{}", r"\textgreater{}"):
        stripped = stripped.replace(macro, "")
    stripped = stripped.replace(r"\textbar{}", "")
    for c in "&%$#_{}":
        stripped = stripped.replace("\\" + c, "")
    assert not any(c in stripped for c in "\\&%$#_{}~^")


def test_table_rows_clusters_and_marks() -> None:
    tex = _table()
    body = tex.split(r"\toprule")[1].split(r"\bottomrule")[0]
    rows = [ln for ln in body.splitlines() if ln.endswith(r"\\")][1:]  # after the header
    assert [row.split(" & ")[2].split()[0] for row in rows] == ["40.00", "30.50", "30.00", "20.00"]
    # 30.5 and 30.0 are not separated (p = 0.4): they share a cluster and a rank range 2--3
    assert rows[1].startswith("2--3 & ")
    assert rows[2].startswith("2--3 & ")
    assert body.count(r"\midrule") == 3  # under the header, after rank 1, after rank 3
    assert rows[3].endswith(r"& baseline \\")
    assert rows[0].endswith(r"$+$20.00$^{*}$ \\")  # a sign in math, as the minus is
    assert "a b \\$x\\textasciicircum{}2\\$ \\#1" in rows[2] + rows[1] + rows[0] + rows[3]


@pytest.mark.tex
def test_pdflatex_compiles_the_table(tmp_path: Path) -> None:
    log = compile_latex(_table(), tmp_path)
    assert "(/etc/passwd" not in log  # the name's \\input was printed, not run
    assert "Overfull" not in log
