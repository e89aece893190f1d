"""``--where`` on score, compare and report, ``-l/--language-pair``, the language warning and ``diagnose``: every
number on a slice equals sacreBLEU's on exactly the filtered lines."""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import pytest
import sacrebleu

from bleu_cli.cli import main
from bleu_cli.slicing import SMALL_SLICE
from bleu_core.data.readers import read_text_file
from bleu_core.engine.tokenizers import get_tokenizer


def _wmt22(real) -> tuple[list[Path], list[Path], Path]:
    s = real["wmt22-general-zh-en"]
    systems = [p for p in s.sys_paths if p.stem in ("Online-A", "Online-B", "NiuTrans")]
    return list(s.ref_paths), systems, s.ref_paths[0].parent / "source.zh"


def _lines(path: Path) -> list[str]:
    return list(read_text_file(path).lines)


def _run(capsys: pytest.CaptureFixture[str], argv: list[str]) -> tuple[int, str, str]:
    rc = main(argv)
    out = capsys.readouterr()
    return rc, out.out, out.err


WHERE = 'ref_len >= 25 or (src ~ "[0-9]" and not hyp[Online-A] ~ "(?i)the")'


def _expected_lines(refs: list[list[str]], source: list[str], online_a: list[str]) -> list[int]:
    tok = get_tokenizer("13a")
    return [
        i
        for i in range(len(refs[0]))
        if len(tok(refs[0][i]).split()) >= 25
        or (re.search("[0-9]", source[i]) and not re.search("(?i)the", online_a[i]))
    ]


def test_score_where_equals_sacrebleu_on_the_filtered_lines(real, capsys) -> None:
    refs_p, sys_p, src_p = _wmt22(real)
    refs = [_lines(p) for p in refs_p]
    source = _lines(src_p)
    keep = _expected_lines(refs, source, _lines(sys_p[1]))
    assert SMALL_SLICE < len(keep) < len(refs[0]) - 100
    argv = ["score", *map(str, refs_p), "-i", *map(str, sys_p), "--source", str(src_p), "--where", WHERE, "--json"]
    rc, out, err = _run(capsys, argv)
    assert rc == 0
    assert err == ""
    rows = json.loads(out)
    assert [r["system"] for r in rows] == [p.name for p in sys_p]
    for row, path in zip(rows, sys_p, strict=True):
        hyp = _lines(path)
        theirs = sacrebleu.corpus_bleu([hyp[i] for i in keep], [[r[i] for i in keep] for r in refs])
        assert row["score"] == pytest.approx(theirs.score, abs=1e-9)
        assert row["counts"] == theirs.counts
        assert row["ref_len"] == theirs.ref_len
        assert row["slice"] == f"where: {WHERE} ({len(keep)} of {len(refs[0])} lines)"
    rc, text, _ = _run(capsys, argv[:-1])
    assert f"slice: where: {WHERE} ({len(keep)} of 1875 lines)" in text


def test_compare_where_equals_sacrebleu_and_its_paired_bootstrap(real, capsys) -> None:
    refs_p, sys_p, _src_p = _wmt22(real)
    refs = [_lines(p)[:] for p in refs_p[:1]]
    keep = [i for i in range(len(refs[0])) if 200 <= i < 700]
    rc, out, _ = _run(
        capsys,
        [
            "compare",
            str(refs_p[0]),
            "-i",
            *map(str, sys_p[:2]),
            "--where",
            "line 201..700",
            "--paired-bs",
            "300",
            "--json",
        ],
    )
    assert rc == 0
    got = json.loads(out)
    assert got["slice"] == "where: line 201..700 (500 of 1875 lines)"
    hyps = [[_lines(p)[i] for i in keep] for p in sys_p[:2]]
    ref = [[refs[0][i] for i in keep]]
    for row, hyp in zip(got["systems"], hyps, strict=True):
        assert row["score"] == pytest.approx(sacrebleu.corpus_bleu(hyp, ref).score, abs=1e-9)
    from sacrebleu.metrics import BLEU
    from sacrebleu.significance import PairedTest

    named = [("baseline", hyps[0]), ("B", hyps[1])]
    test = PairedTest(named, {"BLEU": BLEU(references=ref)}, references=None, test_type="bs", n_samples=300)
    _, results = test()
    theirs = results["BLEU"]
    # the same draws (seed 12345): sacreBLEU's float32 resample scores are the only difference
    assert got["systems"][0]["mean"] == pytest.approx(theirs[0].mean, abs=1e-3)
    assert got["systems"][0]["ci"] == pytest.approx(theirs[0].ci, abs=1e-3)
    assert got["systems"][1]["mean"] == pytest.approx(theirs[1].mean, abs=1e-3)
    assert got["systems"][1]["p_value"] == pytest.approx(theirs[1].p_value, abs=0.02)


