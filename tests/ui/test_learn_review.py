"""The browser review's Learn and Sentence items (notes/review/REPORT.md items 8, 10-14, 17, 18, 20, 21), read from
what the pages render (AppTest) and, for the chart, from a vl-convert render at a phone's width."""

from __future__ import annotations

import re
from pathlib import Path

import vl_convert as vlc
from streamlit.testing.v1 import AppTest

from bleu_app.charts import sentence as charts
from bleu_app.frames import sentence as sentence_frames
from bleu_app.lessons import spot
from bleu_app.ui import state
from bleu_app.ui.learn import exercise, lab, present, steps, teacher
from bleu_core.config import BleuConfig
from bleu_core.teaching.explain import explain_segment
from tests.ui.conftest import open_app, open_learn, uploader

ROOT = Path(__file__).resolve().parents[2]
APP = str(ROOT / "app.py")
INTRO = "BLEU (Papineni et al., 2002) scores a machine translation"


def _top_level_texts(at: AppTest) -> list[str]:
    """The Markdown rendered directly in the page's main area (not inside an expander or a tab)."""
    return [getattr(b, "value", "") for b in at.main.children.values() if getattr(b, "type", "") == "markdown"]


def _before_tabs(at: AppTest) -> list[str]:
    out = []
    for b in at.main.children.values():
        if "tab_container" in {f.name for f, _ in b.proto.ListFields()}:
            break
        out.append(getattr(b, "type", ""))
    return out


# --- item 8: a deep link folds the intro and the plan ---------------------------------------------------------
def test_a_deep_link_folds_the_intro_and_the_plan_before_the_tabs():
    for params in ({"tab": "cards", "item": "human"}, {"tab": "exercise", "item": "spot-shortest"}, {"tab": "lab"}):
        at = open_learn(**params)
        assert _before_tabs(at) == ["title", "expander"], params  # nothing else before the tabs
        folded = at.expander[0]
        assert folded.label == teacher.FOLDED
        assert folded.proto.expanded is False
        inside = " ".join(m.value for m in folded.markdown)
        assert INTRO in inside  # the intro is there, folded
        assert "50-minute lecture" in inside  # and the plan
        assert not any(INTRO in t for t in _top_level_texts(at))
    plain = open_learn()  # the page's own start: the intro open, the plan in its own expander
    assert any(INTRO in t for t in _top_level_texts(plain))
    assert plain.expander[0].label == teacher.EXPANDER


# --- item 20: presenter mode drops the page title; its CSS scales the radio --------------------------------------
def test_presenter_mode_has_no_page_title_and_scales_the_radio():
    at = open_learn(present="1", step="opening")
    assert not at.title
    assert at.header[0].value == steps.heading(steps.get("opening"))
    css = "".join(m.value for m in at.markdown)
    assert f"scale({present.RADIO_SCALE})" in css
    assert present.RADIO_SCALE >= 1.5
    linked = open_learn(step="brevity")  # a link to a step without presenter mode keeps the page's title
    assert [t.value for t in linked.title] == ["Learn BLEU, step by step"]


# --- items 10, 11, 12: the texts ----------------------------------------------------------------------------------
def _all_markdown(at: AppTest) -> str:
    return " ".join(" ".join(m.value.split()) for m in at.markdown)


def test_the_intro_and_step_6_read_right():
    text = _all_markdown(open_learn())
    assert "is the reference implementation with which scores are reported today" in text
    assert "scores are reported with today" not in text
    assert "w n = 1/N" not in text  # the PDF's lost subscript
    assert "wₙ = 1/N" in text
    assert '"In our baseline, we use N = 4 and uniform weights"' in text  # the quotation stops before it


def test_the_plan_has_no_internal_wording_and_links_for_slides():
    at = open_learn()
    plan = at.expander[0]
    text = " ".join(m.value for m in plan.markdown)
    assert "review" not in text.lower()
    numbers = f"{steps.number('logdomain')}-{steps.number('zero')}"
    assert f"(steps {numbers}, §2.3, §2.1.3, footnote 5)" in text  # the zero step's own label: (§2.1.3, footnote 5)
    assert "?`" not in text  # no bare query strings as visible link text
    # AppTest gives no browser address: the page says to add the links to the app's address
    assert any("add each of these to the app's address" in c.value for c in plan.caption)
    code = plan.code[0].value
    assert code.count("?present=1&step=") == 10  # every block in presenter order, the cards and the lab too
    assert "?tab=exercise" in code


def test_the_plans_links_are_whole_where_the_address_is_known():
    base = "https://bleu.example.org/learn"
    text = teacher.plan_text(base)
    targets = re.findall(r"\]\(([^)]*)\)", text)
    assert len(targets) == 11
    assert all(t.startswith(base + "?") for t in targets), targets
    lines = teacher.slide_links(base).splitlines()
    assert len(lines) == 11
    assert lines[0].split() == ["0-4", "min", f"{base}?present=1&step=opening"]
    assert teacher.plan_text(None) == steps.expand((ROOT / "docs" / "learn" / "plan.md").read_text(encoding="utf-8"))


