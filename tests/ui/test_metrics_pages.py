"""AppTest: the metrics chosen in the sidebar on the Compare, Corpus and One sentence pages (issue 32), and imported
segment scores, on real data: WMT21 en-de (reference A and four systems, the 527 segments Google's expert MQM rated
for all of them, uploaded as a folder) with those MQM scores imported as a metric.

Every number shown is held against its oracle: sacreBLEU's ``CHRF``/``TER`` (its defaults) on the same lines, the
mean of the file's scores, and sacreBLEU's own signatures. The sidebar's box offers every registered metric, so
chrF is checked here as soon as it is registered.
"""

from __future__ import annotations

import re

import numpy as np
import pytest
import sacrebleu
from streamlit.testing.v1 import AppTest

from bleu_app.markup import md_escape
from bleu_app.ui import state
from bleu_app.ui.components import share
from bleu_core.metrics import METRICS
from tests.core.test_imported_scores import mqm_rows
from tests.ui.conftest import errors, open_app, uploader

SYSTEMS = ("Facebook-AI", "Online-W", "UEdin", "VolcTrans-GLAT")
SLICE = "line 1..150"  # sacreBLEU's TER takes seconds a system: the checks against it read a slice of the page
OTHERS = sorted(k for k in METRICS if k != "bleu")  # ter, and chrf once registered


def _rated(data_dir) -> tuple[list[int], dict[str, dict[int, str]]]:
    rows = mqm_rows(data_dir)
    return [i for i in range(1, 1003) if all(rows[s][i] != "None" for s in SYSTEMS)], rows


def _folder(data_dir, wmt21) -> list[tuple[str, bytes, str]]:
    """The rated segments as the folder uploader sends a folder (built from the shared data, never copied)."""
    rated, _ = _rated(data_dir)

    def text(lines: list[str]) -> bytes:
        return ("\n".join(lines[i - 1] for i in rated) + "\n").encode()

    items = [("wmt21mqm/reference.A.de", text(wmt21.refs()[0]), "text/plain")]
    items += [(f"wmt21mqm/systems/{s}.de", text(wmt21.system(s)), "text/plain") for s in SYSTEMS]
    return items


def _scores_tsv(data_dir) -> tuple[bytes, dict[str, np.ndarray]]:
    rated, rows = _rated(data_dir)
    lines = ["system\tMQM"] + [f"{s}\t{rows[s][i]}" for s in SYSTEMS for i in rated]
    return ("\n".join(lines) + "\n").encode(), {s: np.array([float(rows[s][i]) for i in rated]) for s in SYSTEMS}


def _lines(at: AppTest, path: str) -> list[str]:
    return list(next(t for t in at.session_state[state.CORPUS].references if t.name.endswith(path)).lines)


def _systems(at: AppTest):
    return next(d.value for d in at.dataframe if "BLEU CI low" in d.value.columns or "TER CI low" in d.value.columns)


def _choose(at: AppTest, keys: list[str], where: str = "") -> None:
    """The sidebar's metrics and the slice box (each test sets what it reads: the page is shared)."""
    at.multiselect(key=state.METRICS_BOX).set_value(keys).run()
    at.text_input(key=state.COMPARE_WHERE).input(where).run()
    assert not at.exception, [e.value for e in at.exception]


def _mqm(at: AppTest, data_dir) -> dict[str, np.ndarray]:
    """The MQM scores imported (once: a second upload of the same file changes nothing)."""
    tsv, floats = _scores_tsv(data_dir)
    uploader(at, "compare.in_scores").set_value(("mqm.tsv", tsv, "text/tab-separated-values")).run()
    assert not at.exception, [e.value for e in at.exception]
    return floats


@pytest.fixture(scope="module")
def compare(data_dir, wmt21) -> AppTest:
    at = open_app("pages/compare.py")
    uploader(at, "compare.in_folder").set_value(_folder(data_dir, wmt21)).run()
    assert not at.exception, [e.value for e in at.exception]
    assert at.session_state[state.CORPUS].n_segments == 527
    return at


def test_the_box_offers_every_registered_metric_and_opens_on_the_pages_default(compare) -> None:
    box = compare.multiselect(key=state.METRICS_BOX)
    assert len(box.options) == len(METRICS)
    assert box.value == [k for k in ("bleu", "chrf") if k in METRICS]  # BLEU and chrF when it is registered


