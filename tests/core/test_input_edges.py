"""Issue 11: bad input at the edges, where users' files come in. Each test names the item it holds.

Parsers raise only InputError naming the file and line; the CLI exits 2 with one stderr line; nothing is
silently changed; nothing reads or allocates without bound.
"""

from __future__ import annotations

import gzip
import os
import subprocess
import threading
from pathlib import Path

import pytest
import sacrebleu

from bleu_core import InputError, corpus_bleu, significance
from bleu_core.data import readers
from bleu_core.data.corpus import TextFile, build_corpus
from bleu_core.data.readers import (
    decode_lines,
    parse_folder,
    parse_human_scores,
    parse_jsonl,
    parse_table,
    read_text_file,
)
from bleu_core.significance import trials
from tests.core.test_errors import cli, one_error_line

# --- 1. a table is parsed as a table -------------------------------------------------------------------------


def test_csv_quoted_newline_stays_in_its_cell_and_later_lines_keep_their_numbers() -> None:
    c = parse_table(b'ref,A\n"the cat\nsat",the cat sat\nx,y\n', "t.csv")
    assert c.references[0].lines == ("the cat\nsat", "x")  # was "the catsat" (lines split before csv)
    assert c.system("A").lines == ("the cat sat", "y")
    assert any(w.startswith("t.csv:2: a quoted cell holds a line break") for w in c.warnings), c.warnings
    with pytest.raises(InputError, match=r"^t\.csv:4: has 1 cells but the header has 2"):
        parse_table(b'ref,A\n"a\nb",c\nd\n', "t.csv")  # the short row starts on line 4, not 3


def test_csv_unclosed_quote_and_text_after_a_quote_name_the_row() -> None:
    with pytest.raises(InputError, match=r"^t\.csv:3: a quote opened in this row is never closed"):
        parse_table(b'ref,A\na,b\n"c,d\ne,f\n', "t.csv")  # was: the rest of the file swallowed into one cell
    with pytest.raises(InputError, match=r"^t\.csv:2: text after a closing quote"):
        parse_table(b'ref,A\n"a"b,c\n', "t.csv")  # was: silently read as "ab"


def test_csv_cell_over_the_field_limit_names_the_row() -> None:
    with pytest.raises(InputError, match=r"^t\.csv:2: a cell is longer than"):
        parse_table(b"ref,A\n" + b"x" * 200_000 + b",y\n", "t.csv")


def test_human_scores_csv_is_read_as_a_table() -> None:
    label, scores = parse_human_scores(b'system,da_z\n"A, the one",0.5\nB,-1\n', "h.csv")
    assert (label, scores) == ("da_z", (("A, the one", 0.5), ("B", -1.0)))


# --- 2. hostile JSONL ------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("line", "words"),
    [
        (b'{"ref": "a", "A": "a", "n": ' + b"1" * 5000 + b"}", "cannot be read"),  # was ValueError
        (b'{"ref": "a", "A": ' + b"[" * 100_000 + b"]" * 100_000 + b"}", "nested too deeply"),  # RecursionError
    ],
)
def test_hostile_jsonl_is_an_input_error_naming_the_line(line: bytes, words: str) -> None:
    data = b'{"ref": "a", "A": "a"}\n' + line + b"\n"
    with pytest.raises(InputError, match=rf"^t\.jsonl:2: .*{words}"):
        parse_jsonl(data, "t.jsonl")


def test_jsonl_and_table_after_a_bom() -> None:
    """A table's or JSONL's BOM precedes the header / the JSON, not a segment: it is skipped there."""
    assert parse_jsonl(b'\xef\xbb\xbf{"ref": "a", "A": "a"}\n', "t.jsonl").names == ("A",)
    assert parse_table(b"\xef\xbb\xbfref,A\na,a\n", "t.csv").references[0].name == "t.csv[ref]"


# --- 3. resampling: seeds and memory ---------------------------------------------------------------------------


