"""Direct manipulation inside the walk (issue 34): the clipping and brevity steps hold an editable candidate whose
table and numbers follow in place, against the paper's references, without touching the session's settings.

The oracles: the definition worked by hand (Count_clip = min(Count, Max_Ref_Count), over words as the paper's
preset reads them: lowercased, punctuation dropped) and bleu_core's own corpus scorer on the one sentence (its
counts, totals, lengths, BP and BLEU), which shares no code with the explanation the step draws."""

from __future__ import annotations

import math
import re
from collections import Counter

import pytest

from bleu_app import markup
from bleu_app.ui import state
from bleu_app.ui.learn import walk
from bleu_core.config import BleuConfig
from bleu_core.metrics.bleu import corpus_score
from bleu_core.teaching.paper import EXAMPLE_1, EXAMPLE_2, EXAMPLE_3
from tests.ui.conftest import open_learn

CLIP = walk.edit_key("clipping")
BREVITY = walk.edit_key("brevity")
PAPER = BleuConfig.paper()


def _words(text: str) -> list[str]:
    """Words as the paper's preset counts them, for the hand oracle (these texts have no other punctuation)."""
    return re.findall(r"[a-z]+", text.lower())


def _clipped_by_hand(candidate: str, refs: tuple[str, ...]) -> dict[str, tuple[int, int, int]]:
    """word -> (Count, Max_Ref_Count, Count_clip), from the definition (section 2.1, footnote 2)."""
    counts = Counter(_words(candidate))
    ref_counts = [Counter(_words(r)) for r in refs]
    out = {}
    for word, count in counts.items():
        most = max(rc[word] for rc in ref_counts)
        out[word] = (count, most, min(count, most))
    return out


def _metrics(at) -> dict[str, str]:
    return {m.label: m.value for m in at.metric}


def _settings(at) -> dict[str, object]:
    keys = (state.PRESET, *state.SETTING_KEYS)
    return {k: at.session_state.get(k) for k in keys}


def _clip_rows(at) -> dict[str, tuple[int, int, int]]:
    (table,) = at.table  # the slide's one table: Example 2's
    df = table.value
    return {str(w): (int(r["Count"]), int(r["Max_Ref_Count"]), int(r["Count_clip"])) for w, r in df.iterrows()}


@pytest.mark.parametrize("typed", ["the cat the cat", "on the mat the mat the cat sat"])
def test_typing_on_the_clipping_slide_updates_its_table_and_p1(typed):
    at = open_learn(present="1", step="clipping")
    before = _settings(at)
    assert at.text_input(key=CLIP).value == EXAMPLE_2.candidates[0]  # the paper's candidate to start from
    assert _metrics(at)["Modified p₁"] == "2/7"
    at.text_input(key=CLIP).set_value(typed).run()
    assert not at.exception
    by_hand = _clipped_by_hand(typed, EXAMPLE_2.references)
    assert _clip_rows(at) == by_hand  # each word's Count, Max_Ref_Count and Count_clip, as the definition gives
    engine = corpus_score([typed], [[r] for r in EXAMPLE_2.references], PAPER)
    matches, total = sum(c for *_, c in by_hand.values()), sum(n for n, *_ in by_hand.values())
    assert (engine.counts[0], engine.totals[0]) == (matches, total)
    assert _metrics(at)["Modified p₁"] == f"{matches}/{total}"
    if typed == "the cat the cat":
        assert _metrics(at)["Modified p₁"] == "3/4"  # "the" clipped at 2 (Ref 1), "cat" at 1
    assert _settings(at) == before  # the edit wrote no setting: the rest of the lecture is unchanged
    assert at.session_state[state.PRESET] == "paper"
    assert not at.warning  # no "settings differ" banner


def test_reset_brings_back_the_papers_candidate_and_its_table():
    at = open_learn(present="1", step="clipping")
    assert at.button(key=f"{CLIP}.reset").disabled  # nothing to reset yet
    at.text_input(key=CLIP).set_value("the cat the cat").run()
    assert not at.button(key=f"{CLIP}.reset").disabled
    at.button(key=f"{CLIP}.reset").click().run()
    assert at.text_input(key=CLIP).value == EXAMPLE_2.candidates[0]
    assert _clip_rows(at) == {"the": (7, 2, 2)}  # the paper's 2/7
    assert _metrics(at)["Modified p₁"] == "2/7"


