"""The small-test-set note (``bleu_core.significance.testsize``) on every score: 30 segments of WMT22 get it, the
full WMT22 set (1,875 segments) does not; in ``score`` (text; its JSON keeps sacreBLEU's shape), ``compare`` (text and
JSON) and the report."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bleu_app.report import ReportOptions, build_report
from bleu_cli.cli import main
from bleu_core.config import BleuConfig
from bleu_core.data.corpus import build_corpus
from bleu_core.data.readers import read_text_file
from bleu_core.engine.stats import corpus_matrix, prepare_references
from bleu_core.significance import bootstrap_cis
from bleu_core.significance.testsize import MAX_WIDTH, MIN_SEGMENTS, is_small, size_note


def _head(paths: list[Path], tmp_path: Path, n: int) -> list[Path]:
    out = []
    for p in paths:
        q = tmp_path / p.name
        q.write_text("".join(line + "\n" for line in list(read_text_file(p).lines)[:n]), encoding="utf-8")
        out.append(q)
    return out


def _wmt22(real, tmp_path: Path | None = None, n: int | None = None) -> tuple[list[Path], list[Path]]:
    """Two references and three systems of WMT22 zh-en: all lines, or their first ``n`` (written to tmp_path)."""
    s = real["wmt22-general-zh-en"]
    refs, hyps = list(s.ref_paths), [p for p in s.sys_paths if p.stem in ("Online-A", "Online-B", "NiuTrans")]
    if n is None or tmp_path is None:
        return refs, hyps
    (tmp_path / "r").mkdir()
    (tmp_path / "h").mkdir()
    return _head(refs, tmp_path / "r", n), _head(hyps, tmp_path / "h", n)


def _widths(refs: list[Path], hyps: list[Path]) -> list[float]:
    config = BleuConfig()
    streams = [list(read_text_file(p).lines) for p in refs]
    infos, _ = prepare_references(streams, config)
    mats = [corpus_matrix(list(read_text_file(h).lines), infos, config) for h in hyps]
    return [hi - lo for _, _, lo, hi in bootstrap_cis(mats, config)]


@pytest.mark.slow  # out of make test-core (the one-minute loop); make test runs it
def test_the_rule_on_wmt22(real, tmp_path) -> None:
    refs, hyps = _wmt22(real)
    full = _widths(refs, hyps)
    assert len(read_text_file(refs[0]).lines) >= 1_000  # the docstring's claim
    assert max(full) < MAX_WIDTH
    assert not is_small(len(read_text_file(refs[0]).lines), max(full))
    small = _widths(_head(refs, tmp_path, 30), _head(hyps, tmp_path, 30))
    assert min(small) > max(full)  # fewer segments, wider intervals
    assert size_note(30, small).small
    assert MIN_SEGMENTS > 30


@pytest.mark.slow  # out of make test-core (the one-minute loop); make test runs it
@pytest.mark.parametrize("n", [30, None])
def test_score_text(real, tmp_path, capsys, n) -> None:
    refs, hyps = _wmt22(real, tmp_path, n)
    widths = _widths(refs, hyps)
    segments = len(read_text_file(refs[0]).lines)
    if n is None:  # a large test set: its interval is drawn only when asked (issue 30)
        assert main(["score", *map(str, refs), "-i", *map(str, hyps)]) == 0
        out = capsys.readouterr().out.splitlines()
        assert f"Test set: {segments} segments. (no interval drawn: --confidence draws them)" in out
    asked = [] if n else ["--confidence"]
    assert main(["score", *map(str, refs), "-i", *map(str, hyps), *asked]) == 0
    out = capsys.readouterr().out.splitlines()
    note = [line for line in out if "segments" in line]
    assert len(note) == 1
    assert note[0].startswith("Small test set: 30 segments (fewer than 500)" if n else f"Test set: {segments} segments")
    assert f"widest 95% interval {max(widths):.2f} BLEU points" in note[0]
    assert "bs:1000|rs:12345" in note[0]  # the intervals' signature
    assert main(["score", *map(str, refs), "-i", *map(str, hyps), "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert all("test_set" not in r for r in rows)  # score --json keeps sacreBLEU's documented shape


@pytest.mark.parametrize("n", [30, None])
def test_compare_text_and_json(real, tmp_path, capsys, n) -> None:
    refs, hyps = _wmt22(real, tmp_path, n)
    base = ["compare", *map(str, refs), "-i", *map(str, hyps), "--paired-bs", "100"]
    assert main([*base, "--json"]) == 0
    obj = json.loads(capsys.readouterr().out)
    widths = [r["high"] - r["low"] for r in obj["systems"]]
    assert obj["test_set"]["small"] is (n is not None)
    assert obj["test_set"]["widest_interval"] == pytest.approx(max(widths))
    assert main(base) == 0
    out = capsys.readouterr().out
    if n:
        assert f"Small test set: 30 segments (fewer than 500); widest 95% interval {max(widths):.2f}" in out
    else:
        assert "Small test set" not in out
        assert f"Test set: {obj['test_set']['segments']} segments; widest 95% interval {max(widths):.2f}" in out


@pytest.mark.parametrize("n", [30, pytest.param(None, marks=pytest.mark.slow)])  # the whole set's report: slow
def test_report_note(real, tmp_path, n) -> None:
    refs, hyps = _wmt22(real, tmp_path, n)
    corpus = build_corpus("wmt22", [read_text_file(p) for p in refs], [read_text_file(p) for p in hyps])
    html_text = build_report(corpus, BleuConfig(), ReportOptions(trials=100))
    small = corpus.n_segments < MIN_SEGMENTS
    assert small is (n is not None)
    assert ('class="warn size-note">Small test set' in html_text) is small
    assert ('class="note size-note">Test set: 1875 segments' in html_text) is (not small)
