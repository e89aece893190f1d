"""Fuzz tests (hypothesis) of every parser and of the CLI's options (issue 11).

Parsers (table, JSONL, folder, human scores, plain lines) get arbitrary bytes, mutations of valid files and
generated tables: only InputError may come out, naming where, in one line; what comes back is a valid corpus,
and a table written by csv.writer / json.dumps reads back cell for cell (no silently changed text). The CLI
(``main`` in process) gets arbitrary and mutated arguments: exit 0, or exit 2 with exactly one stderr line.

The quick run (in ``make test``) is derandomized and takes seconds; ``pytest -m fuzz`` runs the same properties
with many more examples (see docs/NOTES.md / the issue-11 note for the counts that ran clean).
"""

from __future__ import annotations

import contextlib
import csv
import gzip
import io
import json
import math
import os
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, event, given, settings, strategies as st

from bleu_cli.cli import main
from bleu_core import InputError
from bleu_core.data.corpus import Corpus
from bleu_core.data.readers import decode_lines, parse_folder, parse_human_scores, parse_jsonl, parse_table
from bleu_core.significance import trials

QUICK = settings(
    max_examples=int(os.environ.get("BLEU_FUZZ_QUICK", "150")),
    derandomize=True,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much],
)
LONG = settings(
    max_examples=int(os.environ.get("BLEU_FUZZ_LONG", "5000")),
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much],
)


def both(name: str, *strategies: st.SearchStrategy[Any]) -> Callable[[Callable[..., None]], None]:
    """Register the property as ``test_<name>`` (quick) and ``test_<name>_long`` (behind the ``fuzz`` marker)."""

    def register(prop: Callable[..., None]) -> None:
        quick = QUICK(given(*strategies)(prop))
        long = pytest.mark.fuzz(LONG(given(*strategies)(prop)))
        quick.__name__, long.__name__ = f"test_{name}", f"test_{name}_long"
        globals()[quick.__name__], globals()[long.__name__] = quick, long

    return register


# --- inputs --------------------------------------------------------------------------------------------------

VALID_TABLES = [
    b"id\tsrc\tref\tA\tB\n1\tx\ta b\ta b\ta\n2\ty\tc d\tc\td c\n",
    b'ref,ref_b,A\n"the cat\nsat",a cat,the cat sat\n"x, y",z,"say ""hi"""\n',
    b"\xef\xbb\xbfref,A\r\na b,a b\r\n",
]
VALID_JSONL = [
    b'{"src": "x", "refs": ["a b", "a c"], "hyps": {"A": "a b", "B": "c"}}\n'
    b'{"src": "y", "refs": ["d", "e"], "hyps": {"A": "d", "B": "e f"}}\n',
    b'{"ref": "the cat", "A": "the cat", "id": 3}\n\n{"ref": "x", "A": "\\u00e9 \\n y"}\n',
]
VALID_HUMAN = [b"A\t0.5\nB\t-0.1\n", b"system,kind,da_z\nA,mt,0.2\nB,mt,\nref,human,1\n", b"sys\tz\traw\nA\t1\t70\n"]
SPECIAL = [b"\n", b"\r", b"\r\n", b"\t", b",", b'"', b"\x00", b"\xff", b"\xef\xbb\xbf", b"{", b"}", b"[", b"\\", b" "]


@st.composite
def mutated(draw: st.DrawFn, seeds: list[bytes]) -> bytes:
    """A valid file with a few random edits: flips, inserted specials, deletions, duplicated slices, cuts."""
    data = bytearray(draw(st.sampled_from(seeds)))
    for _ in range(draw(st.integers(1, 6))):
        op = draw(st.integers(0, 4))
        pos = draw(st.integers(0, len(data)))
        if op == 0 and data:
            data[min(pos, len(data) - 1)] = draw(st.integers(0, 255))
        elif op == 1:
            data[pos:pos] = draw(st.sampled_from(SPECIAL))
        elif op == 2:
            del data[pos : pos + draw(st.integers(1, 8))]
        elif op == 3:
            data[pos:pos] = data[pos : pos + draw(st.integers(1, 40))] * draw(st.integers(1, 3))
        else:
            data = data[:pos]
    return bytes(data)


def any_bytes(seeds: list[bytes]) -> st.SearchStrategy[bytes]:
    return st.one_of(st.binary(max_size=600), mutated(seeds), st.text(max_size=300).map(_utf8))


def _utf8(s: str) -> bytes:
    return s.encode("utf-8", "surrogatepass")


def check_error(exc: InputError) -> None:
    """An InputError says what and where, in one line."""
    assert exc.what
    assert exc.where, str(exc)
    assert len(str(exc).splitlines()) == 1, str(exc)


