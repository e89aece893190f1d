"""Issue 11 at the command line: bad input where users' files come in exits 2 with one stderr line naming the
file, and nothing reads or allocates without bound. The parsers' side is tests/core/test_input_edges.py."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from tests.cli.conftest import Cli, one_error_line


@pytest.fixture
def files3(tmp_path: Path) -> Path:
    (tmp_path / "ref.txt").write_text("a b c\nd e f\ng h\n", encoding="utf-8")
    (tmp_path / "a.txt").write_text("a b c\nd e\ng h\n", encoding="utf-8")
    (tmp_path / "b.txt").write_text("a b\nd e f\ng\n", encoding="utf-8")
    (tmp_path / "empty.txt").write_bytes(b"")
    return tmp_path


def test_negative_seed_is_an_option_error(cli: Cli, files3: Path) -> None:
    msg = one_error_line(*cli("compare", "ref.txt", "-i", "a.txt", "b.txt", "--seed", "-1", cwd=files3))
    assert msg == "--seed: must be a whole number >= 0, got -1"


def test_resampling_that_cannot_fit_is_refused_saying_what_would(cli: Cli, files3: Path) -> None:
    """--paired-bs 100000000000 tried to allocate 1.46 TiB; now one line, before any draw."""
    msg = one_error_line(*cli("compare", "ref.txt", "-i", "a.txt", "b.txt", "--paired-bs", "100000000000", cwd=files3))
    assert msg.startswith("--paired-bs: 100,000,000,000 resamples of 3 segments need about ")
    assert "at most " in msg
    assert "resamples fit" in msg


def test_dev_zero_is_refused_at_its_first_chunk(cli: Cli, files3: Path) -> None:
    msg = one_error_line(*cli("score", "ref.txt", "-i", "/dev/zero", cwd=files3))
    assert msg.startswith("/dev/zero:1: binary file (NUL byte)")


@pytest.mark.slow  # out of make test-core (the one-minute loop); make test runs it
def test_file_name_not_utf8_with_strict_stdout(python: str, files3: Path) -> None:
    odd = os.fsencode(files3) + b"/hyp\xff.txt"
    with open(odd, "wb") as fh:
        fh.write(b"a b c\nd e f\ng h\n")
    env = {**os.environ, "PYTHONIOENCODING": "utf-8:strict"}
    args = [python, "-m", "bleu_cli", "score", b"ref.txt", b"-i", odd, b"a.txt"]
    p = subprocess.run(args, capture_output=True, cwd=files3, env=env, timeout=120, check=False)
    assert p.returncode == 0, p.stderr
    assert b"hyp\\udcff.txt" in p.stdout  # shown escaped instead of a UnicodeEncodeError traceback
    args = [python, "-m", "bleu_cli", "score", b"ref.txt", b"-i", b"missing\xff.txt"]
    p = subprocess.run(args, capture_output=True, cwd=files3, env=env, timeout=120, check=False)
    assert (p.returncode, p.stdout) == (2, b"")
    assert p.stderr == b"bleu-explorer: error: missing\\udcff.txt: no such file\n"


def test_two_systems_with_the_same_name_are_refused(cli: Cli, files3: Path) -> None:
    for d in ("d1", "d2"):
        (files3 / d).mkdir()
        (files3 / d / "hyp.txt").write_text("a\nb\nc\n", encoding="utf-8")
    for cmd in ("score", "compare"):
        msg = one_error_line(*cli(cmd, "ref.txt", "-i", "d1/hyp.txt", "d2/hyp.txt", cwd=files3))
        assert msg == "d2/hyp.txt: two systems are called 'hyp.txt' (d1/hyp.txt and d2/hyp.txt); rename one"


def test_empty_corpus_is_one_clear_error_in_score_and_compare(cli: Cli, files3: Path) -> None:
    (files3 / "empty2.txt").write_bytes(b"")
    for cmd in ("score", "compare"):  # score exited 0 with BLEU 0 and nrefs:var
        msg = one_error_line(*cli(cmd, "empty.txt", "-i", "empty.txt", "empty2.txt", cwd=files3))
        assert msg == "empty.txt: is empty: no segments to score"


def test_cli_error_is_one_line_even_when_a_name_holds_a_line_break(cli: Cli, files3: Path) -> None:
    """A file name (or argument) with a line break is escaped in the message: still exactly one line."""
    msg = one_error_line(*cli("score", "ref.txt", "-i", "no\nsuch\u2028file.txt", cwd=files3))
    assert msg == "no\\nsuch\\u2028file.txt: no such file"
