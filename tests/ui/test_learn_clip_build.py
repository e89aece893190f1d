"""Clipping built word by word on the Learn page (issue 34: "Build-up where a figure is a process (clipping: a
reference word used up)"): in presenter mode the clipping slide starts with no word counted when the lecture comes
forward to it and whole when it comes back; each ▶ counts one more word, and the table, p₁ and the used-up
reference copies follow.

The oracle is footnote 2's definition worked with Counters over the first k words (Count_clip = min(Count,
Max_Ref_Count)); the slide's table is read as the user gets it (``at.table``), and the used-up copies from the
highlight's HTML."""

from __future__ import annotations

import re
from collections import Counter

from bleu_app.ui import state
from bleu_app.ui.learn import walk
from bleu_core.teaching.paper import EXAMPLE_2
from tests.ui.conftest import keyed, open_learn

CLIP = walk.edit_key("clipping")
NEXT, BACK = "learn.build_next", "learn.build_prev"


def _words(text: str) -> list[str]:
    return re.findall(r"[a-z]+", text.lower())


def _by_definition(candidate: str, k: int) -> dict[str, tuple[int, int, int]]:
    """The first k words' (Count, Max_Ref_Count, Count_clip) against Example 2's references."""
    refs = [Counter(_words(r)) for r in EXAMPLE_2.references]
    out = {}
    for word, count in Counter(_words(candidate)[:k]).items():
        most = max(r[word] for r in refs)
        out[word] = (count, most, min(count, most))
    return out


def _rows(at) -> dict[str, tuple[int, int, int]]:
    (table,) = at.table
    return {str(w): (int(r["Count"]), int(r["Max_Ref_Count"]), int(r["Count_clip"])) for w, r in table.value.iterrows()}


def _html(at) -> str:
    return "".join(h.proto.body for h in at.get("html"))


def _counted(at) -> str:
    return next(c.value for c in at.caption if "words counted" in c.value)


def _metric(at) -> tuple[str, str]:
    (m,) = [m for m in at.metric if "p₁" in m.label]
    return m.label, m.value


def _settings(at) -> dict[str, object]:
    return {k: at.session_state.get(k) for k in (state.PRESET, *state.SETTING_KEYS)}


def test_coming_forward_the_slide_counts_word_by_word_to_the_papers_2_of_7():
    at = open_learn(present="1", step="plain")
    before = _settings(at)
    keyed(at, "learn.step_next").click().run()
    assert not at.exception
    assert at.session_state[state.STEP_LINKED] == "clipping"
    assert _counted(at) == "0 of 7 words counted"
    assert keyed(at, BACK).disabled
    assert not keyed(at, NEXT).disabled
    assert _metric(at) == ("p₁ so far", "–")
    assert _html(at).count('class="bleu-tok pending') == 7  # the seven words faded (a slide has no legend)
    for k in range(1, 8):
        keyed(at, NEXT).click().run()
        assert not at.exception
        if k < 7:
            assert _counted(at) == f"{k} of 7 words counted"
        else:  # whole: the slide's caption is Example 1's again
            assert not [c for c in at.caption if "words counted" in c.value]
        expected = _by_definition(EXAMPLE_2.candidates[0], k)
        assert _rows(at) == expected
        matches = sum(clip for *_, clip in expected.values())
        assert _metric(at) == (("Modified p₁", "2/7") if k == 7 else ("p₁ so far", f"{matches}/{k}"))
        # each credited word used one "the" in every reference that had one left: 2, then 3 (1 + 2), then no more
        assert _html(at).count('class="bleu-tok used') == {1: 2}.get(k, 3)
    assert keyed(at, NEXT).disabled
    assert _settings(at) == before  # counting words wrote no setting


def test_coming_back_the_slide_is_whole_and_back_steps_one_word():
    at = open_learn(present="1", step="bigrams")
    keyed(at, "learn.step_prev").click().run()
    assert at.session_state[state.STEP_LINKED] == "clipping"
    assert keyed(at, NEXT).disabled  # every word counted (the slide's caption is Example 1's again)
    assert [c.value for c in at.caption if "Example 1" in c.value] == ["Example 1: **17/18** and **8/14**"]
    assert _rows(at) == {"the": (7, 2, 2)}
    assert _metric(at) == ("Modified p₁", "2/7")
    keyed(at, BACK).click().run()
    assert _counted(at) == "6 of 7 words counted"
    assert _rows(at) == {"the": (6, 2, 2)}
    assert _metric(at) == ("p₁ so far", "2/6")


def test_a_typed_candidate_builds_from_its_own_words():
    at = open_learn(present="1", step="plain")
    keyed(at, "learn.step_next").click().run()
    keyed(at, NEXT).click().run()
    at.text_input(key=CLIP).set_value("the cat the mat").run()
    assert not at.exception
    assert _counted(at) == "1 of 4 words counted"  # the count stays, the candidate is the new one
    assert _rows(at) == _by_definition("the cat the mat", 1)
    for k in (2, 3, 4):
        keyed(at, NEXT).click().run()
        assert _rows(at) == _by_definition("the cat the mat", k)
    assert _metric(at) == ("Modified p₁", "4/4")  # "the" twice: Reference 1 has two


def test_on_the_whole_page_the_clipping_is_whole_until_stepped_back():
    at = open_learn()
    assert _counted(at) == "7 of 7 words counted"
    assert _metric(at) == ("Modified precision p₁", "2/7")
    keyed(at, BACK).click().run()
    assert _counted(at) == "6 of 7 words counted"
    assert at.session_state[walk.build_key("clipping")] == 6
