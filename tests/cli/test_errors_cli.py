"""Bad input at the command line: exit status 2, exactly one stderr line naming the file (and line), nothing on
stdout, never a traceback; and files of different lengths are an error, never silently truncated (sacrebleu #220).
Run in this process; the last test runs the real entry point for its exit status."""

from __future__ import annotations

from pathlib import Path

import pytest

from bleu_core import InputError, corpus_bleu
from tests.cli.conftest import Cli, cli_process, one_error_line


@pytest.fixture
def files(tmp_path: Path) -> Path:
    (tmp_path / "ref.txt").write_text("a b c\nd e f\ng h\n", encoding="utf-8")
    (tmp_path / "ref2.txt").write_text("a b c\nd e f\ng h\n", encoding="utf-8")
    (tmp_path / "hyp.txt").write_text("a b c\nd e\ng h\n", encoding="utf-8")
    (tmp_path / "short.txt").write_text("a b c\nd e\n", encoding="utf-8")
    (tmp_path / "long.txt").write_text("a\nb\nc\nd\n", encoding="utf-8")
    (tmp_path / "empty.txt").write_bytes(b"")
    (tmp_path / "latin1.txt").write_bytes("ok\nstill ok\ncaf\u00e9\n".encode("latin-1"))
    (tmp_path / "binary.txt").write_bytes(b"a b\nc d\x00\x01\x02\ne\n")
    (tmp_path / "utf16.txt").write_bytes("a b\nc d\ne f\n".encode("utf-16"))
    return tmp_path


