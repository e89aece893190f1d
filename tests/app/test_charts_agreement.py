"""The sentences where two metrics part (issue 33) on WMT21 en-de and WMT22 zh-en: the scores are sacreBLEU's
sentence BLEU and chrF, the gap is the difference of their percentile ranks as scipy ranks them, and the scatter
renders through vl-convert with one point per sentence and the parting ones marked."""

from __future__ import annotations

import pandas as pd
import pytest
import sacrebleu
from scipy import stats

from bleu_app.charts import agreement as charts
from bleu_app.frames import agreement, corpus as f
from tests.conftest import RealSet

LINES = 120


def _sentences(real: RealSet) -> pd.DataFrame:
    hyps = real.system(real.sys_paths[0])[:LINES]
    refs = [r[:LINES] for r in real.refs()]
    tok = "zh" if real.name.startswith("wmt22") else "13a"
    bleu, chrf = sacrebleu.BLEU(tokenize=tok, effective_order=True), sacrebleu.CHRF()
    rows = [[r[i] for r in refs] for i in range(LINES)]
    return pd.DataFrame(
        {
            f.SEGMENT: range(1, LINES + 1),
            f.SENT_BLEU: [bleu.sentence_score(h, rs).score for h, rs in zip(hyps, rows, strict=True)],
            "sentence chrF2": [chrf.sentence_score(h, rs).score for h, rs in zip(hyps, rows, strict=True)],
            f.SOURCE: real.source()[:LINES],
            f.REF: refs[0],
            f.HYP: hyps,
        }
    )


@pytest.mark.parametrize("which", ["wmt21", "wmt22"])
def test_the_sentences_they_part_on_most(which: str, request: pytest.FixtureRequest) -> None:
    s = _sentences(request.getfixturevalue(which))
    top = agreement.disagreements(s, f.SENT_BLEU, "sentence chrF2", top=10)
    ranks = stats.rankdata(s["sentence chrF2"]) - stats.rankdata(s[f.SENT_BLEU])  # ties share the average rank
    gaps = ranks * (100 / LINES)
    expected = sorted(range(LINES), key=lambda i: (-abs(gaps[i]), i))[:10]
    assert top[f.SEGMENT].tolist() == [i + 1 for i in expected]
    assert top[agreement.GAP].tolist() == pytest.approx([gaps[i] for i in expected], abs=1e-9)
    assert list(top.columns) == [f.SEGMENT, f.SENT_BLEU, "sentence chrF2", agreement.GAP, f.SOURCE, f.REF, f.HYP]
    row = top.iloc[0]
    assert row[f.HYP] == s.loc[s[f.SEGMENT] == row[f.SEGMENT], f.HYP].item()  # the texts of that sentence
    turned = agreement.disagreements(s, f.SENT_BLEU, "sentence chrF2", top=10, b_lower_is_better=True)
    assert turned[agreement.GAP].abs().max() >= top[agreement.GAP].abs().max()  # an error rate is turned first


def test_scatter_renders_a_point_per_sentence_with_the_parting_ones_marked(wmt21: RealSet) -> None:
    import vl_convert as vlc

    s = _sentences(wmt21)
    top = agreement.disagreements(s, f.SENT_BLEU, "sentence chrF2", top=7)
    chart = charts.segment_scatter(s, f.SENT_BLEU, "sentence chrF2", marked=top[f.SEGMENT].tolist())
    spec = chart.to_dict()
    assert spec["params"][0]["name"] == charts.SEGMENT_PICK
    assert {"x", "y"} <= set(spec["encoding"])
    assert "hypothesis" not in str(spec["datasets"])  # the texts stay out of the chart
    svg = vlc.vegalite_to_svg(spec)
    symbols = svg.split('class="mark-symbol')[1].split("</g>")[0]
    assert symbols.count("<path") == LINES
    assert symbols.count('fill="#D55E00"') == 7  # the marked sentences, in Okabe-Ito's vermilion
    assert "sentence chrF2 against sentence BLEU" in svg
