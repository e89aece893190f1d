"""Bad input: the CLI exits 2 with exactly one stderr line naming the file (and line) and prints nothing on
stdout; the Python API raises InputError with a clear message, and never truncates silently (sacrebleu #220)."""

from __future__ import annotations

import gzip
import subprocess
from pathlib import Path

import pytest

from bleu_core import BleuConfig, InputError, corpus_bleu, explain_segment, sentence_bleu
from bleu_core.data.corpus import check_parallel
from bleu_core.data.readers import decode_lines, read_text_file
from tests.core.conftest import REPO


def cli(python: str, cwd: Path, *args: str) -> tuple[int, str, str]:
    p = subprocess.run(
        [python, "-m", "bleu_cli", *args], capture_output=True, text=True, cwd=cwd, timeout=120, check=False
    )
    return p.returncode, p.stdout, p.stderr


def one_error_line(rc: int, out: str, err: str) -> str:
    assert rc == 2, (rc, out, err)
    assert out == ""
    assert "Traceback" not in err
    lines = err.splitlines()
    assert len(lines) == 1, err
    assert err.endswith("\n")
    assert lines[0].startswith("bleu-explorer: error: ")
    return lines[0].removeprefix("bleu-explorer: error: ")


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


def test_line_counts_differ_names_both_files_and_counts(python: str, files: Path) -> None:
    msg = one_error_line(*cli(python, files, "score", "ref.txt", "-i", "short.txt"))
    assert "short.txt" in msg
    assert "ref.txt" in msg
    assert "2 lines" in msg
    assert "3 lines" in msg


def test_line_counts_differ_longer_hypothesis(python: str, files: Path) -> None:
    msg = one_error_line(*cli(python, files, "score", "ref.txt", "-i", "long.txt"))
    assert "long.txt" in msg
    assert "ref.txt" in msg
    assert "4 lines" in msg
    assert "3 lines" in msg


def test_line_counts_differ_between_references(python: str, files: Path) -> None:
    msg = one_error_line(*cli(python, files, "score", "ref.txt", "short.txt", "-i", "hyp.txt"))
    assert "short.txt" in msg
    assert "ref.txt" in msg


def test_second_hypothesis_with_wrong_count(python: str, files: Path) -> None:
    msg = one_error_line(*cli(python, files, "score", "ref.txt", "-i", "hyp.txt", "empty.txt", "--json"))
    assert "empty.txt" in msg
    assert "0 lines" in msg


def test_not_utf8_names_the_line(python: str, files: Path) -> None:
    msg = one_error_line(*cli(python, files, "score", "ref.txt", "-i", "latin1.txt"))
    assert msg.startswith("latin1.txt:3:")
    assert "UTF-8" in msg


def test_not_utf8_reference(python: str, files: Path) -> None:
    msg = one_error_line(*cli(python, files, "score", "latin1.txt", "-i", "hyp.txt"))
    assert msg.startswith("latin1.txt:3:")


def test_binary_file(python: str, files: Path) -> None:
    msg = one_error_line(*cli(python, files, "score", "ref.txt", "-i", "binary.txt"))
    assert msg.startswith("binary.txt:2:")
    assert "binary" in msg


def test_utf16_is_refused_not_misread(python: str, files: Path) -> None:
    msg = one_error_line(*cli(python, files, "score", "ref.txt", "-i", "utf16.txt"))
    assert msg.startswith("utf16.txt:")


def test_missing_file(python: str, files: Path) -> None:
    msg = one_error_line(*cli(python, files, "score", "ref.txt", "-i", "nope.txt"))
    assert msg.startswith("nope.txt:")
    assert "no such file" in msg


def test_a_symlink_loop_is_named_as_one(python: str, files: Path) -> None:
    # the reliability review's nit: a link loop was reported as "no such file"
    (files / "loop.txt").symlink_to(files / "loop.txt")
    msg = one_error_line(*cli(python, files, "score", "ref.txt", "-i", "loop.txt"))
    assert msg.startswith("loop.txt:")
    assert "symbolic link" in msg
    assert "no such file" not in msg