def test_bad_expression_is_one_line_and_exit_2(real, python) -> None:
    refs_p, sys_p, _ = _wmt22(real)
    for where, message in (
        ("ref_len >", "--where: expected a number, found the end at column 10"),
        ("hyp[Nobody] ~ 'x'", "--where: no system named 'Nobody'"),
        ("src_len > 3", "--where: the expression uses the source (src), but this test set has none"),
        ("line 5000..6000", "--where: chooses none of the 1875 lines: nothing to score"),
    ):
        for command in ("score", "compare"):
            proc = subprocess.run(
                [python, "-m", "bleu_cli", command, str(refs_p[0]), "-i", *map(str, sys_p[:2]), "--where", where],
                capture_output=True,
                text=True,
                check=False,
            )
            assert proc.returncode == 2, proc.stderr
            assert proc.stdout == ""
            assert proc.stderr.count("\n") == 1
            assert proc.stderr.startswith("bleu-explorer: error: ")
            assert message in proc.stderr


def test_small_slice_says_so(real, capsys) -> None:
    refs_p, sys_p, _ = _wmt22(real)
    rc, out, err = _run(capsys, ["score", str(refs_p[0]), "-i", str(sys_p[0]), "--where", "line 1..30"])
    assert rc == 0
    assert err == (
        f"bleu-explorer: warning: the slice has 30 of 1875 lines: too few for reliable intervals and paired tests "
        f"(fewer than {SMALL_SLICE})\n"
    )
    hyp, ref = _lines(sys_p[0])[:30], _lines(refs_p[0])[:30]
    assert f"BLEU = {sacrebleu.corpus_bleu(hyp, [ref]).score:.2f}" in out


def _chinese_target(real, tmp_path: Path) -> tuple[Path, Path]:
    src = real["wmt22-general-zh-en"].ref_paths[0].parent / "source.zh"
    ref = _lines(src)
    hyp = ["".join(ch for k, ch in enumerate(line) if k % 7 != 3) for line in ref]
    (tmp_path / "hyp.zh").write_text("\n".join(hyp) + "\n", encoding="utf-8")
    return src, tmp_path / "hyp.zh"


def test_language_pair_picks_the_tokenizer_and_13a_is_warned(real, tmp_path: Path, capsys) -> None:
    ref_p, hyp_p = _chinese_target(real, tmp_path)
    ref, hyp = _lines(ref_p), _lines(hyp_p)
    rc, out, err = _run(capsys, ["score", str(ref_p), "-i", str(hyp_p), "-l", "en-zh", "--json"])
    assert rc == 0
    assert err == ""
    got = json.loads(out)
    assert "|tok:zh|" in got["signature"]
    assert got["score"] == pytest.approx(sacrebleu.corpus_bleu(hyp, [ref], tokenize="zh").score, abs=1e-9)
    rc, out, err = _run(capsys, ["score", str(ref_p), "-i", str(hyp_p), "--json"])
    assert json.loads(out)["score"] == pytest.approx(sacrebleu.corpus_bleu(hyp, [ref]).score, abs=1e-9)
    assert err.count("\n") == 1
    assert err.startswith("bleu-explorer: warning: the references are mostly Chinese script")
    assert "use --tokenize zh (-l xx-zh)" in err
    rc, out, err = _run(capsys, ["score", str(ref_p), "-i", str(hyp_p), "-l", "en-zh", "-tok", "13a", "--json"])
    assert "|tok:13a|" in json.loads(out)["signature"]  # an explicit tokenizer wins, as in sacreBLEU
    assert "mostly Chinese" in err
    rc, _, err = _run(capsys, ["score", str(ref_p), "-i", str(hyp_p), "-l", "english"])
    assert rc == 2
    assert err.startswith("bleu-explorer: error: --language-pair: expected SRC-TGT")


