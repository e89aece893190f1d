"""Reading parallel text: bytes in, lines out, or an InputError naming file and line; the app's input formats.

``bleu_core`` does no file I/O of its own accord; these functions take bytes (the app's uploads) or,
for the CLI, a path the caller chose to read. They give ``corpus`` values: a :class:`~bleu_core.data.corpus.TextFile`
per file, a :class:`~bleu_core.data.corpus.Corpus` per folder, table (TSV/CSV) or JSONL file, and human scores.
"""

from __future__ import annotations

import codecs
import csv
import gzip
import io
import json
import math
import os
import re
import stat
import zlib
from collections.abc import Sequence
from typing import Final

from bleu_core.errors import InputError

from .corpus import MAX_FOLDER_FILES, Corpus, TextFile, build_corpus, system_name

__all__ = [
    "DEFAULT_LIMIT_MB",
    "STREAM_LIMIT_MB",
    "check_size",
    "decode_lines",
    "decode_text",
    "parse_folder",
    "parse_human_scores",
    "parse_jsonl",
    "parse_table",
    "read_text_file",
    "table_rows",
]


_ARCHIVES: Final = (
    (b"\x1f\x8b", "gzip-compressed", "decompress it first (gunzip)"),
    (b"PK\x03\x04", "a zip archive", "extract it first (unzip) and give the files inside"),
    (b"PK\x05\x06", "a zip archive (empty)", "give the text files themselves"),
    (b"\xfd7zXZ\x00", "xz-compressed", "decompress it first (unxz)"),
    (b"\x28\xb5\x2f\xfd", "zstd-compressed", "decompress it first (unzstd)"),
    (b"7z\xbc\xaf\x27\x1c", "a 7-Zip archive", "extract it first"),
)
_UTF16_FIX: Final = "save it as UTF-8 (e.g. iconv -f UTF-16 -t UTF-8 FILE > FILE.utf8)"


def decode_text(data: bytes, name: str) -> str:
    """Decode UTF-8 bytes, or say in one line (naming the line) why they are not UTF-8 text.

    A byte-order mark is kept: sacrebleu reads files as plain ``utf-8``, so a BOM stays glued to the
    first token and changes the score; stripping it here would give a number sacrebleu does not.

    Raises:
        InputError: a compressed file or archive, UTF-16/UTF-32, a binary file (a NUL byte), or
            bytes that are not UTF-8; naming the line where it can.

    Example:
        >>> decode_text(b"\\xef\\xbb\\xbfa b\\n", "hyp.txt")
        '\\ufeffa b\\n'
        >>> decode_text(b"\\xff\\xfea\\x00", "hyp.txt")  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        bleu_core.errors.InputError: hyp.txt: is UTF-16 (it starts with a UTF-16 byte-order mark), not UTF-8; ...
    """
    for magic, what, fix in _ARCHIVES:
        if data.startswith(magic):
            raise InputError(f"is {what}, not text; {fix}", name)
    if data.startswith((b"\xff\xfe\x00\x00", b"\x00\x00\xfe\xff")):
        raise InputError("is UTF-32 (it starts with a UTF-32 byte-order mark), not UTF-8; save it as UTF-8", name)
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        raise InputError(f"is UTF-16 (it starts with a UTF-16 byte-order mark), not UTF-8; {_UTF16_FIX}", name)
    nul = data.find(b"\x00")
    if nul != -1:
        if _looks_utf16(data):
            raise InputError(
                f"looks like UTF-16 without a byte-order mark (every other byte is 0), not UTF-8; {_UTF16_FIX}", name
            )
        line = data.count(b"\n", 0, nul) + 1
        raise InputError("binary file (NUL byte), expected plain text with one segment per line", f"{name}:{line}")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        col = exc.start - (data.rfind(b"\n", 0, exc.start) + 1) + 1
        bad = data[exc.start]
        raise InputError(
            f"not UTF-8 (byte 0x{bad:02x} at column {col}); save the file as UTF-8", f"{name}:{line}"
        ) from None


