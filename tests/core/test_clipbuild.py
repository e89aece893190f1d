"""Clipping built word by word (issue 34, "a reference word used up"): every step against the definition.

The oracles: the paper's own numbers (Example 2's 2/7, Example 1's 17/18 and 8/14) and the definition of
footnote 2 worked with Counters (Count_clip = min(Count, Max_Ref_Count)) over the first k words, which shares no
code with ``clip_steps``; the last step must be ``explain_segment``'s own table, whatever the text."""

from __future__ import annotations

from collections import Counter

from hypothesis import given, strategies as st

from bleu_core.config import BleuConfig
from bleu_core.engine.ngrams import ngrams_of_order
from bleu_core.teaching.clipbuild import clip_steps
from bleu_core.teaching.explain import explain_segment
from bleu_core.teaching.paper import EXAMPLE_1, EXAMPLE_2

PAPER = BleuConfig.paper()
WORDS = st.sampled_from(["the", "cat", "mat", "on", "is", "a", "sat"])
SENTENCE = st.lists(WORDS, min_size=0, max_size=12).map(" ".join)


def _by_definition(hyp: tuple[str, ...], refs: tuple[tuple[str, ...], ...], k: int, n: int) -> tuple[dict, int]:
    """The first k n-grams' (Count, Max_Ref_Count, Count_clip) and the sum of Count_clip, from the definition."""
    counts = Counter(ngrams_of_order(hyp, n)[:k])
    ref_counts = [Counter(ngrams_of_order(r, n)) for r in refs]
    table = {
        g: (c, max(rc[g] for rc in ref_counts), min(c, max(rc[g] for rc in ref_counts))) for g, c in counts.items()
    }
    return table, sum(clip for *_, clip in table.values())


def test_example_2_uses_up_the_references_the_and_clips_the_rest():
    e = explain_segment(EXAMPLE_2.candidates[0], EXAMPLE_2.references, PAPER)
    steps = clip_steps(e, 1)
    assert len(steps) == 8  # none counted, then each of the seven words
    assert [s.status for s in steps[1:]] == ["matched", "matched"] + ["clipped"] * 5
    assert [s.matches for s in steps] == [0, 1, 2, 2, 2, 2, 2, 2]
    ref1, ref2 = e.ref_tokens
    assert [ref1[p] for p in steps[2].used[0]] == ["the", "the"]  # Reference 1's two copies, both used
    assert [ref2[p] for p in steps[2].used[1]] == ["the"]  # Reference 2's one copy
    assert steps[3].took == (None, None)  # the third "the" finds no copy left: clipped
    assert (steps[-1].matches, steps[-1].counted) == (2, 7)  # the paper's 2/7


def test_example_1_ends_at_the_papers_unigram_precisions():
    for candidate, expected in zip(EXAMPLE_1.candidates, [(17, 18), (8, 14)], strict=True):
        e = explain_segment(candidate, EXAMPLE_1.references, PAPER)
        last = clip_steps(e, 1)[-1]
        assert (last.matches, last.counted) == expected


@given(hyp=SENTENCE, refs=st.lists(SENTENCE, min_size=1, max_size=3), n=st.integers(1, 3))
def test_every_step_is_the_definition_over_the_words_counted_so_far(hyp, refs, n):
    e = explain_segment(hyp, refs, PAPER)
    steps = clip_steps(e, n)
    order = e.orders[n - 1]
    assert len(steps) == order.total + 1
    for k, step in enumerate(steps):
        table, matches = _by_definition(e.hyp_tokens, e.ref_tokens, k, n)
        assert {r.ngram: (r.count, r.max_ref_count, r.clipped) for r in step.rows} == table
        assert step.matches == matches
        for ref, used in zip(e.ref_tokens, step.used, strict=True):  # a copy is used once, and is a copy
            assert len(set(used)) == len(used)
            assert all(tuple(ref[p : p + n]) in {r.ngram for r in step.rows} for p in used)
    last = steps[-1]
    assert last.rows == order.rows  # the paper's table, counts and order of rows
    assert last.statuses == tuple(o.status for o in order.occurrences)
    assert last.matches == order.matches


def test_an_order_the_explanation_lacks_gives_the_empty_step():
    e = explain_segment("the cat", ["the cat"], PAPER)
    assert [s.counted for s in clip_steps(e, 9)] == [0]
