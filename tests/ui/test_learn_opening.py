"""The Learn page's opening vote, its section labels and the teacher's tools (issue 20; teaching review proposals A
and I): AppTest reads the rendered text and clicks through them."""

from __future__ import annotations

import itertools
import re
from pathlib import Path
from urllib.parse import parse_qs

import pytest
from streamlit.testing.v1 import AppTest

from bleu_app import handout
from bleu_app.lessons import opening as frames
from bleu_app.ui import cached, state
from bleu_app.ui.learn import opening, steps, teacher
from tests.app.test_paper_quotes import PAPER, SEED, normalise
from tests.ui.conftest import keyed, open_learn

ROOT = Path(__file__).resolve().parents[2]
APP = str(ROOT / "app.py")
TITLES = [steps.heading(s) for s in (*steps.in_part("walk"), *steps.in_part("part2"))]  # the lecture's steps
OPENING = steps.heading(steps.get("opening"))
SEED_TEXT = SEED.read_text(encoding="utf-8")
# The paper's section headings, as the seed prints them (number, then title): a label must name one of these.
HEADINGS = {
    "2": "The Baseline BLEU Metric",
    "2.1": "Modified n-gram precision",
    "2.1.1": "Modified n-gram precision on blocks of text",
    "2.1.2": "Ranking systems using only modified n-gram precision",
    "2.1.3": "Combining the modified n-gram precisions",
    "2.2": "Sentence length",
    "2.2.1": "The trouble with recall",
    "2.2.2": "Sentence brevity penalty",
    "2.3": "BLEU details",
    "3": "The BLEU Evaluation",
    "4": "The Human Evaluation",
    "4.1": "Monolingual group pairwise judgments",
    "4.2": "Bilingual group pairwise judgments",
    "5": "BLEU vs The Human Evaluation",
    "6": "Conclusion",
}


_open = open_learn


def _texts(node, out: list[tuple[str, str]]) -> list[tuple[str, str]]:  # type: ignore[no-untyped-def]
    """(kind, text) of every header, markdown, caption and table (its cells) under ``node``, in page order."""
    for child in getattr(node, "children", {}).values():
        kind = getattr(child, "type", "")
        if kind in ("markdown", "header", "subheader", "caption"):
            out.append((kind, str(child.value)))
        elif kind == "table":
            out.append((kind, child.value.to_string()))
        _texts(child, out)
    return out


def _opening_texts(at: AppTest) -> str:
    items = _texts(at.tabs[0], [])
    end = next(i for i, (k, t) in enumerate(items) if k == "header" and t == TITLES[1])
    return "\n".join(t for _, t in items[:end])


# --- the opening: no numbers, a vote, a reveal ------------------------------------------------------------------


def test_the_opening_shows_example_1_with_no_numbers_and_a_vote():
    at = _open()
    text = _opening_texts(at)
    assert OPENING in text
    for sentence in ("It is a guide to action which ensures", "It is to insure the troops", "Party commands."):
        assert sentence in text
    assert not re.search(r"\d+/\d+|\d+\.\d\d|BLEU =", text), "a number before the vote"
    assert "Reference 1" not in text.split("The three references")[0]  # the paper's list waits for the reveal
    vote = at.radio(key=state.VOTE)
    assert list(vote.options) == list(opening.CHOICES)
    assert vote.value is None  # nobody voted yet
    assert at.button(key="learn.vote_reveal")
    assert not any("It is a guide to action" in t and "found in" in t for t in text.split("\n"))