def _looks_utf16(data: bytes) -> bool:
    """Mostly ASCII text in UTF-16 without a BOM: the NULs fill one of the two byte positions."""
    head = data[:4096]
    if len(head) < 4:
        return False
    even, odd = head[0::2], head[1::2]
    return any(half.count(0) >= 0.9 * len(half) and other.count(0) == 0 for half, other in ((even, odd), (odd, even)))


def decode_lines(data: bytes, name: str) -> TextFile:
    """Decode UTF-8 bytes into lines (split on ``\\n`` only, as sacrebleu reads files; a BOM is kept, as
    sacrebleu keeps it).

    Raises:
        InputError: see :func:`decode_text`.

    Example:
        >>> decode_lines(b"a b\\nc\\n", "hyp.txt").lines
        ('a b', 'c')
        >>> decode_lines(b"ok\\n\\xff\\n", "hyp.txt")
        Traceback (most recent call last):
        ...
        bleu_core.errors.InputError: hyp.txt:2: not UTF-8 (byte 0xff at column 1); save the file as UTF-8
    """
    return TextFile(name, _split_lines(decode_text(data, name)))


def _split_lines(text: str) -> tuple[str, ...]:
    """Lines split on ``\\n``, each without one trailing ``\\r``.

    Example:
        >>> _split_lines("a\\r\\nb\\r\\r\\nc\\r"), _split_lines("a\\n\\n"), _split_lines("a\\n\\r"), _split_lines("")
        (('a', 'b\\r', 'c'), ('a', ''), ('a', ''), ())
    """
    cr = "\r" in text
    if cr:  # a CR before each LF goes in one pass over the text, not one call per line
        text = text.replace("\r\n", "\n")
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    elif cr and lines[-1].endswith("\r"):  # a last line with no LF after it
        lines[-1] = lines[-1][:-1]
    return tuple(lines)


STREAM_LIMIT_MB: Final = 2048  # what is read from a pipe, a device or a .gz before giving up


def check_path(name: str) -> None:
    """Refuse a path that is not a file to read, saying which way: missing, a broken or looping symbolic link, or
    a directory (``os.path.exists`` is False for a link loop too, which read as "no such file")."""
    if not os.path.exists(name):
        if os.path.lexists(name):
            raise InputError("a symbolic link to nothing that can be read (broken, or a loop)", name)
        raise InputError("no such file", name)
    if os.path.isdir(name):
        raise InputError("is a directory, expected a text file", name)


def read_text_file(path: str | os.PathLike[str]) -> TextFile:
    """Read a UTF-8 text file (``.gz`` too) into lines.

    A regular file is read whole. A pipe, a device or a ``.gz`` (whose size is not known in advance) is
    read in chunks, each checked as it comes, up to :data:`STREAM_LIMIT_MB`: ``/dev/zero`` is refused
    at its first NUL, a stream that never ends at the limit.

    Raises:
        InputError: missing file, a directory, unreadable, over the limit, binary or not UTF-8.
    """
    name = os.fspath(path)
    check_path(name)
    try:
        gz = name.endswith(".gz")
        regular = stat.S_ISREG(os.stat(name).st_mode)
        with gzip.open(name, "rb") if gz else open(name, "rb") as fh:
            data = fh.read() if regular and not gz else _read_stream(fh, name, gz=gz)
    except (OSError, EOFError, zlib.error) as exc:
        raise InputError(f"cannot read ({exc.__class__.__name__}: {exc})", name) from None
    return decode_lines(data, name)


def _read_stream(fh: io.BufferedIOBase | gzip.GzipFile, name: str, *, gz: bool) -> bytes:
    """Read up to the limit, stopping early at the first chunk that is not UTF-8 text (decode_lines
    then names the line)."""
    limit = int(STREAM_LIMIT_MB * 2**20)
    chunks: list[bytes] = []
    size = 0
    check = codecs.getincrementaldecoder("utf-8")()
    while chunk := fh.read(1 << 20):
        chunks.append(chunk)
        size += len(chunk)
        try:
            check.decode(chunk)
        except UnicodeDecodeError:
            break
        if b"\x00" in chunk:
            break
        if size > limit:
            what = "decompressed" if gz else "read from this pipe or device"
            raise InputError(
                f"more than {STREAM_LIMIT_MB:g} MB {what} without reaching the end; at most {STREAM_LIMIT_MB:g} MB "
                "is read from a .gz, pipe or device (give a regular file)",
                name,
            )
    return b"".join(chunks)


