"""Presenter mode and deep links on the Learn page (issue 20.5)."""

from __future__ import annotations

import json
from pathlib import Path

from bleu_app.ui import state
from bleu_app.ui.learn import present, steps
from tests.ui.conftest import keyed, open_learn

APP = str(Path(__file__).resolve().parents[2] / "app.py")
TITLES = [steps.heading(s) for s in steps.STEPS]  # the presenter's list, numbered from 0


_open = open_learn


def test_present_shows_one_step_in_large_type_and_walks_with_buttons():
    at = _open(present="1")
    assert [h.value for h in at.header] == [TITLES[0]]  # the lecture opens on the vote
    assert steps.KEYS[0] == "opening"
    assert not at.tabs  # one step per screen, no tabs
    css = "".join(m.value for m in at.markdown)
    assert f"font-size: {present.BODY_PX}px" in css
    assert present.BODY_PX >= 26
    assert keyed(at, "learn.step_prev").disabled
    keyed(at, "learn.step_next").click().run()
    assert [h.value for h in at.header] == [TITLES[1]]
    assert at.query_params["step"] in ("plain", ["plain"])  # the link by key
    at.selectbox(key=state.step_pick("plain")).set_value("brevity").run()
    assert [h.value for h in at.header] == [steps.heading(steps.get("brevity"))]
    keyed(at, "learn.step_prev").click().run()
    assert [h.value for h in at.header] == [steps.heading(steps.get("recall"))]
    link = f"Step {steps.number('recall')} of {len(TITLES) - 1} · a link to this step: ?step=recall&present=1"
    assert link in [c.value for c in at.caption]


def test_every_step_has_a_link_and_the_list_names_all_of_them():
    at = _open(present="1", step="blind")  # Part II's last
    assert [h.value for h in at.header] == [steps.heading(steps.get("blind"))]
    box = at.selectbox(key=state.step_pick("blind"))
    assert list(box.options) == TITLES  # the list of steps to jump to, each with its paper section
    assert [s.part for s in steps.STEPS].count("walk") == 12  # the opening and Part I's 11
    assert [s.part for s in steps.STEPS].count("part2") == 6
    assert TITLES[-3:] == [
        f"{len(TITLES) - 3} · Misconceptions",
        f"{len(TITLES) - 2} · Misimplementation lab",
        f"{len(TITLES) - 1} · Exercise",
    ]  # the other tabs, after Part II
    last = _open(present="1", step="exercise")
    assert [h.value for h in last.header] == ["Exercise"]
    assert keyed(last, "learn.step_next").disabled


def test_present_with_a_tab_projects_that_tab():
    # ?present=1&tab=KEY opened the opening whatever the tab; now each tab is a step a teacher can link to
    for tab, at_step, heading in (
        ("walk", "opening", TITLES[0]),
        ("part2", "evaluation", steps.heading(steps.get("evaluation"))),
        ("cards", "cards", steps.heading(steps.get("cards"))),
        ("lab", "lab", "Misimplementation lab"),
        ("exercise", "exercise", "Exercise"),
    ):
        at = _open(present="1", tab=tab)
        assert at.selectbox(key=state.step_pick(at_step)).value == at_step, tab
        assert [h.value for h in at.header] == [heading], tab
        assert f"font-size: {present.BODY_PX}px" in "".join(m.value for m in at.markdown), tab
    spot = _open(present="1", tab="exercise", item="spot-geomean")
    assert spot.session_state["learn.ex.part"] == "spot"
    assert spot.session_state["learn.spot.item"] == "geomean"


def test_step_link_without_present_keeps_normal_type():
    at = _open(step="brevity")
    assert [h.value for h in at.header] == [steps.heading(steps.get("brevity"))]
    css = "".join(m.value for m in at.markdown)
    assert f"font-size: {present.BODY_PX}px" not in css


def test_an_old_numbered_link_opens_the_step_it_named():
    # links made before steps had keys (a slide's ?step=9, a plan's ?present=1&step=3) keep working
    at = _open(step="9")
    assert [h.value for h in at.header] == ["9 · The brevity penalty (§2.2.2)"]
    assert at.query_params["step"] in ("brevity", ["brevity"])  # rewritten to the key
    presented = _open(present="1", step="3")
    assert [h.value for h in presented.header] == [steps.heading(steps.get("bigrams"))]
    for wrong in ("21", "-1", "nosuchstep"):  # not a step: the whole page
        assert len(_open(step=wrong).tabs) == len(steps.TABS), wrong


def test_charts_get_18px_labels_in_presenter_mode():
    at = _open(present="1", step="brevity")  # the BP chart
    specs = [json.loads(el.proto.spec) for el in at.get("vega_lite_chart")]
    assert specs
    for spec in specs:
        assert spec["config"]["axis"]["labelFontSize"] >= 18
        assert spec["config"]["axis"]["titleFontSize"] >= 18
    normal = _open(step="brevity")
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
    assert [t.label for t in tabs] == list(steps.TABS.values())
    container = next(b for b in at._tree.main.children.values() if _is_tabs(b))
    assert container.proto.tab_container.default_tab_index == list(steps.TABS).index("exercise") == 5
    plain = _open()
    container = next(b for b in plain._tree.main.children.values() if _is_tabs(b))
    assert container.proto.tab_container.default_tab_index == 0


def test_the_mode_survives_a_url_rewrite_and_can_be_left():
    at = _open(present="1", step="bigrams")
    at.query_params.clear()  # a rerun that rewrote the URL without them
    at.run()
    assert [h.value for h in at.header] == [steps.heading(steps.get("bigrams"))]
    assert f"font-size: {present.BODY_PX}px" in "".join(m.value for m in at.markdown)
    at.button(key="learn.step_leave").click().run()
    assert [h.value for h in at.header][:3] == TITLES[:3]  # the whole page again
    assert len(at.tabs) == len(steps.TABS)
