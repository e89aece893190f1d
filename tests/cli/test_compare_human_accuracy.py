"""``compare --json``: each system's difference from the baseline and the share of human judges expected to agree
with it (Kocmi et al. 2024), held against the authors' mt-thresholds package; null where they fitted nothing."""

from __future__ import annotations

import json

import mt_thresholds
import pytest

from bleu_core.significance.thresholds import HUMAN_ACCURACY
from tests.cli.conftest import Cli
from tests.conftest import RealSet


@pytest.mark.parametrize("which", ["wmt21", "wmt22"])
@pytest.mark.slow  # 1.3 s or more: make test runs it, the one-minute loop leaves it out
def test_delta_and_human_accuracy_per_metric(cli: Cli, which: str, request: pytest.FixtureRequest) -> None:
    real: RealSet = request.getfixturevalue(which)
    systems = [str(p) for p in real.sys_paths[:4]]
    tokenize = ["--tokenize", "zh"] if which == "wmt22" else []
    argv = ["compare", str(real.ref_paths[0]), "-i", *systems, *tokenize, "-m", "bleu", "chrf", "ter"]
    rc, out, err = cli(*argv, "--chrf-word-order", "0", "--paired-ar", "50", "--json")
    assert rc == 0, err
    got = json.loads(out)
    assert "Kocmi" in got["human_accuracy_source"]
    by_name = {m["name"]: m for m in got["metrics"]}
    assert [m["human_accuracy_fitted_as"] for m in got["metrics"]] == ["bleu", "chrf", None]
    for name, fitted in (("BLEU", "bleu"), ("chrF2", "chrf")):
        rows = by_name[name]["systems"]
        assert rows[0]["delta"] is None
        assert rows[0]["human_accuracy"] is None
        for row in rows[1:]:
            assert row["delta"] == pytest.approx(row["score"] - rows[0]["score"], abs=1e-12)
            theirs = mt_thresholds.accuracy(abs(row["delta"]), fitted)
            assert row["human_accuracy"] == pytest.approx(theirs, abs=1e-9)
            ceiling = HUMAN_ACCURACY[fitted][0]  # the curve runs from a / 2 (no difference) up to a
            assert ceiling / 2 <= row["human_accuracy"] < ceiling
    assert all(row["human_accuracy"] is None for row in by_name["TER"]["systems"])  # TER was not fitted
    assert by_name["TER"]["systems"][1]["delta"] is not None
    assert got["systems"] == by_name["BLEU"]["systems"]  # the first metric's fields at the top, as before


def test_chrf_plus_plus_is_not_what_they_fitted(cli: Cli, wmt21: RealSet) -> None:
    systems = [str(p) for p in wmt21.sys_paths[:2]]
    argv = ["compare", str(wmt21.ref_paths[0]), "-i", *systems, "-m", "chrf", "--chrf-word-order", "2"]
    rc, out, err = cli(*argv, "--paired-ar", "20", "--json")
    assert rc == 0, err
    got = json.loads(out)
    assert got["metrics"][0]["human_accuracy_fitted_as"] is None
    assert got["systems"][1]["human_accuracy"] is None
    assert got["systems"][1]["delta"] is not None