# --- the app's inputs: folders, tables, JSONL, human scores -----------------------------------------------

DEFAULT_LIMIT_MB: Final = 50  # the app's per-file upload limit (.streamlit/config.toml maxUploadSize)
FOLDER_LIMIT_FACTOR: Final = 10  # a folder may hold this many times the per-file limit in all


def check_size(name: str, size: int, limit_mb: float = DEFAULT_LIMIT_MB) -> None:
    """Refuse a file over the upload limit.

    Example:
        >>> check_size("big.txt", 60 * 2**20)
        Traceback (most recent call last):
        ...
        bleu_core.errors.InputError: big.txt: is 60.0 MB, over the 50 MB limit per file
    """
    if size > limit_mb * 2**20:
        raise InputError(f"is {size / 2**20:.1f} MB, over the {limit_mb:g} MB limit per file", name)


def parse_human_scores(data: bytes, name: str, column: str | None = None) -> tuple[str, tuple[tuple[str, float], ...]]:
    """Human scores per system: ``system<TAB>score`` lines, or a TSV/CSV with a header and a ``system`` column.

    With a header, the score is ``column`` if given, else the first column whose values are numbers
    (for the WMT human-score tables that is ``da_z``). Empty cells are skipped.

    Returns:
        The score's label and the (system, score) pairs.

    Raises:
        InputError: not UTF-8, no numeric column, a score that is not a number (naming the line).

    Example:
        >>> parse_human_scores(b"A\\t0.5\\nB\\t-0.1\\n", "h.tsv")
        ('human', (('A', 0.5), ('B', -0.1)))
        >>> parse_human_scores(b"system,kind,da_z\\nA,mt,0.2\\n", "h.csv")
        ('da_z', (('A', 0.2),))
        >>> parse_human_scores(b"A\\tgood\\n", "h.tsv")
        Traceback (most recent call last):
        ...
        bleu_core.errors.InputError: h.tsv:1: score 'good' is not a number; expected system<TAB>score
    """
    text = decode_text(data, name).removeprefix("\ufeff")
    tsv = "\t" in text or name.lower().endswith(".tsv")
    rows = [(i, cells) for i, cells in table_rows(text, name, tsv=tsv) if any(c.strip() for c in cells)]
    if not rows:
        raise InputError("no scores; expected lines of system<TAB>score", name)
    first = rows[0][1]
    has_header = first[0].strip().lower() in ("system", "sys", "name") or (
        len(rows) > 1 and not any(_is_number(c) for c in first) and any(_is_number(c) for c in rows[1][1])
    )
    if not has_header:
        return "human", _plain_scores(rows, name)
    header = [c.strip() for c in first]
    key = next((i for i, h in enumerate(header) if h.lower() in ("system", "sys", "name")), 0)
    body = rows[1:]
    col = _score_column(header, key, body, column, name)
    out = []
    for lineno, cells in body:
        if col >= len(cells) or not cells[col].strip():
            continue
        if not _is_number(cells[col]):
            raise InputError(f"score {cells[col]!r} is not a number", f"{name}:{lineno}")
        out.append((cells[key].strip(), float(cells[col])))
    return header[col], tuple(out)


def _plain_scores(rows: Sequence[tuple[int, list[str]]], name: str) -> tuple[tuple[str, float], ...]:
    """``system<TAB>score`` lines without a header."""
    out = []
    for lineno, cells in rows:
        if len(cells) < 2:
            raise InputError("expected system<TAB>score", f"{name}:{lineno}")
        if not _is_number(cells[1]):
            raise InputError(f"score {cells[1]!r} is not a number; expected system<TAB>score", f"{name}:{lineno}")
        out.append((cells[0].strip(), float(cells[1])))
    return tuple(out)