def test_the_reveal_shows_the_papers_list_and_the_engines_counts():
    at = _open()
    at.radio(key=state.VOTE).set_value("Candidate 2").run()
    at.button(key="learn.vote_reveal").click().run()
    assert not at.exception
    text = _opening_texts(at)
    assert "The class picked **Candidate 2**; the paper calls Candidate 1 the good translation." in text
    assert "“It is a guide to action” with Reference 1" in " ".join(text.split())  # the paper's list, quoted
    listing = next(t.value for t in at.table if "the paper's phrase" in t.value.columns)
    assert list(listing["the paper's phrase"]) == [p for p, _ in frames.PAPER_SHARED]
    found = dict(zip(listing["the paper's phrase"], listing["found in (computed)"], strict=True))
    assert found["It is a guide to action"] == "Reference 1"
    assert found["always"] == "Reference 2, Reference 3"
    assert found["of the party"] == "Reference 2, Reference 3"  # the paper names only Reference 2
    counts = next(t.value for t in at.table if "Candidate 1" in t.value.columns)
    assert counts.loc["words in some reference (clipped)", "Candidate 1"] == "17 of 18"  # the paper's 17/18
    assert counts.loc["words in some reference (clipped)", "Candidate 2"] == "8 of 14"  # and 8/14
    assert counts.loc["word pairs in some reference (clipped)", "Candidate 1"] == "10 of 17"
    assert counts.loc["word pairs in some reference (clipped)", "Candidate 2"] == "1 of 13"
    assert counts.loc["longest run shared with one reference", "Candidate 1"] == "6 words"
    assert "nrefs:3" in text
    assert "tok:paper" in text
    at.button(key="learn.vote_hide").click().run()
    assert not any("the paper's phrase" in t.value.columns for t in at.table)


def test_the_vote_is_kept_when_the_presenter_moves_on_and_back():
    at = _open(present="1")
    assert [h.value for h in at.header] == [OPENING]
    at.radio(key=state.VOTE).set_value("We cannot tell").run()
    keyed(at, "learn.step_next").click().run()
    assert [h.value for h in at.header] == [TITLES[1]]
    assert not at.radio  # the radio is gone from the screen, so Streamlit dropped its widget state
    keyed(at, "learn.step_prev").click().run()
    assert at.radio(key=state.VOTE).value == "We cannot tell"
    at.button(key="learn.vote_reveal").click().run()
    assert any("The class could not tell" in m.value for m in at.markdown)


def test_the_runs_cover_each_candidate_and_hold_against_the_references():
    for k in range(2):
        e = frames.explained(k)
        runs = frames.shared_runs(e)
        assert tuple(t for r in runs for t in r.tokens) == e.hyp_tokens
        for r in runs:  # every run is in the references it names, and in no other
            inside = {i + 1 for i, ref in enumerate(e.ref_tokens) if " ".join(r.tokens) in " ".join(ref)}
            assert set(r.refs) <= inside
    c1 = frames.shared_runs(frames.explained(0))
    assert [" ".join(r.tokens) for r in c1 if not r.refs] == ["obeys"]
    assert c1[0].tokens == ("it", "is", "a", "guide", "to", "action")


def test_the_papers_list_is_quoted_word_for_word():
    text = (ROOT / "docs" / "learn" / "opening_reveal.md").read_text(encoding="utf-8")
    for phrase, refs in frames.PAPER_SHARED:
        assert normalise(phrase) in PAPER
        assert f"“{phrase}” with Reference{'s' if len(refs) > 1 else ''} {refs[0]}" in " ".join(text.split())
    whole = re.search(r"\"(Candidate 1 shares.*?their extent is less\.)\"", " ".join(text.split()))
    assert whole
    assert normalise(whole.group(1)) in PAPER
    assert normalise("Candidate 1 shares “It is a guide to action” with Reference 2") not in PAPER  # can fail


# --- every step names its paper section ---------------------------------------------------------------------


def _sections(title: str) -> list[str]:
    return re.findall(r"§(\d+(?:\.\d+)*)", title)


def test_every_step_title_names_a_section_of_the_paper_and_its_text_cites_it():
    assert len(TITLES) == len(steps.in_part("walk")) + len(steps.in_part("part2")) == 18
    for number, heading in HEADINGS.items():
        assert f"{number} {heading}" in SEED_TEXT, number  # the headings are the seed's
    at = _open()
    items = _texts(at.tabs[0], []) + _texts(at.tabs[1], [])
    headers = [i for i, (k, _) in enumerate(items) if k == "header"]
    assert [items[i][1] for i in headers] == TITLES
    for n, start in enumerate(headers):
        title = items[start][1]
        assert title.startswith(f"{n} · ")
        secs = _sections(title)
        assert secs, f"no § in {title!r}"
        assert all(s in HEADINGS for s in secs), title
        body = " ".join(t for _, t in items[start + 1 : headers[n + 1] if n + 1 < len(headers) else None])
        notes = re.findall(r"footnote (\d)", title)
        for fn in notes:
            assert f"footnote {fn}" in body, title
        # the zero-score step follows footnote 5 (printed in section 2.1.3): its text cites the footnote
        cited = any(re.search(rf"(section|§) ?{re.escape(s)}(?![.\d]*\d)", body) for s in secs) or notes
        assert cited, f"step {n}'s text never cites section {secs}"


