"""``bleu-explorer variants``: the JSON contract, agreement with ``score`` and the API, input errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bleu_cli.cli import main
from bleu_core import every_bleu
from tests.core.cases import read_lines


@pytest.fixture
def files(tmp_path: Path) -> dict[str, Path]:
    ref1 = ["The cat sat on the mat.", "A quick brown fox jumps over the dog!", "Hello world, how are you?"] * 5
    ref2 = ["The cat is on the mat.", "A fast brown fox leaps over the dog.", "Hello, world: how are you?"] * 5
    hyp = ["the cat sat on a mat .", "A quick fox jumps over the lazy dog", "Hello world how are you"] * 5
    out = {}
    for name, lines in (("ref1.txt", ref1), ("ref2.txt", ref2), ("hyp.txt", hyp), ("short.txt", hyp[:-1])):
        out[name] = tmp_path / name
        out[name].write_text("\n".join(lines) + "\n", encoding="utf-8")
    return out


def _run(capsys: pytest.CaptureFixture[str], argv: list[str]) -> tuple[int, str, str]:
    code = main(argv)
    cap = capsys.readouterr()
    return code, cap.out, cap.err


def test_json_contract(files, capsys) -> None:
    code, out, err = _run(
        capsys, ["variants", str(files["ref1.txt"]), str(files["ref2.txt"]), "-i", str(files["hyp.txt"]), "--json"]
    )
    assert (code, err) == (0, "")
    obj = json.loads(out)
    assert set(obj) == {"system", "n_segments", "nrefs", "default", "spread", "rows", "skipped"}
    assert (obj["system"], obj["n_segments"], obj["nrefs"], obj["skipped"]) == ("hyp.txt", 15, 2, [])
    want = every_bleu(read_lines(files["hyp.txt"]), [read_lines(files["ref1.txt"]), read_lines(files["ref2.txt"])])
    assert obj["rows"] == [r.to_dict() for r in want.rows]
    for row in obj["rows"]:
        assert set(row) == {"key", "group", "label", "score", "difference", "signature", "changes", "who", "detail"}
        assert row["difference"] == pytest.approx(row["score"] - obj["default"]["score"], abs=1e-12)
        assert row["signature"].startswith("nrefs:2|")
    assert obj["spread"]["range"] == pytest.approx(obj["spread"]["highest"] - obj["spread"]["lowest"])
    assert obj["spread"]["lowest"] == min(r["score"] for r in obj["rows"])
    # the default row is `bleu-explorer score`'s number and signature
    code, out, _ = _run(
        capsys, ["score", str(files["ref1.txt"]), str(files["ref2.txt"]), "-i", str(files["hyp.txt"]), "--json"]
    )
    score = json.loads(out)
    assert (obj["default"]["score"], obj["default"]["signature"]) == (score["score"], score["signature"])


def test_text_output_one_line_per_row(files, capsys) -> None:
    code, out, err = _run(capsys, ["variants", str(files["ref1.txt"]), "-i", str(files["hyp.txt"])])
    assert (code, err) == (0, "")
    result = every_bleu(read_lines(files["hyp.txt"]), [read_lines(files["ref1.txt"])])
    lines = out.splitlines()
    assert lines[0].startswith(f"hyp.txt: 15 segments; sacreBLEU default {result.default.score:.2f}; ")
    for r in result.rows:
        assert sum(line.endswith(r.signature) and f"{r.score:.2f}" in line for line in lines) == 1, r.key
        assert f"  {r.label}: {r.who}" in lines


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["variants", "{ref1}", "-i", "{short}"], "short.txt"),
        (["variants", "{ref1}", "-i", "{missing}"], "missing.txt: no such file"),
        (["variants", "{ref1}", "-i", "{hyp}", "{ref2}"], "unrecognized arguments"),
        (["variants", "{ref1}"], "-i/--input"),
    ],
)
def test_errors_one_line_exit_2(files, capsys, argv: list[str], message: str) -> None:
    paths = {k.split(".")[0]: str(v) for k, v in files.items()} | {
        "missing": str(files["hyp.txt"].parent / "missing.txt")
    }
    code, out, err = _run(capsys, [a.format(**paths) for a in argv])
    assert code == 2
    assert out == ""
    assert err.count("\n") == 1
    assert err.startswith("bleu-explorer: error: ")
    assert message in err


def test_empty_files_are_refused(tmp_path: Path, capsys) -> None:
    ref, hyp = tmp_path / "r.txt", tmp_path / "h.txt"
    ref.write_text("", encoding="utf-8")
    hyp.write_text("", encoding="utf-8")
    code, out, err = _run(capsys, ["variants", str(ref), "-i", str(hyp)])
    assert (code, out) == (2, "")
    assert "no segments" in err
    assert err.count("\n") == 1


def test_real_data_on_the_command_line(data_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    d = data_dir / "wmt21-news-en-de"
    rc, out, err = _run(capsys, ["variants", str(d / "reference.A.de"), "-i", str(d / "systems" / "UF.de"), "--json"])
    assert (rc, err) == (0, "")
    obj = json.loads(out)
    import sacrebleu

    want = sacrebleu.corpus_bleu(read_lines(d / "systems" / "UF.de"), [read_lines(d / "reference.A.de")])
    assert abs(obj["default"]["score"] - want.score) <= 1e-9
    assert obj["n_segments"] == 1002