def _score_column(
    header: Sequence[str], key: int, body: Sequence[tuple[int, list[str]]], column: str | None, name: str
) -> int:
    """The column of the human score: ``column`` if given, else the first (not the system's) holding numbers only."""
    if column is not None:
        if column not in header:
            raise InputError(f"no column {column!r} (have: {', '.join(header)})", name)
        return list(header).index(column)
    numeric = [
        i
        for i in range(len(header))
        if i != key
        and any(i < len(c) and c[i].strip() for _, c in body)
        and all(i >= len(c) or not c[i].strip() or _is_number(c[i]) for _, c in body)
    ]
    if not numeric:
        raise InputError("no column of numbers to use as the human score", name)
    return numeric[0]


def _is_number(s: str) -> bool:
    try:
        return math.isfinite(float(s))
    except ValueError:
        return False


_REF = re.compile(r"(^|[._\-])ref(erence)?s?([._\-]|\d|$)")
_SRC = re.compile(r"(^|[._\-])(src|source|orig)([._\-]|$)")
_SYS_DIRS: Final = ("systems", "system", "hyps", "hypotheses", "sys", "outputs")


def _role(path: str) -> str:
    """ref, src, human, system or ignore, from a path relative to the folder."""
    parts = path.replace("\\", "/").split("/")
    base = parts[-1].lower()
    if base.startswith(".") or base.endswith((".md", ".json", ".py", ".pdf", ".html")) or "readme" in base:
        return "ignore"
    if len(parts) > 1:
        return "system" if parts[-2].lower() in _SYS_DIRS else "ignore"
    if "human" in base and base.endswith((".tsv", ".csv", ".txt")):
        return "human"
    if _REF.search(base):
        return "ref"
    if _SRC.search(base):
        return "src"
    if re.search(r"(^|[._\-])(sys|hyp|system|output)", base):
        return "system"
    return "ignore"


def _check_folder(files: Sequence[tuple[str, bytes]], limit_mb: float) -> None:
    """A folder must hold files, not too many, and not too much in all."""
    if not files:
        raise InputError("the folder is empty", "folder")
    if len(files) > MAX_FOLDER_FILES:
        raise InputError(
            f"has {len(files):,} files; a corpus folder holds at most {MAX_FOLDER_FILES:,} (references, source, "
            "human scores and one file per system): choose the corpus's own folder",
            "folder",
        )
    total = sum(len(d) for _, d in files)
    if total > FOLDER_LIMIT_FACTOR * limit_mb * 2**20:
        raise InputError(
            f"holds {total / 2**20:.1f} MB, over the {FOLDER_LIMIT_FACTOR * limit_mb:g} MB limit per folder", "folder"
        )


def _read_by_role(
    files: Sequence[tuple[str, bytes]], paths: Sequence[str], *, strip: bool, top: str, limit_mb: float
) -> tuple[list[TextFile], list[TextFile], TextFile | None, tuple[str, bytes] | None, list[str]]:
    """The folder's files by role (:func:`_role`), each checked and decoded in path order: references, systems,
    the source, the human scores' (path, bytes), and the paths ignored."""
    refs: list[TextFile] = []
    systems: list[TextFile] = []
    source: TextFile | None = None
    human_bytes: tuple[str, bytes] | None = None
    ignored: list[str] = []
    seen: dict[str, str] = {}
    for (_, data), clean in sorted(zip(files, paths, strict=True), key=lambda t: t[1].lower()):
        role = _role(clean.split("/", 1)[1] if strip else clean)
        if role == "ignore":
            ignored.append(clean)
            continue
        check_size(clean, len(data), limit_mb)
        if role in ("human", "src"):
            if role in seen:
                what = "source files" if role == "src" else "human-score files"
                raise InputError(f"two {what} ({seen[role]} and {clean}); keep one", top)
            seen[role] = clean
        if role == "human":
            human_bytes = (clean, data)
            continue
        f = decode_lines(data, clean)
        if role == "ref":
            refs.append(f)
        elif role == "src":
            source = f
        else:
            systems.append(f)
    return refs, systems, source, human_bytes, ignored


