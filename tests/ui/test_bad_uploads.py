"""AppTest, issue 11: every bad upload gets one message and the last good corpus stays loaded; a reader that
fails unexpectedly becomes a message too (never an exception page), with its traceback in the log."""

from __future__ import annotations

import gzip
import logging

import pytest

from tests.ui.conftest import errors, open_app, uploader


def _kept(at, before: list[str], words: str) -> None:  # type: ignore[no-untyped-def]
    assert not at.exception, [e.value for e in at.exception]
    errs = errors(at)
    assert len(errs) == 1, errs
    assert "previous corpus is kept" in errs[0]
    assert words in errs[0].replace("\\", ""), errs[0]
    assert at.selectbox(key="corpus.system").options == before


@pytest.mark.parametrize(
    ("upload", "words"),
    [
        (("t.tsv", gzip.compress(b"ref\tA\na\ta\n", mtime=0), "text/plain"), "t.tsv: is gzip-compressed, not text"),
        (("t.csv", b"PK\x03\x04\x14\x00\x00\x00\x08\x00", "text/csv"), "t.csv: is a zip archive, not text"),
        (("t.csv", "ref,A\na,a\n".encode("utf-16"), "text/csv"), "t.csv: is UTF-16"),
        (("t.csv", b'ref,A\n"a,b\n', "text/csv"), "t.csv:2: a quote opened in this row is never closed"),
        (("t.jsonl", b'{"ref": "a", "A": ' + b"[" * 50_000 + b"}\n", "application/json"), "t.jsonl:1: JSON nested"),
    ],
)
def test_bad_table_upload_is_one_message_and_the_corpus_stays(upload, words) -> None:  # type: ignore[no-untyped-def]
    at = open_app("pages/corpus.py")
    before = at.selectbox(key="corpus.system").options
    uploader(at, "corpus.in_table").set_value(upload).run()
    _kept(at, before, words)


def test_folder_with_thousands_of_files_or_a_gzip_inside(monkeypatch: pytest.MonkeyPatch) -> None:
    at = open_app("pages/corpus.py")
    before = at.selectbox(key="corpus.system").options
    many = [("d/ref.txt", b"a\n", "text/plain")] + [(f"d/systems/s{i}.txt", b"a\n", "text/plain") for i in range(1200)]
    uploader(at, "corpus.in_folder").set_value(many).run()
    _kept(at, before, "folder: has 1,201 files; a corpus folder holds at most 1,000")
    zipped = [("d/ref.txt", b"a\n", "text/plain"), ("d/systems/A.txt", gzip.compress(b"a\n"), "text/plain")]
    uploader(at, "corpus.in_folder").set_value(zipped).run()
    _kept(at, before, "d/systems/A.txt: is gzip-compressed")


def test_table_over_the_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    from bleu_app.ui.corpus import loading

    monkeypatch.setattr(loading, "PARSE_LIMIT_MB", 0.000001)
    at = open_app("pages/corpus.py")
    before = at.selectbox(key="corpus.system").options
    uploader(at, "corpus.in_table").set_value(("t.tsv", b"ref\tA\na b c\ta b c\n", "text/plain")).run()
    _kept(at, before, "t.tsv: is 0.0 MB, over the 1e-06 MB limit per file")


def test_an_unexpected_reader_failure_is_a_message_and_a_log_line(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """Fault injection: the table reader raises what no parser should (RecursionError, as deep JSON did
    before issue 11). The page shows one message, keeps the corpus, and the log has the traceback."""
    from bleu_app.ui.corpus import loading

    def broken(data: bytes, name: str, *, limit_mb: float) -> None:
        raise RecursionError("maximum recursion depth exceeded in the reader")

    monkeypatch.setattr(loading, "parse_table", broken)
    at = open_app("pages/corpus.py")
    before = at.selectbox(key="corpus.system").options
    with caplog.at_level(logging.ERROR, logger="bleu_app.ui.corpus.loading"):
        uploader(at, "corpus.in_table").set_value(("t.tsv", b"ref\tA\na\ta\n", "text/plain")).run()
    _kept(at, before, "this input could not be read (an unexpected RecursionError in the reader")
    records = [r for r in caplog.records if r.name == "bleu_app.ui.corpus.loading"]
    assert len(records) == 1
    assert records[0].exc_info is not None
    assert "maximum recursion depth exceeded in the reader" in caplog.text
    assert "Traceback" in caplog.text


def test_a_zip_on_the_table_uploader_gets_a_message() -> None:
    # review item 20g: the uploader's type filter made the browser refuse a .zip silently; it now takes any
    # file and the app says what it wants
    at = open_app("pages/corpus.py")
    before = at.selectbox(key="corpus.system").options
    table = uploader(at, "corpus.in_table")
    assert list(table.proto.type) == []  # no browser-side filter that refuses without a word
    table.set_value(("wmt.zip", b"PK\x03\x04\x14\x00\x00\x00\x08\x00", "application/zip")).run()
    _kept(at, before, "wmt.zip: not a table: use a .tsv, .csv, .jsonl, .json, .xml file (a .zip: unzip it")


def test_a_folder_whose_system_file_carries_seg_markup_is_refused_naming_file_and_line() -> None:
    """Issue 35: a text file with WMT's <seg> markup is never scored as text (its tags would count as words: 56.33
    instead of 27.38 on 20 real segments); one message names the file, the line and the tag, nothing else changes."""
    at = open_app("pages/corpus.py")
    before = at.selectbox(key="corpus.system").options
    folder = [
        ("d/reference.txt", b"Hallo Welt\nGuten Tag\n", "text/plain"),
        ("d/systems/A.txt", b'Hallo Welt\n<seg id="2">Guten Tag</seg>\n', "text/plain"),
    ]
    uploader(at, "corpus.in_folder").set_value(folder).run()
    _kept(at, before, "A:2: holds markup ('<seg id=\"2\">')")
