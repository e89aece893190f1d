"""AppTest: the compare page's "Why do A and B differ?" section (waterfall, every system vs the baseline, the
sentences that carry the gap), checked against corpus_bleu rescoring the demo files."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pandas as pd
from streamlit.dataframe_util import convert_arrow_bytes_to_pandas_df
from streamlit.testing.v1 import AppTest

from bleu_app.frames.signs import signed
from bleu_core import BleuConfig, corpus_bleu
from tests.ui.conftest import open_app

ROOT = Path(__file__).resolve().parents[2]
DEMO = ROOT / "bleu_app" / "demo"
HEAD = "Why do A and B differ?"


def _config(at: AppTest) -> BleuConfig:
    """The sidebar's settings, read from the session (whatever preset the page opened on)."""
    from bleu_app.ui import state

    ss = at.session_state
    method = ss[state.SMOOTH]
    return BleuConfig(
        tokenize=ss[state.TOKENIZE],
        lowercase=bool(ss[state.LOWERCASE]),
        smooth_method=method,
        smooth_value=float(ss[state.SMOOTH_VALUE]) if method in ("floor", "add-k") else None,
        use_effective_order=bool(ss[state.EFFECTIVE]),
        max_ngram_order=int(ss[state.MAX_ORDER]),
    )


def _lines(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").splitlines()


def _demo_bleu(system: str, config: BleuConfig, drop: int | None = None) -> float:
    refs = [_lines(DEMO / "reference.A.txt"), _lines(DEMO / "reference.B.txt")]
    hyps = _lines(DEMO / "systems" / f"{system}.txt")
    if drop is not None:
        refs = [r[:drop] + r[drop + 1 :] for r in refs]
        hyps = hyps[:drop] + hyps[drop + 1 :]
    return corpus_bleu(
        hyps,
        refs,
        tokenize=config.tokenize,
        lowercase=config.lowercase,
        smooth_method=config.smooth_method,
        smooth_value=config.smooth_value,
        use_effective_order=config.use_effective_order,
        max_ngram_order=config.max_ngram_order,
    ).score


def _charts(at: AppTest) -> list[dict]:
    return [json.loads(c.proto.spec) for c in at.get("vega_lite_chart")]


def _chart_rows(at: AppTest, title_part: str) -> list[pd.DataFrame]:
    """The data of the chart whose title contains ``title_part`` (Streamlit ships it as Arrow datasets)."""
    (chart,) = [c for c, t in zip(at.get("vega_lite_chart"), _titles(at), strict=True) if title_part in t]
    return [convert_arrow_bytes_to_pandas_df(d.data.data) for d in chart.proto.datasets]


def _titles(at: AppTest) -> list[str]:
    out = []
    for spec in _charts(at):
        t = spec.get("title")
        out.append(t.get("text", "") if isinstance(t, dict) else str(t or ""))
    return out


def test_section_numbers_equal_rescoring():
    at = open_app("pages/compare.py")
    assert HEAD in [h.value for h in at.subheader]
    a, b = at.selectbox(key="compare.a").value, at.selectbox(key="compare.b").value
    config = _config(at)
    diff = _demo_bleu(b, config) - _demo_bleu(a, config)
    line = next(m.value for m in at.markdown if " BLEU**: BP " in m.value)
    assert f"= {signed(diff)} BLEU**" in line  # the real minus sign, as the axes draw it
    assert f"under {config.smooth_method} smoothing" in line
    # the waterfall ends where the rescoring ends
    (wf,) = _chart_rows(at, "(A) →")
    assert wf["step"].tolist() == [f"A: {a}", "BP", "p1", "p2", "p3", "p4", f"B: {b}"]
    assert wf["end"].iloc[0] == _demo_bleu(a, config)
    assert math.isclose(wf["end"].iloc[-2], _demo_bleu(b, config), abs_tol=1e-9)  # the last step lands on B
    assert math.isclose(wf["end"].iloc[-1], _demo_bleu(b, config), abs_tol=1e-9)
    # the top sentence's "without it" is B - A minus B - A without it, rescored from the text
    # the gap table: shares and leave-one-out effects (the A-vs-B table lists every sentence with its share only)
    gap = next(d for d in at.dataframe if {"share of B - A", "effect on B - A"} <= set(d.value.columns)).value
    assert len(gap) == 25
    seg = int(gap.iloc[0]["segment"])
    without = _demo_bleu(b, config, drop=seg - 1) - _demo_bleu(a, config, drop=seg - 1)
    # numbers to 3 decimals (the grid sorts them by value), never -0.0
    effects, shares = gap["effect on B - A"], gap["share of B - A"]
    assert effects.dtype.kind == shares.dtype.kind == "f"
    assert effects.iloc[0] == round(diff - without, 3) + 0.0
    # the largest shares in the gap's direction first
    assert shares.is_monotonic_decreasing if diff >= 0 else shares.is_monotonic_increasing
    assert not any(str(x) == "-0.0" for x in [*effects, *shares])
    # the cumulative curve of every sentence's share ends at B - A, rescored from the text
    curve = _chart_rows(at, "How many sentences carry the gap")
    line = next(d for d in curve if "cumulative share" in d.columns)
    assert line["sentences"].iloc[-1] == len(_lines(DEMO / "reference.A.txt"))
    assert math.isclose(line["cumulative share"].iloc[-1], diff, abs_tol=1e-9)
    assert math.isclose(line["cumulative share"].iloc[0], 0.0, abs_tol=1e-12)
    # the caption says which way the gap goes, what a share is and what "without it" is
    caption = next(c.value for c in at.caption if "largest shares" in c.value)
    if diff < 0:
        assert f"{b} (B) is {-diff:.2f} BLEU points behind {a} (A)" in caption
        assert "Negative: the sentence works for A" in caption
    else:
        assert f"{b} (B) is {diff:.2f} BLEU points ahead of {a} (A)" in caption
    assert "the shares of all sentences add up to B − A exactly" in caption
    assert "leave-one-out" in caption


def test_every_system_against_the_baseline_and_log_units():
    at = open_app("pages/compare.py")
    at.selectbox(key="compare.baseline").set_value("terse").run()
    rows = _chart_rows(at, "Every system against terse")[0]
    assert set(rows["system"]) == {"careful", "chatty", "literal"}
    # terse drops words: against it, every other system gains through the brevity penalty
    assert (rows.loc[rows["term"] == "BP", "value"] > 0).all()
    config = _config(at)
    for name, net in rows.drop_duplicates("system")[["system", "B - A"]].itertuples(index=False):
        assert math.isclose(net, _demo_bleu(name, config) - _demo_bleu("terse", config), abs_tol=1e-9)
    at.segmented_control(key="compare.diff_unit").set_value("log").run()
    assert not at.exception
    assert any("log units" in t and "(A) →" in t for t in _titles(at))


def test_zero_precision_says_infinite():
    from bleu_app.ui import state

    at = open_app("pages/compare.py")
    at.selectbox(key=state.SMOOTH).set_value("none").run()
    at.text_area(key="compare.paste_ref").set_value("a b c d e f\ng h i j k l")
    at.text_area(key="compare.paste_a").set_value("a b x d y f\ng z i q k l")
    at.text_area(key="compare.paste_b").set_value("a b c d e f\ng h i j k l")
    at.button(key="compare.load_paste").click().run()
    assert not at.exception, [e.value for e in at.exception]
    warning = next(w.value for w in at.warning if "not finite" in w.value)
    assert "A has p3, p4 = 0 under none smoothing (log term -inf)" in warning
    assert not any("(A) →" in t for t in _titles(at))


def test_report_download_button_is_there():
    at = open_app("pages/compare.py")
    labels = [b.label for b in at.get("download_button")]
    assert "Report: HTML (opens offline)" in labels
    assert "Report: decomposition CSV" in labels