def check_corpus(c: Corpus) -> None:
    assert c.references
    assert c.systems
    assert c.n_segments >= 1
    for f in (*c.references, *c.systems, *([c.source] if c.source else [])):
        assert len(f.lines) == c.n_segments
    assert len(set(c.names)) == len(c.names)
    assert all(c.names)
    for _, v in c.human:
        assert math.isfinite(v)


def parses_or_input_error(parse: Callable[[], Any]) -> Any:
    try:
        return parse()
    except InputError as exc:
        check_error(exc)
        return None


# --- tables ---------------------------------------------------------------------------------------------------


def _table(data: bytes, name: str) -> None:
    c = parses_or_input_error(lambda: parse_table(data, name))
    if c is not None:
        check_corpus(c)


both("table_bytes", any_bytes(VALID_TABLES), st.sampled_from(["t.tsv", "t.csv", "t.txt"]))(_table)

HEADERS = ["ref", "ref_b", "reference", "src", "id", "A", "B", "sys-1", "Online-W"]
cell_text = st.text(st.characters(exclude_categories=["Cs"], exclude_characters="\x00"), max_size=30)


@st.composite
def generated_table(draw: st.DrawFn) -> tuple[list[str], list[list[str]]]:
    header = draw(st.lists(st.sampled_from(HEADERS), min_size=2, max_size=5, unique=True))
    assume(any(h.startswith("ref") for h in header) and any(h in ("A", "B", "sys-1", "Online-W") for h in header))
    rows = draw(st.lists(st.lists(cell_text, min_size=len(header), max_size=len(header)), min_size=1, max_size=6))
    return header, rows


def _csv_round_trip(table: tuple[list[str], list[list[str]]]) -> None:
    """Cells written by csv.writer read back exactly (quoted line breaks, quotes, commas included)."""
    header, rows = table
    out = io.StringIO(newline="")
    csv.writer(out).writerows([header, *rows])
    c = parses_or_input_error(lambda: parse_table(out.getvalue().encode(), "t.csv"))
    assert c is not None
    check_corpus(c)
    for j, h in enumerate(header):
        col = tuple(r[j] for r in rows)
        if h.startswith("ref"):
            assert c.references[[r.name for r in c.references].index(f"t.csv[{h}]")].lines == col
        elif h in c.names:
            assert c.system(h).lines == col


both("csv_round_trip", generated_table())(_csv_round_trip)


def _tsv_round_trip(table: tuple[list[str], list[list[str]]]) -> None:
    header, rows = table
    rows = [[c.replace("\t", " ").replace("\n", " ").replace("\r", " ") for c in r] for r in rows]
    data = "".join("\t".join(r) + "\n" for r in [header, *rows]).encode()
    c = parses_or_input_error(lambda: parse_table(data, "t.tsv"))
    assert c is not None
    check_corpus(c)
    for j, h in enumerate(header):
        if h in c.names:
            assert c.system(h).lines == tuple(r[j] for r in rows)


both("tsv_round_trip", generated_table())(_tsv_round_trip)


# --- JSONL ----------------------------------------------------------------------------------------------------

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | cell_text,
    lambda kids: st.lists(kids, max_size=3) | st.dictionaries(cell_text, kids, max_size=3),
    max_leaves=8,
)


def _jsonl(data: bytes) -> None:
    c = parses_or_input_error(lambda: parse_jsonl(data, "t.jsonl"))
    if c is not None:
        check_corpus(c)


hostile_json = st.one_of(
    any_bytes(VALID_JSONL),
    st.lists(st.dictionaries(st.sampled_from(["ref", "refs", "src", "hyps", "A", "id"]), json_values), max_size=4).map(
        lambda objs: "".join(json.dumps(o) + "\n" for o in objs).encode()
    ),
    st.integers(1, 30_000).map(lambda k: b'{"ref": "a", "A": ' + b"[" * k + b"]" * k + b"}\n"),
    st.integers(1, 9000).map(lambda k: b'{"ref": "a", "A": "a", "n": ' + b"7" * k + b"}\n"),
)
both("jsonl_bytes", hostile_json)(_jsonl)


def _jsonl_round_trip(table: tuple[list[str], list[list[str]]]) -> None:
    header, rows = table
    systems = [h for h in header if not h.startswith("ref") and h not in ("src", "id")]
    refs = [h for h in header if h.startswith("ref")]
    lines = [
        json.dumps({"refs": [r[header.index(h)] for h in refs], "hyps": {h: r[header.index(h)] for h in systems}})
        for r in rows
    ]
    c = parses_or_input_error(lambda: parse_jsonl(("\n".join(lines) + "\n").encode(), "t.jsonl"))
    assert c is not None
    check_corpus(c)
    for h in systems:
        assert c.system(h).lines == tuple(r[header.index(h)] for r in rows)


