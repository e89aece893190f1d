"""AppTest through app.py for the learn page: the paper's numbers, settings, the lab and the exercise."""

from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from bleu_app.ui import state
from bleu_app.ui.learn import steps
from tests.ui.conftest import caption_after, open_app, page_elements

APP = str(Path(__file__).resolve().parents[2] / "app.py")


@pytest.fixture
def at() -> AppTest:
    return open_app()


def _metrics(app: AppTest) -> dict[str, str]:
    return {m.label: m.value for m in app.metric}


def test_walk_shows_the_papers_fractions(at):
    assert at.table[0].value["Count_clip"].sum() == 2  # Example 2 first, as the paper (section 2.1): 2/7
    first = at.table[1].value
    assert first["Count_clip"].sum() == 17
    assert first["Count"].sum() == 18
    assert list(first.columns) == ["Count", "Ref 1", "Ref 2", "Ref 3", "Max_Ref_Count", "Count_clip"]
    text = "\n".join(m.value for m in at.markdown)
    for frac in ("17/18", "8/14", "10/17", "1/13"):
        assert frac in text
    m = _metrics(at)
    assert m["Plain precision (no clipping)"] == "7/7"
    assert m["Modified precision p₁"] == "2/7"
    assert m["r (best match length)"] == "16"
    assert m["Naive recall of reference words"] == "3/5"  # the last card, Candidate 2


def test_no_settings_warning_with_the_papers_preset(at):
    assert not any(b.key == "learn.use_paper" for b in at.button)


def test_other_settings_say_so_and_offer_the_paper(at):
    at.selectbox(key=state.PRESET).set_value("sacrebleu").run()
    assert not at.exception
    assert any("differ from the paper" in m.value for m in at.markdown)
    assert any("tok:13a" in c.value for c in at.caption)  # the lab's and the score's signatures
    at.button(key="learn.use_paper").click().run()
    assert at.session_state[state.TOKENIZE] == "paper"
    assert not any(b.key == "learn.use_paper" for b in at.button)
    assert at.table[1].value["Count_clip"].sum() == 17


def test_variant_lab_shows_wrong_beside_right(at):
    at.toggle(key="learn.lab.game").set_value(False).run()  # the prediction game off: numbers at once
    at.selectbox(key="learn.variant").set_value("shortest_ref").run()
    m = _metrics(at)
    assert m["Correct BLEU"] == "22.18"
    assert m["Shortest reference length"] == "23.58"
    assert any("closest" in x.value for x in at.markdown)
    at.selectbox(key="learn.variant").set_value("nltk").run()
    at.selectbox(key="learn.lab_corpus").set_value("ex3").run()
    at.selectbox(key="learn.nltk").set_value(1).run()
    assert not at.exception
    assert float(_metrics(at)["NLTK's corpus_bleu"]) > 0  # smoothing lifts the zero precisions
    table = at.dataframe[-1].value
    assert len(table) == 9


def test_every_variant_table_carries_a_signature(at):
    at.toggle(key="learn.lab.game").set_value(False).run()  # the prediction game off: numbers at once
    # review item 10: the lab's "every variant" table had no signature line
    els = page_elements(at.tabs[list(steps.TABS).index("lab")])
    start = next(i for i, e in enumerate(els) if e.type == "subheader" and e.value == "Every variant at a glance")
    sig = caption_after(els[start:], lambda e: e.type == "dataframe")
    assert "signature nrefs:var" in sig
    assert "smooth:" in sig


def _htmls(node) -> list[str]:
    """The bodies of every st.html element under ``node``."""
    out = [str(c.proto.body) for c in getattr(node, "children", {}).values() if getattr(c, "type", "") == "html"]
    for c in getattr(node, "children", {}).values():
        out += _htmls(c)
    return out


def test_paper_preset_says_punctuation_dropping_is_inferred():
    assert "inferred" in state.PRESETS["paper"].description


