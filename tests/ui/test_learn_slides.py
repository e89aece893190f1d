"""Slides and speaker notes apart (issue 34): in presenter mode a step is a slide (its few lines above ``## Notes``
in its text, and its figure or table), and its prose is in a second window, ``?present=1&notes=1&deck=ID``, that
follows the slides through the deck both windows share (next / previous in either moves both)."""

from __future__ import annotations

import re

import pytest

from bleu_app import prose
from bleu_app.frames import sentence as frames
from bleu_app.ui import cached, state
from bleu_app.ui.learn import notes, present, steps
from bleu_core.config import BleuConfig
from tests.ui.conftest import keyed, open_learn

LECTURE = [s for s in steps.STEPS if s.part in steps.LECTURE]
SLIDE_CHARS = 270  # three lines of 26 px text across a 1280 px projector (about 90 characters a line)


def _plain(markdown: str) -> str:
    """Markdown as read on the screen, roughly: without its formulas, emphasis and links."""
    text = re.sub(r"\$\$.*?\$\$", "", markdown, flags=re.S)
    text = re.sub(r"\$[^$]+\$", "x", text)
    return re.sub(r"[*_`]", "", text).strip()


def _texts(at) -> str:
    return "\n".join(m.value for m in at.markdown)


@pytest.mark.parametrize("step", LECTURE, ids=lambda s: s.key)
def test_every_lecture_step_has_at_most_three_lines_on_its_slide_and_the_rest_in_notes(step):
    source = prose.text(step.doc)
    assert prose.NOTES in source.splitlines(), f"docs/learn/{step.doc}.md has no {prose.NOTES} line"
    assert len(_plain(prose.slide(step.doc))) <= SLIDE_CHARS, prose.slide(step.doc)
    assert len(_plain(prose.notes(step.doc))) > len(_plain(prose.slide(step.doc)))
    # the page still reads the whole text: the slide's lines, then the notes
    assert prose.page(step.doc) == f"{prose.slide(step.doc)}\n\n{prose.notes(step.doc)}".strip()


def test_a_slide_shows_its_lines_and_its_figure_and_leaves_the_prose_to_the_notes():
    at = open_learn(present="1", step="brevity")
    shown = _texts(at)
    assert steps.expand(prose.slide("brevity")) in shown
    assert "Longer candidates are not penalised again" not in shown  # the notes' prose
    assert "The best match length" not in [s.value for s in at.subheader]  # the page's second table
    # the figure's numbers: the lengths, BP and the candidate's BLEU (the candidate is editable: issue 34)
    assert [m.label for m in at.metric][-4:] == ["c (candidate)", "r (best match)", "BP = exp(1 − r/c)", "BLEU"]
    assert at.get("vega_lite_chart"), "the BP chart"
    page = open_learn(step="brevity")  # one step, not presenting: the whole text
    assert "Longer candidates are not penalised again" in _texts(page)


def test_the_zero_step_projects_its_table_in_large_type_without_the_precisions():
    at = open_learn(present="1", step="zero")
    assert not at.dataframe  # the 14 px canvas grid the review measured
    (table,) = at.table
    assert "precisions" not in list(table.value.columns)
    assert "50.46" in table.value.to_string()  # 2 decimals as the page rounds them, not 50.4600
    assert all(not str(c).startswith("+") for c in table.value.columns)  # "+ both" is not a bullet


def _deck(at) -> str:
    deck = at.session_state[state.DECK]
    assert present.DECK_ID.fullmatch(deck), deck
    assert at.query_params["deck"] in (deck, [deck])  # in the URL, for the notes window's link
    return deck


def test_the_notes_window_shows_the_decks_step_its_notes_the_next_title_and_a_timer():
    slides = open_learn(present="1", step="brevity")
    deck = _deck(slides)
    link = list(slides.get("link_button"))
    assert any(f"notes=1&deck={deck}" in b.proto.url for b in link), [b.proto.url for b in link]
    window = open_learn(present="1", notes="1", deck=deck)
    text = _texts(window)
    assert steps.expand(prose.notes("brevity")) in text
    assert steps.heading(steps.get("brevity")) in [h.value for h in window.subheader]
    assert f"Next: {steps.heading(steps.get('logdomain'))}" in [c.value for c in window.caption]
    assert re.search(r"\d\d:\d\d", text), "no timer"
    assert not window.get("vega_lite_chart")  # notes, not the slide


def test_next_in_either_window_moves_both():
    slides = open_learn(present="1", step="decay")
    deck = _deck(slides)
    window = open_learn(present="1", notes="1", deck=deck)
    keyed(window, "learn.step_next").click().run()  # on the notes
    assert cached.deck(deck).step == "geomean"
    slides.run()  # the slides' next look at the deck (a fragment does it every second in a browser)
    assert [h.value for h in slides.header] == [steps.heading(steps.get("geomean"))]
    keyed(slides, "learn.step_next").click().run()  # on the slides
    window.run()
    assert steps.heading(steps.get("short")) in [h.value for h in window.subheader]
    keyed(window, "learn.step_prev").click().run()
    slides.run()
    assert [h.value for h in slides.header] == [steps.heading(steps.get("geomean"))]


def test_two_presenters_have_two_decks():
    a, b = open_learn(present="1", step="decay"), open_learn(present="1", step="short")
    assert _deck(a) != _deck(b)
    keyed(a, "learn.step_next").click().run()
    b.run()
    assert [h.value for h in b.header] == [steps.heading(steps.get("short"))]


def test_a_bad_deck_id_in_the_link_is_not_used():
    at = open_learn(present="1", deck="../x")
    assert _deck(at) != "../x"


def test_the_clock():
    assert notes.clock(0) == "00:00"
    assert notes.clock(61.9) == "01:01"
    assert notes.clock(-3) == "00:00"


def test_presenter_mode_warns_whenever_the_settings_are_not_the_slides():
    # review item 3: back from a demo on 13a, step 10 showed 54.02 beside "c and r are both 18", and no word
    paper = open_learn(present="1", step="logdomain")
    assert not paper.warning
    assert any(m.value.startswith("50.46") for m in paper.metric)
    other = open_learn(present="1", step="logdomain", tok="13a")
    assert len(other.warning) == 1
    assert "not the paper's" in other.warning[0].value
    assert any(m.value.startswith("54.02") for m in other.metric)
    other.button(key="learn.present_paper").click().run()
    assert not other.warning
    assert any(m.value.startswith("50.46") for m in other.metric)


@pytest.mark.parametrize("present", ["1", None], ids=["slide", "page"])
def test_the_plain_precision_step_colours_matched_and_unmatched_only(present):
    # clipping is the next step: Example 2's five "the" are matched here (plain precision counts them all)
    at = open_learn(step="plain", **({"present": present} if present else {}))
    bodies = [h.proto.body for h in at.get("html")]
    # the first Example 2 drawn (its candidate, then its references)
    candidate = next(b for b in bodies if 'class="bleu-tok' in b and ">cat<" in b)
    candidate = candidate.split("</style>")[-1].split('class="bleu-reflabel"')[0]
    assert 'class="bleu-tok clipped' not in candidate
    matched = len(re.findall(r'class="bleu-tok matched', candidate))
    counted, total = frames.plain_precision(cached.example("ex2", BleuConfig.paper()), 1)
    assert matched == counted == total  # the slide's 7/7: every "the" is in a reference