@pytest.fixture(autouse=True)
def _in_files(files: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(files)  # the commands name the files relative to it


def test_line_counts_differ_names_both_files_and_counts(cli: Cli) -> None:
    msg = one_error_line(*cli("score", "ref.txt", "-i", "short.txt"))
    assert "short.txt" in msg
    assert "ref.txt" in msg
    assert "2 lines" in msg
    assert "3 lines" in msg


def test_line_counts_differ_longer_hypothesis(cli: Cli) -> None:
    msg = one_error_line(*cli("score", "ref.txt", "-i", "long.txt"))
    assert "long.txt" in msg
    assert "ref.txt" in msg
    assert "4 lines" in msg
    assert "3 lines" in msg


def test_line_counts_differ_between_references(cli: Cli) -> None:
    msg = one_error_line(*cli("score", "ref.txt", "short.txt", "-i", "hyp.txt"))
    assert "short.txt" in msg
    assert "ref.txt" in msg


def test_second_hypothesis_with_wrong_count(cli: Cli) -> None:
    msg = one_error_line(*cli("score", "ref.txt", "-i", "hyp.txt", "empty.txt", "--json"))
    assert "empty.txt" in msg
    assert "0 lines" in msg


def test_not_utf8_names_the_line(cli: Cli) -> None:
    msg = one_error_line(*cli("score", "ref.txt", "-i", "latin1.txt"))
    assert msg.startswith("latin1.txt:3:")
    assert "UTF-8" in msg


def test_not_utf8_reference(cli: Cli) -> None:
    msg = one_error_line(*cli("score", "latin1.txt", "-i", "hyp.txt"))
    assert msg.startswith("latin1.txt:3:")


def test_binary_file(cli: Cli) -> None:
    msg = one_error_line(*cli("score", "ref.txt", "-i", "binary.txt"))
    assert msg.startswith("binary.txt:2:")
    assert "binary" in msg


def test_utf16_is_refused_not_misread(cli: Cli) -> None:
    msg = one_error_line(*cli("score", "ref.txt", "-i", "utf16.txt"))
    assert msg.startswith("utf16.txt:")


def test_missing_file(cli: Cli) -> None:
    msg = one_error_line(*cli("score", "ref.txt", "-i", "nope.txt"))
    assert msg.startswith("nope.txt:")
    assert "no such file" in msg


def test_a_symlink_loop_is_named_as_one(cli: Cli, files: Path) -> None:
    # the reliability review's nit: a link loop was reported as "no such file"
    (files / "loop.txt").symlink_to(files / "loop.txt")
    msg = one_error_line(*cli("score", "ref.txt", "-i", "loop.txt"))
    assert msg.startswith("loop.txt:")
    assert "symbolic link" in msg
    assert "no such file" not in msg


def test_missing_reference_file(cli: Cli) -> None:
    msg = one_error_line(*cli("score", "nope-ref.txt", "-i", "hyp.txt"))
    assert msg.startswith("nope-ref.txt:")


def test_directory(cli: Cli) -> None:
    msg = one_error_line(*cli("score", "ref.txt", "-i", "."))
    assert "directory" in msg


@pytest.mark.parametrize(
    ("args", "flag", "words"),
    [
        (["--tokenize", "13b"], "--tokenize", "unknown tokenizer"),
        (["--max-order", "0"], "--max-order", "between 1 and 9"),
        (["--max-order", "10"], "--max-order", "between 1 and 9"),
        (["--weights", "0.5,0.5,0.5,0.5"], "--weights", "sum to 1"),
        (["--weights", "0.2,0.2,0.2,0.2"], "--weights", "sum to 1"),
        (["--weights", "0.5,0.5"], "--weights", "one per order"),
        (["--weights", "a,b,c,d"], "--weights", "numbers"),
        (["--weights", "nan,0,0,1"], "--weights", "finite"),
        (["--smooth-method", "laplace"], "--smooth-method", "unknown smoothing"),
        (["--smooth-value", "-1"], "--smooth-value", ">= 0"),
    ],
)
def test_bad_options(cli: Cli, args: list[str], flag: str, words: str) -> None:
    msg = one_error_line(*cli("score", "ref.txt", "-i", "hyp.txt", *args))
    assert msg.startswith(f"{flag}:")
    assert words in msg


@pytest.mark.parametrize(
    "args",
    [["--tokenize", "13b"], ["--max-order", "0"], ["--weights", "0.3,0.3,0.3,0.3"]],
)
def test_bad_options_explain(cli: Cli, args: list[str]) -> None:
    one_error_line(*cli("explain", "--hyp", "a b", "--ref", "a b", *args))


def test_usage_errors_are_one_line(cli: Cli) -> None:
    one_error_line(*cli("score", "ref.txt"))
    one_error_line(*cli("nonsense"))
    one_error_line(*cli("score", "ref.txt", "-i", "hyp.txt", "--max-order", "x"))


def test_good_input_still_works(cli: Cli) -> None:
    rc, out, err = cli("score", "ref.txt", "ref2.txt", "-i", "hyp.txt", "--json")
    assert (rc, err) == (0, "")
    assert '"score"' in out


def _mecab_installed() -> bool:
    try:
        import MeCab  # noqa: F401
    except ImportError:
        return False
    return True


def test_ja_mecab_without_its_extra_is_one_clear_line(cli: Cli) -> None:
    """sacrebleu raises a multi-line RuntimeError when MeCab is missing; we give one InputError line."""
    rc, out, err = cli("score", "ref.txt", "-i", "hyp.txt", "--tokenize", "ja-mecab")
    if _mecab_installed():
        assert (rc, err) == (0, "")
        assert corpus_bleu(["猫が座った"], [["猫が座った"]], tokenize="ja-mecab").score > 99
        return
    msg = one_error_line(rc, out, err)
    assert msg.startswith("--tokenize: the ja-mecab tokenizer needs optional packages")
    with pytest.raises(InputError, match="ja-mecab"):
        corpus_bleu(["a"], [["a"]], tokenize="ja-mecab")
    one_error_line(*cli("explain", "--hyp", "a", "--ref", "a", "--tokenize", "ja-mecab"))


def test_the_entry_point_exits_2_with_one_line(python: str, files: Path) -> None:
    """What the in-process runs above stand for: ``python -m bleu_cli`` exits 2 with the one line, for a refused
    file and for a usage error, and 0 on good input."""
    msg = one_error_line(*cli_process(python, "score", "ref.txt", "-i", "short.txt", cwd=files))
    assert "short.txt" in msg
    one_error_line(*cli_process(python, "score", "ref.txt", "-i", "hyp.txt", "--max-order", "x", cwd=files))
    rc, out, err = cli_process(python, "score", "ref.txt", "-i", "hyp.txt", "--json", cwd=files)
    assert (rc, err) == (0, "")
    assert '"score"' in out