def parse_folder(files: Sequence[tuple[str, bytes]], *, limit_mb: float = DEFAULT_LIMIT_MB) -> Corpus:
    """A folder like the WMT data: reference files, a ``systems/`` folder, optional source and human scores.

    Roles come from the paths: ``ref``/``reference`` in a top-level name is a reference, ``src``/
    ``source`` the source, a top-level ``*human*.tsv`` the human scores, every file in ``systems/``
    (or ``hyps/``) a system named after its file; README files and other folders are ignored (and listed
    in the warnings).

    Args:
        files: (path inside the chosen folder, bytes); a shared top folder is stripped.
        limit_mb: the per-file size limit.

    Raises:
        InputError: see :func:`build_corpus`, :func:`decode_lines`, :func:`check_size`.

    Example:
        >>> c = parse_folder([("d/ref.A.en", b"a b\\n"), ("d/systems/X.en", b"a c\\n"), ("d/README.md", b"#")])
        >>> c.name, c.names, [r.name for r in c.references], c.warnings
        ('d', ('X',), ['d/ref.A.en'], ('ignored d/README.md',))
    """
    _check_folder(files, limit_mb)
    paths = [p.replace("\\", "/") for p, _ in files]
    tops = {p.split("/", 1)[0] for p in paths}
    strip = len(tops) == 1 and all("/" in p for p in paths)
    top = (tops.pop() if strip else "") or "upload"
    refs, systems, source, human_bytes, ignored = _read_by_role(files, paths, strip=strip, top=top, limit_mb=limit_mb)
    if not refs:
        raise InputError(
            "no reference file found: name references ref*.txt or reference.*, systems go in systems/", top
        )
    if not systems:
        raise InputError("no system output found: put one file per system in a systems/ folder", top)
    label, human = parse_human_scores(human_bytes[1], human_bytes[0]) if human_bytes else ("", ())
    notes = []
    if ignored:
        shown = ", ".join(ignored[:4]) + (f" and {len(ignored) - 4} more" if len(ignored) > 4 else "")
        notes.append(f"ignored {shown}")
    return build_corpus(top, refs, systems, source=source, human=human, human_label=label, warnings=notes)


def parse_table(data: bytes, name: str, *, limit_mb: float = DEFAULT_LIMIT_MB) -> Corpus:
    """A TSV/CSV with a header: reference columns (``ref``, ``ref_b``, ``reference``...), an optional
    ``source``/``src`` column, an optional ``id`` column, and one column per system.

    Raises:
        InputError: no header, no reference or system column, a row with the wrong number of cells
            (naming the line), duplicate column names, not UTF-8.

    Example:
        >>> c = parse_table(b"id\\tsrc\\tref\\tA\\tB\\n1\\tx\\ta b\\ta b\\ta\\n", "t.tsv")
        >>> c.names, c.references[0].lines, c.source.lines
        (('A', 'B'), ('a b',), ('x',))
    """
    check_size(name, len(data), limit_mb)
    text = decode_text(data, name).removeprefix("\ufeff")  # a table's BOM precedes its header, not a segment
    if not text:
        raise InputError("the file is empty", name)
    first = text.split("\n", 1)[0]
    tsv = name.lower().endswith(".tsv") or ("\t" in first and not name.lower().endswith(".csv"))
    rows = table_rows(text, name, tsv=tsv)
    header = [h.strip() for h in rows[0][1]]
    roles = _column_roles(header, name)
    body = rows[1:]
    if not body:
        raise InputError("has a header but no rows: no segments to score", name)
    notes = _check_rows(body, len(header), name, tsv=tsv)
    cols = {h: tuple(r[j] for _, r in body) for j, h in enumerate(header)}
    refs = [TextFile(f"{name}[{h}]", cols[h]) for h, r in zip(header, roles, strict=True) if r == "ref"]
    systems = [TextFile(f"{name}[{h}]", cols[h]) for h, r in zip(header, roles, strict=True) if r == "system"]
    src = next((TextFile(f"{name}[{h}]", cols[h]) for h, r in zip(header, roles, strict=True) if r == "src"), None)
    names = [h for h, r in zip(header, roles, strict=True) if r == "system"]
    return build_corpus(system_name(name), refs, systems, source=src, names=names, warnings=notes)