def test_diagnose_json_and_where_flags_find_planted_lines(real, tmp_path: Path, capsys) -> None:
    refs_p, sys_p, src_p = _wmt22(real)
    source = _lines(src_p)
    planted = _lines(sys_p[1])
    planted[9] = ""
    planted[99] = source[99]
    planted[199] = "we will " + "go and see it " * 8
    (tmp_path / "planted.en").write_text("\n".join(planted) + "\n", encoding="utf-8")
    argv = ["diagnose", *map(str, refs_p), "-i", str(sys_p[1]), str(tmp_path / "planted.en"), "--source", str(src_p)]
    rc, out, _ = _run(capsys, [*argv, "--json"])
    assert rc == 0
    got = json.loads(out)
    clean, bad = got["systems"]["Online-A.en"], got["systems"]["planted.en"]
    assert set(bad["flags"]) == {"empty", "repetition", "length", "copy", "untranslated"}
    for kind, line in (("empty", 10), ("copy", 100), ("untranslated", 100), ("repetition", 200)):
        lines = [f["line"] for f in bad["flags"][kind]]
        clean_lines = [f["line"] for f in clean["flags"][kind]]
        assert set(lines) - set(clean_lines) == {line}, kind
        assert all(isinstance(f["reason"], str) and f["reason"] for f in bad["flags"][kind])
    assert bad["counts"]["empty"] == len(bad["flags"]["empty"])
    rc, text, _ = _run(capsys, argv)
    assert "planted.en: " in text
    assert re.search(r"line +100  untranslated", text)
    # the same flags choose a slice
    rc, out, _ = _run(
        capsys,
        [
            "score",
            *map(str, refs_p),
            "-i",
            str(tmp_path / "planted.en"),
            "--source",
            str(src_p),
            "--where",
            "flag empty[planted] or flag copy[planted]",
            "--json",
        ],
    )
    chosen = sorted({f["line"] for kind in ("empty", "copy") for f in bad["flags"][kind]})
    assert {10, 100} <= set(chosen)
    got = json.loads(out)
    assert got["slice"].endswith(f"({len(chosen)} of 1875 lines)")
    refs = [_lines(p) for p in refs_p]
    theirs = sacrebleu.corpus_bleu([planted[n - 1] for n in chosen], [[r[n - 1] for n in chosen] for r in refs])
    assert got["score"] == pytest.approx(theirs.score, abs=1e-9)


def test_report_where_shows_the_slice_and_its_scores(real, tmp_path: Path, capsys) -> None:
    refs_p, sys_p, src_p = _wmt22(real)
    out_html = tmp_path / "r.html"
    rc, _, _ = _run(
        capsys,
        [
            "report",
            str(refs_p[0]),
            "-i",
            *map(str, sys_p[:2]),
            "--source",
            str(src_p),
            "--where",
            "line 1..300",
            "--paired-bs",
            "200",
            "-o",
            str(out_html),
        ],
    )
    assert rc == 0
    html = out_html.read_text(encoding="utf-8")
    assert "where: line 1..300 (300 of 1875 lines)" in html
    ref = _lines(refs_p[0])[:300]
    for path in sys_p[:2]:
        score = sacrebleu.corpus_bleu(_lines(path)[:300], [ref]).score
        assert f"<td>{score:.2f}</td>" in html
        whole = sacrebleu.corpus_bleu(_lines(path), [_lines(refs_p[0])]).score
        assert f"<td>{whole:.2f}</td>" not in html


def test_a_source_of_another_length_is_one_line(real, capsys) -> None:
    refs_p, sys_p, _ = _wmt22(real)
    other = real["wmt21-news-en-de"].ref_paths[0].parent / "source.en"
    rc, out, err = _run(
        capsys, ["score", str(refs_p[0]), "-i", str(sys_p[0]), "--source", str(other), "--where", "src_len > 3"]
    )
    assert rc == 2
    assert out == ""
    assert err == f"bleu-explorer: error: {other}: has 1002 lines, the references have 1875\n"
