"""Parity with sacrebleu on the real WMT21/WMT22/TED data, through the API and through the CLI's JSON.

Every system of every set, tokenizers 13a and none, the first reference alone and all references together
(``slow``: it still runs in ``make test``); one system per set in the fast run.
"""

from __future__ import annotations

import json
import logging
import subprocess
from functools import cache
from pathlib import Path

import pytest
from sacrebleu.metrics import BLEU

from bleu_core import BleuConfig, corpus_bleu, explain_segment
from tests.core.cases import assert_same_as_sacrebleu, sacre_signature, strip_signature
from tests.core.conftest import REPO, RealSet

logging.getLogger("sacrebleu").setLevel(logging.ERROR)

SETS = ("wmt21-news-en-de", "wmt22-general-zh-en", "ted-detok", "ted-tok")
TOL = 1e-9


@cache
def _sacre(set_name: str, tokenize: str, nrefs: str, data_dir: Path) -> BLEU:
    from tests.core.conftest import real_sets

    s = {x.name: x for x in real_sets(data_dir)}[set_name]
    refs = s.refs() if nrefs == "all" else s.refs()[:1]
    return BLEU(tokenize=tokenize, force=True, references=refs)


def check_system(s: RealSet, path: Path, tokenize: str, nrefs: str, data_dir: Path) -> None:
    refs = s.refs() if nrefs == "all" else s.refs()[:1]
    hyps = s.system(path)
    assert len(hyps) == len(refs[0]), path
    bleu = _sacre(s.name, tokenize, nrefs, data_dir)
    want = bleu.corpus_score(hyps, None)
    got = corpus_bleu(hyps, refs, tokenize=tokenize)
    where = f"{s.name}/{path.name} tok={tokenize} refs={nrefs}"
    assert got.counts == want.counts, where
    assert got.totals == want.totals, where
    assert (got.sys_len, got.ref_len) == (want.sys_len, want.ref_len), where
    assert abs(got.score - want.score) <= TOL, where
    for a, b in zip(got.precisions, want.precisions, strict=True):
        assert abs(a - b) <= TOL, where
    assert strip_signature(got.signature) == sacre_signature(bleu.get_signature().format()), where


@pytest.mark.parametrize("nrefs", ["one", "all"])
@pytest.mark.parametrize("tokenize", ["13a", "none"])
@pytest.mark.parametrize("set_name", SETS)
def test_first_system_of_each_set(
    real: dict[str, RealSet], data_dir: Path, set_name: str, tokenize: str, nrefs: str
) -> None:
    s = real[set_name]
    check_system(s, s.sys_paths[0], tokenize, nrefs, data_dir)


@pytest.mark.slow
@pytest.mark.parametrize("tokenize", ["13a", "none"])
@pytest.mark.parametrize("set_name", SETS)
def test_every_system(real: dict[str, RealSet], data_dir: Path, set_name: str, tokenize: str) -> None:
    """Every system through ``corpus_bleu``, against the first reference and against all references."""
    s = real[set_name]
    checked = 0
    for nrefs in ("one", "all") if len(s.ref_paths) > 1 else ("one",):
        refs = s.refs() if nrefs == "all" else s.refs()[:1]
        bleu = _sacre(s.name, tokenize, nrefs, data_dir)
        for path in s.sys_paths:
            hyps = s.system(path)
            got = corpus_bleu(hyps, refs, tokenize=tokenize)
            want = bleu.corpus_score(hyps, None)
            where = f"{s.name}/{path.name} tok={tokenize} refs={nrefs}"
            assert_same_as_sacrebleu(got, want, where, metric=bleu, tol=TOL)
            checked += 1
    print(f"\n[real parity] {set_name} tok={tokenize}: {checked} (system, reference set) pairs")


# --- the CLI -----------------------------------------------------------------------------------------------


def run_cli(python: str, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [python, "-m", "bleu_cli", *args], capture_output=True, text=True, cwd=REPO, timeout=300, check=False
    )


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


def test_cli_score_json_single_system(python: str, real: dict[str, RealSet]) -> None:
    s = real["wmt21-news-en-de"]
    hyp = s.sys_paths[0]
    p = run_cli(python, "score", str(s.ref_paths[0]), "-i", str(hyp), "--json")
    assert p.returncode == 0, p.stderr
    assert p.stderr == ""
    obj = json.loads(p.stdout)
    assert isinstance(obj, dict)
    assert set(obj) == SCORE_KEYS | OURS
    check_json(obj, BLEU(force=True), s.system(hyp), s.refs()[:1])


