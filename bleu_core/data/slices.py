r"""Slices: the lines of a test set chosen by an expression, so that every statistic can be recomputed on them.

The language (``--where`` in the CLI, the slice box on the corpus and compare pages)::

    src_len > 30                     length in tokens of the source (src_len), the first reference (ref_len),
    ref_len <= 10 and src_len >= 5   or a system's output (hyp_len[NAME]); < <= > >= == !=
    line 1..500                      a range of 1-based line numbers, both ends included (also: line >= 100)
    src ~ "dollar|\$"                a regular expression searched in the source,
    ref ~ "^The"                     in any reference,
    hyp[Online-A] ~ "(?i)covid"      in a named system's output (names with spaces or ] in quotes: hyp["a b"])
    flag repetition[Online-A]        a diagnostic flag of a system (empty, repetition, length, copy, untranslated)
    doc ~ "^newstest2021\.0"         the segment's document (a WMT file's ``<doc id>``), its original language
    origlang == "de"                 (``origlang``) and domain (``domain``): == and != compare the whole text,
    domain != "news"                 ~ searches a regular expression
    not (a or b) and c               combined with not, and, or (in that order of binding) and parentheses

A bad expression raises :class:`~bleu_core.errors.InputError` naming the column and what was expected.
Regular expressions are Python's (``re``), at most 200 characters, and a quantified group that is itself
quantified (``(a+)+``, the classic catastrophic backtracking) is refused: a slice runs on a shared server.

:func:`slice_corpus` is the one slicing of a :class:`~bleu_core.data.corpus.Corpus` that both front ends call (the
CLI's ``--where``, the pages' slice box).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Final, Literal

from bleu_core.engine.tokenizers import get_tokenizer
from bleu_core.errors import InputError

from .corpus import Corpus, System, TextFile, system_name
from .diagnostics import FLAGS, Diagnostics, SystemDiagnostics, diagnose_system
from .document_index import Documents
from .patterns import pattern_problem

__all__ = [
    "FLAGS",
    "SMALL_SLICE",
    "Slice",
    "SliceContext",
    "SlicedCorpus",
    "line_tokens",
    "parse_where",
    "select",
    "slice_corpus",
]

_TOKEN: Final = re.compile(
    r"""\s*(?:
    (?P<num>\d+(?:\.\d+)?)
  | (?P<range>\.\.)
  | (?P<op><=|>=|==|!=|<|>|~)
  | (?P<str>"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*')
  | (?P<punct>[()\[\]])
  | (?P<word>[A-Za-z_][A-Za-z0-9_.\-]*)
    )""",
    re.VERBOSE,
)
_LENGTHS: Final = ("src_len", "ref_len", "hyp_len")
_CONDITION: Final = (
    "a condition (src_len, ref_len, hyp_len[NAME], line, src ~, ref ~, hyp[NAME] ~, flag, doc, origlang, domain)"
)
_TEXTS: Final = ("src", "ref", "hyp")
_DOC_FIELDS: Final = ("doc", "origlang", "domain")
_CMP: Final[dict[str, Callable[[float, float], bool]]] = {
    "<": lambda a, b: a < b,
    "<=": lambda a, b: a <= b,
    ">": lambda a, b: a > b,
    ">=": lambda a, b: a >= b,
    "==": lambda a, b: a == b,
    "!=": lambda a, b: a != b,
}


@dataclass(frozen=True)
class SliceContext:
    """What an expression can look at. Lists are by line (0-based).

    Attributes:
        references: reference streams, ``references[k][i]``.
        systems: each system's output lines by name.
        source: the source lines, or None.
        tokenize: splits a line into tokens for the lengths (the scoring's tokenizer).
        flags: ``flags(system, flag)`` -> the 1-based lines flagged, or None when diagnostics are not available.
        documents: each line's document (id, origlang, domain) when the test set has documents (a WMT file).
    """

    references: Sequence[Sequence[str]]
    systems: Mapping[str, Sequence[str]]
    source: Sequence[str] | None = None
    tokenize: Callable[[str], Sequence[str]] = str.split
    flags: Callable[[str, str], Sequence[int]] | None = None
    documents: Documents | None = None
    _cache: dict[tuple[str, str], list[int]] = field(default_factory=dict, repr=False, compare=False)

    @property
    def n_lines(self) -> int:
        return len(self.references[0]) if self.references else 0

    def lengths(self, what: str, name: str = "") -> list[int]:
        key = (what, name)
        if key not in self._cache:
            self._cache[key] = [len(self.tokenize(line)) for line in self.texts(what, name)]
        return self._cache[key]

    def texts(self, what: str, name: str = "") -> Sequence[str]:
        if what.startswith("src"):
            if self.source is None:
                raise InputError("the expression uses the source (src), but this test set has none", "--where")
            return self.source
        if what.startswith("ref"):
            return self.references[0]
        if name not in self.systems:
            known = ", ".join(sorted(self.systems)[:8])
            raise InputError(f"no system named {name!r} (systems: {known})", "--where")
        return self.systems[name]


Node = Callable[[SliceContext], set[int]]


class _Parser:
    def __init__(self, text: str) -> None:
        self.text = text
        self.toks: list[tuple[str, str, int]] = []
        pos = 0
        while pos < len(text):
            m = _TOKEN.match(text, pos)
            if m is None or m.end() == pos:
                if text[pos:].strip() == "":
                    break
                col = pos + len(text[pos:]) - len(text[pos:].lstrip()) + 1
                raise self.error(col, f"unexpected {text[col - 1]!r}")
            kind = m.lastgroup or ""
            self.toks.append((kind, m.group(kind), m.start(kind) + 1))
            pos = m.end()
        self.i = 0

    def error(self, col: int, what: str) -> InputError:
        return InputError(f"{what} at column {col} of {self.text!r}", "--where")

    def peek(self) -> tuple[str, str, int]:
        return self.toks[self.i] if self.i < len(self.toks) else ("end", "", len(self.text) + 1)

    def take(self, kind: str, value: str | None = None, expected: str = "") -> str:
        k, v, col = self.peek()
        if k != kind or (value is not None and v != value):
            found = "the end" if k == "end" else repr(v)
            raise self.error(col, f"expected {expected or value or kind}, found {found}")
        self.i += 1
        return v

    def parse(self) -> Node:
        if not self.toks:
            raise self.error(1, "empty expression")
        node = self.or_()
        k, v, col = self.peek()
        if k != "end":
            raise self.error(col, f"expected and, or or the end, found {v!r}")
        return node

    def or_(self) -> Node:
        node = self.and_()
        while self.peek()[:2] == ("word", "or"):
            self.i += 1
            node = _either(node, self.and_())
        return node

    def and_(self) -> Node:
        node = self.not_()
        while self.peek()[:2] == ("word", "and"):
            self.i += 1
            node = _both(node, self.not_())
        return node

    def not_(self) -> Node:
        if self.peek()[:2] == ("word", "not"):
            self.i += 1
            inner = self.not_()
            return lambda c: set(range(c.n_lines)) - inner(c)
        return self.atom()

    def name(self) -> str:
        self.take("punct", "[")
        k, v, col = self.peek()
        if k == "str":
            self.i += 1
            v = _unquote(v)
        elif k in ("word", "num"):
            self.i += 1
        else:
            raise self.error(col, "expected a system name")
        self.take("punct", "]")
        return v

    def atom(self) -> Node:
        k, v, col = self.peek()
        if (k, v) == ("punct", "("):
            self.i += 1
            node = self.or_()
            self.take("punct", ")", "')'")
            return node
        if k != "word":
            found = "the end" if k == "end" else repr(v)
            raise self.error(col, f"expected {_CONDITION}, found {found}")
        self.i += 1
        if v == "line":
            return self.line()
        if v == "flag":
            return self.flag()
        if v in _LENGTHS:
            return self.length(v)
        if v in _TEXTS:
            return self.match(v)
        if v in _DOC_FIELDS:
            return self.document(v)
        raise self.error(col, f"unknown word {v!r}: expected {_CONDITION}")

    def number(self) -> float:
        return float(self.take("num", expected="a number"))

    def line(self) -> Node:
        k, _, col = self.peek()
        if k == "num":
            lo = int(self.number())
            self.take("range", expected="'..' (as in line 10..20)")
            hi = int(self.number())
            return lambda c: set(range(max(lo, 1) - 1, min(hi, c.n_lines)))
        op = self.take("op", expected="a range (line 10..20) or a comparison (line >= 10)")
        if op not in _CMP:
            raise self.error(col, f"{op!r} compares no numbers")
        x = self.number()
        return lambda c: {i for i in range(c.n_lines) if _CMP[op](i + 1, x)}

    def length(self, what: str) -> Node:
        name = self.name() if what == "hyp_len" else ""
        col = self.peek()[2]
        op = self.take("op", expected="a comparison (< <= > >= == !=)")
        if op not in _CMP:
            raise self.error(col, f"{op!r} compares no numbers (use < <= > >= == !=)")
        x = self.number()
        return lambda c: {i for i, n in enumerate(c.lengths(what, name)) if _CMP[op](n, x)}

    def match(self, what: str) -> Node:
        name = self.name() if what == "hyp" else ""
        self.take("op", "~", "'~' and a quoted regular expression")
        col = self.peek()[2]
        pattern = _compile(_unquote(self.take("str", expected="a quoted regular expression")), self, col)
        if what == "ref":
            return lambda c: {i for i in range(c.n_lines) if any(pattern.search(r[i]) for r in c.references)}
        return lambda c: {i for i, t in enumerate(c.texts(what, name)) if pattern.search(t)}

    def document(self, what: str) -> Node:
        col = self.peek()[2]
        op = self.take("op", expected="==, != or ~ and a quoted text")
        if op not in ("==", "!=", "~"):
            raise self.error(col, f"{op!r} does not compare texts (use ==, != or ~)")
        col = self.peek()[2]
        value = _unquote(self.take("str", expected='a quoted text (as origlang == "de")'))
        if op == "~":
            _compile(value, self, col)  # a bad expression is reported before any data is read
        field_: Literal["doc", "origlang", "domain"] = what  # type: ignore[assignment]
        cmp: Literal["==", "!=", "~"] = op  # type: ignore[assignment]

        def run(c: SliceContext) -> set[int]:
            if c.documents is None:
                raise InputError(
                    f"the expression uses documents ({what}), but this test set has none (a WMT XML or JSONL file "
                    "has them)",
                    "--where",
                )
            return set(c.documents.where(field_, cmp, value))

        return run

    def flag(self) -> Node:
        col = self.peek()[2]
        kind = self.take("word", expected=f"a flag ({', '.join(FLAGS)})")
        if kind not in FLAGS:
            raise self.error(col, f"unknown flag {kind!r} (flags: {', '.join(FLAGS)})")
        name = self.name()

        def run(c: SliceContext) -> set[int]:
            if c.flags is None:
                raise InputError("flags need the diagnostics, which are not available here", "--where")
            c.texts("hyp", name)  # an unknown system is named as such
            return {n - 1 for n in c.flags(name, kind)}

        return run


def _either(a: Node, b: Node) -> Node:
    return lambda c: a(c) | b(c)


def _both(a: Node, b: Node) -> Node:
    return lambda c: a(c) & b(c)


def _unquote(s: str) -> str:
    body = s[1:-1]
    return re.sub(r"\\(.)", lambda m: m.group(1) if m.group(1) in "\"'" else m.group(0), body)


def _compile(pattern: str, parser: _Parser, col: int) -> re.Pattern[str]:
    problem = pattern_problem(pattern)
    if problem is not None:
        raise parser.error(col, problem)
    try:
        return re.compile(pattern)
    except re.error as e:
        raise parser.error(col, f"bad regular expression ({e})") from None


@dataclass(frozen=True)
class Slice:
    """The lines an expression chose.

    Attributes:
        where: the expression as given.
        lines: the chosen lines, 0-based and in order.
        total: the lines of the whole test set.
    """

    where: str
    lines: tuple[int, ...]
    total: int

    def label(self) -> str:
        """``where: <expr> (n of N lines)``, for signatures and captions."""
        return f"where: {self.where} ({len(self.lines)} of {self.total} lines)"


def parse_where(where: str) -> Callable[[SliceContext], set[int]]:
    """Check an expression and return its evaluator (errors are raised here, before any data is read).

    Example:
        >>> parse_where("line 3..")
        Traceback (most recent call last):
        ...
        bleu_core.errors.InputError: --where: expected a number, found the end at column 9 of 'line 3..'
    """
    return _Parser(where).parse()


def select(where: str, context: SliceContext) -> Slice:
    """The lines of ``context`` that ``where`` chooses.

    Example:
        >>> ctx = SliceContext(references=[["a b c", "a", "x y"]], systems={"A": ["a b", "a", "q"]})
        >>> select('ref_len >= 2 and not hyp[A] ~ "q"', ctx).lines
        (0,)
        >>> select("line 2..3 or ref ~ '^a b'", ctx).label()
        "where: line 2..3 or ref ~ '^a b' (3 of 3 lines)"
    """
    node = parse_where(where)
    return Slice(where, tuple(sorted(node(context))), context.n_lines)


SMALL_SLICE: Final = 100
"""A slice (or test set) of fewer lines is said to be too small for its intervals and paired tests (the CLI warns,
the pages say so)."""


def line_tokens(tokenize: str) -> Callable[[str], list[str]]:
    """A line -> its tokens under a named tokenizer, as the scoring tokenizes it (right-stripped first): the lengths
    of a slice and the n-grams of the diagnostics.

    Example:
        >>> line_tokens("13a")("Hello, world!  ")
        ['Hello', ',', 'world', '!']
    """
    tok = get_tokenizer(tokenize)
    return lambda line: tok(line.rstrip()).split()


@dataclass(frozen=True, slots=True)
class SlicedCorpus:
    """A corpus and the lines an expression chose of it.

    Attributes:
        whole: the corpus the expression ran on.
        chosen: the slice: the expression and the lines (0-based) it chose of how many.
    """

    whole: Corpus
    chosen: Slice

    @property
    def corpus(self) -> Corpus:
        """The corpus with only the chosen lines (names, human scores and warnings kept; named after the slice),
        cut when asked for."""

        def keep(lines: Sequence[str]) -> tuple[str, ...]:
            return tuple(lines[i] for i in self.chosen.lines)

        whole = self.whole
        return Corpus(
            f"{whole.name} · {self.chosen.label()}",
            tuple(TextFile(r.name, keep(r.lines)) for r in whole.references),
            tuple(System(s.name, keep(s.lines), s.file) for s in whole.systems),
            TextFile(whole.source.name, keep(whole.source.lines)) if whole.source is not None else None,
            whole.human,
            whole.human_label,
            whole.warnings,
            tuple(s.cut(self.chosen.lines) for s in whole.scores),
            None if whole.documents is None else whole.documents.take(self.chosen.lines),
        )

    @property
    def small(self) -> bool:
        """Fewer lines than :data:`SMALL_SLICE`: too few for reliable intervals and paired tests."""
        return len(self.chosen.lines) < SMALL_SLICE


def slice_corpus(
    corpus: Corpus,
    where: str,
    tokenize: str,
    *,
    diagnostics: Callable[[], Diagnostics] | None = None,
    documents: Documents | None = None,
) -> SlicedCorpus:
    """The lines of ``corpus`` that ``where`` chooses, and the corpus cut to them: the one slicing both the CLI's
    ``--where`` and the pages' slice box call.

    ``hyp[NAME]`` names a system by its name or, where that is unique, by its name without the extension
    (``Online-A`` for ``Online-A.de``). Lengths are counted in ``tokenize``'s tokens. A ``flag`` reads
    ``diagnostics()`` when given (a caller that has them already), else each named system's flags are computed
    on first use. ``doc``, ``origlang`` and ``domain`` read ``documents`` (default: the corpus's own; the cut
    corpus carries them cut). An expression that chooses no line gives an empty slice: the caller
    says so.

    Raises:
        InputError: a bad expression (before anything is computed), an unknown system.

    Example:
        >>> c = Corpus("toy", (TextFile("ref", ("a b c", "a", "x y")),), (System("A.en", ("a b", "a", "q")),))
        >>> s = slice_corpus(c, "ref_len >= 2 and not hyp[A] ~ 'q'", "13a")
        >>> s.chosen.lines, s.corpus.systems[0].lines, s.corpus.name, s.small
        ((0,), ('a b',), "toy · where: ref_len >= 2 and not hyp[A] ~ 'q' (1 of 3 lines)", True)
    """
    parse_where(where)  # a bad expression is reported before any work
    tokens = line_tokens(tokenize)
    named = _names(corpus)
    source = corpus.source.lines if corpus.source is not None else None
    references = [r.lines for r in corpus.references]
    own: dict[str, SystemDiagnostics] = {}

    def flags(name: str, kind: str) -> Sequence[int]:
        real = named[name]
        if diagnostics is not None:
            return diagnostics().systems[real].lines(kind)
        if real not in own:
            own[real] = diagnose_system(corpus.system(real).lines, references, source, tokens, real)
        return own[real].lines(kind)

    context = SliceContext(
        references,
        {alias: corpus.system(real).lines for alias, real in named.items()},
        source,
        tokenize=tokens,
        flags=flags,
        documents=documents if documents is not None else corpus.documents,
    )
    chosen = select(where, context)
    return SlicedCorpus(corpus, chosen)


def _names(corpus: Corpus) -> dict[str, str]:
    """Each system by its name and, where unique and not another system's name, by its name without the
    extension (``Online-A`` for ``Online-A.de``)."""
    names = {n: n for n in corpus.names}
    stems: dict[str, list[str]] = {}
    for n in corpus.names:
        stems.setdefault(system_name(n), []).append(n)
    for stem, owners in stems.items():
        if len(owners) == 1 and stem not in names:
            names[stem] = owners[0]
    return names
