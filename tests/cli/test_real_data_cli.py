"""The CLI's JSON and text against sacreBLEU on the real WMT21/WMT22/TED data, and ``explain --json``'s documented
shape (DESIGN.md section 3), run in this process."""

from __future__ import annotations

import json
import logging

import pytest
from sacrebleu.metrics import BLEU

from bleu_core import BleuConfig, explain_segment
from tests.cli.conftest import Cli
from tests.conftest import RealSet
from tests.core.cases import sacre_signature, strip_signature

logging.getLogger("sacrebleu").setLevel(logging.ERROR)

TOL = 1e-9

# --- the CLI -----------------------------------------------------------------------------------------------


SCORE_KEYS = {"score", "counts", "totals", "precisions", "bp", "sys_len", "ref_len", "signature"}
# and, beside sacreBLEU's score object, what a number needs where it leaves the tool (issue 30): sacreBLEU's own
# signature (or why it has none), the metric's name and its direction
OURS = {"name", "higher_is_better", "sacrebleu_signature", "sacrebleu_signature_none_because"}


def check_json(obj: dict, bleu: BLEU, hyps: list[str], refs: list[list[str]]) -> None:
    want = bleu.corpus_score(hyps, refs)
    assert obj["counts"] == want.counts
    assert obj["totals"] == want.totals
    assert (obj["sys_len"], obj["ref_len"]) == (want.sys_len, want.ref_len)
    assert abs(obj["score"] - want.score) <= TOL
    assert abs(obj["bp"] - want.bp) <= TOL
    assert all(abs(a - b) <= TOL for a, b in zip(obj["precisions"], want.precisions, strict=True))
    assert strip_signature(obj["signature"]) == sacre_signature(bleu.get_signature().format())
    assert (obj["name"], obj["higher_is_better"]) == ("BLEU", True)
    if bleu.max_ngram_order == 4:
        assert obj["sacrebleu_signature"] == bleu.get_signature().format()
        assert obj["sacrebleu_signature_none_because"] is None
    else:  # sacreBLEU's signature has no order: its signature would claim BLEU-4
        assert obj["sacrebleu_signature"] is None
        assert "order" in obj["sacrebleu_signature_none_because"]


@pytest.mark.slow  # out of make test-core (the one-minute loop); make test runs it
def test_cli_score_json_single_system(cli: Cli, real: dict[str, RealSet]) -> None:
    s = real["wmt21-news-en-de"]
    hyp = s.sys_paths[0]
    rc, out, err = cli("score", str(s.ref_paths[0]), "-i", str(hyp), "--json")
    assert (rc, err) == (0, "")
    obj = json.loads(out)
    assert isinstance(obj, dict)
    assert set(obj) == SCORE_KEYS | OURS
    check_json(obj, BLEU(force=True), s.system(hyp), s.refs()[:1])


@pytest.mark.parametrize(
    ("set_name", "args", "sacre_kwargs"),
    [
        pytest.param("wmt21-news-en-de", [], {}, marks=pytest.mark.slow),  # ted below: the same output, smaller
        pytest.param("wmt22-general-zh-en", ["--tokenize", "none"], {"tokenize": "none"}, marks=pytest.mark.slow),
        (
            "ted-detok",
            [
                "--lowercase",
                "--smooth-method",
                "floor",
                "--smooth-value",
                "0.2",
                "--effective-order",
                "--max-order",
                "6",
            ],
            {
                "lowercase": True,
                "smooth_method": "floor",
                "smooth_value": 0.2,
                "effective_order": True,
                "max_ngram_order": 6,
            },
        ),
    ],
)
def test_cli_score_json_several_systems_all_refs(
    cli: Cli, real: dict[str, RealSet], set_name: str, args: list[str], sacre_kwargs: dict
) -> None:
    s = real[set_name]
    systems = list(s.sys_paths[:4])
    rc, out, err = cli("score", *map(str, s.ref_paths), "-i", *map(str, systems), "--json", *args)
    assert (rc, err) == (0, "")
    objs = json.loads(out)
    assert isinstance(objs, list)
    assert [o["system"] for o in objs] == [x.name for x in systems]
    bleu = BLEU(force=True, **sacre_kwargs)
    for o, path in zip(objs, systems, strict=True):
        assert set(o) == SCORE_KEYS | OURS | {"system"}
        check_json(o, bleu, s.system(path), s.refs())
        if "--max-order" in args:
            assert "|order:6|" in o["signature"]


