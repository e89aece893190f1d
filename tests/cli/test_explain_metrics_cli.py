"""``explain -m chrf|ter``: the JSON holds sacreBLEU's chrF statistics and TER counts on real WMT sentences; the
text names the chosen reference and the edits; a second metric is one line."""

from __future__ import annotations

import json

import pytest
from sacrebleu.metrics.chrf import CHRF
from sacrebleu.metrics.ter import TER

from tests.cli.conftest import Cli, one_error_line
from tests.conftest import RealSet


def _pairs(s: RealSet, every: int) -> list[tuple[str, list[str]]]:
    refs, hyps = s.refs(), s.system(s.sys_paths[1])
    return [(hyps[i], [r[i] for r in refs]) for i in range(3, len(hyps), every)]


def _ref_args(refs: list[str]) -> list[str]:
    return [a for r in refs for a in ("--ref", r)]


@pytest.mark.parametrize("which", ["wmt21", "wmt22"])
def test_chrf_json_is_sacrebleus_statistics(cli: Cli, which: str, request: pytest.FixtureRequest) -> None:
    real: RealSet = request.getfixturevalue(which)
    for extra, theirs in (([], CHRF()), (["--chrf-word-order", "2"], CHRF(word_order=2))):
        for hyp, refs in _pairs(real, 150):
            rc, out, err = cli("explain", "-m", "chrf", *extra, "--json", "--hyp", hyp, *_ref_args(refs))
            assert (rc, err) == (0, "")
            got = json.loads(out)
            stats = theirs._extract_corpus_statistics([hyp], [[r] for r in refs])[0]
            assert [v for o in got["orders"] for v in (o["hyp"], o["ref"], o["matches"])] == stats
            assert got["score"] == theirs.sentence_score(hyp, refs).score
            singles = [theirs.sentence_score(hyp, [r]).score for r in refs]
            assert got["ref_index"] == singles.index(max(singles))
            kinds = [o["kind"] for o in got["orders"]]
            assert kinds == sorted(kinds)  # "char" orders, then "word" orders
            for o in got["orders"]:
                p, r = o["precision"], o["recall"]
                assert p == (o["matches"] / o["hyp"] if o["hyp"] else 0.0)
                assert r == (o["matches"] / o["ref"] if o["ref"] else 0.0)
                assert o["f"] == pytest.approx(5 * p * r / (4 * p + r) if p + r else 0.0)


@pytest.mark.parametrize(("which", "flags"), [("wmt21", []), ("wmt22", ["--ter-normalized", "--ter-asian-support"])])
def test_ter_json_is_sacrebleus_counts(cli: Cli, which: str, flags: list[str], request: pytest.FixtureRequest) -> None:
    real: RealSet = request.getfixturevalue(which)
    theirs = TER(normalized=bool(flags), asian_support=bool(flags))
    for hyp, refs in _pairs(real, 150):
        rc, out, err = cli("explain", "-m", "ter", *flags, "--json", "--hyp", hyp, *_ref_args(refs))
        assert (rc, err) == (0, "")
        got = json.loads(out)
        score = theirs.sentence_score(hyp, refs)
        assert (got["num_edits"], got["ref_length"]) == (score.num_edits, score.ref_length)
        assert got["score"] == pytest.approx(score.score, abs=1e-9)
        kinds = [e["op"] for e in got["edits"]]
        assert set(kinds) <= {"match", "sub", "ins", "del", "shift"}
        assert sum(k != "match" for k in kinds) == got["num_edits"]
        # the non-shift ops spell the chosen reference: each gives one reference word, in order
        assert [w for e in got["edits"] if e["op"] in ("match", "sub", "ins") for w in e["ref"]] == got["ref_tokens"]


def test_text_output_names_the_choice_and_the_edits(cli: Cli) -> None:
    rc, out, _ = cli(
        "explain", "-m", "chrf", "--hyp", "The cat sat on a mat.", "--ref", "A cat.", "--ref", "The cat sat on the mat."
    )
    assert rc == 0
    lines = out.splitlines()
    assert "chosen" in lines[1]
    assert "chosen" not in lines[0]
    assert any(line.startswith("char 6 ") for line in lines)
    rc, out, _ = cli("explain", "-m", "ter", "--hyp", "d e f g h a b c", "--ref", "a b c d e f g h")
    assert rc == 0
    assert "shift 'a b c' from 5 to 0" in out
    assert "TER = 1 edits / 8 reference words = 12.50" in out


def test_two_metrics_are_one_line(cli: Cli) -> None:
    msg = one_error_line(*cli("explain", "-m", "chrf", "ter", "--hyp", "a", "--ref", "b"))
    assert "one metric" in msg
    assert "-m" in msg