def test_negative_seed_is_an_option_error(python: str, files3: Path) -> None:
    msg = one_error_line(*cli(python, files3, "compare", "ref.txt", "-i", "a.txt", "b.txt", "--seed", "-1"))
    assert msg == "--seed: must be a whole number >= 0, got -1"
    with pytest.raises(InputError, match=r"^seed: must be a whole number >= 0"):
        significance.bootstrap_ci(significance_matrix(), seed=-1)


def test_resampling_that_cannot_fit_is_refused_saying_what_would(python: str, files3: Path) -> None:
    """--paired-bs 100000000000 tried to allocate 1.46 TiB; now one line, before any draw."""
    msg = one_error_line(
        *cli(python, files3, "compare", "ref.txt", "-i", "a.txt", "b.txt", "--paired-bs", "100000000000")
    )
    assert msg.startswith("--paired-bs: 100,000,000,000 resamples of 3 segments need about ")
    assert "at most " in msg
    assert "resamples fit" in msg


def test_resampling_budget_names_the_largest_count_that_fits(monkeypatch: pytest.MonkeyPatch) -> None:
    exactly = trials._resampling_bytes("bs", 1000, 100_000, 10)
    monkeypatch.setattr(trials, "memory_budget", lambda: exactly)
    trials.check_resampling_fits("bs", 1000, 100_000, "--paired-bs", columns=10)  # exactly fits
    with pytest.raises(InputError) as exc:
        trials.check_resampling_fits("bs", 1001, 100_000, "--paired-bs", columns=10)
    assert "at most 1,000 resamples fit" in str(exc.value)
    with pytest.raises(InputError, match=r"^n_samples: 1,001 resamples of 100,000 segments"):
        significance.bootstrap_ci(significance_matrix(100_000), n_samples=1001)
    assert len(significance.bootstrap_ci(significance_matrix(100_000), n_samples=1000)) == 4
    # the 1.2M-line corpus at the default settings (17 GB when all draws were held at once): the
    # bootstrap draws a block at a time now, so it fits in 1 GiB; 10,000 AR trials (1.5 GB of bits) do not
    monkeypatch.setattr(trials, "memory_budget", lambda: 2**30)
    trials.check_resampling_fits("bs", 1000, 1_200_000, "--paired-bs", columns=20)
    with pytest.raises(InputError, match=r"^--paired-ar: 10,000 trials of 1,200,000 segments .* at most 7,1"):
        trials.check_resampling_fits("ar", 10_000, 1_200_000, "--paired-ar", columns=20)


def significance_matrix(n: int = 3):  # type: ignore[no-untyped-def]
    import numpy as np

    return np.tile(np.array([[3, 3, 3, 2, 1, 0, 3, 2, 1, 0]], dtype=np.int64), (n, 1))


# --- 5. files that never end ---------------------------------------------------------------------------------


@pytest.fixture
def files3(tmp_path: Path) -> Path:
    (tmp_path / "ref.txt").write_text("a b c\nd e f\ng h\n", encoding="utf-8")
    (tmp_path / "a.txt").write_text("a b c\nd e\ng h\n", encoding="utf-8")
    (tmp_path / "b.txt").write_text("a b\nd e f\ng\n", encoding="utf-8")
    (tmp_path / "empty.txt").write_bytes(b"")
    return tmp_path


def test_dev_zero_is_refused_at_its_first_chunk(python: str, files3: Path) -> None:
    msg = one_error_line(*cli(python, files3, "score", "ref.txt", "-i", "/dev/zero"))
    assert msg.startswith("/dev/zero:1: binary file (NUL byte)")