def test_cli_score_text_output(cli: Cli, real: dict[str, RealSet]) -> None:
    s = real["ted-detok"]
    rc, out, err = cli("score", str(s.ref_paths[0]), "-i", str(s.sys_paths[0]))
    assert (rc, err) == (0, "")
    bleu = BLEU(force=True)
    want = bleu.corpus_score(s.system(s.sys_paths[0]), s.refs())
    first, sig, sacre, note = out.strip().split("\n")
    assert first == str(want)  # sacrebleu's one-line format, number for number
    assert sig.startswith("signature: nrefs:1|case:mixed|eff:no|tok:13a|smooth:exp|order:4|version:bleu-explorer-")
    assert sacre == f"sacreBLEU signature: {bleu.get_signature().format()}"
    # issue 22.6's note; the interval is drawn when asked (--confidence) or cheap (fewer than 500 segments)
    assert note == f"Test set: {len(s.refs()[0])} segments. (no interval drawn: --confidence draws them)"


# --- explain --json: exactly the documented shape (DESIGN.md section 3) ----------------------------------------

# issue 20.1 put the score, its counts and the signature at the top level, as score --json has them
TOP = {
    "hyp_len",
    "ref_lens",
    "closest_ref_len",
    "orders",
    "score",
    "counts",
    "totals",
    "precisions",
    "bp",
    "sys_len",
    "ref_len",
    "signature",
}
ORDER = {"n", "matches", "total", "rows"}
ROW = {"ngram", "count", "ref_counts", "max_ref_count", "clipped"}


def test_cli_explain_json_shape_and_values(cli: Cli) -> None:
    hyp = "It is a guide to action which ensures that the military always obeys the commands of the party."
    refs = [
        "It is a guide to action that ensures that the military will forever heed Party commands.",
        "It is the guiding principle which guarantees the military forces always being under the command of the Party.",
        "It is the practical guide for the army always to heed the directions of the party.",
    ]
    args = ["explain", "--hyp", hyp]
    for r in refs:
        args += ["--ref", r]
    rc, out, err = cli(*args, "--tokenize", "paper", "--lowercase", "--json")
    assert (rc, err) == (0, "")
    got = json.loads(out)
    assert set(got) == TOP
    assert (got["hyp_len"], got["ref_lens"], got["closest_ref_len"]) == (18, [16, 18, 16], 18)
    assert [o["n"] for o in got["orders"]] == [1, 2, 3, 4]
    assert [(o["matches"], o["total"]) for o in got["orders"]] == [(17, 18), (10, 17), (7, 16), (4, 15)]
    for o in got["orders"]:
        assert set(o) == ORDER
        for r in o["rows"]:
            assert set(r) == ROW
            assert isinstance(r["ngram"], list)
            assert len(r["ngram"]) == o["n"]
            assert all(isinstance(t, str) for t in r["ngram"])
            assert len(r["ref_counts"]) == 3
            assert r["max_ref_count"] == max(r["ref_counts"])
            assert r["clipped"] == min(r["count"], r["max_ref_count"])
        assert sum(r["clipped"] for r in o["rows"]) == o["matches"]
        assert sum(r["count"] for r in o["rows"]) == o["total"]
    the = next(r for r in got["orders"][0]["rows"] if r["ngram"] == ["the"])
    assert the == {"ngram": ["the"], "count": 3, "ref_counts": [1, 4, 4], "max_ref_count": 4, "clipped": 3}
    # the same as the Python API
    e = explain_segment(hyp, refs, BleuConfig.sentence(tokenize="paper", lowercase=True))
    assert got["orders"][1]["rows"] == [
        {
            "ngram": list(r.ngram),
            "count": r.count,
            "ref_counts": list(r.ref_counts),
            "max_ref_count": r.max_ref_count,
            "clipped": r.clipped,
        }
        for r in e.orders[1].rows
    ]


def test_cli_explain_json_matches_sacrebleu_sentence_stats(cli: Cli) -> None:
    hyp, refs = "The cat sat on the mat, 3.5 times.", ["The cat is on the mat.", "A cat sat on a mat 3.5 times!"]
    rc, out, err = cli("explain", "--hyp", hyp, "--ref", refs[0], "--ref", refs[1], "--json", "--max-order", "5")
    assert (rc, err) == (0, "")
    got = json.loads(out)
    want = BLEU(effective_order=True, max_ngram_order=5).sentence_score(hyp, refs)
    assert [o["matches"] for o in got["orders"]] == want.counts
    assert [o["total"] for o in got["orders"]] == want.totals
    assert (got["hyp_len"], got["closest_ref_len"]) == (want.sys_len, want.ref_len)
