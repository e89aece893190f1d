"""Spot the errors and the questions (issue 20.6): every excerpt of Feng Li's article is the article's text word
for word, every sentence given to the paper is the paper's, and every number is computed (checked against the
reviewers' independent figures or recomputed here from the definitions)."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from bleu_app.lessons import quiz, spot
from tests.app.test_paper_quotes import PAPER, ROOT, normalise

ARTICLE_FILE = next((ROOT.parent.parent / "shared" / "seeds").glob("002_*.txt"), None) or next(
    Path("/work/shared/seeds").glob("002_*.txt")
)


def flat(text: str) -> str:
    """Whitespace-insensitive: the article's code is indented, its excerpts here are re-indented or joined."""
    return "".join(text.split())


ARTICLE = flat(ARTICLE_FILE.read_text(encoding="utf-8"))


@pytest.mark.parametrize("key", list(spot.SPOTS))
def test_every_excerpt_is_the_articles_text(key: str) -> None:
    assert flat(spot.SPOTS[key].text) in ARTICLE


def test_the_code_the_app_runs_is_the_articles_line_by_line() -> None:
    for name, block in spot.article_code().items():
        for line in block.splitlines():
            assert flat(line) in ARTICLE, (name, line)


def paper_quotes() -> list[tuple[str, str, str]]:
    out = [(f"spot-{s.key}", sec, q) for s in spot.SPOTS.values() for sec, q in s.paper]
    out += [(f"quiz-{q.key}", sec, text) for q in quiz.questions().values() for sec, text in q.paper]
    return out


@pytest.mark.parametrize(("where", "section", "quote"), paper_quotes(), ids=lambda v: str(v)[:30])
def test_every_paper_quote_is_the_papers_text(where: str, section: str, quote: str) -> None:
    assert normalise(quote) in PAPER, (where, section)


def test_the_checks_can_fail_and_what_the_article_claims_is_not_in_the_paper() -> None:
    assert flat(spot.SPOTS["shortest"].text.replace("min", "max")) not in ARTICLE
    assert normalise("underflow") not in PAPER  # the article's "the authors suggest" (logs against underflow)
    assert normalise("correlation among") not in PAPER  # the article's reason for the geometric mean
    assert normalise("the closest reference sentence length") in PAPER


def test_answers_are_kinds_and_some_excerpts_are_right() -> None:
    answers = [s.answer for s in spot.SPOTS.values()]
    assert set(answers) <= set(spot.KINDS)
    assert 1 <= answers.count("correct") <= 3  # not "everything is wrong"
    assert {"clipping", "reflen", "scope", "reason", "numbers", "code"} <= set(answers)
    assert spot.check(spot.SPOTS["clip"], "clipping")[0]
    right, message = spot.check(spot.SPOTS["clip"], "correct")
    assert not right
    assert spot.SPOTS["clip"].hint in message


def test_the_articles_code_fails_as_printed() -> None:
    words = ["the", "cat", "is", "on", "the", "mat"]
    assert spot.run_article("ngram_modified_precision", words, [words], 4).startswith("ZeroDivisionError")
    assert spot.run_article("ngram_modified_precision", words, [words], 1).startswith("ZeroDivisionError")
    assert spot.run_article("brevity_penalty", words, words).startswith("NameError: name 'refs'")
    # the helper it calls works: the failure is the count, not the transcription
    assert spot.run_article("get_ngram", words, 2) == repr([tuple(words[i : i + 2]) for i in range(5)])


def test_live_numbers() -> None:
    assert "p1 = 2/7" in spot.live("clip")[0]  # the paper's 2/7 (section 2.1)
    assert "1/7" in spot.live("clip")[0]
    assert "3/8" in spot.live("naive")[0]
    assert "p3 = 0/0" in spot.live("short")[0]
    assert "p1 = 17/18, p2 = 10/17" in spot.live("geomean")[0]  # the paper's 17/18 and 10/17
    shortest = spot.live("shortest")
    assert "22.18" in shortest[0]  # the reviewers' corpus BLEU of the six candidates
    assert "r = 60" in shortest[0]
    assert "23.95" in spot.live("scope")[0]  # the lab's figure quoted in issue 20 (23.95 vs 22.18)


def test_adding_a_reference_lowers_bleu_by_the_brevity_penalty() -> None:
    q = quiz.questions()["addref"]
    n = q.numbers
    assert (n["c"], n["short"], n["long"]) == ("18", "10", "19")
    assert n["bp one"] == "1.000"
    assert n["bp two"] == f"{math.exp(1 - 19 / 18):.3f}" == "0.946"  # the review's 0.946
    assert float(n["bleu two"]) < float(n["bleu one"])
    assert float(n["bleu two"]) == pytest.approx(float(n["bleu one"]) * math.exp(1 - 19 / 18), abs=0.01)
    assert [o.right for o in q.options].count(True) == 1


def test_the_edit_that_raises_p4_but_not_p1() -> None:
    q = quiz.questions()["edit"]
    right = [o for o in q.options if o.right]
    assert len(right) == 1
    assert right[0].text.startswith("Swap")
    n = q.numbers
    assert n["swap p1"] == n["base p1"] == "5/6"
    assert (n["base p4"], n["swap p4"]) == ("0/3", "1/3")
    assert n["replace p1"] == "6/6"
    assert n["delete p1"] == "5/5"


def test_corpus_question_uses_the_reviewed_numbers() -> None:
    q = quiz.questions()["corpus"]
    assert (q.numbers["corpus"], q.numbers["mean"]) == ("22.18", "8.41")  # teaching review item 11
    assert [o.text for o in q.options if o.right] == ["22.18"]
    assert q.numbers["weighted"] == f"{50.46 * 18 / 49:.2f}"  # only Candidate 1 (18 of 49 words) scores


def test_every_wrong_option_says_why() -> None:
    for q in quiz.questions().values():
        assert [o.right for o in q.options].count(True) == 1, q.key
        for o in q.options:
            assert len(o.why) > 30, (q.key, o.text)