def test_missing_reference_file(python: str, files: Path) -> None:
    msg = one_error_line(*cli(python, files, "score", "nope-ref.txt", "-i", "hyp.txt"))
    assert msg.startswith("nope-ref.txt:")


def test_directory(python: str, files: Path) -> None:
    msg = one_error_line(*cli(python, files, "score", "ref.txt", "-i", "."))
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
def test_bad_options(python: str, files: Path, args: list[str], flag: str, words: str) -> None:
    msg = one_error_line(*cli(python, files, "score", "ref.txt", "-i", "hyp.txt", *args))
    assert msg.startswith(f"{flag}:")
    assert words in msg


@pytest.mark.parametrize(
    "args",
    [["--tokenize", "13b"], ["--max-order", "0"], ["--weights", "0.3,0.3,0.3,0.3"]],
)
def test_bad_options_explain(python: str, files: Path, args: list[str]) -> None:
    one_error_line(*cli(python, files, "explain", "--hyp", "a b", "--ref", "a b", *args))


def test_usage_errors_are_one_line(python: str, files: Path) -> None:
    one_error_line(*cli(python, files, "score", "ref.txt"))
    one_error_line(*cli(python, files, "nonsense"))
    one_error_line(*cli(python, files, "score", "ref.txt", "-i", "hyp.txt", "--max-order", "x"))


def test_good_input_still_works(python: str, files: Path) -> None:
    rc, out, err = cli(python, files, "score", "ref.txt", "ref2.txt", "-i", "hyp.txt", "--json")
    assert (rc, err) == (0, "")
    assert '"score"' in out


def test_gzip_and_crlf_and_bom_are_read(tmp_path: Path) -> None:
    with gzip.open(tmp_path / "r.txt.gz", "wt", encoding="utf-8") as fh:
        fh.write("a b\nc d\n")
    assert read_text_file(tmp_path / "r.txt.gz").lines == ("a b", "c d")
    (tmp_path / "crlf.txt").write_bytes("\ufeffa b\r\nc d\r\n".encode())
    # the BOM is kept, as sacrebleu keeps it (glued to the first token: test_input_edges.py)
    assert read_text_file(tmp_path / "crlf.txt").lines == ("\ufeffa b", "c d")
    assert decode_lines(b"a\n\nb", "x").lines == ("a", "", "b")  # empty segments are kept, no final newline needed


def test_check_parallel_python() -> None:
    with pytest.raises(InputError, match=r"^b\.txt: has 1 line but a\.txt has 2 lines"):
        check_parallel([decode_lines(b"x\ny\n", "a.txt"), decode_lines(b"x\n", "b.txt")])


# --- Python API -------------------------------------------------------------------------------------------


def test_flat_list_of_references_is_refused_with_a_hint() -> None:
    with pytest.raises(InputError) as exc:
        corpus_bleu(["the cat", "a dog"], ["the cat", "a dog"])  # type: ignore[list-item]
    msg = str(exc.value)
    assert msg.startswith("references:")
    assert "flat list" in msg
    assert "[refs]" in msg


def test_flat_list_single_segment() -> None:
    with pytest.raises(InputError, match="flat list"):
        corpus_bleu(["the cat"], ["the cat"])  # type: ignore[list-item]


@pytest.mark.parametrize(
    ("hyps", "refs"),
    [
        (["a", "b", "c"], [["a", "b"]]),  # sacrebleu would silently score 2 segments
        (["a", "b"], [["a", "b", "c"]]),
        (["a", "b"], [["a", "b"], ["a"]]),
        (["a"], [["a"], []]),
    ],
)
def test_streams_of_different_lengths_are_refused(hyps: list[str], refs: list[list[str]]) -> None:
    with pytest.raises(InputError, match="segments but there are"):
        corpus_bleu(hyps, refs)


