"""Degenerate outputs: the lines of a system that are empty, loop, are far too long or short, copy the source, or
are left in the source's script. These are the bugs that move BLEU in today's MT and LLM output.

Every flag is a list of ``(line, reason)``: the 1-based line number and one line saying why. The thresholds are
the constants below, each stated with its rule:

* **empty**: the output has no text while a reference has some.
* **repetition**: an n-gram (n = 2 to 4, tokens as the scoring's tokenizer makes them) occurs at least
  ``REPEAT_MIN_COUNT`` times and at least ``REPEAT_FACTOR`` times as often as in the reference that has it most
  (a reference that has it twice allows 5). Single words are left out: "the" six times is a long sentence, not a
  loop; a one-word loop repeats its bigram.
* **length**: the output's length against the closest reference's (BLEU's effective reference length), as
  ``log((hyp + 1) / (ref + 1))``, is further from the system's median than ``LENGTH_Z`` robust standard
  deviations (1.4826 x the median absolute deviation, at least ``LENGTH_MIN_SIGMA``), at least a factor
  ``LENGTH_MIN_FACTOR`` away from the median ratio, and ``LENGTH_MIN_TOKENS`` tokens away from the reference.
  Empty outputs are the empty flag's.
* **copy**: the output, case-folded with whitespace collapsed, is at least ``COPY_SIMILARITY`` similar to the
  source line (difflib's ratio, over characters), while no reference is that similar to it (a line that is only
  a name or a number is copied by the references too).
* **untranslated**: the source and the references are written in different scripts (their most frequent,
  with Japanese kana counted as Han), and at least ``UNTRANSLATED_SHARE`` of the output's letters (at least
  ``UNTRANSLATED_MIN_LETTERS`` of them) are in the source's script, while less than that share of the
  references' letters on that line are. Between two languages of one script (en-de) this flag cannot fire: a
  copy of the source is then the copy flag's.

Without a source, copy and untranslated are empty lists.

Every check costs time in proportion to the characters it reads, never more: a line longer than
``LINE_CHECK_CHARS`` is checked on its first ``LINE_CHECK_CHARS`` characters (as are the reference and source
lines it is held against), and the copy check compares the first ``COPY_CHECK_CHARS`` characters (difflib's ratio
is quadratic in the worst case). A reason found on a cut line says so. A 49 MB single-line corpus took a minute
and 3 GB before these bounds (issue 36); the degenerate line itself is the length flag's, or plain to see.
"""

from __future__ import annotations

import math
import statistics
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from difflib import SequenceMatcher
from typing import Any, Final

from bleu_core.engine.tokenizers import get_tokenizer

from .languages import SCRIPT_NAMES, script_pattern, script_shares

__all__ = [
    "COPY_CHECK_CHARS",
    "COPY_SIMILARITY",
    "FLAGS",
    "LENGTH_MIN_FACTOR",
    "LENGTH_MIN_SIGMA",
    "LENGTH_MIN_TOKENS",
    "LENGTH_Z",
    "LINE_CHECK_CHARS",
    "REPEAT_FACTOR",
    "REPEAT_MIN_COUNT",
    "REPEAT_ORDERS",
    "UNTRANSLATED_MIN_LETTERS",
    "UNTRANSLATED_SHARE",
    "Diagnostics",
    "SystemDiagnostics",
    "diagnose",
    "diagnose_system",
    "quote_text",
]

FLAGS: Final = ("empty", "repetition", "length", "copy", "untranslated")
"""The kinds of flag, in the order they are shown (and named in a slice's ``flag KIND[NAME]``)."""

REPEAT_ORDERS: Final = (2, 3, 4)
REPEAT_MIN_COUNT: Final = 5
REPEAT_FACTOR: Final = 3
LENGTH_Z: Final = 4.0
LENGTH_MIN_SIGMA: Final = 0.05
LENGTH_MIN_FACTOR: Final = 2.0
LENGTH_MIN_TOKENS: Final = 6
COPY_SIMILARITY: Final = 0.95
UNTRANSLATED_SHARE: Final = 0.5
UNTRANSLATED_MIN_LETTERS: Final = 2
LINE_CHECK_CHARS: Final = 100_000
COPY_CHECK_CHARS: Final = 1_000

Flags = tuple[tuple[int, str], ...]


def _default_tokenize(line: str) -> list[str]:
    return get_tokenizer("13a")(line.rstrip()).split()


