"""A test set as values: texts, systems and corpora, their content digests, and the checks that make one.

``readers`` turns bytes and files into these (decoding, the folder, table, JSONL and human-score formats);
this module holds what they produce: :class:`TextFile`, :class:`System`, :class:`Corpus` (each with a content
hash, the app's cache key) and :func:`build_corpus`, which checks parallel files and names before making one.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Final, Literal

from bleu_core.errors import InputError
from bleu_core.metrics.imported import SegmentScores

from .document_index import Documents

__all__ = [
    "MAX_FOLDER_FILES",
    "Corpus",
    "System",
    "TextFile",
    "bom_warnings",
    "build_corpus",
    "check_corpus_parallel",
    "check_parallel",
    "check_unique_names",
    "empty_line_warnings",
    "out_of_step",
    "system_name",
    "text_digest",
    "twin_warnings",
]


_TWIN_PROBE: Final = 50  # lines that group files before two are compared in full (twin_warnings)
_TWIN_KEY_CHARS: Final = 500  # characters of a probe line, without spaces, that group files


@dataclass(frozen=True, slots=True)
class TextFile:
    """A named text: one segment per line."""

    name: str
    lines: tuple[str, ...]


# Signatures of compressed or archived files, which are not text however they are named.
def check_parallel(files: Sequence[TextFile]) -> None:
    """All files must have the same number of lines; name the first that differs and both counts.

    Example:
        >>> check_parallel([TextFile("ref.txt", ("a", "b")), TextFile("hyp.txt", ("a",))])
        Traceback (most recent call last):
        ...
        bleu_core.errors.InputError: hyp.txt: has 1 line but ref.txt has 2 lines; every file needs one line per segment
    """
    if not files:
        return
    first = files[0]
    for other in files[1:]:
        if len(other.lines) != len(first.lines):
            raise InputError(
                f"has {_n(len(other.lines))} but {first.name} has {_n(len(first.lines))}; "
                "every file needs one line per segment",
                other.name,
            )


def _n(k: int) -> str:
    return f"{k} line" if k == 1 else f"{k} lines"


MAX_FOLDER_FILES: Final = 1000  # files in a folder, systems in a table (a WMT test set has a few dozen)

_TEXT_EXTS: Final = ("", "txt", "en", "de", "zh", "fr", "cs", "ja", "ru", "es", "eng", "slk", "detok", "tok")


@dataclass(frozen=True, slots=True)
class System:
    """One system's output: a name (editable) and one segment per line.

    Attributes:
        name: what the app calls it.
        lines: its segments.
        file: the file it came from (for messages), or ``""``.
    """

    name: str
    lines: tuple[str, ...]
    file: str = ""
    digest: str = field(init=False, repr=False, compare=False)
    """A content hash of the lines (the cache key; independent of the name), computed once."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "digest", text_digest(self.lines))


