"""Corpus input: folder, TSV/CSV, JSONL, human scores, and every bad input named by file and line."""

from __future__ import annotations

import os

import pytest

from bleu_core import InputError
from bleu_core.data.corpus import Corpus, TextFile, build_corpus, check_corpus_parallel, out_of_step
from bleu_core.data.readers import parse_folder, parse_human_scores, parse_jsonl, parse_table, read_text_file


def _folder(path) -> list[tuple[str, bytes]]:
    out = []
    for root, _, files in os.walk(path):
        for f in files:
            p = os.path.join(root, f)
            with open(p, "rb") as fh:
                out.append((os.path.relpath(p, os.path.dirname(path)), fh.read()))
    return out


def test_wmt22_folder(data_dir):
    c = parse_folder(_folder(data_dir / "wmt22-general-zh-en"))
    assert len(c.systems) == 12
    assert len(c.references) == 2
    assert c.n_segments == 1875
    assert c.source is not None
    assert c.human_label == "da_z"
    hs = c.human_scores()
    assert set(hs) == set(c.names)
    assert hs["JDExploreAcademy"] == pytest.approx(-0.0257)
    assert any("Online-W.en: 1 empty line (first at line 1479)" in w for w in c.warnings)
    assert any(w.startswith("ignored ") for w in c.warnings)


def test_wmt21_folder_three_refs(data_dir):
    c = parse_folder(_folder(data_dir / "wmt21-news-en-de"))
    assert len(c.systems) == 20
    assert len(c.references) == 3
    assert c.n_segments == 1002


def test_folder_bad_utf8_names_file_and_line():
    with pytest.raises(InputError) as e:
        parse_folder([("d/ref.txt", b"a\nb\n"), ("d/systems/x.txt", b"a\n\xff\n")])
    assert e.value.where == "d/systems/x.txt:2"


def test_folder_binary():
    with pytest.raises(InputError, match="binary"):
        parse_folder([("d/ref.txt", b"a\x00b\n"), ("d/systems/x.txt", b"a\n")])


def test_folder_line_counts_and_where_out_of_step():
    ref = "".join(f"this is sentence {i} " + "word " * (i % 6) + "\n" for i in range(50))
    lines = ref.splitlines(keepends=True)
    hyp = "".join(lines[:20] + lines[21:])
    with pytest.raises(InputError) as e:
        parse_folder([("d/ref.txt", ref.encode()), ("d/systems/x.txt", hyp.encode())])
    assert e.value.where == "d/systems/x.txt"
    assert "has 49 lines but d/ref.txt has 50 lines" in e.value.what
    assert "around line 21" in e.value.what


def test_out_of_step_on_real_data(data_dir):
    ref = read_text_file(data_dir / "wmt22-general-zh-en" / "reference.A.en").lines
    hyp = read_text_file(data_dir / "wmt22-general-zh-en" / "systems" / "DLUT.en").lines
    for k in (3, 700, 1800):
        assert abs(out_of_step(ref, hyp[: k - 1] + hyp[k:]) - k) <= 2
        assert abs(out_of_step(ref, (*hyp[: k - 1], "extra line", *hyp[k - 1 :])) - k) <= 2


def test_duplicate_system_names():
    with pytest.raises(InputError, match="two systems are called 'x'"):
        parse_folder([("d/ref.txt", b"a\n"), ("d/systems/x.txt", b"a\n"), ("d/systems/x.en", b"b\n")])


def test_file_over_limit():
    with pytest.raises(InputError, match="over the 1 MB limit"):
        parse_folder([("d/ref.txt", b"a\n" * 600_000), ("d/systems/x.txt", b"a\n")], limit_mb=1)


def test_folder_without_reference_or_systems():
    with pytest.raises(InputError, match="no reference file"):
        parse_folder([("d/systems/x.txt", b"a\n")])
    with pytest.raises(InputError, match="no system output"):
        parse_folder([("d/ref.txt", b"a\n")])


def test_empty_lines_are_warnings():
    c = build_corpus("t", [TextFile("r", ("a", "b"))], [TextFile("s.txt", ("", "b"))])
    assert c.warnings == ("s.txt: 1 empty line (first at line 1); an empty line scores 0 for that segment",)


