"""The marks by name (bleu_core.display.marks) are the CLI's family test, whatever order a caller holds its
systems in: the page and the report (systems in corpus order, any baseline) mark what the CLI marks (baseline
first, or checkpoints in natural order)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from bleu_core.display.marks import family_marks
from bleu_core.significance.families import FAMILIES, family_test
from bleu_core.significance.pairwise import holm


def _matrices(n: int, seed: int) -> tuple[list[list[float]], list[list[float]]]:
    rng = np.random.default_rng(seed)
    p = rng.uniform(0, 0.08, size=(n, n))
    p = np.triu(p, 1) + np.triu(p, 1).T
    np.fill_diagonal(p, math.nan)
    pairs = [(i, j) for i in range(n) for j in range(i + 1, n)]
    adjusted = np.full((n, n), math.nan)
    for (i, j), a in zip(pairs, holm([p[i, j] for i, j in pairs]), strict=True):
        adjusted[i, j] = adjusted[j, i] = a
    return p.tolist(), adjusted.tolist()


@pytest.mark.parametrize("family", FAMILIES)
@pytest.mark.parametrize("seed", range(5))
def test_marks_by_name_are_the_clis_in_any_order(family, seed):
    cli_order = ["ckpt-2", "ckpt-9", "ckpt-10", "ckpt-30", "ckpt-100"]  # baseline first, and natural order
    p, adjusted = _matrices(len(cli_order), seed)
    cli = family_test(p, adjusted, family, 0.05)
    shuffled = [cli_order[k] for k in np.random.default_rng(seed).permutation(len(cli_order))]
    where = [cli_order.index(n) for n in shuffled]
    p_page = [[p[i][j] for j in where] for i in where]
    adjusted_page = [[adjusted[i][j] for j in where] for i in where]
    marks = family_marks(shuffled, p_page, adjusted_page, baseline="ckpt-2", family=family)
    if family == "consecutive":
        assert marks.order == tuple(cli_order)  # natural order, whatever order the names came in
    else:
        assert marks.order[0] == "ckpt-2"
        assert sorted(marks.order) == sorted(cli_order)
    for j, name in enumerate(cli_order):
        assert marks.marked(name) == cli.marked(j)
        assert marks.adjusted(name) == cli.adjusted[j]
        against = cli.against[j]
        assert marks.against(name) == (None if against is None else cli_order[against])
    assert marks.words == cli.words