both("jsonl_round_trip", generated_table())(_jsonl_round_trip)


# --- human scores, plain lines ----------------------------------------------------------------------------------


def _human(data: bytes, name: str) -> None:
    got = parses_or_input_error(lambda: parse_human_scores(data, name))
    if got is not None:
        label, pairs = got
        assert isinstance(label, str)
        assert all(isinstance(k, str) and math.isfinite(v) for k, v in pairs)


both("human_bytes", any_bytes(VALID_HUMAN), st.sampled_from(["h.tsv", "h.csv", "h.txt"]))(_human)


def _lines(data: bytes) -> None:
    f = parses_or_input_error(lambda: decode_lines(data, "hyp.txt"))
    if f is not None:  # nothing is changed but the line ends: the BOM and every other character stay
        text = data.decode("utf-8")
        expected = [] if not text else text.removesuffix("\n").split("\n")
        assert f.lines == tuple(x.removesuffix("\r") for x in expected)


both("lines_bytes", any_bytes([b"a b\nc\n", "\ufeffé\r\nx".encode(), "a b\n".encode("utf-16")]))(_lines)


# --- folders -------------------------------------------------------------------------------------------------

FOLDER_PATHS = [
    "d/ref.txt",
    "d/ref.b.txt",
    "d/reference.en",
    "d/src.en",
    "d/source.en",
    "d/human.tsv",
    "d/human-da.csv",
    "d/systems/A.txt",
    "d/systems/A.en",
    "d/systems/B.txt",
    "d/hyps/C",
    "d/README.md",
    "d/other/x.txt",
    "ref.txt",
    "systems/A.txt",
    "e/systems/A.txt",
]
FILE_SEEDS = [b"a b\nc d\n", b"a b\nc\n", b"x\n", b"", b"A\t0.5\nB\t1\n", *VALID_HUMAN]


def _folder(files: list[tuple[str, bytes]]) -> None:
    c = parses_or_input_error(lambda: parse_folder(files))
    if c is not None:
        check_corpus(c)


folders = st.lists(
    st.tuples(st.sampled_from(FOLDER_PATHS) | st.text(max_size=20), st.sampled_from(FILE_SEEDS) | mutated(FILE_SEEDS)),
    max_size=8,
)
both("folder", folders)(_folder)


# --- the CLI ---------------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def cli_files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    d = tmp_path_factory.mktemp("fuzz_cli")
    files = {
        "ref.txt": b"the cat sat on the mat\na dog barks\nhello world\n",
        "ref2.txt": b"a cat sat on the mat\nthe dog barks\nhello there world\n",
        "a.txt": b"the cat sat on a mat\na dog barked\nhello world\n",
        "b.txt": b"cat the mat\ndog\nhello\n",
        "short.txt": b"one line\n",
        "empty.txt": b"",
        "latin1.txt": "caf\u00e9\nb\nc\n".encode("latin-1"),
        "utf16.txt": "a\nb\nc\n".encode("utf-16"),
        "bin.txt": b"a\x00b\nc\nd\n",
        "bom.txt": "\ufeffthe cat\nx\ny\n".encode(),
        "human.tsv": b"a\t0.5\nb\t-1\n",
    }
    for name, data in files.items():
        (d / name).write_bytes(data)
    with gzip.open(d / "a.txt.gz", "wb") as fh:
        fh.write(files["a.txt"])
    (d / "sub").mkdir()
    out = {name: str(d / name) for name in [*files, "a.txt.gz", "sub"]}
    out["missing"] = str(d / "missing.txt")
    out["odd"] = os.fsdecode(os.fsencode(d) + b"/odd\xff.txt")
    with open(os.fsencode(out["odd"]), "wb") as fh:
        fh.write(files["b.txt"])
    out["out.html"] = str(d / "out.html")
    out["/dev/null"] = "/dev/null"
    return out


COMMANDS = ["score", "compare", "explain", "variants", "report"]
OPTIONS: list[tuple[str, list[str]]] = [
    ("--tokenize", ["13a", "none", "intl", "char", "zh", "paper", "13b", "", "ja-mecab"]),
    ("-tok", ["13a", "flores101"]),
    ("--max-order", ["1", "4", "9", "0", "10", "-1", "x", "99999999999999999999", "4.5"]),
    ("--smooth-method", ["none", "floor", "add-k", "exp", "laplace", ""]),
    ("--smooth-value", ["0", "0.1", "1", "-1", "nan", "inf", "-inf", "1e309", "x"]),
    ("--weights", ["0.25,0.25,0.25,0.25", "1", "0.5,0.5", ",", "nan,0,0,1", "1e308,1e308,-1e308,-1e308", "a"]),
    ("--paired-bs", ["1", "2", "100", "0", "-1", "100000000000", "x", "1e3"]),
    ("--paired-ar", ["1", "50", "0", "-5", "100000000000"]),
    ("--seed", ["0", "1", "-1", "12345", "2" * 40, "x"]),
    ("--preset", ["paper", "sacrebleu", "nope"]),
    ("--hyp", ["the cat", "", " ", "\x00", "a\nb", "\ud800"]),
    ("--ref", ["the cat", "", "&amp; <skipped>"]),
    ("--baseline", ["a.txt", "nope"]),
    ("--human", ["human.tsv", "missing", "bin.txt"]),
    ("-o", ["out.html"]),
]
FLAGS = ["--json", "--lowercase", "-lc", "--effective-order", "--no-effective-order", "-i", "--paired-bs"]