@pytest.mark.parametrize(
    ("hyps", "refs", "match"),
    [
        ("a b", [["a b"]], "hypotheses"),
        (["a", 3], [["a", "b"]], "segment 2"),
        (["a"], [], "non-empty"),
        (["a"], "a", "references"),
        (["a"], [[3]], "not a string"),
        (["a"], [[None]], "no reference"),
        (["a", "b"], [["a", None], [None, "b"], ["x", None]], None),  # fine: each segment has one
    ],
)
def test_bad_api_inputs(hyps: object, refs: object, match: str | None) -> None:
    if match is None:
        corpus_bleu(hyps, refs)  # type: ignore[arg-type]
        return
    with pytest.raises(InputError, match=match):
        corpus_bleu(hyps, refs)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"tokenize": "13b"}, "unknown tokenizer"),
        ({"max_ngram_order": 0}, "between 1 and 9"),
        ({"max_ngram_order": 10}, "between 1 and 9"),
        ({"max_ngram_order": True}, "between 1 and 9"),
        ({"weights": [0.5, 0.5, 0.5, 0.5]}, "sum to 1"),
        ({"weights": [1.0]}, "one per order"),
        ({"weights": [1.5, -0.5, 0, 0]}, ">= 0"),
        ({"smooth_method": "laplace"}, "unknown smoothing"),
        ({"smooth_value": -0.1}, ">= 0"),
        ({"smooth_value": float("inf")}, "finite"),
    ],
)
def test_bad_api_options(kwargs: dict, match: str) -> None:
    with pytest.raises(InputError, match=match):
        corpus_bleu(["a b"], [["a b"]], **kwargs)


def test_sentence_bleu_and_explain_refuse_a_string_as_references() -> None:
    with pytest.raises(InputError, match="references"):
        sentence_bleu("a b", "a b")  # type: ignore[arg-type]
    with pytest.raises(InputError, match="references"):
        explain_segment("a b", "a b")  # type: ignore[arg-type]
    with pytest.raises(InputError, match="at least one"):
        explain_segment("a b", [])
    with pytest.raises(InputError):
        BleuConfig(tokenize="nope")


def test_input_error_is_a_value_error_with_where() -> None:
    with pytest.raises(ValueError, match="flat list") as exc:  # callers that catch ValueError keep working
        corpus_bleu(["a"], ["a"])  # type: ignore[list-item]
    assert isinstance(exc.value, InputError)
    assert exc.value.where == "references"


def test_repo_root_is_where_the_package_is() -> None:
    assert (REPO / "bleu_core" / "__init__.py").is_file()


def test_numpy_numbers_are_accepted_and_normalised() -> None:
    import numpy as np

    c = BleuConfig(max_ngram_order=np.int64(3), smooth_method="floor", smooth_value=np.float32(0.5))  # type: ignore[arg-type]
    assert type(c.max_ngram_order) is int
    assert type(c.smooth_value) is float
    assert c == BleuConfig(max_ngram_order=3, smooth_method="floor", smooth_value=0.5)
    assert hash(c) == hash(BleuConfig(max_ngram_order=3, smooth_method="floor", smooth_value=0.5))
    s = corpus_bleu(["a b c d"], [["a b c d"]], max_ngram_order=np.int64(3))  # type: ignore[arg-type]
    assert "|order:3|" in s.signature
    with pytest.raises(InputError, match="between 1 and 9"):
        BleuConfig(max_ngram_order=np.int64(0))  # type: ignore[arg-type]


def _mecab_installed() -> bool:
    try:
        import MeCab  # noqa: F401
    except ImportError:
        return False
    return True


def test_ja_mecab_without_its_extra_is_one_clear_line(python: str, files: Path) -> None:
    """sacrebleu raises a multi-line RuntimeError when MeCab is missing; we give one InputError line."""
    rc, out, err = cli(python, files, "score", "ref.txt", "-i", "hyp.txt", "--tokenize", "ja-mecab")
    if _mecab_installed():
        assert (rc, err) == (0, "")
        assert corpus_bleu(["猫が座った"], [["猫が座った"]], tokenize="ja-mecab").score > 99
        return
    msg = one_error_line(rc, out, err)
    assert msg.startswith("--tokenize: the ja-mecab tokenizer needs optional packages")
    with pytest.raises(InputError, match="ja-mecab"):
        corpus_bleu(["a"], [["a"]], tokenize="ja-mecab")
    one_error_line(*cli(python, files, "explain", "--hyp", "a", "--ref", "a", "--tokenize", "ja-mecab"))
