"""Misconception cards (issue 20.4): the numbers each card quotes are computed, equal the reviews' figures, and
its demo opens the Sentence page with the same number."""

from __future__ import annotations

from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest
from streamlit.testing.v1 import AppTest

from bleu_app.lessons.cards import cards
from bleu_app.ui import state
from bleu_app.ui.learn import steps
from bleu_app.ui.learn.cards import ANSWER, demo_link
from bleu_core import BleuConfig, explain_segment
from tests.ui.conftest import open_app, open_learn

APP = str(Path(__file__).resolve().parents[2] / "app.py")
# the figures the reviews (teaching-text.md item 11, teacher-walk.md item 23) computed independently
REVIEWED = {
    "mean": {"corpus BLEU": "22.18", "mean of sentence BLEU": "8.41"},
    "references": {"all three": "50.46", "Reference 1": "42.09", "Reference 2": "0.00", "Reference 3": "0.00"},
    "tokenization": {"paper's words": "50.46", "13a": "54.02"},
    "paraphrase": {"paraphrase": "0.00"},
    "half": {"Candidate 1": "50.46"},
    "scale": {"all three": "50.46", "Reference 1 alone": "42.09", "13a": "54.02"},
}


def test_the_still_used_card_quotes_sacrebleus_chrf_beside_bleu():
    """Issue 33's "Is BLEU still used?" card: its chrF is what sacreBLEU's own sentence_chrf gives Candidate 1."""
    import sacrebleu

    from bleu_core.teaching.paper import EXAMPLE_1

    still = {c.key: c for c in cards()}["still"]
    want = sacrebleu.sentence_chrf(EXAMPLE_1.candidates[0], list(EXAMPLE_1.references)).score
    assert still.numbers == {"BLEU": "50.46", "chrF": f"{want:.2f}"}
    assert "Navigating the Metrics Maze" in still.truth
    assert "To Ship or Not to Ship" in still.truth


def test_card_numbers_equal_the_reviewed_ones():
    got = {c.key: c.numbers for c in cards()}
    for key, numbers in REVIEWED.items():
        assert got[key] == numbers, key
    assert float(got["human"]["Reference 1 vs 2 and 3"]) < 100


def test_card_numbers_are_computed_not_typed():
    # under other settings the same cards give other numbers: nothing is a constant
    other = {c.key: c.numbers for c in cards(BleuConfig())}
    assert other["paraphrase"]["paraphrase"] != "0.00"  # exp smoothing lifts it
    assert other["human"] != {c.key: c.numbers for c in cards()}["human"]


def test_every_number_a_card_quotes_is_in_its_text():
    for c in cards():
        for value in c.numbers.values():
            assert f"**{value}**" in c.truth, (c.key, value)


@pytest.fixture
def learn() -> AppTest:
    return open_learn()


@pytest.mark.parametrize("card", [c for c in cards() if c.hyp], ids=lambda c: c.key)
def test_show_it_opens_the_sentence_page_with_the_cards_number_and_leaves_the_lecture_alone(learn, card):
    tab = learn.tabs[list(steps.TABS).index("cards")]
    assert any(card.myth in m.value for m in tab.markdown)
    (button,) = [b for b in learn.get("link_button") if b.proto.url == demo_link(card)]
    query = parse_qs(urlsplit(button.proto.url).query)
    assert urlsplit(button.proto.url).path == "sentence"  # relative: the app's own Sentence page
    assert learn.session_state[state.PRESET] == "paper"  # the demo wrote nothing into this session (issue 34)
    demo = open_app("pages/sentence.py", query={k: v if len(v) > 1 else v[0] for k, v in query.items()})
    assert demo.session_state[state.SENTENCE_HYP] == card.hyp
    assert list(demo.session_state[state.SENTENCE_REFS]) == list(card.refs)
    headline = next(m for m in demo.metric if m.label == "Sentence BLEU")
    want = explain_segment(
        card.hyp,
        list(card.refs),
        BleuConfig.paper()
        if not card.tokenize
        else BleuConfig(tokenize=card.tokenize, lowercase=True, smooth_method="none"),
    ).score.score
    assert headline.value.startswith(f"{want:.2f}")
    shown = [v for v in card.numbers.values() if card.truth.index(f"**{v}**") >= 0]
    assert headline.value.split()[0] in shown


def test_every_card_shows_the_signature_of_its_numbers(learn):
    """Review 29 item 7: the card that says "numbers compare only with the same signature" showed none."""
    tab = learn.tabs[list(steps.TABS).index("cards")]
    captions = [c.value for c in tab.caption]
    for card in cards():
        assert card.signatures, card.key
        for what, signature in card.signatures:
            shown = signature.replace("|", " | ")
            assert any(shown in c and (what in c) for c in captions), (card.key, what, captions)
    # the two cards whose numbers come from two settings show both
    joined = "\n".join(captions)
    assert "all three: signature nrefs:3" in joined
    assert "one reference alone: signature nrefs:1" in joined
    assert "tok:13a" in joined
    assert "tok:paper" in joined


def test_a_card_shows_its_myth_and_keeps_its_answer_for_a_turn(learn):
    # issue 34 (A12): myth and answer side by side left the class nothing to answer
    tab = learn.tabs[list(steps.TABS).index("cards")]
    backs = [e for e in tab.expander if e.label == ANSWER]
    assert len(backs) == len(cards())
    assert not any(e.proto.expanded for e in backs)
    for card, back in zip(cards(), backs, strict=True):
        assert any(card.truth == m.value for m in back.markdown), card.key  # the answer is on the back
    fronts = [m.value for m in tab.markdown if m.value.startswith("**Myth:**")]
    assert len(fronts) == len(cards())
    assert not any(c.truth in f for c in cards() for f in fronts)
    linked = open_learn(tab="cards", item="human")  # a link to a card opens it turned
    (back,) = [e for e in linked.expander if e.label == ANSWER and e.proto.expanded]
    assert any(m.value == {c.key: c for c in cards()}["human"].truth for m in back.markdown)
