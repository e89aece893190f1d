"""Browser: the WMT22 folder uploaded on the corpus page; a slice typed into the slice box recomputes the score
(equal to sacreBLEU's on those lines), and a row of the degenerate-output table opens its line on the sentence
page."""

from __future__ import annotations

import sacrebleu
from playwright.sync_api import expect

from bleu_core.data.diagnostics import diagnose
from tests.browser.conftest import open_grid_row, rerun_settled, wait_for_app
from tests.browser.test_corpus_compare import MAIN, _load_folder


def _lines(path) -> list[str]:
    return path.read_text(encoding="utf-8").splitlines()


def test_slice_box_recomputes_and_a_flagged_line_opens(app_url, new_page, data_dir):
    root = data_dir / "wmt22-general-zh-en"
    refs = [_lines(root / "reference.A.en"), _lines(root / "reference.B.en")]
    hyp = _lines(root / "systems" / "AISP-SJTU.en")  # the page's first system
    page = new_page(height=9000)
    page.goto(f"{app_url}/corpus")
    wait_for_app(page)
    _load_folder(page, root)
    whole = sacrebleu.corpus_bleu(hyp, refs).score
    expect(page.locator(MAIN)).to_contain_text(f"{whole:.2f}")

    box = page.get_by_role("textbox", name="Slice (score only the lines where ...)")
    box.fill("line 1..300 and ref_len > 10")
    box.press("Enter")
    rerun_settled(page, timeout=120_000)
    tok = sacrebleu.tokenizers.tokenizer_13a.Tokenizer13a()
    keep = [i for i in range(300) if len(tok(refs[0][i]).split()) > 10]
    part = sacrebleu.corpus_bleu([hyp[i] for i in keep], [[r[i] for i in keep] for r in refs]).score
    expect(page.locator(MAIN)).to_contain_text(f"Slice: {len(keep)} of 1875 lines")
    expect(page.locator(MAIN)).to_contain_text(f"{part:.2f}")
    expect(page.locator(MAIN)).to_contain_text("Mean of sentence BLEU")  # what the check below splits at
    main = page.inner_text(MAIN)
    assert f"{whole:.2f}" not in main.split("Mean of sentence BLEU")[0]

    page.get_by_text("Check every line of every system").click()  # 22,500 lines: checked on request
    rerun_settled(page, timeout=120_000)
    source = _lines(root / "source.zh")
    flags = diagnose({"AISP-SJTU": hyp}, refs, source).systems["AISP-SJTU"]
    first = min(flags.flagged())  # the flags table is sorted by line
    open_grid_row(page, "corpus.diag_table", 0)  # the first flagged line
    expect(page.locator(MAIN)).to_contain_text(f"segment {first}: AISP-SJTU")
    expect(page.locator(MAIN)).to_contain_text(f"Source: {source[first - 1]}")
