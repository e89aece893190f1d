"""Every CSV the app exports carries the signatures of the numbers in it, ours and sacreBLEU's, in two columns of
their own (issue 30: sacreBLEU's signature wherever a number leaves the tool). sacreBLEU itself is the oracle:
its metrics, run on the demo's files, print the signature each column must hold."""

from __future__ import annotations

import csv
import io
from pathlib import Path

import pytest
from sacrebleu.metrics import BLEU, CHRF

from bleu_app.ui.components.export import SACREBLEU_SIGNATURE, SIGNATURE
from tests.ui.conftest import downloaded, open_app, recorded_downloads

DEMO = Path(__file__).resolve().parents[2] / "bleu_app" / "demo"


def _demo() -> tuple[list[str], list[list[str]]]:
    hyps = (DEMO / "systems" / "careful.txt").read_text(encoding="utf-8").splitlines()
    refs = [(DEMO / f"reference.{k}.txt").read_text(encoding="utf-8").splitlines() for k in "AB"]
    return hyps, refs


def _theirs(metric: BLEU | CHRF, *, bootstrap: bool) -> str:
    """The signature sacreBLEU prints for ``metric`` on the demo (with 1000 resamples, seed 12345 when
    ``bootstrap``: the page's intervals and its default paired test)."""
    hyps, refs = _demo()
    if isinstance(metric, BLEU) and metric.effective_order:
        metric.sentence_score(hyps[0], [r[0] for r in refs])
    else:
        metric.corpus_score(hyps, refs, n_bootstrap=1000 if bootstrap else 1)
    return str(metric.get_signature())


@pytest.fixture(scope="module")
def compare_csvs() -> dict[str, list[dict[str, str]]]:
    with recorded_downloads() as made:
        at = open_app("pages/compare.py")
    labels = ["CSV: systems", "CSV: significance", "CSV: A vs B", "CSV: n-grams", "Report: decomposition CSV"]
    out = {}
    for label in labels:
        rows = list(csv.reader(io.StringIO(downloaded(at, label, made))))
        assert rows[0][-2:] == [SACREBLEU_SIGNATURE, SIGNATURE], (label, rows[0])
        assert len(rows) > 1, label
        out[label] = [dict(zip(rows[0], r, strict=True)) for r in rows[1:]]
    return out


@pytest.mark.parametrize(
    ("label", "kinds"),
    [
        ("CSV: systems", [("BLEU", BLEU(), True), ("chrF2", CHRF(), True)]),
        ("CSV: significance", [("BLEU", BLEU(), True), ("chrF2", CHRF(), True)]),
        ("CSV: A vs B", [("sentence BLEU", BLEU(effective_order=True), False)]),
        ("CSV: n-grams", [("n-gram counts", BLEU(), False)]),
        ("Report: decomposition CSV", [("BLEU", BLEU(), False)]),
    ],
)
def test_every_compare_csv_carries_sacrebleus_signature(compare_csvs, label, kinds):
    rows = compare_csvs[label]
    want = " ; ".join(f"{what}: {_theirs(m, bootstrap=bs)}" for what, m, bs in kinds)
    assert {r[SACREBLEU_SIGNATURE] for r in rows} == {want}
    ours = rows[0][SIGNATURE].split(" ; ")
    assert [o.split(": ", 1)[0] for o in ours] == [what for what, _, _ in kinds]
    assert all("version:bleu-explorer-" in o for o in ours)  # ours beside it, one per kind of number


def test_a_setting_sacrebleu_cannot_express_says_why_in_the_csv():
    with recorded_downloads() as made:
        at = open_app("pages/compare.py")
        at.selectbox(key="tok").set_value("paper").run()
    rows = list(csv.DictReader(io.StringIO(downloaded(at, "Report: decomposition CSV", made))))
    why = "sacreBLEU has no 'paper' tokenizer (the paper's words are this app's own)"
    assert rows[0][SACREBLEU_SIGNATURE] == f"BLEU: none ({why})"
    assert "tok:paper" in rows[0][SIGNATURE]
