"""Bad input in the Python API: InputError with a clear message, never a silent truncation (sacrebleu #220). The
command line's side of the same inputs is tests/cli/test_errors_cli.py."""

from __future__ import annotations

import gzip
from pathlib import Path

import pytest

from bleu_core import BleuConfig, InputError, corpus_bleu, explain_segment, sentence_bleu
from bleu_core.data.corpus import check_parallel
from bleu_core.data.readers import decode_lines, read_text_file
from tests.conftest import ROOT


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
    assert (ROOT / "bleu_core" / "__init__.py").is_file()


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