@pytest.mark.parametrize("typed", ["", "   ", "..."])
def test_a_candidate_with_no_words_gets_one_line_not_an_error(typed):
    at = open_learn(present="1", step="clipping")
    at.text_input(key=CLIP).set_value(typed).run()
    assert not at.exception
    assert [i.value for i in at.info] == [walk.NO_WORDS]
    assert "\n" not in walk.NO_WORDS
    assert not at.table  # no table of nothing
    assert not at.error


def test_typed_text_is_shown_as_text():
    at = open_learn(present="1", step="clipping")
    at.text_input(key=CLIP).set_value("<b>the</b> cat").run()
    assert not at.exception
    body = "".join(h.proto.body for h in at.get("html"))
    assert "<b>the</b>" not in body  # the highlight escapes it
    assert "&lt;b&gt;the&lt;/b&gt;" in body
    rows = list(at.table[0].value.index)
    assert rows[0] == markup.md_escape("<b>the</b>")  # the static table reads Markdown: escaped, shown literally


def test_typing_on_the_brevity_slide_updates_c_r_bp_and_bleu():
    at = open_learn(present="1", step="brevity")
    before = _settings(at)
    assert at.text_input(key=BREVITY).value == EXAMPLE_3.candidates[0]
    assert _metrics(at)["BP = exp(1 − r/c)"] == f"{math.exp(1 - 16 / 2):.5f}"  # "of the": c = 2, r = 16
    cases = {
        "It is a guide to action": "BP = exp(1 − r/c)",  # c = 6 < every reference: r is the closest, 16
        EXAMPLE_1.candidates[0]: "BP = exp(1 − r/c)",  # c = r = 18: BP = 1 on the exp branch
        EXAMPLE_1.candidates[0] + " and the army always heeds": "BP = 1 (c > r)",
    }
    for typed, label in cases.items():
        at.text_input(key=BREVITY).set_value(typed).run()
        assert not at.exception
        engine = corpus_score([typed], [[r] for r in EXAMPLE_1.references], PAPER)
        c, r = engine.sys_len, engine.ref_len
        assert c == len(_words(typed))
        ref_lens = [len(_words(ref)) for ref in EXAMPLE_1.references]
        assert r == min(ref_lens, key=lambda n: (abs(n - c), n))  # the best match length: closest, then shorter
        m = _metrics(at)
        assert (m["c (candidate)"], m["r (best match)"]) == (str(c), str(r))
        bp = 1.0 if c > r else math.exp(1 - r / c)  # the paper's section 2.3
        assert m[label] == f"{bp:.5f}" == f"{engine.bp:.5f}"
        assert m["BLEU"] == f"{engine.score:.2f}"
        (chart,) = at.get("vega_lite_chart")
        assert f"c = {c}" in chart.proto.spec  # the curve's point moved to the typed length
    assert _metrics(at)["BLEU"] == f"{corpus_score([typed], [[r] for r in EXAMPLE_1.references], PAPER).score:.2f}"
    assert _settings(at) == before
    at.button(key=f"{BREVITY}.reset").click().run()
    assert at.text_input(key=BREVITY).value == EXAMPLE_3.candidates[0]
    assert _metrics(at)["c (candidate)"] == "2"


def test_on_the_whole_page_each_step_has_its_own_box_and_the_lecture_keeps_its_numbers():
    at = open_learn()
    others = {k: v for k, v in _metrics(at).items() if k not in ("Modified precision p₁",)}
    tables = [t.value.to_dict() for t in at.table[1:]]  # every table after the edited one
    at.text_input(key=CLIP).set_value("the cat the cat").run()
    assert not at.exception
    assert _metrics(at)["Modified precision p₁"] == "3/4"
    assert at.text_input(key=BREVITY).value == EXAMPLE_3.candidates[0]  # the other step's box is its own
    assert {k: v for k, v in _metrics(at).items() if k != "Modified precision p₁"} == others
    assert [t.value.to_dict() for t in at.table[1:]] == tables  # Example 1's tables, the corpus, the BP table...
    assert at.session_state[state.PRESET] == "paper"