@dataclass(frozen=True, slots=True)
class Corpus:
    """A test set with any number of systems: references, optional source and human scores.

    Attributes:
        name: a label for the corpus (folder or file name).
        references: the reference files; ``references[k].lines[i]`` is reference k of segment i.
        systems: the systems, names unique.
        source: the source file, if given.
        human: (system name, human score) pairs, if given.
        human_label: what the human score is (e.g. the TSV column ``da_z``).
        warnings: things worth knowing that do not stop scoring (empty lines, ignored files).
        scores: imported segment scores (``bleu_core.data.scores``), one per metric: they follow the systems
            through a slice and a renaming.
        documents: each segment's document, original language and domain (a WMT file's), or None; they follow
            the segments through a slice.

    Example:
        >>> c = Corpus("toy", (TextFile("ref", ("a b", "c")),), (System("s1", ("a b", "c")),))
        >>> c.n_segments, c.names, c.ref_streams
        (2, ('s1',), [['a b', 'c']])
    """

    name: str
    references: tuple[TextFile, ...]
    systems: tuple[System, ...]
    source: TextFile | None = None
    human: tuple[tuple[str, float], ...] = ()
    human_label: str = ""
    warnings: tuple[str, ...] = ()
    scores: tuple[SegmentScores, ...] = ()
    documents: Documents | None = None
    refs_digest: str = field(init=False, repr=False, compare=False)
    """A content hash of all references (the cache key of what reads only them), computed once."""
    digest: str = field(init=False, repr=False, compare=False)
    """A content hash of everything above but the imported scores: references, source, systems (names and texts),
    human scores and label, warnings (the cache key of what reads the whole corpus), computed once. Scores carry
    digests of their own (``SegmentScores.metric.digest``), so loading them leaves every BLEU number cached."""

    def __post_init__(self) -> None:
        object.__setattr__(
            self, "refs_digest", text_digest(tuple(line for r in self.references for line in (*r.lines, "\x00")))
        )
        whole = (
            self.name,
            self.refs_digest,
            None if self.source is None else text_digest(self.source.lines),
            tuple((s.name, s.digest) for s in self.systems),
            self.human,
            self.human_label,
            self.warnings,
            None if self.documents is None else repr(self.documents),
        )
        object.__setattr__(self, "digest", text_digest((repr(whole),)))
        if self.documents is not None and self.documents.n_segments != self.n_segments:
            raise InputError(
                f"{self.n_segments} segments but the documents describe {self.documents.n_segments}", self.name
            )

    @property
    def n_segments(self) -> int:
        """The number of segments."""
        return len(self.references[0].lines) if self.references else 0

    @property
    def names(self) -> tuple[str, ...]:
        """The system names, in order."""
        return tuple(s.name for s in self.systems)

    @property
    def ref_streams(self) -> list[list[str]]:
        """References as sacrebleu-style streams."""
        return [list(r.lines) for r in self.references]

    def system(self, name: str) -> System:
        """The system called ``name``.

        Raises:
            InputError: no such system.
        """
        for s in self.systems:
            if s.name == name:
                return s
        raise InputError(f"no system called {name!r} (have: {', '.join(self.names)})", "system")

    def human_scores(self) -> dict[str, float]:
        """Human scores of the systems that have one (other rows, e.g. a reference rated as a system, dropped)."""
        names = set(self.names)
        return {k: v for k, v in self.human if k in names}

    def renamed(self, names: Sequence[str]) -> Corpus:
        """The same corpus with the systems renamed (human scores follow their system).

        Raises:
            InputError: wrong number of names, an empty or a duplicate name.
        """
        if len(names) != len(self.systems):
            raise InputError(f"{len(names)} names for {len(self.systems)} systems", "system names")
        clean = [n.strip() for n in names]
        for n in clean:
            if not n:
                raise InputError("a system name is empty", "system names")
        check_unique_names(clean, [s.file or s.name for s in self.systems])
        mapping = {s.name: n for s, n in zip(self.systems, clean, strict=True)}
        systems = tuple(System(n, s.lines, s.file) for s, n in zip(self.systems, clean, strict=True))
        human = tuple((mapping.get(k, k), v) for k, v in self.human)
        scores = tuple(s.renamed(mapping) for s in self.scores)
        return replace(self, systems=systems, human=human, scores=scores)

    def with_scores(self, scores: Sequence[SegmentScores]) -> Corpus:
        """The same corpus with ``scores`` added; one with the name of a metric already there replaces it."""
        names = {s.metric.label for s in scores}
        kept = tuple(s for s in self.scores if s.metric.label not in names)
        return replace(self, scores=(*kept, *scores))

    def imported(self, label: str) -> SegmentScores | None:
        """The imported scores of the metric called ``label``, if loaded."""
        return next((s for s in self.scores if s.metric.label == label), None)


def text_digest(lines: Sequence[str]) -> str:
    """A short, stable content hash of lines.

    Example:
        >>> text_digest(("a", "b")) == text_digest(["a", "b"]), text_digest(("a b",)) == text_digest(("a", "b"))
        (True, False)
    """
    h = hashlib.sha256()  # 2.5x blake2b's speed where the CPU has SHA instructions (48 MB: 0.04 s vs 0.09 s)
    if lines:  # each line followed by a newline, hashed in one piece
        h.update("\n".join(lines).encode("utf-8", "surrogatepass"))
        h.update(b"\n")
    return h.hexdigest()[:32]