@pytest.mark.parametrize(
    ("set_name", "args", "sacre_kwargs"),
    [
        ("wmt21-news-en-de", [], {}),
        ("wmt22-general-zh-en", ["--tokenize", "none"], {"tokenize": "none"}),
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
    python: str, real: dict[str, RealSet], set_name: str, args: list[str], sacre_kwargs: dict
) -> None:
    s = real[set_name]
    systems = list(s.sys_paths[:4])
    p = run_cli(python, "score", *map(str, s.ref_paths), "-i", *map(str, systems), "--json", *args)
    assert p.returncode == 0, p.stderr
    assert p.stderr == ""
    objs = json.loads(p.stdout)
    assert isinstance(objs, list)
    assert [o["system"] for o in objs] == [x.name for x in systems]
    bleu = BLEU(force=True, **sacre_kwargs)
    for o, path in zip(objs, systems, strict=True):
        assert set(o) == SCORE_KEYS | OURS | {"system"}
        check_json(o, bleu, s.system(path), s.refs())
        if "--max-order" in args:
            assert "|order:6|" in o["signature"]


def test_cli_score_text_output(python: str, real: dict[str, RealSet]) -> None:
    s = real["ted-detok"]
    p = run_cli(python, "score", str(s.ref_paths[0]), "-i", str(s.sys_paths[0]))
    assert p.returncode == 0, p.stderr
    bleu = BLEU(force=True)
    want = bleu.corpus_score(s.system(s.sys_paths[0]), s.refs())
    first, sig, sacre, note = p.stdout.strip().split("\n")
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


def test_cli_explain_json_shape_and_values(python: str) -> None:
    hyp = "It is a guide to action which ensures that the military always obeys the commands of the party."
    refs = [
        "It is a guide to action that ensures that the military will forever heed Party commands.",
        "It is the guiding principle which guarantees the military forces always being under the command of the Party.",
        "It is the practical guide for the army always to heed the directions of the party.",
    ]
    args = ["explain", "--hyp", hyp]
    for r in refs:
        args += ["--ref", r]
    p = run_cli(python, *args, "--tokenize", "paper", "--lowercase", "--json")
    assert p.returncode == 0, p.stderr
    assert p.stderr == ""
    out = json.loads(p.stdout)
    assert set(out) == TOP
    assert (out["hyp_len"], out["ref_lens"], out["closest_ref_len"]) == (18, [16, 18, 16], 18)
    assert [o["n"] for o in out["orders"]] == [1, 2, 3, 4]
    assert [(o["matches"], o["total"]) for o in out["orders"]] == [(17, 18), (10, 17), (7, 16), (4, 15)]
    for o in out["orders"]:
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
    the = next(r for r in out["orders"][0]["rows"] if r["ngram"] == ["the"])
    assert the == {"ngram": ["the"], "count": 3, "ref_counts": [1, 4, 4], "max_ref_count": 4, "clipped": 3}
    # the same as the Python API
    e = explain_segment(hyp, refs, BleuConfig.sentence(tokenize="paper", lowercase=True))
    assert out["orders"][1]["rows"] == [
        {
            "ngram": list(r.ngram),
            "count": r.count,
            "ref_counts": list(r.ref_counts),
            "max_ref_count": r.max_ref_count,
            "clipped": r.clipped,
        }
        for r in e.orders[1].rows
    ]


def test_cli_explain_json_matches_sacrebleu_sentence_stats(python: str) -> None:
    hyp, refs = "The cat sat on the mat, 3.5 times.", ["The cat is on the mat.", "A cat sat on a mat 3.5 times!"]
    p = run_cli(python, "explain", "--hyp", hyp, "--ref", refs[0], "--ref", refs[1], "--json", "--max-order", "5")
    assert p.returncode == 0, p.stderr
    out = json.loads(p.stdout)
    want = BLEU(effective_order=True, max_ngram_order=5).sentence_score(hyp, refs)
    assert [o["matches"] for o in out["orders"]] == want.counts
    assert [o["total"] for o in out["orders"]] == want.totals
    assert (out["hyp_len"], out["closest_ref_len"]) == (want.sys_len, want.ref_len)
