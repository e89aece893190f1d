"""AppTest: where the chosen metrics part on the Compare and Corpus pages (issue 33), on WMT21 en-de (reference A,
four systems, the 527 segments Google's expert MQM rated for all of them) with those MQM scores imported: each
metric's ranks from the systems table's own scores, Kendall's tau-b as scipy computes it, the moves highlighted,
and beside each difference to the baseline the share of judges expected to agree (mt-thresholds' formula) with
its source and caveat."""

from __future__ import annotations

import re

import mt_thresholds
import pandas as pd
import pytest
from scipy import stats
from streamlit.testing.v1 import AppTest

from bleu_app.frames import agreement
from bleu_app.frames.metrics import vs_interval
from bleu_app.ui import state
from bleu_app.ui.corpus.agreement import HIGHLIGHT
from tests.core.test_imported_scores import mqm_rows
from tests.ui.conftest import open_app, uploader

SYSTEMS = ("Facebook-AI", "Online-W", "UEdin", "VolcTrans-GLAT")


def _upload(at: AppTest, data_dir, wmt21, page: str) -> None:
    rows = mqm_rows(data_dir)
    rated = [i for i in range(1, 1003) if all(rows[s][i] != "None" for s in SYSTEMS)]

    def text(lines: list[str]) -> bytes:
        return ("\n".join(lines[i - 1] for i in rated) + "\n").encode()

    items = [("wmt21mqm/reference.A.de", text(wmt21.refs()[0]), "text/plain")]
    items += [(f"wmt21mqm/systems/{s}.de", text(wmt21.system(s)), "text/plain") for s in SYSTEMS]
    uploader(at, f"{page}.in_folder").set_value(items).run()
    tsv = "system\tMQM\n" + "".join(f"{s}\t{rows[s][i]}\n" for s in SYSTEMS for i in rated)
    uploader(at, f"{page}.in_scores").set_value(("mqm.tsv", tsv.encode(), "text/tab-separated-values")).run()
    at.multiselect(key=state.METRICS_BOX).set_value(["bleu", "chrf", "scores:MQM"]).run()
    assert not at.exception, [e.value for e in at.exception]


@pytest.fixture(scope="module")
def compare(data_dir, wmt21) -> AppTest:
    at = open_app("pages/compare.py")
    _upload(at, data_dir, wmt21, "compare")
    return at


def _frame(at: AppTest, column: str):
    return next(d.value for d in at.dataframe if column in d.value.columns)


def test_ranks_side_by_side_and_tau_from_the_systems_scores(compare) -> None:
    at = compare
    systems = _frame(at, "BLEU CI low").set_index("system")
    ranks = _frame(at, agreement.MOVE).set_index("system")
    assert sorted(ranks.index) == sorted(SYSTEMS)
    for name, lower_better in (("BLEU", False), ("chrF2", False), ("MQM", False)):
        scores = systems.loc[list(ranks.index), name].to_numpy()
        expected = stats.rankdata(scores if lower_better else -scores, method="min").astype(int)
        assert ranks[agreement.rank_column(name)].tolist() == expected.tolist(), name
    moved = ranks[ranks[agreement.rank_column("MQM")] != ranks[agreement.rank_column("BLEU")]]
    assert len(moved) > 0  # the judges part from BLEU on these four systems
    assert all("MQM" in m for m in moved[agreement.MOVE])
    taus = _frame(at, agreement.TAU)
    assert len(taus) == 3
    for _, row in taus.iterrows():
        theirs = stats.kendalltau(systems[row["metric A"]], systems[row["metric B"]], variant="b").statistic
        assert row[agreement.TAU] == pytest.approx(theirs, abs=1e-12)


def test_the_moves_are_highlighted(compare) -> None:
    element = next(d for d in compare.dataframe if agreement.MOVE in d.value.columns)
    table = element.value
    styled = element.proto.arrow_data.styler.styles  # the Styler's CSS, as the browser receives it
    rule = next(r for r in styled.split("}") if HIGHLIGHT in r)
    cells = set(re.findall(r"_row(\d+)_col(\d+)", rule))
    first = table[agreement.rank_column("BLEU")]
    expected = set()
    for name in ("chrF2", "MQM"):
        col = list(table.columns).index(agreement.rank_column(name))
        expected |= {(str(i), str(col)) for i in range(len(table)) if table[agreement.rank_column(name)][i] != first[i]}
    moves = list(table.columns).index(agreement.MOVE)
    expected |= {(str(i), str(moves)) for i in range(len(table)) if table[agreement.MOVE][i]}
    assert expected
    assert cells == expected


def test_judges_agreeing_beside_each_difference_with_its_source(compare) -> None:
    at = compare
    systems = _frame(at, "BLEU CI low")
    columns = list(systems.columns)
    for name, fitted in (("BLEU", "bleu"), ("chrF2", "chrf")):
        delta, share = f"{name} vs baseline", agreement.accuracy_column(name)
        low, high = vs_interval(name)  # the difference, its interval, then the judges' share of it
        assert columns.index(low) == columns.index(delta) + 1
        assert columns.index(share) == columns.index(high) + 1 == columns.index(delta) + 3
        for _, row in systems.iterrows():
            if row[delta] == 0:
                assert pd.isna(row[share])  # the baseline: no difference, no share
            else:
                assert row[share] == pytest.approx(mt_thresholds.accuracy(abs(row[delta]), fitted), abs=1e-9)
    assert agreement.accuracy_column("MQM") not in columns  # not fitted
    assert any(c.value == agreement.ACCURACY_CAVEAT for c in at.caption)


def test_the_corpus_page_shows_the_same_ranks(compare) -> None:
    at = compare
    expected = _frame(at, agreement.MOVE)
    at.switch_page("pages/corpus.py").run()
    assert not at.exception, [e.value for e in at.exception]
    shown = _frame(at, agreement.MOVE)
    assert shown[["system", agreement.MOVE]].equals(expected[["system", agreement.MOVE]])
    assert _frame(at, agreement.TAU)[agreement.TAU].tolist() == pytest.approx(
        _frame(compare, agreement.TAU)[agreement.TAU].tolist()
    )


def test_the_corpus_page_lists_the_sentences_bleu_and_chrf_part_on(compare) -> None:
    at = compare
    at.switch_page("pages/corpus.py").run()
    assert not at.exception, [e.value for e in at.exception]
    table = next(d for d in at.dataframe if "corpus.disagree" in d.proto.id)
    top = table.value
    assert list(top.columns) == ["segment", "sentence BLEU", "sentence chrF2", agreement.GAP, "reference", "hypothesis"]
    assert len(top) == 10
    assert top[agreement.GAP].abs().is_monotonic_decreasing
    assert table.proto.selection_mode  # a row opens the One sentence page (selection.row_opener)
    system = at.session_state[state.CORPUS_SYSTEM]
    corpus = at.session_state[state.CORPUS]
    refs = corpus.ref_streams[0]
    for _, row in top.iterrows():  # the texts are that segment's
        assert row["hypothesis"] == corpus.system(system).lines[row["segment"] - 1]
        assert row["reference"] == refs[row["segment"] - 1]
    chart = next(c for c in at.get("vega_lite_chart") if "segment_pick" in c.proto.spec)
    assert "sentence chrF2 against sentence BLEU" in chart.proto.spec
