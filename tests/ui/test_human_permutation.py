"""AppTest: the Compare page's permutation test of which metric agrees better with segment-level human scores
(issue 30), on WMT21 en-de (reference A, four systems, the 527 segments Google's expert MQM rated for all of them)
with those MQM scores imported. Every number is held against its oracles: sacreBLEU's sentence scores of the same
lines, the mean of the file's MQM scores, and the core's test on those."""

from __future__ import annotations

import numpy as np
import pytest
import sacrebleu
from streamlit.testing.v1 import AppTest

from bleu_app.frames import human_permutation as frames
from bleu_app.ui import state
from bleu_core.significance.permutation import permutation_test
from tests.ui.conftest import open_app, uploader
from tests.ui.test_metrics_pages import SYSTEMS, _folder, _lines, _scores_tsv


@pytest.fixture(scope="module")
def compare(data_dir, wmt21) -> tuple[AppTest, dict[str, np.ndarray]]:
    at = open_app("pages/compare.py")
    uploader(at, "compare.in_folder").set_value(_folder(data_dir, wmt21)).run()
    tsv, floats = _scores_tsv(data_dir)
    uploader(at, "compare.in_scores").set_value(("mqm.tsv", tsv, "text/tab-separated-values")).run()
    assert not at.exception, [e.value for e in at.exception]
    return at, floats


def _table(at: AppTest):
    return next(d.value for d in at.dataframe if frames.OTHER in d.value.columns)


def test_mqm_is_the_gold_and_every_pair_is_tested_as_the_core_and_sacrebleu_say(compare) -> None:
    at, floats = compare
    assert at.selectbox(key="compare.human_segments").value == "MQM"  # named like human scores: chosen
    refs = _lines(at, "reference.A.de")
    corpus = at.session_state[state.CORPUS]
    bleu, chrf = sacrebleu.metrics.BLEU(effective_order=False), sacrebleu.metrics.CHRF()

    def sentence(metric, s: str) -> np.ndarray:
        return np.array([metric.sentence_score(h, [r]).score for h, r in zip(corpus.system(s).lines, refs)])

    metrics = {
        "BLEU": np.vstack([sentence(bleu, s) for s in SYSTEMS]),
        "chrF2": np.vstack([sentence(chrf, s) for s in SYSTEMS]),
    }
    gold = np.array([floats[s].mean() for s in SYSTEMS])
    table = _table(at)
    assert len(table) == 2  # one pair, under Pearson and Kendall
    for _, row in table.iterrows():
        corr = "pearson" if row[frames.CORRELATION].startswith("Pearson") else "kendall"
        t = permutation_test(gold, metrics[row[frames.OTHER]], metrics[row[frames.BETTER]], correlation=corr)
        assert t.delta >= 0  # the better one is first
        assert row[frames.CORR_BETTER] == pytest.approx(t.corr_b, abs=1e-9)
        assert row[frames.CORR_OTHER] == pytest.approx(t.corr_a, abs=1e-9)
        assert row[frames.P] == t.p_value
    captions = " ".join(c.value for c in at.caption)
    assert "segment-level permutation test (PERM-INPUTS; mt-metrics-eval's PermutationSigDiff statistic)" in captions
    assert "draws:1000 | seed:12345" in captions
    assert "resample:segments" in captions


def test_choosing_no_gold_hides_the_test(compare) -> None:
    at, _ = compare
    at.selectbox(key="compare.human_segments").set_value("(none)").run()
    assert not any(frames.OTHER in d.value.columns for d in at.dataframe)
    assert any("Choose which imported scores are human judgements" in c.value for c in at.caption)
    at.selectbox(key="compare.human_segments").set_value("MQM").run()
    assert len(_table(at)) == 2
