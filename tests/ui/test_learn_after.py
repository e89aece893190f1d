"""After BLEU on the Learn page (issue 33): chrF and TER on the paper's sentences and what a difference means to
people. Every number it shows equals an independent computation: sacreBLEU's own chrF and TER, the authors'
mt-thresholds package; and each step opens from its link, on the page and as a slide."""

from __future__ import annotations

import mt_thresholds
import sacrebleu
from sacrebleu.metrics import TER

from bleu_app.frames import after
from bleu_app.ui.learn import steps
from bleu_core import BleuConfig, explain_segment
from bleu_core.teaching.paper import EXAMPLE_1
from tests.ui.conftest import open_learn

C1, C2 = EXAMPLE_1.candidates[:2]
REFS = list(EXAMPLE_1.references)
ROWS = [
    (C1, REFS),
    (C2, REFS),
    (after.PARAPHRASE[0], [after.PARAPHRASE[1]]),
    (after.MORPHOLOGY[0], [after.MORPHOLOGY[1]]),
]


def test_the_chrf_table_is_sacrebleus_chrf_beside_the_lectures_bleu() -> None:
    frame = after.chrf_frame(BleuConfig.paper())
    assert frame["chrF"].tolist() == [f"{sacrebleu.sentence_chrf(h, r).score:.2f}" for h, r in ROWS]
    assert frame["BLEU"].tolist() == [f"{explain_segment(h, r, BleuConfig.paper()).score.score:.2f}" for h, r in ROWS]
    # the step's point, computed: the paraphrase and the wrong inflections get no BLEU and partial chrF credit
    paraphrase, morphology = frame.iloc[2], frame.iloc[3]
    assert paraphrase["BLEU"] == morphology["BLEU"] == "0.00"
    assert float(paraphrase["chrF"]) > 50
    assert float(morphology["chrF"]) > 50
    assert float(frame.iloc[0]["chrF"]) > float(frame.iloc[1]["chrF"])  # Candidate 1 still above Candidate 2


def test_the_ter_edits_are_sacrebleus_count_and_rebuild_the_reference() -> None:
    frame = after.ter_frame()
    want = TER().corpus_score([C2], [[r] for r in REFS])
    n = after.ter_summary()
    assert int(n["edits"]) == int(frame["counts"].sum()) == round(want.num_edits)
    assert float(n["length"]) == round(want.ref_length, 2)
    assert n["ter"] == f"{want.score:.2f}"
    chosen = REFS[int(n["reference"]) - 1].lower().split()
    rebuilt = [w for words in frame[frame["edit"] != "delete"]["reference's words"] for w in words.split()]
    assert rebuilt == chosen  # the edit script, applied, is the closest reference (tercom lowercases)
    grouped = after.ter_by_kind(frame)
    assert grouped["edits"].sum() == int(n["edits"])


def test_the_people_table_is_the_authors_formula() -> None:
    frame = after.people_frame()
    for (_, bleu, chrf), delta in zip(frame.iloc[:-1].itertuples(index=False), after.DELTAS, strict=True):
        want = {m: f"{mt_thresholds.accuracy(delta, m):.0f}%" for m in ("bleu", "chrf")}
        assert (bleu, chrf) == (want["bleu"], want["chrf"])
    assert frame.iloc[1].tolist() == ["1 point", "64%", "70%"]  # the figures issue 33 quotes: 1 BLEU about 64%


def test_the_steps_open_from_their_links_with_their_numbers_and_signatures() -> None:
    at = open_learn(step="chrf")
    assert [h.value for h in at.header] == [steps.heading(steps.get("chrf"))]
    shown = at.table[0].value
    assert shown["chrF"].tolist() == after.chrf_frame(BleuConfig.paper())["chrF"].tolist()
    captions = " ".join(c.value for c in at.caption)
    assert "BLEU: signature nrefs:var | case:lc" in captions
    assert "chrF: signature nrefs:var | case:mixed | eff:yes | nc:6" in captions
    ter = open_learn(step="ter", present="1")
    n = after.ter_summary()
    assert any(f"**{n['edits']} edits / {n['length']} = TER {n['ter']}**" in m.value for m in ter.markdown)
    assert ter.table[0].value["edit"].tolist() == ["shift (move)", "insert", "substitute"]
    people = open_learn(step="people")
    assert "Kocmi, Zouhar, Federmann and Post (ACL 2024)" in " ".join(c.value for c in people.caption)
    assert not [e for page in (at, ter, people) for e in page.exception]


def _torchmetrics_before_3481(hyps: list[str], refs: list[str]) -> float:
    """The misimplementation written out from its issue (#3480), independently of bleu_core: sacreBLEU's own
    per-sentence statistics, but a sentence whose best F-score is not above 0.0 keeps zero reference counts."""
    metric = sacrebleu.metrics.CHRF()
    rows = []
    for hyp, ref in zip(hyps, refs, strict=True):
        stats = metric._extract_corpus_statistics([hyp], [[ref]])[0]
        if metric._compute_f_score(stats) <= 0.0:
            stats = [0 if k % 3 == 1 else v for k, v in enumerate(stats)]  # [hyp, ref, match] per order
        rows.append(stats)
    return metric._compute_f_score([sum(col) for col in zip(*rows, strict=True)])


def test_the_chrf_bug_round_is_sacrebleu_right_and_the_issues_bug_wrong() -> None:
    from bleu_core.teaching.chrf_lab import ZERO_OVERLAP

    refs = list(ZERO_OVERLAP.references)
    frame = after.chrf_lab_frame()
    for (name, hyps), row in zip(ZERO_OVERLAP.systems, frame.itertuples(index=False), strict=True):
        assert row[0] == name
        assert row[2] == f"{sacrebleu.corpus_chrf(list(hyps), [refs]).score:.2f}"
        assert row[3] == f"{_torchmetrics_before_3481(list(hyps), refs):.2f}"
    # the round's point, computed: the ranking of A and B turns over, and garbage beats a partly right sentence
    assert frame["rank"].tolist()[:2] == ["1", "2"]
    assert frame["rank, dropped"].tolist()[:2] == ["2", "1"]
    assert float(frame.iloc[1]["chrF, dropped"]) > float(frame.iloc[2]["chrF, dropped"])


def test_the_round_shows_its_answer_only_after_a_prediction() -> None:
    at = open_learn(step="chrf_bug")
    assert len(at.table) == 1  # the corpus; the scores wait for a prediction
    at.radio(key="learn.after.chrf_bug").set_value("lower").run()
    assert any("Not quite: it is higher" in m.value for m in at.markdown)
    assert at.table[1].value["chrF, dropped"].tolist() == after.chrf_lab_frame()["chrF, dropped"].tolist()
    at.radio(key="learn.after.chrf_bug").set_value("higher").run()
    assert any(m.value.startswith("**Right.**") for m in at.markdown)