def test_chosen_metrics_are_sacrebleus_with_both_signatures_and_rank_in_their_direction(compare) -> None:
    at = compare
    _choose(at, ["bleu", *OTHERS], SLICE)
    refs = [_lines(at, "reference.A.de")]
    table = _systems(at).set_index("system")
    captions = [c.value for c in at.caption]
    for key in OTHERS:
        oracle = {"chrf": sacrebleu.metrics.CHRF, "ter": sacrebleu.metrics.TER}[key]()
        name = oracle.__class__.__name__
        column = {"CHRF": "chrF2", "TER": "TER"}[name]
        for s in SYSTEMS:
            hyps = list(at.session_state[state.SHOWN_CORPUS].system(s).lines)
            assert len(hyps) == 150
            assert table.loc[s, column] == pytest.approx(oracle.corpus_score(hyps, refs).score, abs=1e-9), (key, s)
        assert table.loc[s, f"{column} CI low"] <= table.loc[s, column] <= table.loc[s, f"{column} CI high"]
        theirs = str(oracle.get_signature()).replace("nrefs:1|", "nrefs:1|bs:1000|seed:12345|")
        assert any(theirs.replace("|", " | ") in c for c in captions), theirs  # sacreBLEU's own, as it signs a test
    # TER: lower is better, so its ranking is lowest first
    html = next(h.proto.body for h in at.html if "<th>TER</th>" in h.proto.body)
    shown = [float(x) for x in re.findall(r'title="[^"]*">[^<]*</td><td>([0-9.]+)</td>', html)]
    assert shown == sorted(shown)
    assert any("Ranked by TER (lower is better)" in m.value for m in at.markdown)


def test_imported_scores_become_a_metric_column_with_its_mean_and_follow_the_slice(compare, data_dir) -> None:
    at = compare
    _choose(at, ["bleu"], SLICE)
    floats = _mqm(at, data_dir)
    assert at.multiselect(key=state.METRICS_BOX).value == ["bleu", "scores:MQM"]  # shown once loaded
    table = _systems(at).set_index("system")
    chosen = [int(x) - 1 for x in range(1, 151)]  # the slice above: line 1..150
    for s in SYSTEMS:
        assert table.loc[s, "MQM"] == pytest.approx(float(floats[s][chosen].mean()), abs=1e-12)
    assert any("metric:MQM | file:mqm.tsv" in c.value for c in at.caption)
    assert any("Ranked by MQM, in significance clusters" in m.value for m in at.markdown)
    at.text_input(key=state.COMPARE_WHERE).input("").run()  # the whole test set again
    table = _systems(at).set_index("system")
    for s in SYSTEMS:
        assert table.loc[s, "MQM"] == pytest.approx(float(floats[s].mean()), abs=1e-12)


def test_a_scores_file_that_does_not_fit_is_one_message_and_nothing_changes(compare) -> None:
    at = compare
    _choose(at, ["bleu", "ter"])
    before = _systems(at)
    metrics = at.multiselect(key=state.METRICS_BOX).value
    bad = b"system\tCOMET\n" + b"UEdin\t0.5\n" * 527 + b"Online-B\t0.4\n"
    uploader(at, "compare.in_scores").set_value(("comet.tsv", bad, "text/tab-separated-values")).run()
    message = (
        "comet.tsv:529: system 'Online-B' is not in the corpus (it has Facebook-AI, Online-W, UEdin, VolcTrans-GLAT)"
    )
    assert errors(at) == [f"Scores not loaded, nothing changed. {md_escape(message)}"]
    assert at.multiselect(key=state.METRICS_BOX).value == metrics
    assert _systems(at).equals(before)


def test_the_corpus_page_shows_a_card_per_metric_and_their_sentence_columns(compare, data_dir) -> None:
    at = compare
    _mqm(at, data_dir)
    _choose(at, ["bleu", "ter", "scores:MQM"])
    at.switch_page("pages/corpus.py").run()
    assert not at.exception, [e.value for e in at.exception]
    assert "ter" in at.multiselect(key=state.METRICS_BOX).value  # the choice is kept across pages
    system = at.selectbox(key="corpus.system").value
    hyps = list(at.session_state[state.CORPUS].system(system).lines)
    refs = [_lines(at, "reference.A.de")]
    card = next(m for m in at.metric if m.label == f"Corpus TER of {md_escape(system)}")  # a label is Markdown
    ter = sacrebleu.metrics.TER()
    assert card.value == f"{ter.corpus_score(hyps, refs).score:.2f}"
    sig = str(ter.get_signature()).replace("|", " | ")
    assert any(c.value == f"sacreBLEU: signature {sig}" for c in at.caption)
    table = next(d.value for d in at.dataframe if "sentence TER" in d.value.columns)
    first = table.sort_values("segment").iloc[0]
    assert first["sentence TER"] == pytest.approx(sacrebleu.metrics.TER().sentence_score(hyps[0], [refs[0][0]]).score)
    assert "MQM" in table.columns
    at.switch_page("pages/compare.py").run()  # back where the other tests expect the page


