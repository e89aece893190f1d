"""Each difference to the baseline with its 95% interval on the Compare page and in its CSV (researcher walk,
features 5 and 9: "The CI of each difference should also appear in the ranking table").

The oracle is sacreBLEU's paired bootstrap arithmetic on the demo corpus (its statistics, its draws
``default_rng(12345).choice``, its per-resample score, its ``estimate_ci`` order statistics), written out here, with
the page's own settings (read from the session)."""

from __future__ import annotations

import io
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from sacrebleu.metrics import BLEU, CHRF

from bleu_app.frames.metrics import vs_interval
from bleu_app.ui import state
from tests.ui.conftest import downloaded, open_app, recorded_downloads

ROOT = Path(__file__).resolve().parents[2]
DEMO = ROOT / "bleu_app" / "demo"


def _lines(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").split("\n")[:-1]


def _oracle(metric, baseline: str) -> dict[str, tuple[float, float]]:
    """system -> (low, high) of its resampled score minus the baseline's, as sacreBLEU's paired bootstrap draws and
    scores them (float32 statistics, 1,000 resamples, seed 12345)."""
    refs = [_lines(DEMO / "reference.A.txt"), _lines(DEMO / "reference.B.txt")]
    names = sorted(p.stem for p in (DEMO / "systems").glob("*.txt"))
    stats = {
        n: np.array(metric._extract_corpus_statistics(_lines(DEMO / "systems" / f"{n}.txt"), refs), "float32")
        for n in names
    }
    idxs = np.random.default_rng(12345).choice(len(refs[0]), size=(1000, len(refs[0])), replace=True)
    scores = {
        n: np.array([metric._compute_score_from_stats(s[i].sum(0)).score for i in idxs]) for n, s in stats.items()
    }
    out = {}
    for n in names:
        d = np.sort(scores[n] - scores[baseline])
        out[n] = (float(d[len(d) // 40]), float(d[len(d) - len(d) // 40 - 1]))
    return out


def test_every_metrics_difference_has_its_interval_in_the_table_and_the_csv():
    with recorded_downloads() as made:
        at = open_app("pages/compare.py")
    assert not at.exception
    assert at.session_state[state.TOKENIZE] == "13a"  # sacreBLEU's defaults, which the oracle scores with
    assert at.session_state[state.SMOOTH] == "exp"
    baseline = at.session_state[state.COMPARE_BASELINE]
    table = next(d.value for d in at.dataframe if "BLEU vs baseline low" in d.value.columns)
    full = table.set_index("full name") if "full name" in table else table.set_index("system")
    for metric, name in ((BLEU(), "BLEU"), (CHRF(), "chrF2")):
        low, high = vs_interval(name)
        for system, (t_low, t_high) in _oracle(metric, baseline).items():
            # sacreBLEU scores float32 statistics in float32 on numpy 2 (NEP 50): to float32's precision
            assert full.loc[system, low] == pytest.approx(t_low, rel=1e-7, abs=1e-6), (name, system)
            assert full.loc[system, high] == pytest.approx(t_high, rel=1e-7, abs=1e-6), (name, system)
        assert (full.loc[baseline, low], full.loc[baseline, high]) == (0.0, 0.0)
        # the difference lies in its interval (a paired bootstrap of the same segments)
        diff = full[f"{name} vs baseline"]
        assert ((full[low] <= diff + 1e-9) & (diff - 1e-9 <= full[high])).all()
    caption = next(c.value for c in at.caption if "vs baseline low/high" in c.value)
    assert "the same resamples" in caption
    # the CSV download carries the same numbers
    csv = pd.read_csv(io.StringIO(downloaded(at, "CSV: systems", made)))
    csv = csv.set_index("full name" if "full name" in csv else "system")
    for name in ("BLEU", "chrF2"):
        for column in vs_interval(name):
            assert csv[column].to_dict() == pytest.approx(full[column].to_dict(), abs=1e-9)
