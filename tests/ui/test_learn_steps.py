"""The Learn page's steps come from one registry (``bleu_app.ui.learn.steps``, issue 31): a step's number is its
position, texts name steps by key and show their numbers, links use keys, and the numbered links made before
keys still open the steps they named."""

from __future__ import annotations

import re
from pathlib import Path

from bleu_app.ui.learn import lecture, steps
from tests.ui.conftest import open_learn

ROOT = Path(__file__).resolve().parents[2]

# What the page showed before the registry, word for word: the registry must keep every heading.
HEADINGS_BEFORE = [
    "0 · Which translation is better? (§2)",
    "1 · Plain precision: Example 2 (§2.1)",
    "2 · Clipping: the modified unigram precision (§2.1)",
    "3 · Bigrams and longer n-grams (§2.1)",
    "4 · A corpus: add the counts, then divide (§2.1.1)",
    "5 · Precision decays with n (§2.1.3)",
    "6 · The geometric mean (§2.1.3)",
    "7 · Short candidates: Example 3 (§2.2)",
    "8 · Why not recall: Example 4 (§2.2.1)",
    "9 · The brevity penalty (§2.2.2)",
    "10 · BLEU, in the log domain (§2.3)",
    "11 · Why five of the six candidates score 0 (§2.1.3, footnote 5)",
    "12 · The evaluation: 500 sentences, five systems (§3)",
    "13 · More references, higher scores (§3)",
    "14 · Is the difference reliable? 20 blocks (§3)",
    "15 · The human evaluation (§4)",
    "16 · BLEU against the humans: 0.99 and 0.96 (§5)",
    "17 · What BLEU does not see, and where next (footnote 4, §6)",
    "18 · Misconceptions",
    "19 · Misimplementation lab",
    "20 · Exercise",
]


# After BLEU (issue 33) went in after Part II: the steps after it moved on by three
HEADINGS_NOW = [
    *HEADINGS_BEFORE[:18],
    "18 · chrF: characters, not words",
    "19 · TER: the edits to a reference",
    "20 · A chrF bug: predict the score",
    "21 · Would people notice the difference?",
    "22 · Misconceptions",
    "23 · Misimplementation lab",
    "24 · Exercise",
]


def _title(heading: str) -> str:
    return heading.split(" · ", 1)[1]


def test_the_registry_numbers_the_steps_by_position_with_their_titles():
    assert [steps.heading(s) for s in steps.STEPS] == HEADINGS_NOW
    assert [steps.number(s.key) for s in steps.STEPS] == list(range(len(steps.STEPS)))
    assert len(set(steps.KEYS)) == len(steps.KEYS)
    assert all(re.fullmatch(r"[a-z0-9_]+", k) for k in steps.KEYS)  # as a link's value and in {step:KEY}
    assert [s.part for s in steps.STEPS] == sorted((s.part for s in steps.STEPS), key=list(steps.TABS).index)


def test_the_old_numbered_links_name_the_steps_they_named():
    assert len(steps.NUMBERED) == len(HEADINGS_BEFORE)
    for n, heading in enumerate(HEADINGS_BEFORE):
        assert _title(steps.heading(steps.get(steps.resolve(str(n)) or ""))) == _title(heading)  # numbers move on
    assert [k for k in steps.KEYS if k in steps.NUMBERED] == list(steps.NUMBERED)  # in the registry's order
    assert steps.resolve("clipping") == "clipping"
    for wrong in (None, "", "21", "-1", "1.5", "Clipping", "nosuchstep"):
        assert steps.resolve(wrong) is None, wrong


def _texts() -> dict[str, str]:
    """Every text the Learn page reads: its prose files (the lessons' too) and the registry's titles."""
    learn = ROOT / "docs" / "learn"
    out = {str(p.relative_to(learn)): p.read_text(encoding="utf-8") for p in sorted(learn.rglob("*.md"))}
    out["titles"] = " ".join(s.title + s.section for s in steps.STEPS)
    return out


def test_texts_name_steps_by_key_and_every_key_is_a_step():
    refs = {name: lecture.STEP_REF.findall(text) for name, text in _texts().items()}
    assert sum(map(len, refs.values())) >= 20  # the plan and the walk's prose refer to steps
    unknown = {name: [k for k in found if k not in steps.KEYS] for name, found in refs.items()}
    assert not {name: keys for name, keys in unknown.items() if keys}
    for name, text in _texts().items():
        assert not re.search(r"\b[Ss]teps? \d|step=\d", text), name  # no step number written by hand
    assert steps.expand("steps {step:short} and {step:recall}") == "steps 7 and 8"
    assert steps.expand("{step:nosuchstep}") == "{step:nosuchstep}"  # an answer as typed is left as it is


def _shown(at) -> str:
    parts = [e.value for kind in ("markdown", "caption", "header", "subheader", "error", "info") for e in at.get(kind)]
    return "\n".join(str(p) for p in parts)


def test_the_page_writes_every_step_reference_as_a_number():
    whole = _shown(open_learn())  # every tab, the plan included
    assert "{step:" not in whole
    assert f"(step {steps.number('corpus')})" in whole  # the walk's own reference to the corpus step
    assert f"Step {steps.number('clipping')} turns that into a rule." in whole
    lab = open_learn(tab="lab", variant="nltk", corpus="ex3")  # a corpus whose correct score is 0
    assert f"0/0, step {steps.number('zero')})" in _shown(lab)
    assert "{step:" not in _shown(lab)