VALID_CALLS = {
    "score": ["ref.txt", "ref2.txt", "-i", "a.txt", "b.txt"],
    "compare": ["ref.txt", "-i", "a.txt", "b.txt", "--paired-bs", "20"],
    "explain": ["--hyp", "the cat sat", "--ref", "the cat sat on the mat"],
    "variants": ["ref.txt", "-i", "a.txt"],
    "report": ["ref.txt", "-i", "a.txt", "b.txt", "-o", "out.html", "--paired-bs", "20"],
}


@st.composite
def cli_args(draw: st.DrawFn, files: dict[str, str]) -> list[str]:
    """A valid call of a subcommand, then options with good and bad values, then mutations: a file swapped for
    another (empty, binary, UTF-16, missing, a directory, a non-UTF-8 name...), arguments dropped, doubled,
    swapped or replaced by arbitrary text; sometimes an arbitrary command."""
    names = sorted(files)
    command = draw(st.sampled_from(COMMANDS))
    args = [command, *(files.get(a, a) for a in VALID_CALLS[command])]
    for _ in range(draw(st.integers(0, 4))):
        if draw(st.integers(0, 3)):
            flag, values = draw(st.sampled_from(OPTIONS))
            value = draw(st.sampled_from(values) | st.text(max_size=10)) if draw(st.integers(0, 4)) else ""
            args += [flag, files.get(value, value)] if value or draw(st.booleans()) else [flag]
        else:
            args.append(draw(st.sampled_from(FLAGS)))
    for _ in range(draw(st.integers(0, 3))):
        i = draw(st.integers(0, len(args) - 1))
        op = draw(st.integers(0, 5))
        if op == 0:
            args[i] = files[draw(st.sampled_from(names))]
        elif op == 1:
            args.insert(i, files[draw(st.sampled_from(names))])
        elif op == 2:
            del args[i]
        elif op == 3:
            args.insert(i, args[i])
        elif op == 4:
            j = draw(st.integers(0, len(args) - 1))
            args[i], args[j] = args[j], args[i]
        else:
            args[i] = draw(st.text(max_size=12))
    assume(args and args[0] != "app")
    # argparse's own exits (help, version: exit 0 with several lines) are not what is tested here
    assume(not any(a == "-h" or (len(a) > 3 and ("--help".startswith(a) or "--version".startswith(a))) for a in args))
    return args


def run_cli(argv: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            rc = main(argv)
        except SystemExit as exc:  # argparse's own exits (help, version) only
            rc = exc.code if isinstance(exc.code, int) else 1
    return rc, out.getvalue(), err.getvalue()


def _cli(files: dict[str, str], argv: list[str]) -> None:
    if "app" in argv[:1]:
        return
    rc, out, err = run_cli(argv)
    event(f"exit {rc}: {argv[0] if argv and argv[0] in COMMANDS else 'other'}")
    if rc == 0:
        return
    assert rc == 2, (argv, rc, out, err)
    assert out == "", (argv, out)
    assert err.endswith("\n"), (argv, err)
    lines = err.splitlines()
    assert len(lines) == 1, (argv, err)
    assert lines[0].startswith("bleu-explorer: error: "), (argv, err)


def _cli_test(settings_: settings) -> Callable[..., None]:
    def test(cli_files: dict[str, str]) -> None:
        # resampling is refused above 16 MB here (the same check as above half the machine's memory), so a
        # drawn --paired-bs 100000 is a quick refusal, not a long run
        with pytest.MonkeyPatch.context() as mp:
            mp.setattr(trials, "memory_budget", lambda: 2**24)
            mp.chdir(os.path.dirname(cli_files["ref.txt"]))

            @settings_
            @given(cli_args(cli_files))
            def run(argv: list[str]) -> None:
                _cli(cli_files, argv)

            run()

    return test


test_cli_options = _cli_test(settings(QUICK, max_examples=int(os.environ.get("BLEU_FUZZ_QUICK_CLI", "60"))))
test_cli_options_long = pytest.mark.fuzz(_cli_test(settings(LONG, max_examples=LONG.max_examples // 5)))
