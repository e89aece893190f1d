"""``--preset paper|sacrebleu`` on score, explain and compare: the paper preset reproduces the Learn page."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from bleu_cli.cli import main
from bleu_core import BleuConfig, explain_segment
from bleu_core.teaching.paper import EXAMPLE_1

CAND = EXAMPLE_1.candidates[0]
REF_ARGS = [a for r in EXAMPLE_1.references for a in ("--ref", r)]


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    assert main(list(argv)) == 0
    return capsys.readouterr().out


def test_explain_paper_preset_prints_the_learn_pages_50_46(capsys: pytest.CaptureFixture[str]) -> None:
    out = _run(capsys, "explain", "--preset", "paper", "--hyp", CAND, *REF_ARGS)
    page = explain_segment(CAND, list(EXAMPLE_1.references), BleuConfig.paper()).score  # the Learn page's config
    assert f"{page.score:.2f}" == "50.46"
    assert "BLEU = 50.46 " in out
    assert "p_1 = 17/18" in out
    assert f"signature: {page.signature}" in out


def test_explain_without_preset_keeps_sacrebleu_sentence_defaults(capsys: pytest.CaptureFixture[str]) -> None:
    out = _run(capsys, "explain", "--hyp", CAND, *REF_ARGS)
    assert "eff:yes" in out
    assert "tok:13a" in out
    assert "smooth:exp" in out


def test_explicit_option_overrides_the_preset(capsys: pytest.CaptureFixture[str]) -> None:
    out = _run(capsys, "explain", "--preset", "paper", "--smooth-method", "exp", "--hyp", CAND, *REF_ARGS)
    assert "tok:paper" in out
    assert "smooth:exp" in out


def test_score_and_compare_take_the_preset(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    refs = []
    for k, r in enumerate(EXAMPLE_1.references):
        refs.append(tmp_path / f"ref{k}.txt")
        refs[-1].write_text(r + "\n", encoding="utf-8")
    hyp1, hyp2 = tmp_path / "c1.txt", tmp_path / "c2.txt"
    hyp1.write_text(CAND + "\n", encoding="utf-8")
    hyp2.write_text(EXAMPLE_1.candidates[1] + "\n", encoding="utf-8")
    out = _run(capsys, "score", *map(str, refs), "-i", str(hyp1), "--preset", "paper")
    assert out.startswith("BLEU = 50.46 ")
    assert "tok:paper" in out
    assert "13a" in _run(capsys, "score", *map(str, refs), "-i", str(hyp1), "--preset", "sacrebleu")
    out = _run(capsys, "compare", *map(str, refs), "-i", str(hyp1), str(hyp2), "--preset", "paper", "--paired-bs", "50")
    assert "tok:paper" in out
    assert "50.46" in out


def test_the_readme_command_prints_50_46(capsys: pytest.CaptureFixture[str]) -> None:
    import shlex

    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
    block = readme[readme.index("$ bleu-explorer explain --preset paper") :].split("\n...\n")[0]
    argv = shlex.split(block.removeprefix("$ bleu-explorer ").replace("\\\n", " "))
    out = _run(capsys, *argv)
    assert "BLEU = 50.46 94.4/58.8/43.8/26.7" in out


def test_explain_json_has_the_score_bp_precisions_and_signature_at_the_top(capsys: pytest.CaptureFixture[str]) -> None:
    import json

    out = json.loads(_run(capsys, "explain", "--preset", "paper", "--json", "--hyp", CAND, *REF_ARGS))
    text = _run(capsys, "explain", "--preset", "paper", "--hyp", CAND, *REF_ARGS)
    page = explain_segment(CAND, list(EXAMPLE_1.references), BleuConfig.paper()).score
    assert f"{out['score']:.2f}" == "50.46"
    assert f"BLEU = {out['score']:.2f} " in text  # the text output's number
    assert out["bp"] == page.bp == 1.0
    assert out["counts"] == [17, 10, 7, 4]
    assert out["totals"] == [18, 17, 16, 15]
    assert out["precisions"] == pytest.approx([100 * 17 / 18, 100 * 10 / 17, 100 * 7 / 16, 100 * 4 / 15])
    assert out["signature"] == page.signature
    assert f"signature: {out['signature']}" in text
    assert (out["sys_len"], out["ref_len"], out["closest_ref_len"]) == (18, 18, 18)
    assert out["orders"][0]["matches"] == 17
    short = json.loads(_run(capsys, "explain", "--preset", "paper", "--json", "--hyp", "of the", *REF_ARGS))
    assert short["bp"] == pytest.approx(math.exp(1 - 16 / 2))
    assert short["score"] == 0.0
