"""The exercise's items and checker (issue 20.6), held against the core and the reviews' traps."""

from __future__ import annotations

import math

import pytest

from bleu_app.lessons import exercise as x
from bleu_core import corpus_bleu


def _steps(key: str) -> dict[str, x.Step]:
    return {s.key: s for s in x.steps(x.ITEMS[key])}


@pytest.mark.parametrize("key", list(x.ITEMS))
def test_every_item_has_a_bleu_above_0_equal_to_the_cores(key):
    item = x.ITEMS[key]
    steps = _steps(key)
    assert steps["bleu"].value > 0
    hyps = [h for h, _ in item.sentences]
    width = max(len(r) for _, r in item.sentences)
    refs = [[r[k] if k < len(r) else None for _, r in item.sentences] for k in range(width)]
    core = corpus_bleu(hyps, refs, tokenize="paper", lowercase=True, smooth_method="none")
    assert steps["bleu"].value * 100 == pytest.approx(core.score, abs=1e-9)
    assert steps["bp"].value == pytest.approx(core.bp)
    assert [(s.matches, s.total) for k, s in steps.items() if k.startswith("p")] == list(
        zip(core.counts, core.totals, strict=True)
    )


def test_items_grow_harder_and_end_with_a_two_sentence_corpus():
    items = list(x.ITEMS.values())
    assert len(items) >= 5
    assert len(items[-1].sentences) == 2
    assert all(len(i.sentences) == 1 for i in items[:-1])
    assert _steps("short")["bp"].value < 1  # a brevity penalty to compute
    assert len(x.ITEMS["tworefs"].sentences[0][1]) == 2  # several references
    assert _steps("clip")["p1"].matches < _steps("clip")["p1"].total  # clipping bites


@pytest.mark.parametrize(
    ("key", "step", "answer", "named"),
    [
        ("clip", "p1", "7/7", "without clipping"),
        ("clip", "p1", "12/14", "unreduced"),
        ("corpus", "bleu", "53.42", "0-100 scale"),
        ("corpus", "bp", f"{math.exp(1 - 9 / 10):.3f}", "BP above 1"),
        ("corpus", "c", "4", "one sentence's length"),
        ("corpus", "bleu", "0.3033", "mean of the sentence scores"),
        ("tworefs", "r", "6.5", "averages the reference lengths"),
        ("paper", "r", "16", "shortest reference"),
        ("warmup", "bleu", f"{(5 / 6 + 3 / 5 + 2 / 4 + 1 / 3) / 4:.4f}", "arithmetically"),
        ("short", "bleu", "1", "leaves out the brevity penalty"),
    ],
)
def test_traps_name_the_mistake(key, step, answer, named):
    verdict = x.check(x.ITEMS[key], _steps(key)[step], answer)
    assert not verdict.right
    assert named in verdict.message


def test_zero_over_zero_trap():
    step = x.Step("p4", "p4", 0.0, "0/0", "", 0, 0)
    assert "0/0" in x.check(x.ITEMS["warmup"], step, "0").message
    assert "0/0" in x.check(x.ITEMS["warmup"], step, "undefined").message


@pytest.mark.parametrize("key", list(x.ITEMS))
def test_the_right_answers_pass_and_hints_do_not_give_them_away(key):
    for step in x.steps(x.ITEMS[key]):
        assert x.check(x.ITEMS[key], step, step.text).right, step
        assert step.text not in step.hint
        assert step.text in x.worked(x.ITEMS[key], step)


@pytest.mark.parametrize("key", list(x.ITEMS))
def test_an_answer_is_judged_to_the_decimals_the_question_asks(key):
    """Review polish: "0.537" was "Not 0.537. BLEU = ..." where 0.5373 is meant (the question asks 4 decimals),
    while "0.809" passed for 0.8091: fewer decimals are now never right and, when right as far as they go, said so;
    four decimals rounded or cut pass, and so does BLEU from the BP as the step before shows it (3 decimals)."""
    steps = _steps(key)
    bleu, bp = steps["bleu"], steps["bp"]
    exact = bleu.value  # the core's (test_every_item_has_a_bleu_above_0_equal_to_the_cores)
    from_shown_bp = float(bp.text) * exact / bp.value
    assert x.check(x.ITEMS[key], bleu, f"{from_shown_bp:.4f}").right
    cut = f"{math.floor(exact * 1000) / 1000:.3f}"
    # (a 3-decimal answer that is BLEU from the shown BP to 4 decimals, 0.819 = 0.8190, is right)
    for typed in {t for t in (f"{exact:.3f}", cut) if abs(float(t) - from_shown_bp) >= 0.00005}:
        verdict = x.check(x.ITEMS[key], bleu, typed)
        assert not verdict.right
        assert verdict.message == f"{typed} is right to 3 decimals: give 4, as the question asks."
    for typed in (f"{exact:.4f}", f"{math.floor(exact * 10_000) / 10_000:.4f}", f"{exact:.6f}"):
        assert x.check(x.ITEMS[key], bleu, typed).right, typed
    off = 0.0003 if abs(exact + 0.0003 - from_shown_bp) > 0.0002 else -0.0003
    assert not x.check(x.ITEMS[key], bleu, f"{exact + off:.4f}").right  # a wrong fourth decimal is wrong
    if bp.value < 1:
        verdict = x.check(x.ITEMS[key], bp, f"{bp.value:.2f}")
        assert verdict.message == f"{bp.value:.2f} is right to 2 decimals: give 3, as the question asks."
    else:
        assert x.check(x.ITEMS[key], bp, "1").right