@dataclass(frozen=True)
class SystemDiagnostics:
    """One system's flags.

    Attributes:
        name: the system.
        n_lines: the lines of the test set.
        flags: for each kind of ``FLAGS`` (in that order), its ``(line, reason)`` pairs, 1-based and in order.
    """

    name: str
    n_lines: int
    flags: Mapping[str, Flags]

    def lines(self, kind: str) -> tuple[int, ...]:
        """The 1-based lines flagged ``kind``."""
        return tuple(line for line, _ in self.flags[kind])

    def counts(self) -> dict[str, int]:
        """How many lines each flag has."""
        return {kind: len(self.flags[kind]) for kind in FLAGS}

    def flagged(self) -> tuple[int, ...]:
        """The 1-based lines with any flag."""
        return tuple(sorted({line for kind in FLAGS for line, _ in self.flags[kind]}))

    @property
    def rate(self) -> float:
        """The share of lines with any flag."""
        return len(self.flagged()) / self.n_lines if self.n_lines else 0.0

    def to_dict(self) -> dict[str, list[dict[str, Any]]]:
        """``{kind: [{"line": n, "reason": text}, ...]}`` for every kind (the CLI's ``--json``)."""
        return {kind: [{"line": line, "reason": reason} for line, reason in self.flags[kind]] for kind in FLAGS}


@dataclass(frozen=True)
class Diagnostics:
    """The flags of every system of a test set.

    Attributes:
        systems: each system's flags, by name, in the order given.
        source_script: the source's most frequent script (None without a source).
        reference_script: the references' most frequent script.
    """

    systems: Mapping[str, SystemDiagnostics]
    source_script: str | None
    reference_script: str | None

    def lines(self, system: str, kind: str) -> tuple[int, ...]:
        """The 1-based lines of ``system`` flagged ``kind`` (what ``--where 'flag KIND[NAME]'`` selects)."""
        return self.systems[system].lines(kind)


def _family(script: str | None) -> str | None:
    return "han" if script == "kana" else script


def _normal(line: str) -> str:
    return " ".join(line.casefold().split())


def _similarity(a: str, b: str, matcher: SequenceMatcher[str] | None = None) -> float:
    """difflib's ratio of ``a`` and ``b`` when it can reach ``COPY_SIMILARITY``, else 0 (``matcher`` may already
    hold ``b`` as its second text, so that its index is built once for many systems)."""
    la, lb = len(a), len(b)
    if not la or not lb or 2 * min(la, lb) / (la + lb) < COPY_SIMILARITY:
        return 0.0
    if a == b:
        return 1.0
    m = matcher or SequenceMatcher(None, "", b, autojunk=False)
    m.set_seq1(a)
    if m.quick_ratio() < COPY_SIMILARITY:
        return 0.0
    return m.ratio()


class _Profile:
    """What every system is held against: the references' tokens and scripts, and the source."""

    def __init__(
        self,
        references: Sequence[Sequence[str]],
        source: Sequence[str] | None,
        tokenize: Callable[[str], Sequence[str]],
    ) -> None:
        self.references = references
        self.source = source
        self.tokenize = tokenize
        self.n = len(references[0]) if references else 0
        self.ref_tokens = [[list(tokenize(r[i])) for r in references] for i in range(self.n)]
        self._ref_counts: dict[int, list[Counter[tuple[str, ...]]]] = {}
        self.ref_script = _family(script_shares(line for r in references for line in r).dominant)
        self.src_script = _family(script_shares(source).dominant) if source is not None else None
        self.scripts_differ = self.src_script is not None and self.ref_script not in (None, self.src_script)
        self._ref_copies: dict[int, bool] = {}
        self._sources: dict[int, str] = {}
        self._matchers: dict[int, SequenceMatcher[str]] = {}

    def similarity(self, i: int, text: str) -> float:
        """``_similarity`` of ``text`` (normalised) and source line ``i`` (the source line's matcher is built
        only for a text whose length lets it reach ``COPY_SIMILARITY``: most never do)."""
        if i not in self._sources:
            assert self.source is not None
            self._sources[i] = _normal(self.source[i])[:COPY_CHECK_CHARS]
        src, norm = self._sources[i], _normal(text)[:COPY_CHECK_CHARS]
        la, lb = len(norm), len(src)
        if not la or not lb or 2 * min(la, lb) / (la + lb) < COPY_SIMILARITY:
            return 0.0
        if i not in self._matchers:
            self._matchers[i] = SequenceMatcher(None, "", src, autojunk=False)
        return _similarity(norm, src, self._matchers[i])

    def ref_counts(self, i: int) -> list[Counter[tuple[str, ...]]]:
        if i not in self._ref_counts:
            self._ref_counts[i] = [
                Counter(tuple(toks[k : k + n]) for n in REPEAT_ORDERS for k in range(len(toks) - n + 1))
                for toks in self.ref_tokens[i]
            ]
        return self._ref_counts[i]

    def reference_copies_source(self, i: int) -> bool:
        if i not in self._ref_copies:
            assert self.source is not None
            self._ref_copies[i] = any(self.similarity(i, r[i]) >= COPY_SIMILARITY for r in self.references)
        return self._ref_copies[i]

    def closest_ref_len(self, i: int, hyp_len: int) -> int:
        lens = [len(t) for t in self.ref_tokens[i]]
        return min(lens, key=lambda r: (abs(r - hyp_len), r))