def test_a_pipe_that_never_ends_stops_at_the_limit(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(readers, "STREAM_LIMIT_MB", 2)
    fifo = tmp_path / "endless"
    os.mkfifo(fifo)
    stop = threading.Event()

    def feed() -> None:  # valid text, forever (until the reader closes the pipe)
        try:
            with open(fifo, "wb") as fh:
                while not stop.is_set():
                    fh.write(b"the cat sat on the mat\n" * 1000)
        except BrokenPipeError:
            pass

    writer = threading.Thread(target=feed, daemon=True)
    writer.start()
    try:
        with pytest.raises(InputError, match=r"endless: more than 2 MB read from this pipe or device"):
            read_text_file(fifo)
    finally:
        stop.set()
        writer.join(timeout=10)
    assert not writer.is_alive()


def test_a_gzip_bomb_stops_at_the_limit(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(readers, "STREAM_LIMIT_MB", 1)
    bomb = tmp_path / "r.txt.gz"
    bomb.write_bytes(gzip.compress(b"a b\n" * (3 * 2**20 // 4)))
    assert bomb.stat().st_size < 50_000
    with pytest.raises(InputError, match=r"more than 1 MB decompressed"):
        read_text_file(bomb)
    bad = tmp_path / "corrupt.txt.gz"
    bad.write_bytes(gzip.compress(b"a b\n" * 1000)[:-30] + b"\x00" * 30)
    with pytest.raises(InputError, match=r"corrupt\.txt\.gz: cannot read"):
        read_text_file(bad)


# --- 6. a file name that is not UTF-8, on a strict stdout ------------------------------------------------------


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


# --- 7. two systems with the same name --------------------------------------------------------------------------


def test_two_systems_with_the_same_name_are_refused_in_the_cli_as_in_the_folder(python: str, files3: Path) -> None:
    for d in ("d1", "d2"):
        (files3 / d).mkdir()
        (files3 / d / "hyp.txt").write_text("a\nb\nc\n", encoding="utf-8")
    for cmd in ("score", "compare"):
        msg = one_error_line(*cli(python, files3, cmd, "ref.txt", "-i", "d1/hyp.txt", "d2/hyp.txt"))
        assert msg == "d2/hyp.txt: two systems are called 'hyp.txt' (d1/hyp.txt and d2/hyp.txt); rename one"
    with pytest.raises(InputError, match="two systems are called 'hyp'"):
        parse_folder([("d/ref.txt", b"a\n"), ("d/systems/hyp.txt", b"a\n"), ("d/systems/hyp.en", b"a\n")])
    with pytest.raises(InputError, match="two systems are called 'hyp'"):  # the app's Files tab
        build_corpus("up", [TextFile("ref.txt", ("a",))], [TextFile("hyp.txt", ("a",)), TextFile("hyp.txt", ("b",))])


# --- 8. an empty corpus ------------------------------------------------------------------------------------------


def test_empty_corpus_is_one_clear_error_in_score_and_compare(python: str, files3: Path) -> None:
    (files3 / "empty2.txt").write_bytes(b"")
    for cmd in ("score", "compare"):  # score exited 0 with BLEU 0 and nrefs:var
        msg = one_error_line(*cli(python, files3, cmd, "empty.txt", "-i", "empty.txt", "empty2.txt"))
        assert msg == "empty.txt: is empty: no segments to score"
    with pytest.raises(InputError, match="no segments: ref is empty"):
        build_corpus("up", [TextFile("ref", ())], [TextFile("A", ())])
    with pytest.raises(InputError, match=r"^t\.tsv: has a header but no rows"):
        parse_table(b"ref\tA\n", "t.tsv")


# --- 9. a folder with two source files -------------------------------------------------------------------------


def test_folder_with_two_sources_or_two_human_files_is_refused() -> None:
    base = [("d/ref.txt", b"a\nb\n"), ("d/systems/A.txt", b"a\nb\n")]
    with pytest.raises(InputError, match=r"^d: two source files \(d/source\.en and d/src\.en\); keep one"):
        parse_folder([*base, ("d/source.en", b"x\ny\n"), ("d/src.en", b"x\n")])
    with pytest.raises(InputError, match="two human-score files"):
        parse_folder([*base, ("d/human.tsv", b"A\t1\n"), ("d/human-da.tsv", b"A\t2\n")])


def test_folder_with_thousands_of_files_is_refused_before_reading() -> None:
    files = [("d/ref.txt", b"a\n"), *((f"d/systems/s{i}.txt", b"a\n") for i in range(1500))]
    with pytest.raises(InputError, match=r"^folder: has 1,501 files; a corpus folder holds at most 1,000"):
        parse_folder(files)


# --- 10. messages -----------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("data", "words"),
    [
        ("a b\nc d\n".encode("utf-16"), r"is UTF-16 .*iconv -f UTF-16 -t UTF-8"),  # was "binary file (NUL byte)"
        ("a b\nc d\n".encode("utf-16-le"), "looks like UTF-16 without a byte-order mark"),
        ("a b\n".encode("utf-32"), "is UTF-32"),
        (gzip.compress(b"a b\n", mtime=0), r"is gzip-compressed, not text; decompress it first \(gunzip\)"),
        (b"PK\x03\x04\x14\x00\x00\x00", "is a zip archive, not text"),
    ],
)
def test_encodings_and_archives_are_named(data: bytes, words: str) -> None:
    with pytest.raises(InputError, match=rf"^hyp\.txt: {words}"):
        decode_lines(data, "hyp.txt")


def test_tsv_with_an_empty_header_cell_names_file_and_line() -> None:
    with pytest.raises(InputError, match=r"^t\.tsv:1: column 2 of 3 has no name in the header"):
        parse_table(b"ref\t\tA\na\tb\tc\n", "t.tsv")  # was "t: a system name is empty"


# --- 11. a UTF-8 BOM is kept, as sacreBLEU keeps it ---------------------------------------------------------------


def test_bom_is_kept_and_scores_as_sacrebleu(tmp_path: Path) -> None:
    (tmp_path / "ref.txt").write_text("the cat sat on the mat\na dog barks\n", encoding="utf-8")
    (tmp_path / "hyp.txt").write_bytes("\ufeffthe cat sat on a mat\na dog barks\n".encode())
    hyp, ref = read_text_file(tmp_path / "hyp.txt"), read_text_file(tmp_path / "ref.txt")
    assert hyp.lines[0].startswith("\ufeff")
    # what sacrebleu's command line reads (utils.smart_open: plain utf-8, each line right-stripped)
    with sacrebleu.utils.smart_open(str(tmp_path / "hyp.txt")) as fh:
        theirs = [line.rstrip() for line in fh]
    expected = sacrebleu.corpus_bleu(theirs, [list(ref.lines)]).score
    ours = corpus_bleu(list(hyp.lines), [list(ref.lines)]).score
    assert ours == pytest.approx(expected, abs=1e-12)
    assert ours != pytest.approx(corpus_bleu([hyp.lines[0][1:], hyp.lines[1]], [list(ref.lines)]).score)
    c = build_corpus("t", [ref], [hyp])
    assert any("hyp.txt: starts with a byte-order mark (U+FEFF); kept" in w for w in c.warnings), c.warnings


def test_streamed_files_keep_the_bom_and_bound_a_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """bleu_core.data.files (corpus BLEU of files of any size) reads as read_text_file does: BOM kept, and a
    stream without newlines (/dev/zero) is refused at the line bound, not read until memory runs out."""
    from bleu_core.data import files

    (tmp_path / "ref.txt").write_text("the cat sat on the mat\na dog barks\n", encoding="utf-8")
    (tmp_path / "hyp.txt").write_bytes("\ufeffthe cat sat on a mat\na dog barks\n".encode())
    streamed = files.corpus_bleu_files(tmp_path / "hyp.txt", [tmp_path / "ref.txt"]).score
    whole = corpus_bleu(list(read_text_file(tmp_path / "hyp.txt").lines), [["the cat sat on the mat", "a dog barks"]])
    assert streamed == pytest.approx(whole.score, abs=1e-12)
    monkeypatch.setattr(files, "MAX_LINE_MB", 1)
    with pytest.raises(InputError, match=r"^/dev/zero:1: a line longer than 1 MB"):
        files.corpus_bleu_files("/dev/zero", [tmp_path / "ref.txt"])


def test_cli_error_is_one_line_even_when_a_name_holds_a_line_break(python: str, files3: Path) -> None:
    """A file name (or argument) with a line break is escaped in the message: still exactly one line."""
    msg = one_error_line(*cli(python, files3, "score", "ref.txt", "-i", "no\nsuch\u2028file.txt"))
    assert msg == "no\\nsuch\\u2028file.txt: no such file"
