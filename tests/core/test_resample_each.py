"""``resample_sums_each``: the pools of several metrics from one set of draws are each metric's own pool, number for
number (WMT22 zh-en, four systems: BLEU's int rows in float32, TER's on two references, and rows whose sums need
float64), with the kernel's draws and with numpy's."""

from __future__ import annotations

import numpy as np
import pytest

from bleu_core.engine import ReferenceSet
from bleu_core.metrics import get_metric
from bleu_core.significance.resample import _exact_dtype, _stack, resample_sums, resample_sums_each


@pytest.fixture(scope="module")
def groups(wmt22) -> list[list[np.ndarray]]:
    """Counted once, with the kernels (the draws below are what the test switches)."""
    refs = wmt22.refs()
    systems = [wmt22.system(p) for p in wmt22.sys_paths[:4]]
    bleu = [ReferenceSet(refs).stats(s, 4) for s in systems]
    ter = get_metric("ter").prepare(refs)
    big = [m * 10_000 for m in bleu]  # sums past 2**24: this group needs float64, the others do not
    return [bleu, [ter.stats(s) for s in systems], big]


@pytest.mark.parametrize("kernel", ["1", pytest.param("0", marks=pytest.mark.slow)])  # the Python path: 2 s
def test_one_draw_gives_every_metrics_own_pool(groups, monkeypatch, kernel: str) -> None:
    monkeypatch.setenv("BLEU_CORE_KERNEL", kernel)
    assert _exact_dtype(_stack(groups[2])) is np.float64
    assert _exact_dtype(_stack(groups[0])) is np.float32
    together = resample_sums_each(groups, 700, 7)
    for group, pool in zip(groups, together, strict=True):
        assert np.array_equal(pool, resample_sums(group, 700, 7))