def _repetition(i: int, toks: Sequence[str], profile: _Profile) -> str | None:
    # An n-gram that occurs REPEAT_MIN_COUNT times starts with a token that does: only those are counted (the
    # same flags, without building every line's n-grams).
    if len(toks) < REPEAT_MIN_COUNT + min(REPEAT_ORDERS) - 1:
        return None
    frequent = {t for t, c in Counter(toks).items() if c >= REPEAT_MIN_COUNT}
    if not frequent:
        return None
    best: tuple[int, int, tuple[str, ...], int] | None = None
    for n in REPEAT_ORDERS:
        counts = Counter(tuple(toks[k : k + n]) for k in range(len(toks) - n + 1) if toks[k] in frequent)
        for gram, c in counts.items():
            if c < REPEAT_MIN_COUNT:
                continue
            m = max((rc[gram] for rc in profile.ref_counts(i)), default=0)
            if c >= REPEAT_FACTOR * max(m, 1) and (best is None or (c - m, n) > (best[0], best[1])):
                best = (c - m, n, gram, m)
    if best is None:
        return None
    _, n, gram, m = best
    c = best[0] + m
    refs = "no reference has it" if m == 0 else f"a reference has it at most {m} time{'s' if m != 1 else ''}"
    return f"the {n}-gram {quote_text(' '.join(gram))} occurs {c} times; {refs}"


_QUOTES: Final = (('"', '"'), ("«", "»"), ("⟨", "⟩"), ("'", "'"))


def quote_text(text: str) -> str:
    r"""``text`` between the first pair of quotes it does not contain, so that where it starts and ends cannot be
    misread (a repeated ``"`` token inside ``"..."`` read as ``"" Abhängig " Abhängig"``); JSON's escaped string
    when it contains every pair.

    Example:
        >>> print(quote_text("yes yes"), quote_text('" Abhängig " Abhängig'), quote_text("\"«⟨'"))
        "yes yes" «" Abhängig " Abhängig» "\"«⟨'"
    """
    for left, right in _QUOTES:
        if left not in text and right not in text:
            return f"{left}{text}{right}"
    import json

    return json.dumps(text, ensure_ascii=False)


def _lengths(hyp_tokens: Sequence[Sequence[str]], nonempty: Sequence[bool], profile: _Profile) -> list[tuple[int, str]]:
    points = []
    for i, toks in enumerate(hyp_tokens):
        if not nonempty[i]:
            continue
        ref = profile.closest_ref_len(i, len(toks))
        points.append((i, len(toks), ref, math.log((len(toks) + 1) / (ref + 1))))
    if len(points) < 3:
        return []
    xs = [p[3] for p in points]
    med = statistics.median(xs)
    sigma = max(1.4826 * statistics.median(abs(x - med) for x in xs), LENGTH_MIN_SIGMA)
    limit = max(LENGTH_Z * sigma, math.log(LENGTH_MIN_FACTOR))
    out = []
    for i, h, r, x in points:
        if abs(x - med) > limit and abs(h - r) >= LENGTH_MIN_TOKENS:
            side = "long" if x > med else "short"
            out.append(
                (
                    i + 1,
                    f"too {side}: {h} tokens against the reference's {r} (ratio {(h + 1) / (r + 1):.2f}; "
                    f"this system's median {math.exp(med):.2f}, limit x{math.exp(limit):.2f})",
                )
            )
    return out


def _untranslated(i: int, hyp: str, profile: _Profile) -> str | None:
    src = profile.src_script
    if not profile.scripts_differ or src is None:
        return None
    scripts = (src, "kana") if src == "han" else (src,)
    if not script_pattern(*scripts).search(hyp):
        return None  # not one character of the source's script: most lines of a real system
    shares = script_shares([hyp])
    if shares.letters < UNTRANSLATED_MIN_LETTERS or shares.share(*scripts) < UNTRANSLATED_SHARE:
        return None
    if script_shares(r[i] for r in profile.references).share(*scripts) >= UNTRANSLATED_SHARE:
        return None
    ref = SCRIPT_NAMES.get(profile.ref_script or "", "")
    return (
        f"{shares.share(*scripts):.0%} of its letters are {SCRIPT_NAMES[src]}, the source's script; "
        f"the references are {ref}"
    )