# --- item 14: the lab ---------------------------------------------------------------------------------------------
def test_the_lab_is_short_before_its_game_and_shows_nltk_only_for_nltk():
    at = open_learn(tab="lab", variant="sentence_bp")
    lead = (ROOT / "docs" / "learn" / "lab.md").read_text(encoding="utf-8")
    assert len(lead.splitlines()) <= 3  # about 14 lines at 1280 before
    how = next(e for e in at.expander if e.label == lab.HOW)
    assert "**Predict first.**" in " ".join(m.value for m in how.markdown)
    assert not [s for s in at.selectbox if s.key == state.LAB_NLTK]  # no disabled box for the other variants
    at.selectbox(key=state.LAB_VARIANT).set_value("nltk").run()
    box = at.selectbox(key=state.LAB_NLTK)
    assert not box.disabled
    box.set_value(2).run()
    at.selectbox(key=state.LAB_VARIANT).set_value("sentence_bp").run()
    assert not [s for s in at.selectbox if s.key == state.LAB_NLTK]
    at.selectbox(key=state.LAB_VARIANT).set_value("nltk").run()
    assert at.selectbox(key=state.LAB_NLTK).value == 2  # the method picked is kept while the box is hidden


# --- item 17: Spot the errors' LaTeX is said to be the source -----------------------------------------------------
def test_spot_the_errors_says_the_math_is_the_articles_latex_source():
    first = next(iter(spot.SPOTS.values()))
    assert "$\\frac{8}{8} = 1 $" in first.text
    at = open_learn(tab="exercise", item=f"spot-{first.key}")
    box = next(c for c in at.code if c.value == first.text)  # verbatim, as code
    assert box.value == first.text
    captions = [c.value for c in at.caption]
    assert any("as written in the article's source (LaTeX)" in c for c in captions), captions
    assert not any("as printed" in c for c in captions)
    assert "LaTeX" not in exercise.spot_source("x", "plain words, no math")


# --- item 9: the decay chart with p2-p4 = 0 at a phone's width (vl-convert) -----------------------------------------
def test_the_decay_chart_with_zero_precisions_renders_at_330_px():
    expl = explain_segment("the the the the", ["the cat is on the mat"], BleuConfig(smooth_method="none"))
    spec = charts.decay_chart(sentence_frames.precision_frame(expl)).to_dict()
    spec["width"] = 330
    spec["autosize"] = {"type": "fit", "contains": "padding"}  # as Streamlit lays a chart out in its column
    svg = vlc.vegalite_to_svg(spec)
    assert float(re.search(r'<svg[^>]* height="([\d.]+)"', svg).group(1)) >= 200  # type: ignore[union-attr]
    assert "Precision decay across n (log scale)" in svg
    for frac in ("p2 = 0/3", "p3 = 0/2", "p4 = 0/1"):
        assert frac in svg
    # the log axis has a fixed floor, below the one positive p_n (a log scale fitted to 0.5 alone collapsed)
    y = next(layer for layer in spec["layer"] if "y" in layer.get("encoding", {}))["encoding"]["y"]
    assert y["scale"]["domain"] == [0.1, 1]
    floor = [layer for layer in spec["layer"] if layer.get("encoding", {}).get("y", {}).get("field") == "_floor"]
    assert len(floor) == 2  # the triangles and their fractions, in data units on that floor


# --- items 18, 21: the Sentence page's references and samples -------------------------------------------------------
def test_delete_is_offered_only_with_two_references_and_the_samples_have_a_label():
    at = open_app("pages/sentence.py", query={"hyp": "the cat", "ref": "the cat sat"}, from_start=False)
    assert not [b for b in at.button if b.key.startswith("sentence.del_ref")]
    assert any(c.value.startswith("Samples:") for c in at.caption)
    at.button(key="sentence.add_ref").click().run()
    assert sorted(b.key for b in at.button if b.key.startswith("sentence.del_ref")) == [
        "sentence.del_ref.0",
        "sentence.del_ref.1",
    ]
    at.button(key="sentence.del_ref.1").click().run()
    assert not [b for b in at.button if b.key.startswith("sentence.del_ref")]


def test_one_note_about_the_input_is_singular():
    at = open_app("pages/corpus.py", from_start=False)
    files = [("d/ref.txt", b"a b\nc d\n", "text/plain"), ("d/systems/x.txt", b"a b\n\n", "text/plain")]
    uploader(at, "corpus.in_folder").set_value(files).run()
    labels = [e.label for e in at.expander if "about the input" in e.label]
    assert labels, [e.label for e in at.expander]
    n = int(labels[0].split()[0])
    assert labels == [f"{n} note{'s' * (n != 1)} about the input"]
    assert "(s)" not in labels[0]
    assert n == 1, labels  # one empty line: one note