def _column_roles(header: Sequence[str], name: str) -> list[str]:
    """Each column's role, from its name: id, src, ref or system (every other column).

    Raises:
        InputError: a column without a name, two of the same name, no reference or no system column.
    """
    for j, h in enumerate(header):
        if not h:
            raise InputError(
                f"column {j + 1} of {len(header)} has no name in the header; name every column "
                "(ref, src, id or a system name)",
                f"{name}:1",
            )
    if len(set(header)) != len(header):
        dup = next(h for h in header if header.count(h) > 1)
        raise InputError(f"two columns are called {dup!r}; rename one", f"{name}:1")
    roles = []
    for h in header:
        low = h.lower()
        if low in ("id", "seg", "segment", "seg_id", "line"):
            roles.append("id")
        elif low in ("src", "source"):
            roles.append("src")
        elif _REF.search(low) or low.startswith("ref"):
            roles.append("ref")
        else:
            roles.append("system")
    if "ref" not in roles:
        raise InputError(
            "no reference column: name it ref (or ref_a, ref_b, ...); other columns are systems", f"{name}:1"
        )
    if "system" not in roles:
        raise InputError("no system column: every column that is not id, src or ref* is a system", f"{name}:1")
    return roles


def _check_rows(body: Sequence[tuple[int, list[str]]], width: int, name: str, *, tsv: bool) -> list[str]:
    """Every row has the header's number of cells; a note when a quoted cell holds a line break.

    Raises:
        InputError: naming the line of a row with another number of cells.
    """
    spans = []
    for lineno, row in body:
        if len(row) != width:
            raise InputError(
                f"has {len(row)} cells but the header has {width}" + (" (a TAB inside a segment?)" if tsv else ""),
                f"{name}:{lineno}",
            )
        if any("\n" in c or "\r" in c for c in row):
            spans.append(lineno)
    if not spans:
        return []
    more = f" and {len(spans) - 1} more row(s)" if len(spans) > 1 else ""
    return [
        f"{name}:{spans[0]}{more}: a quoted cell holds a line break; it stays one segment, line break "
        "included (a line-based file could not hold it)"
    ]


def table_rows(text: str, name: str, *, tsv: bool) -> list[tuple[int, list[str]]]:
    """A table's rows with the line each starts on: TSV split at TABs line by line, CSV read as CSV over
    the whole text (a quoted cell may hold a line break, and later lines keep their numbers).

    Raises:
        InputError: a quote that is never closed, text after a closing quote, an over-long cell;
            naming the line where the row starts.

    Example:
        >>> table_rows('ref,A\\n"the cat\\nsat",the cat sat\\nb,c\\n', "t.csv", tsv=False)
        [(1, ['ref', 'A']), (2, ['the cat\\nsat', 'the cat sat']), (4, ['b', 'c'])]
        >>> table_rows('ref,A\\n"the cat,sat\\nb,c\\n', "t.csv", tsv=False)
        Traceback (most recent call last):
        ...
        bleu_core.errors.InputError: t.csv:2: a quote opened in this row is never closed (a missing ")
    """
    if tsv:
        return [(i + 1, line.split("\t")) for i, line in enumerate(_split_lines(text))]
    reader = csv.reader(io.StringIO(text, newline=""), strict=True)
    rows: list[tuple[int, list[str]]] = []
    start = 1
    try:
        for row in reader:
            rows.append((start, row))
            start = reader.line_num + 1
    except csv.Error as exc:
        msg = str(exc)
        if "unexpected end of data" in msg:
            what = 'a quote opened in this row is never closed (a missing ")'
        elif "field larger than field limit" in msg:
            what = f"a cell is longer than {csv.field_size_limit():,} characters"
        elif "expected after" in msg:
            what = 'text after a closing quote (write a quote inside a quoted cell as "")'
        else:
            what = f"not valid CSV ({msg})"
        raise InputError(what, f"{name}:{start}") from None
    return rows