def _system(name: str, hyp: Sequence[str], profile: _Profile) -> SystemDiagnostics:
    if len(hyp) != profile.n:
        raise ValueError(f"{name}: {len(hyp)} lines, the references have {profile.n}")
    found: dict[str, list[tuple[int, str]]] = {kind: [] for kind in FLAGS}
    hyp_tokens = [list(profile.tokenize(line)) for line in hyp]
    nonempty = [bool(line.strip()) for line in hyp]
    for i, line in enumerate(hyp):
        if not nonempty[i]:
            ref_lens = [len(t) for t in profile.ref_tokens[i]]
            if max(ref_lens, default=0) > 0:
                found["empty"].append((i + 1, f"no output; the reference has {max(ref_lens)} tokens"))
            continue
        reason = _repetition(i, hyp_tokens[i], profile)
        if reason:
            found["repetition"].append((i + 1, reason))
        if profile.source is not None:
            sim = profile.similarity(i, line)
            if sim >= COPY_SIMILARITY and not profile.reference_copies_source(i):
                found["copy"].append((i + 1, f"{sim:.0%} the same as the source line (no reference is)"))
        reason = _untranslated(i, line, profile)
        if reason:
            found["untranslated"].append((i + 1, reason))
    found["length"] = _lengths(hyp_tokens, nonempty, profile)
    return SystemDiagnostics(name, profile.n, {kind: tuple(found[kind]) for kind in FLAGS})


def diagnose(
    systems: Mapping[str, Sequence[str]],
    references: Sequence[Sequence[str]],
    source: Sequence[str] | None = None,
    tokenize: Callable[[str], Sequence[str]] = _default_tokenize,
) -> Diagnostics:
    """Flag every system's degenerate lines (see the module's rules).

    Args:
        systems: each system's output lines, by name.
        references: reference streams, ``references[k][i]``.
        source: the source lines, or None (then no copy or untranslated flags).
        tokenize: a line -> its tokens (for repetition and lengths; default sacreBLEU's 13a).

    Example:
        >>> refs = [["a cat sat on the mat", "hello there", "the dog"]]
        >>> d = diagnose({"A": ["a cat sat", "", "yes yes yes yes yes yes"]}, refs)
        >>> d.systems["A"].counts()
        {'empty': 1, 'repetition': 1, 'length': 0, 'copy': 0, 'untranslated': 0}
        >>> d.systems["A"].flags["repetition"]
        ((3, 'the 2-gram "yes yes" occurs 5 times; no reference has it'),)
    """
    references = [_cut_all(r) for r in references]
    source = _cut_all(source) if source is not None else None
    profile = _Profile(references, source, tokenize)
    return Diagnostics(
        {name: _cut_note(_system(name, _cut_all(hyp), profile), hyp) for name, hyp in systems.items()},
        profile.src_script,
        profile.ref_script,
    )


def _cut_all(lines: Sequence[str]) -> Sequence[str]:
    """``lines`` with every line longer than ``LINE_CHECK_CHARS`` cut to it (the same object when none is)."""
    if all(len(line) <= LINE_CHECK_CHARS for line in lines):
        return lines
    return [line[:LINE_CHECK_CHARS] for line in lines]


def _cut_note(found: SystemDiagnostics, hyp: Sequence[str]) -> SystemDiagnostics:
    """The reasons of the lines that were cut, saying so."""
    note = f" (checked on its first {LINE_CHECK_CHARS:,} characters)"
    cut = {i + 1 for i, line in enumerate(hyp) if len(line) > LINE_CHECK_CHARS}
    if not cut:
        return found
    flags = {k: tuple((n, r + note if n in cut else r) for n, r in v) for k, v in found.flags.items()}
    return SystemDiagnostics(found.name, found.n_lines, flags)


def diagnose_system(
    hyp: Sequence[str],
    references: Sequence[Sequence[str]],
    source: Sequence[str] | None = None,
    tokenize: Callable[[str], Sequence[str]] = _default_tokenize,
    name: str = "system",
) -> SystemDiagnostics:
    """One system's flags (``diagnose`` for one)."""
    return diagnose({name: hyp}, references, source, tokenize).systems[name]