def test_the_sentence_page_shows_sacrebleus_sentence_scores() -> None:
    at = open_app("pages/sentence.py")
    assert at.multiselect(key=state.METRICS_BOX).value == ["bleu"]  # BLEU alone by default
    at.multiselect(key=state.METRICS_BOX).set_value(["bleu", *OTHERS]).run()
    assert not at.exception
    hyp = at.text_area(key=state.HYP_BOX).value
    refs = state_refs(at)
    expected = {"ter": sacrebleu.metrics.TER(), "chrf": sacrebleu.metrics.CHRF()}
    for key in OTHERS:
        name = {"ter": "TER", "chrf": "chrF2"}[key]
        card = next(m for m in at.metric if m.label == f"Sentence {name}")
        assert card.value == f"{expected[key].sentence_score(hyp, refs).score:.2f}"
        sig = str(expected[key].get_signature()).replace("|", " | ")
        assert f"sacreBLEU: signature {sig}" in [c.value for c in at.caption]


def state_refs(at: AppTest) -> list[str]:
    return [at.text_area(key=state.ref_box(i)).value for i in range(len(at.session_state[state.SENTENCE_REFS]))]


def test_a_shared_compare_view_keeps_its_metrics_and_imported_scores(store_env, data_dir) -> None:
    a = open_app("pages/compare.py")
    demo = a.session_state[state.CORPUS]
    rows = ["system\tsegment\tgrade"]
    rows += [f"{s}\t{i + 1}\t{(i * 7 + k) % 10 / 10}" for k, s in enumerate(demo.names) for i in range(demo.n_segments)]
    uploader(a, "compare.in_scores").set_value(("g.tsv", ("\n".join(rows)).encode(), "text/plain")).run()
    a.multiselect(key=state.METRICS_BOX).set_value(["ter", "scores:grade"]).run()
    table = _systems(a)
    a.button(key="share.compare").click().run()
    link = next(c.value for c in a.code if "/compare?view=" in c.value)
    b = open_app("pages/compare.py", query={share.VIEW: link.split("view=")[1]})
    assert b.multiselect(key=state.METRICS_BOX).value == ["ter", "scores:grade"]
    assert _systems(b).equals(table)


def test_the_corpus_pages_interval_follows_the_smoothing() -> None:
    """BLEU's interval on the Corpus page is scored under the sidebar's settings as they stand (its resamples are
    drawn once, with the other metrics'; a smoothing change scores them again and draws nothing). A system with no
    4-gram match, where the smoothing moves the interval: the interval was cached on the tokenization only, so a
    smoothing change kept showing the old one."""
    from bleu_core.config import BleuConfig
    from bleu_core.engine import ReferenceSet
    from bleu_core.significance import bootstrap_ci

    at = open_app("pages/corpus.py")
    refs = [f"the cat number {i} sat on the red mat today" for i in range(40)]
    hyps = [f"the cat sat {i} red mat today" for i in range(40)]  # 3-grams match, no 4-gram does
    at.text_area(key="corpus.paste_ref").input("\n".join(refs))
    at.text_area(key="corpus.paste_a").input("\n".join(hyps))
    at.button(key="corpus.load_paste").click().run()
    assert at.session_state[state.CORPUS].name == "pasted", errors(at)
    matrix = ReferenceSet([refs]).stats(hyps, 4)

    def shown() -> str:
        return next(m.value for m in at.markdown if m.value.startswith("95% interval: **"))

    seen = set()
    for smooth in ("exp", "none", "floor"):
        at.sidebar.selectbox(key=state.SMOOTH).select(smooth).run()
        _, _, low, high = bootstrap_ci(
            matrix, BleuConfig(smooth_method=smooth, smooth_value=0.1 if smooth == "floor" else None)
        )
        assert shown() == f"95% interval: **{low:.2f} to {high:.2f}**", smooth
        seen.add(shown())
    assert len(seen) == 3  # the smoothing moves this system's interval


def test_a_difference_that_rounds_to_zero_has_no_sign(data_dir) -> None:
    """WMT22 zh-en: HuaweiTSC's BLEU is 0.004 below the baseline AISP-SJTU's; the table printed "-0.00"."""
    from tests.ui.conftest import folder_files

    at = open_app("pages/compare.py")
    uploader(at, "compare.in_folder").set_value(folder_files(data_dir / "wmt22-general-zh-en")).run()
    at.selectbox(key="compare.baseline").set_value("AISP-SJTU").run()
    table = _systems(at).set_index("system")
    huawei = table.loc["HuaweiTSC", "BLEU vs baseline"]
    assert huawei == 0.0
    assert not np.signbit(huawei)
    assert -0.005 < table.loc["HuaweiTSC", "BLEU"] - table.loc["AISP-SJTU", "BLEU"] < 0