def parse_jsonl(data: bytes, name: str, *, limit_mb: float = DEFAULT_LIMIT_MB) -> Corpus:
    """JSON Lines, one object per segment: ``"ref"`` (a string) or ``"refs"`` (a list), optional
    ``"src"``, and the systems either as ``"hyps": {"name": text}`` or as further string fields.

    Raises:
        InputError: a line that is not a JSON object, a missing reference, systems that differ from
            the first line's (naming the line).

    Example:
        >>> c = parse_jsonl(b'{"src": "x", "refs": ["a b", "a c"], "hyps": {"A": "a b"}}\\n', "t.jsonl")
        >>> c.names, len(c.references), c.source.lines
        (('A',), 2, ('x',))
    """
    check_size(name, len(data), limit_mb)
    text = TextFile(name, _split_lines(decode_text(data, name).removeprefix("\ufeff")))
    refs: list[list[str]] = []
    hyps: dict[str, list[str]] = {}
    srcs: list[str] = []
    n_refs: int | None = None
    rows = [(i + 1, line) for i, line in enumerate(text.lines) if line.strip()]
    if not rows:
        raise InputError("the file is empty", name)
    for lineno, line in rows:
        where = f"{name}:{lineno}"
        obj = _json_object(line, where)
        seg_refs = _segment_refs(obj, where)
        if n_refs is None:
            n_refs = len(seg_refs)
            refs = [[] for _ in range(n_refs)]
        elif len(seg_refs) != n_refs:
            raise InputError(f"has {len(seg_refs)} references but line {rows[0][0]} has {n_refs}", where)
        for k, x in enumerate(seg_refs):
            refs[k].append(x)
        src = obj.get("src", obj.get("source"))
        if src is not None:
            if not isinstance(src, str):
                raise InputError('"src" must be a string', where)
            srcs.append(src)
        h = _segment_systems(obj, where)
        if not hyps and lineno == rows[0][0]:
            hyps = {system: [] for system in h}
        if set(h) != set(hyps):
            raise InputError(f"has systems {sorted(h)} but line {rows[0][0]} has {sorted(hyps)}", where)
        for system, output in h.items():
            hyps[system].append(output)
    if srcs and len(srcs) != len(rows):
        raise InputError('"src" is given on some lines but not all', name)
    ref_files = [TextFile(f"{name}[ref {k + 1}]", tuple(x)) for k, x in enumerate(refs)]
    sys_files = [TextFile(f"{name}[{k}]", tuple(v)) for k, v in hyps.items()]
    source = TextFile(f"{name}[src]", tuple(srcs)) if srcs else None
    return build_corpus(system_name(name), ref_files, sys_files, source=source, names=list(hyps))


def _json_object(line: str, where: str) -> dict[str, object]:
    """One JSON Lines line, which must be an object.

    Raises:
        InputError: not JSON, nested too deeply, a value that cannot be read, not an object; naming the line.
    """
    try:
        obj = json.loads(line)
    except json.JSONDecodeError as exc:
        raise InputError(f"not JSON ({exc.msg} at column {exc.colno})", where) from None
    except RecursionError:
        raise InputError("JSON nested too deeply (expected one flat object per line)", where) from None
    except ValueError as exc:  # e.g. an integer longer than int() takes
        raise InputError(f"a JSON value cannot be read ({str(exc).split(';')[0]})", where) from None
    if not isinstance(obj, dict):
        raise InputError("expected a JSON object per line", where)
    return obj


def _segment_refs(obj: dict[str, object], where: str) -> list[str]:
    """A segment's references: ``"ref"`` (a string) or ``"refs"`` (a list of strings), or their long names."""
    r = obj.get("refs", obj.get("references", obj.get("ref", obj.get("reference"))))
    seg_refs = [r] if isinstance(r, str) else r
    if not isinstance(seg_refs, list) or not seg_refs or not all(isinstance(x, str) for x in seg_refs):
        raise InputError('no reference: give "ref": "..." or "refs": ["...", ...]', where)
    return seg_refs


def _segment_systems(obj: dict[str, object], where: str) -> dict[str, str]:
    """A segment's systems: ``"hyps"`` (or ``"systems"``) as name -> text, else every other string field."""
    h = obj.get("hyps", obj.get("systems"))
    if h is None:
        skip = {"refs", "references", "ref", "reference", "src", "source", "id"}
        h = {k: v for k, v in obj.items() if k not in skip}
    if not isinstance(h, dict) or not all(isinstance(v, str) for v in h.values()):
        raise InputError('systems must be strings: "hyps": {"name": "text", ...}', where)
    return h
