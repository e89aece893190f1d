"""Browser: the ranking table (markup.ranking_html) in a phone-wide column keeps one line per row and scrolls
sideways, rather than wrapping the interval into three lines per system while BLEU, CI and cluster sit out of view
(review 29 item 5: 85 px rows at 390 px)."""

from __future__ import annotations

import pandas as pd

from bleu_app.frames import corpus as f
from bleu_app.markup import ranking_html


def test_ranking_rows_stay_one_line_in_a_narrow_column(new_page):
    names = ["JDExploreAcademy", "LanguageX", "AISP-SJTU", "HuaweiTSC"]
    df = pd.DataFrame(
        {
            f.PLACE: [1, 2, 3, 4],
            f.RANK_RANGE: ["1", "2", "3–5", "3–5"],
            f.CLUSTER: [1, 2, 3, 3],
            f.SYSTEM: names,
            f.BLEU: [37.88, 36.40, 34.35, 34.35],
            f.CI_LOW: [36.62, 35.26, 33.36, 33.38],
            f.CI_HIGH: [39.09, 37.43, 35.28, 35.28],
        }
    )
    page = new_page(width=390, height=844)
    # the page's main column at 390 px is 358 px wide
    page.set_content(f"<div style='width:358px;font:16px sans-serif'>{ranking_html(df, {}, 'AISP-SJTU')}</div>")
    rows = page.evaluate("() => [...document.querySelectorAll('.bleu-ranking tbody tr')].map(r => r.offsetHeight)")
    line = page.evaluate("() => document.querySelector('.bleu-ranking thead tr').offsetHeight")
    assert len(rows) == 4
    assert max(rows) < 1.6 * 24, (rows, line)  # one line of 16 px text and its padding
    scrolls = page.evaluate(
        "() => { const w = document.querySelector('.bleu-ranking-wrap'); return w.scrollWidth > w.clientWidth }"
    )
    assert scrolls  # what does not fit is reached by scrolling, not by wrapping
