"""AppTest: chrF and TER explained on the One sentence page (issue 33): chosen in the sidebar, chrF's per-order
table holds sacreBLEU's statistics for the sentence against the reference it picks, and TER's edit list counts
sacreBLEU's ``num_edits`` over its ``ref_length``; a morphology case earns chrF partial credit BLEU does not give."""

from __future__ import annotations

import sacrebleu
from streamlit.testing.v1 import AppTest

from bleu_app.ui import state
from tests.ui.conftest import open_app


def _refs(at: AppTest) -> list[str]:
    return [at.text_area(key=state.ref_box(i)).value for i in range(len(at.session_state[state.SENTENCE_REFS]))]


def _frame(at: AppTest, column: str):
    return next(d.value for d in at.dataframe if column in d.value.columns)


def test_chrf_and_ter_explained_hold_sacrebleus_statistics() -> None:
    at = open_app("pages/sentence.py")
    assert not any("some matched n-grams" in d.value.columns for d in at.dataframe)  # BLEU alone: nothing of them
    at.multiselect(key=state.METRICS_BOX).set_value(["bleu", "chrf", "ter"]).run()
    assert not at.exception, [e.value for e in at.exception]
    hyp, refs = at.text_area(key=state.HYP_BOX).value, _refs(at)
    orders = _frame(at, "some matched n-grams")
    stats = sacrebleu.CHRF()._extract_corpus_statistics([hyp], [[r] for r in refs])[0]
    assert orders[["candidate", "reference", "matched"]].to_numpy().ravel().tolist() == stats
    assert orders["n-grams"].tolist() == ["characters"] * 6
    assert orders["n"].tolist() == list(range(1, 7))
    score = sacrebleu.CHRF().sentence_score(hyp, refs).score
    assert any(f"chrF2 = **{score:.2f}**" in m.value for m in at.markdown)
    edits = _frame(at, "reference word")
    ter = sacrebleu.TER().sentence_score(hyp, refs)
    assert int(edits["counts"].sum()) == ter.num_edits
    assert any(f"TER = {ter.num_edits} edits / {ter.ref_length:g} reference words" in m.value for m in at.markdown)


def test_a_wrong_inflection_earns_chrf_partial_credit() -> None:
    at = open_app("pages/sentence.py")
    at.multiselect(key=state.METRICS_BOX).set_value(["bleu", "chrf"]).run()
    at.text_area(key=state.HYP_BOX).set_value("Die Katzen schläft").run()
    for i in range(len(at.session_state[state.SENTENCE_REFS])):
        at.text_area(key=state.ref_box(i)).set_value("Die Katze schläft" if i == 0 else "")
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    orders = _frame(at, "some matched n-grams").set_index("n")
    # "Katzen" against "Katze": every character 1-gram of "Katze" is matched, the longer orders lose a few
    assert orders.loc[1, "recall %"] == 100.0
    assert 0 < orders.loc[6, "matched"] < orders.loc[6, "reference"]


def test_the_marked_character_ngrams_are_chrfs_matches(wmt21) -> None:  # type: ignore[no-untyped-def]
    """chrF's matched character n-grams marked in both texts (issue 33): on 40 real WMT21 sentences, for every order,
    the marked n-grams are as many as sacreBLEU's matches; on the page, the chosen order's marks are drawn."""
    from bleu_app.frames.metric_explain import char_matches

    hyps = wmt21.system(wmt21.sys_paths[0])[:40]
    refs = wmt21.refs()[0][:40]
    metric = sacrebleu.CHRF()
    for hyp, ref in zip(hyps, refs, strict=True):
        stats = metric._extract_corpus_statistics([hyp], [[ref]])[0]
        for n in range(1, 7):
            assert char_matches(hyp, ref, n)[2] == stats[3 * (n - 1) + 2], (hyp, n)
    at = open_app("pages/sentence.py")
    at.multiselect(key=state.METRICS_BOX).set_value(["bleu", "chrf"]).run()
    at.select_slider(key="sentence.chrf_n").set_value(2).run()
    marks = [h.proto.body for h in at.get("html") if "chrf-marks" in h.proto.body]
    assert len(marks) == 1
    assert marks[0].count("<mark>") > 0
    assert any("matched 2-grams of characters" in c.value for c in at.caption)