def _flat(node, out: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """The walk's elements in page order as (type, text): headers and prose by value, metrics by label, tables
    by their row labels."""
    for child in getattr(node, "children", {}).values():
        kind = getattr(child, "type", "")
        if kind in ("markdown", "header", "subheader", "caption"):
            out.append((kind, str(child.value)))
        elif kind == "metric":
            out.append((kind, child.label))
        elif kind == "table":
            out.append((kind, " | ".join(map(str, child.value.index))))
        _flat(child, out)
    return out


def _first(items: list[tuple[str, str]], text: str, kind: str | None = None) -> int:
    return next(i for i, (k, t) in enumerate(items) if text in t and (kind is None or k == kind))


def test_walk_defines_every_term_before_it_is_used(at):
    items = _flat(at.tabs[0], [])
    headers = [t for k, t in items if k == "header"]
    assert headers == [steps.heading(s) for s in steps.in_part("walk")]  # tests/ui/test_learn_steps.py: their text
    bp = _first(items, steps.heading(steps.get("brevity")), "header")
    # recall (2.2.1) before BP (2.2.2); c, r and log BP only from the BP step on
    assert _first(items, steps.heading(steps.get("recall")), "header") < bp
    assert _first(items, "r (best match length)", "metric") > bp
    assert _first(items, "log BP", "table") > bp
    assert _first(items, "c (candidate length)", "metric") > bp
    # the geometric mean is explained before the log domain uses it, pooling before any corpus number
    assert _first(items, "N-th root of their product") < _first(items, steps.heading(steps.get("logdomain")), "header")
    assert _first(items, "corpus: the sums", "table") < _first(items, steps.heading(steps.get("decay")), "header")


def test_scale_is_said_once_prominently():
    intro = "\n".join(m.value for m in open_app().markdown[:3])
    assert "The BLEU metric ranges from 0 to 1" in intro
    assert "0 to 100" in intro


def test_examples_3_and_4_score_0_and_what_each_fix_changes(at):
    table = next(d.value for d in at.dataframe if "+ effective order" in d.value.columns).set_index("sentence")
    # review item 4: five of the six candidates score 0 under the paper's preset, not only Examples 3 and 4
    assert len(table) == 6
    assert (table["these settings"] == 0).sum() == 5
    assert table.loc["Example 1, Candidate 1", "these settings"] == 50.46
    assert table.loc["Example 4, Candidate 2", "+ effective order"] == 100.0
    assert table.loc["Example 4, Candidate 1", "+ effective order"] == 0.0
    assert table.loc["Example 4, Candidate 1", "+ exp smoothing"] > 0  # 0/3 smoothed
    assert table.loc["Example 4, Candidate 2", "+ exp smoothing"] == 0.0  # 0/0 is not
    assert (table["+ both"] > 0).all()


def test_best_match_table_puts_three_rules_side_by_side(at):
    table = next(t.value for t in at.table if "r average" in t.value.columns)
    assert {"r closest", "r shortest", "r average"} <= set(table.columns)
    differs = set(table["differs from closest"])
    assert {"average", "shortest and average", "neither"} <= differs
    assert "tie: 15 and 17" in table.loc[16, "note"]
    assert table.loc[12, "r average"] == 14.6667  # review item 12: 44/3, not 14.67 padded to 14.6700


def test_every_variant_table_formats_bleu_and_signed_changes(at):
    at.toggle(key="learn.lab.game").set_value(False).run()  # the prediction game off: numbers at once
    # review items 12 and 20e: "22.9" beside "22.18", "1.4" unsigned, "-7.13" with an ASCII minus;
    # "(effective order, none smoothing)"
    import re

    table = next(d.value for d in at.dataframe if "numbers" in d.value.columns and "change" in d.value.columns)
    for col in ("its BLEU", "correct BLEU"):
        assert all(re.fullmatch(r"\d+\.\d\d", x) for x in table[col]), table[col].tolist()
    assert all(re.fullmatch(r"[+−]\d+\.\d\d", x) for x in table["change"]), table["change"].tolist()
    assert any(x.startswith("−") for x in table["change"])
    assert not any("-" in x for x in table["change"])
    mean = table.set_index("variant").loc["Mean of sentence BLEU called corpus BLEU", "numbers"]
    assert "none smoothing" not in mean
    assert "(without effective order, no smoothing)" in mean  # Learn opens on the paper preset (issue 34: one change)


def test_lab_nltk_methods_agree_where_no_pooled_precision_is_zero(at):
    at.toggle(key="learn.lab.game").set_value(False).run()  # the prediction game off: numbers at once
    at.selectbox(key="learn.variant").set_value("nltk").run()
    table = next(d.value for d in at.dataframe if "NLTK smoothing" in d.value.columns).set_index("NLTK smoothing")
    same = table.loc[["method0", "method1", "method3", "method4"], "its BLEU"].round(2)
    assert same.nunique() == 1
    assert same.iloc[0] == 21.70
    at.selectbox(key="learn.lab_corpus").set_value("ex3").run()
    table = next(d.value for d in at.dataframe if "NLTK smoothing" in d.value.columns).set_index("NLTK smoothing")
    assert table.loc[["method0", "method1", "method3", "method4"], "its BLEU"].round(2).nunique() > 1


def test_side_by_side_decay_charts_share_their_y_axis(at):
    """Review item 20b: the decay step's two "Precision decay" charts ran 0.1-0.9 and 0.01-0.4: not comparable."""
    import json

    specs = [json.loads(el.proto.spec) for el in at.get("vega_lite_chart")]
    decay = [s for s in specs if "log scale" in json.dumps(s) and "p_n used" in json.dumps(s)]
    assert len(decay) == 2
    domains = [s["layer"][0]["encoding"]["y"]["scale"].get("domain") for s in decay]
    assert domains[0] == domains[1]
    assert domains[0] is not None
    assert domains[0][1] == 1
    assert 0 < domains[0][0] < 0.1  # below the second candidate's smallest p_n


def _walk_html_in_order(node, out: list[tuple[str, str]]) -> list[tuple[str, str]]:
    for child in getattr(node, "children", {}).values():
        kind = getattr(child, "type", "")
        if kind == "header":
            out.append((kind, str(child.value)))
        elif kind == "html":
            out.append((kind, str(child.proto.body)))
        elif kind == "markdown":
            out.append((kind, str(child.value)))
        _walk_html_in_order(child, out)
    return out


def test_terms_appear_only_after_they_are_defined(at):
    # teaching-text items 2, 3 and 17; teacher-walk items 8-10
    items = _walk_html_in_order(at.tabs[0], [])
    bp = next(i for i, (k, t) in enumerate(items) if k == "header" and t.startswith("9 ·"))
    first_best = next(i for i, (k, t) in enumerate(items) if k == "html" and "best match length r" in t)
    assert first_best > bp
    step1 = [t for k, t in items[: next(i for i, (k, t) in enumerate(items) if t.startswith("2 ·"))]]
    text = " ".join(" ".join(step1).split())
    assert "cat" in text  # Example 2's references are shown
    assert "mat" in text
    assert "What is counted here" in text
    assert "case folding is the only text normalization performed" in text
    assert "inferred" in text
    intro = "\n".join(m.value for m in at.markdown[:3])
    for term in ("**tokens**", "**unigram**", "**signature**", "understudy", "sacreBLEU"):
        assert term in intro
    assert any("Example 2: p₂ = 0/6" in m.value for m in at.markdown)  # P 2.1: its bigram precision is 0
    assert any("geometric mean (8/14 · 1/13 · 0/12 · 0/11)^(1/4) = **0**" in m.value for m in at.markdown)


def test_the_corpus_log_terms_add_up_to_the_corpus_bleu(at):
    import math

    table = next(t.value for t in at.table if "log BP" in t.value.index and t.value.loc["log BP"].iloc[0] < 0)
    assert table.loc["log BP"].iloc[0] == round(1 - 63 / 49, 4)  # c = 49, r = 63 (teaching-text item 27)
    assert round(100 * math.exp(table.loc["log BLEU"].iloc[0]), 2) == 22.18
    # teaching-text item 13: the mean of the sentence scores beside it, marked as not BLEU
    assert any("BLEU is **22.18**" in m.value and "**8.41**, is not BLEU" in m.value for m in at.markdown)


def test_lab_says_why_a_zero_score_hides_the_mistakes(at):
    at.toggle(key="learn.lab.game").set_value(False).run()  # the prediction game off: numbers at once
    at.selectbox(key="learn.lab_corpus").set_value("ex3").run()
    assert any("most mistakes keep it at 0" in c.value for c in at.caption)
    at.selectbox(key="learn.lab_corpus").set_value("paper").run()
    assert not any("most mistakes keep it at 0" in c.value for c in at.caption)