def test_the_presenter_step_list_shows_the_sections():
    at = _open(present="1", step="brevity")
    box = at.selectbox(key=state.step_pick("brevity"))
    tabs = [steps.heading(steps.get(k)) for k in ("cards", "lab", "exercise")]  # the other tabs, one step each
    after = [steps.heading(s) for s in steps.in_part("after")]  # After BLEU: not the paper's, so not in TITLES
    assert tabs[0] == f"{len(TITLES) + len(after)} · Misconceptions"  # numbered after the lecture's steps
    assert list(box.options) == TITLES + after + tabs  # AppTest lists the options as shown
    assert box.value == "brevity"
    assert "(§2.2.2)" in next(h.value for h in at.header)


# --- teacher tools: the plan and its links, the handout ----------------------------------------------------------


def _plan_rows() -> list[list[str]]:
    text = steps.expand((ROOT / "docs" / "learn" / "plan.md").read_text(encoding="utf-8"))
    return [
        [c.strip() for c in line.strip("|").split("|")]
        for line in text.splitlines()
        if line.startswith("| ") and not line.startswith("| min ")
    ]


def test_the_plan_is_at_the_top_collapsed_and_fills_fifty_minutes():
    at = _open()
    top = [getattr(b, "type", "") for b in at.main.children.values()]
    assert top[:2] == ["title", "expander"]  # right under the page title
    exp = at.expander[0]
    assert exp.label == teacher.EXPANDER
    assert exp.proto.expanded is False
    plan = " ".join(m.value for m in exp.markdown)
    assert "?present=1&step=opening" in plan
    assert "{step:" not in plan  # every step named by key is written as its number
    assert "?tab=exercise" in plan
    times = [tuple(map(int, r[0].split("-"))) for r in _plan_rows()]
    assert times[0][0] == 0
    assert times[-1][1] == 50
    assert all(a[1] == b[0] for a, b in itertools.pairwise(times))  # back to back
    buttons = at.get("download_button")
    assert [b.label for b in buttons] == ["Download the handout (HTML, printable, works offline)"]


@pytest.mark.parametrize("row", _plan_rows(), ids=lambda r: r[0])
def test_every_plan_link_opens_what_its_row_says(row):
    link = re.search(r"\]\((\?[^)]*)\)", row[2])
    assert link, row
    query = {k: v[0] for k, v in parse_qs(link.group(1)[1:]).items()}
    at = _open(**query)
    if "step" in query:
        assert query.get("present") == "1"
        step = steps.number(query["step"])  # a link by key
        title = steps.heading(steps.get(query["step"]))
        if steps.get(query["step"]).part not in steps.OWN_HEADING:  # the lab draws a heading of its own
            assert [h.value for h in at.header] == [title]
        sections = re.findall(r"§[\d.]+", row[1])  # After BLEU, the cards and the lab are not the paper's
        if sections:
            assert f"{sections[0]})" in title or f"{sections[0]}," in title, (row, title)
        numbered = re.search(r"steps? (\d+)", row[1])
        if numbered:
            assert int(numbered.group(1)) == step
    else:
        assert set(query) == {"tab"}
        assert query["tab"] in steps.TABS
        container = next(
            b for b in at._tree.main.children.values() if "tab_container" in {f.name for f, _ in b.proto.ListFields()}
        )
        assert container.proto.tab_container.default_tab_index == list(steps.TABS).index(query["tab"])


def test_the_download_is_the_handout():
    assert cached.handout_html() == handout.handout_html()
