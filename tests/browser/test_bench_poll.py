"""The poll bench (bench/poll.py) times the class's answers drawn on a real projector page, never a partial count
or an error page.

End to end on a small class (3 phones, one poll): every answer sent is acknowledged on its phone, stored as sent, and
the projector's counts are the ones the phones sent. Its drawn check wants each count as a whole line of what the
page shows, and refuses a page with an exception element.
"""

from __future__ import annotations

import pytest

from bench import poll as bench

pytestmark = pytest.mark.live  # nginx and an app process of its own


def test_a_small_class_poll_is_timed_drawn_with_every_answer(browser):
    r = bench.run_poll(phones=3, processes=1, repeats=1, spread=0.5, browser=browser)
    (one,) = r.rounds
    assert one.sent == {"Candidate 1": 2, "Candidate 2": 1}  # answers(3): 55% / 30% / 15%, rounded
    assert one.stored == one.sent
    assert r.lost == 0
    assert 0 < one.drawn_s < 30


COUNTS = """<div class="st-key-learn-poll_counts"><p><strong>The class's phones: {n} answers</strong></p>
<p>Candidate 1: {c1}</p><p>Candidate 2: {c2}</p><p>We cannot tell: {c3}</p></div>{extra}"""


def _drawn(new_page, want_n: int, **shown: object) -> bool:
    p = new_page()
    p.set_content(COUNTS.format(**({"n": 3, "c1": 2, "c2": 1, "c3": 0, "extra": ""} | shown)))
    return bool(p.evaluate(bench.DRAWN_JS, [bench.COUNTS, bench.drawn_lines(want_n)]))


def test_the_drawn_check_accepts_the_full_count(new_page):
    assert bench.drawn_lines(3) == [
        "The class's phones: 3 answers",
        "Candidate 1: 2",
        "Candidate 2: 1",
        "We cannot tell: 0",
    ]
    assert _drawn(new_page, 3)


@pytest.mark.parametrize(
    ("want_n", "shown"),
    [
        pytest.param(3, {"n": 2, "c2": 0}, id="an answer still missing"),
        pytest.param(4, {"n": 14, "c3": 1}, id="another total"),
        pytest.param(3, {"c1": 22}, id="a count is a whole line"),
        pytest.param(3, {"extra": '<div data-testid="stException">boom</div>'}, id="an exception element"),
    ],
)
def test_the_drawn_check_refuses(new_page, want_n, shown):
    assert not _drawn(new_page, want_n, **shown)