def out_of_step(a: Sequence[str], b: Sequence[str]) -> int | None:
    """Where two files of different length probably go out of step (1-based line of ``a``), or None.

    Parallel lines have similar lengths (after the typical ratio between the files) and are empty
    together, so the first place where shifting one file by a line explains the next few lines much
    better than keeping them aligned is where a line was dropped or added. A heuristic: it says "around".

    Example:
        >>> ref = [f"sentence number {i} " + "word " * (i % 7) for i in range(40)]
        >>> hyp = ref[:17] + ref[18:]
        >>> out_of_step(ref, hyp)
        18
    """
    n = min(len(a), len(b))
    if n == 0 or len(a) == len(b):
        return None
    la = [len(x) for x in a]
    lb = [len(x) for x in b]
    ratios = sorted(math.log((lb[i] + 1) / (la[i] + 1)) for i in range(n))
    typical = ratios[len(ratios) // 2]

    def dev(i: int, j: int) -> float:
        if (la[i] == 0) != (lb[j] == 0):
            return 3.0
        return min(3.0, abs(math.log((lb[j] + 1) / (la[i] + 1)) - typical))

    da, db = (0, 1) if len(b) > len(a) else (1, 0)  # the longer file has the extra line
    m = n
    # The single break point that best explains the files: aligned before it, shifted after it.
    aligned = [dev(i, i) for i in range(m)]
    shifted = [dev(i + da, i + db) for i in range(m)]
    best, best_cost = m, sum(aligned)
    cost = best_cost
    for i in range(m - 1, -1, -1):
        cost += shifted[i] - aligned[i]
        if cost < best_cost - 1e-9:
            best, best_cost = i, cost
    return best + 1


def check_corpus_parallel(files: Sequence[TextFile]) -> None:
    """Like :func:`check_parallel`, and say where the files probably go out of step.

    Example:
        >>> ref = TextFile("ref.txt", tuple(f"line {i} " + "x " * (i % 5) for i in range(30)))
        >>> hyp = TextFile("hyp.txt", ref.lines[:9] + ref.lines[10:])
        >>> try:
        ...     check_corpus_parallel([ref, hyp])
        ... except InputError as e:
        ...     print(e.where, *e.what.split("; "), sep="\\n")
        hyp.txt
        has 29 lines but ref.txt has 30 lines
        they probably go out of step around line 10 (hyp.txt:10 reads like ref.txt:11)
        every file needs one line per segment
    """
    if not files:
        return
    first = files[0]
    for other in files[1:]:
        if len(other.lines) == len(first.lines):
            continue
        where = out_of_step(first.lines, other.lines)
        hint = ""
        if where is not None and where <= min(len(first.lines), len(other.lines)):
            if len(other.lines) < len(first.lines):
                hint = (
                    f"; they probably go out of step around line {where} "
                    f"({other.name}:{where} reads like {first.name}:{where + 1})"
                )
            else:
                hint = (
                    f"; they probably go out of step around line {where} "
                    f"({other.name}:{where + 1} reads like {first.name}:{where})"
                )
        raise InputError(
            f"has {_n(len(other.lines))} but {first.name} has {_n(len(first.lines))}{hint}; "
            "every file needs one line per segment",
            other.name,
        )


def empty_line_warnings(files: Sequence[TextFile]) -> tuple[str, ...]:
    """One warning per file with empty lines (they score, but usually mean a missing translation).

    Example:
        >>> empty_line_warnings([TextFile("hyp.txt", ("a", "", "b", " "))])
        ('hyp.txt: 2 empty lines (first at line 2); an empty line scores 0 for that segment',)
    """
    out = []
    for f in files:
        if "" not in f.lines and not any(map(str.isspace, f.lines)):  # both loops in C: most files have none
            continue
        empty = [i + 1 for i, line in enumerate(f.lines) if not line or line.isspace()]  # isspace: no copy
        if empty:
            label = "1 empty line" if len(empty) == 1 else f"{len(empty)} empty lines"
            out.append(f"{f.name}: {label} (first at line {empty[0]}); an empty line scores 0 for that segment")
    return tuple(out)


def bom_warnings(files: Sequence[TextFile]) -> tuple[str, ...]:
    """One warning per file that starts with a byte-order mark: it is kept, as sacrebleu keeps it.

    Example:
        >>> bom_warnings([TextFile("hyp.txt", ("\\ufeffa b",)), TextFile("ref.txt", ("a b",))])  # doctest: +ELLIPSIS
        ('hyp.txt: starts with a byte-order mark (U+FEFF); kept, as sacreBLEU keeps it: ...',)
    """
    return tuple(
        f"{f.name}: starts with a byte-order mark (U+FEFF); kept, as sacreBLEU keeps it: it is part of the first "
        "token of line 1 and can lower the score (save the file without a BOM to avoid it)"
        for f in files
        if f.lines and f.lines[0].startswith("\ufeff")
    )


def twin_warnings(files: Sequence[TextFile], kind: Literal["references", "systems"]) -> tuple[str, ...]:
    """One warning per pair of files that hold the same text apart from spaces: a tokenized copy and the plain
    one (compare-mt's TED folder has both), or a file given twice. Two such references match each n-gram against
    one text twice over; two such systems differ only in how they were tokenized.

    Files are grouped by their first lines with the spaces removed, so only a likely pair is compared in full.

    Example:
        >>> twin_warnings([TextFile("ref.tok", ("it 's here .",)), TextFile("ref", ("it's here.",))], "references")
        ... # doctest: +ELLIPSIS
        ('ref.tok and ref are the same text apart from spaces (one tokenized, one not?): ...',)
    """

    def squeeze(line: str) -> str:
        return "".join(line.split())

    def key(line: str) -> str:
        # the probe reads a line's start only: squeezing a 49 MB line made 12 million strings (issue 36); twins
        # agree on their first 500 characters without spaces, read from the first 1,000 with them
        return squeeze(line[: 2 * _TWIN_KEY_CHARS])[:_TWIN_KEY_CHARS]

    groups: dict[tuple[str, ...], list[TextFile]] = {}
    for f in files:
        groups.setdefault(tuple(key(line) for line in f.lines[:_TWIN_PROBE]), []).append(f)
    what = (
        "as two references they match every n-gram against one text twice over; keep one under References"
        if kind == "references"
        else "their scores differ only by tokenization; compare each with a reference tokenized the same way"
    )
    out = []
    for group in groups.values():
        for i, a in enumerate(group):
            for b in group[i + 1 :]:
                if all(squeeze(x) == squeeze(y) for x, y in zip(a.lines, b.lines, strict=True)):
                    out.append(
                        f"{a.name} and {b.name} are the same text apart from spaces (one tokenized, one not?): {what}"
                    )
    return tuple(out)


def check_unique_names(names: Sequence[str], files: Sequence[str]) -> None:
    """Refuse two systems with the same name (as sacrebleu does), naming both files.

    Example:
        >>> check_unique_names(["hyp", "hyp"], ["d1/hyp.txt", "d2/hyp.txt"])
        Traceback (most recent call last):
        ...
        bleu_core.errors.InputError: d2/hyp.txt: two systems are called 'hyp' (d1/hyp.txt and d2/hyp.txt); rename one
    """
    seen: dict[str, str] = {}
    for name, file in zip(names, files, strict=True):
        if name in seen:
            raise InputError(f"two systems are called {name!r} ({seen[name]} and {file}); rename one", file)
        seen[name] = file


def system_name(path: str) -> str:
    """A system name from a file name: the base name without a short extension.

    Example:
        >>> system_name("wmt22/systems/Online-A.en"), system_name("hyp.base.txt"), system_name("sys2")
        ('Online-A', 'hyp.base', 'sys2')
    """
    base = path.replace("\\", "/").rsplit("/", 1)[-1]
    stem, dot, ext = base.rpartition(".")
    if dot and stem and (ext.lower() in _TEXT_EXTS or len(ext) <= 3):
        return stem
    return base


def build_corpus(
    name: str,
    references: Sequence[TextFile],
    systems: Sequence[TextFile],
    *,
    source: TextFile | None = None,
    human: Sequence[tuple[str, float]] = (),
    human_label: str = "",
    names: Sequence[str] | None = None,
    warnings: Sequence[str] = (),
) -> Corpus:
    """Validate parallel files and make a :class:`Corpus`.

    Args:
        name: a label.
        references: one file per reference (at least one).
        systems: one file per system (at least one).
        source: optional source file.
        human: optional (system, score) pairs.
        human_label: what the human score is.
        names: system names (default: from the file names).
        warnings: warnings from parsing, kept with the corpus.

    Raises:
        InputError: no reference or system, no segments, files of different length (with where they
            go out of step), duplicate system names.

    Example:
        >>> c = build_corpus("t", [TextFile("ref", ("a", ""))], [TextFile("sys/A.txt", ("a", "b"))])
        >>> c.names, c.warnings
        (('A',), ('ref: 1 empty line (first at line 2); an empty line scores 0 for that segment',))
    """
    files = [*references, *systems, *([source] if source is not None else [])]
    _check_files(name, references, systems, files)
    sys_names = [system_name(f.name) for f in systems] if names is None else [n.strip() for n in names]
    check_unique_names(sys_names, [f.name for f in systems])
    if any(not n for n in sys_names):
        raise InputError("a system name is empty", name)
    notes = (
        *warnings,
        *empty_line_warnings([*references, *systems]),
        *bom_warnings(files),
        *twin_warnings(references, "references"),
        *twin_warnings(systems, "systems"),
    )
    return Corpus(
        name,
        tuple(references),
        tuple(System(n, f.lines, f.name) for n, f in zip(sys_names, systems, strict=True)),
        source,
        tuple((str(k), float(v)) for k, v in human),
        human_label,
        notes,
    )


def _check_files(
    name: str, references: Sequence[TextFile], systems: Sequence[TextFile], files: Sequence[TextFile]
) -> None:
    """At least one reference and one system (not too many), every file parallel, and some segments."""
    if not references:
        raise InputError("no reference file; give at least one (one segment per line)", name)
    if not systems:
        raise InputError("no system output; give at least one file (one segment per line)", name)
    if len(systems) > MAX_FOLDER_FILES:  # a table's columns are capped as a folder's files (issue 24.1)
        raise InputError(f"has {len(systems):,} systems; a corpus holds at most {MAX_FOLDER_FILES:,}", name)
    check_corpus_parallel(files)
    if not references[0].lines:
        raise InputError(f"no segments: {references[0].name} is empty", name)
