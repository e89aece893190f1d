"""Presenter mode and deep links on the Learn page (issue 20.5)."""

from __future__ import annotations

import json
from pathlib import Path

from bleu_app.ui import opening, part2, present, walk
from tests.ui.conftest import open_learn

APP = str(Path(__file__).resolve().parents[2] / "app.py")
TITLES = [opening.TITLE] + [t for t, _ in walk.STEPS] + [t for t, _ in part2.STEPS]  # numbered from 0


_open = open_learn


def test_present_shows_one_step_in_large_type_and_walks_with_buttons():
    at = _open(present="1")
    assert [h.value for h in at.header] == [TITLES[0]]  # the lecture opens on the vote (step 0)
    assert not at.tabs  # one step per screen, no tabs
    css = "".join(m.value for m in at.markdown)
    assert f"font-size: {present.BODY_PX}px" in css
    assert present.BODY_PX >= 26
    assert at.button(key="learn.step_prev").disabled
    at.button(key="learn.step_next").click().run()
    assert [h.value for h in at.header] == [TITLES[1]]
    assert at.query_params["step"] in ("1", ["1"])
    at.selectbox(key=present.PICK).set_value(9).run()
    assert [h.value for h in at.header] == [TITLES[9]]
    at.button(key="learn.step_prev").click().run()
    assert [h.value for h in at.header] == [TITLES[8]]


TAB_STEPS = ["18 · Misconceptions", "19 · Misimplementation lab", "20 · Exercise"]  # the other tabs, after Part II


def test_every_step_has_a_link_and_the_list_names_all_of_them():
    at = _open(present="1", step=str(len(TITLES) - 1))
    assert [h.value for h in at.header] == [TITLES[-1]]
    box = at.selectbox(key=present.PICK)
    assert list(box.options) == TITLES + TAB_STEPS  # the list of steps to jump to, each with its paper section
    assert len(TITLES) == 18  # the opening, Part I's 11 and Part II's 6
    last = _open(present="1", step="20")
    assert [h.value for h in last.header] == ["Exercise"]
    assert last.button(key="learn.step_next").disabled


def test_present_with_a_tab_projects_that_tab():
    # ?present=1&tab=KEY opened step 0 whatever the tab; now each tab is a step a teacher can link to
    for tab, at_step, heading in (
        ("walk", 0, TITLES[0]),
        ("part2", 12, TITLES[12]),
        ("cards", 18, TAB_STEPS[0]),
        ("lab", 19, "Misimplementation lab"),
        ("exercise", 20, "Exercise"),
    ):
        at = _open(present="1", tab=tab)
        assert at.selectbox(key=present.PICK).value == at_step, tab
        assert [h.value for h in at.header] == [heading], tab
        assert f"font-size: {present.BODY_PX}px" in "".join(m.value for m in at.markdown), tab
    spot = _open(present="1", tab="exercise", item="spot-geomean")
    assert spot.session_state["learn.ex.part"] == "spot"
    assert spot.session_state["learn.spot.item"] == "geomean"


def test_step_link_without_present_keeps_normal_type():
    at = _open(step="9")
    assert [h.value for h in at.header] == ["9 · The brevity penalty (§2.2.2)"]
    css = "".join(m.value for m in at.markdown)
    assert f"font-size: {present.BODY_PX}px" not in css


def test_charts_get_18px_labels_in_presenter_mode():
    at = _open(present="1", step="9")  # the BP chart
    specs = [json.loads(el.proto.spec) for el in at.get("vega_lite_chart")]
    assert specs
    for spec in specs:
        assert spec["config"]["axis"]["labelFontSize"] >= 18
        assert spec["config"]["axis"]["titleFontSize"] >= 18
    normal = _open(step="9")
    assert all(
        json.loads(el.proto.spec).get("config", {}).get("axis", {}).get("labelFontSize", 0) < 18
        for el in normal.get("vega_lite_chart")
    )


def _is_tabs(node) -> bool:
    return "tab_container" in {f.name for f, _ in getattr(node.proto, "ListFields", list)()}


def test_tab_and_item_links():
    at = _open(tab="exercise", item="corpus")
    assert at.session_state["learn.ex.item"] == "corpus"
    tabs = at.tabs
    assert [t.label for t in tabs] == list(present.TABS.values())
    container = next(b for b in at._tree.main.children.values() if _is_tabs(b))
    assert container.proto.tab_container.default_tab_index == list(present.TABS).index("exercise") == 4
    plain = _open()
    container = next(b for b in plain._tree.main.children.values() if _is_tabs(b))
    assert container.proto.tab_container.default_tab_index == 0


def test_the_mode_survives_a_url_rewrite_and_can_be_left():
    at = _open(present="1", step="3")
    at.query_params.clear()  # a rerun that rewrote the URL without them
    at.run()
    assert [h.value for h in at.header] == [TITLES[3]]
    assert f"font-size: {present.BODY_PX}px" in "".join(m.value for m in at.markdown)
    at.button(key="learn.step_leave").click().run()
    assert [h.value for h in at.header][:3] == TITLES[:3]  # the whole page again
    assert len(at.tabs) == len(present.TABS)