def test_tsv_and_csv():
    c = parse_table(b"id\tsrc\tref\tref_b\tA\tB\n1\tx\ta b\ta c\ta b\ta\n2\ty\tc\tc\tc\td\n", "t.tsv")
    assert c.names == ("A", "B")
    assert len(c.references) == 2
    assert c.n_segments == 2
    c2 = parse_table(b'ref,sys1\n"a, b",a b\n', "t.csv")
    assert c2.references[0].lines == ("a, b",)
    with pytest.raises(InputError) as e:
        parse_table(b"ref\tA\na\tb\tc\n", "t.tsv")
    assert e.value.where == "t.tsv:2"
    with pytest.raises(InputError, match="no reference column"):
        parse_table(b"A\tB\na\tb\n", "t.tsv")


def test_jsonl():
    c = parse_jsonl(b'{"ref": "a b", "A": "a b", "B": "a"}\n{"ref": "c", "A": "c", "B": "d"}\n', "t.jsonl")
    assert c.names == ("A", "B")
    assert c.references[0].lines == ("a b", "c")
    with pytest.raises(InputError) as e:
        parse_jsonl(b'{"ref": "a", "A": "a"}\nnot json\n', "t.jsonl")
    assert e.value.where == "t.jsonl:2"
    with pytest.raises(InputError, match="has systems"):
        parse_jsonl(b'{"ref": "a", "A": "a"}\n{"ref": "a", "B": "a"}\n', "t.jsonl")


def test_human_scores():
    assert parse_human_scores(b"A\t1\nB\t2\n", "h.tsv") == ("human", (("A", 1.0), ("B", 2.0)))
    with pytest.raises(InputError) as e:
        parse_human_scores(b"A\t1\nB\tx\n", "h.tsv")
    assert e.value.where == "h.tsv:2"


def test_rename_keeps_human_scores_and_refuses_duplicates():
    c = Corpus("t", (TextFile("r", ("a",)),), (), human=())
    c = build_corpus("t", [TextFile("r", ("a",))], [TextFile("x", ("a",)), TextFile("y", ("b",))], human=[("x", 1.0)])
    r = c.renamed(["base", "y"])
    assert r.names == ("base", "y")
    assert r.human_scores() == {"base": 1.0}
    with pytest.raises(InputError, match="two systems"):
        c.renamed(["y", "y"])


def test_check_corpus_parallel_same_length_passes():
    check_corpus_parallel([TextFile("a", ("x",)), TextFile("b", ("y",))])


def test_a_tokenized_twin_of_a_reference_or_system_is_named(data_dir):
    """Review 29 item 3: compare-mt's TED folder holds every file tokenized and detokenized; loaded as it is, the
    two copies of the reference were scored as two references (nrefs:2) with no word about it."""
    ted = parse_folder(_folder(data_dir / "compare-mt-ted-sk-en"))
    twins = [w for w in ted.warnings if "same text apart from spaces" in w]
    assert len(twins) == 3, ted.warnings
    ref_note = next(w for w in twins if "ted.ref.detok.eng" in w)
    assert "ted.ref.eng" in ref_note
    assert "keep one under References" in ref_note
    assert any("ted.sys1.detok.eng" in w and "ted.sys1.eng" in w for w in twins)
    assert any("ted.sys2.detok.eng" in w and "ted.sys2.eng" in w for w in twins)
    # the WMT folders' references and systems are all different texts
    for folder in ("wmt22-general-zh-en", "wmt21-news-en-de"):
        c = parse_folder(_folder(data_dir / folder))
        assert not [w for w in c.warnings if "apart from spaces" in w], folder
    # files that differ on one line beyond the probed first ones are not twins
    a = TextFile("a", tuple(f"line {i} ." for i in range(60)))
    b = TextFile("b", (*(f"line {i}." for i in range(59)), "another line"))
    assert not build_corpus("t", [a, b], [a]).warnings


def test_twins_of_long_lines_are_found_from_their_start() -> None:
    """Issue 36: the probe that groups files reads a line's start only (a 49 MB line made 12 million strings); a
    tokenized copy of lines longer than the probe is still found, and a file that differs later is not one."""
    from bleu_core.data.corpus import twin_warnings

    plain = tuple(" ".join(f"it's word{i}, number {k}." for i in range(300)) for k in range(3))  # 7,000+ chars
    tokenized = tuple(line.replace("'s", " 's").replace(",", " ,").replace(".", " .") for line in plain)
    later = (*plain[:2], plain[2][:-1] + "!")
    assert len(twin_warnings([TextFile("ref", plain), TextFile("ref.tok", tokenized)], "references")) == 1
    assert twin_warnings([TextFile("ref", plain), TextFile("ref.other", later)], "references") == ()
