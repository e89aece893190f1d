"""Display names: short ones for systems whose names share a prefix or a suffix (WMT's ``newstest2017.X.0.en-de``),
a user's renaming, and natural order (``ckpt-2`` before ``ckpt-10``).

What every name shares says nothing about which system is which, and at WMT scale it is all a narrow chart axis
or a table's column shows (``newstest2017.onl…`` four times). The app's tables, charts and matrices and the CLI's
LaTeX table show the part that differs; the full name stays on hover and in the CLI's JSON.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Final

__all__ = ["checkpoint_order", "labels", "natural_key", "parse_renames", "short_names"]

_PIECE: Final = re.compile(r"[^._\-\s/]+[._\-\s/]*|[._\-\s/]+")  # a word with the separators that follow it


def _pieces(name: str) -> list[str]:
    return _PIECE.findall(name)


def _common_prefix(seqs: Sequence[Sequence[str]]) -> int:
    k = 0
    while all(len(s) > k for s in seqs) and len({s[k] for s in seqs}) == 1:
        k += 1
    return k


def short_names(names: Sequence[str]) -> list[str]:
    """Each name without the whole words (with their separators) that every name begins or ends with.

    At least one word of each name is kept, separators left dangling at either end are dropped, and if
    shortening would make two names equal (or one empty) the names are returned as they are.

    Example:
        >>> short_names(["nt17.online-A.0.en-de", "nt17.online-B.0.en-de", "nt17.uedin.0.en-de"])
        ['online-A', 'online-B', 'uedin']
        >>> short_names(["Online-A.de", "Online-B.de", "Facebook-AI.de"])
        ['Online-A', 'Online-B', 'Facebook-AI']
        >>> short_names(["sys", "sys.v2"])
        ['sys', 'sys.v2']
    """
    if len(names) < 2:
        return list(names)
    pieces = [_pieces(n) for n in names]
    pre = _common_prefix(pieces)
    rest = [p[pre:] for p in pieces]
    suf = _common_prefix([r[::-1] for r in rest])
    shortest = min(len(r) for r in rest)
    if pre + min(suf, shortest) >= min(len(p) for p in pieces):  # keep at least one word of every name
        pre, suf = min(pre, min(len(p) for p in pieces) - 1), 0
        rest = [p[pre:] for p in pieces]
        suf = min(_common_prefix([r[::-1] for r in rest]), min(len(r) for r in rest) - 1)
    out = ["".join(r[: len(r) - suf] if suf else r).strip("._- /") for r in rest]
    if any(not o for o in out) or len(set(out)) < len(out):
        return list(names)
    return out


def labels(names: Sequence[str]) -> dict[str, str]:
    """Each name's display label (:func:`short_names`), for the charts' axes.

    Example:
        >>> labels(["run.A.de", "run.B.de"])
        {'run.A.de': 'A', 'run.B.de': 'B'}
    """
    return dict(zip(names, short_names(names), strict=True))


_DIGITS: Final = re.compile(r"(\d+)")


def natural_key(name: str) -> tuple[tuple[int, str | int], ...]:
    """A sort key that reads runs of digits as numbers, so that checkpoints sort by step.

    Example:
        >>> sorted(["ckpt-10", "ckpt-2", "ckpt-1000", "best"], key=natural_key)
        ['best', 'ckpt-2', 'ckpt-10', 'ckpt-1000']
    """
    # (kind, value) pairs keep a number from ever being compared with a string
    return tuple((1, int(p)) if p.isdigit() else (0, p) for p in _DIGITS.split(name) if p)


MIN_CHECKPOINTS: Final = 3  # two systems are a pair to compare, not a curve


def checkpoint_order(names: Sequence[str]) -> list[str] | None:
    """The names in natural order when they are checkpoints of one run: at least :data:`MIN_CHECKPOINTS`, each
    with a number, and all alike but for their numbers (``ckpt-2``, ``ckpt-10``, ...); None otherwise.

    Example:
        >>> checkpoint_order(["run/ckpt-10.de", "run/ckpt-2.de", "run/ckpt-1000.de"])
        ['run/ckpt-2.de', 'run/ckpt-10.de', 'run/ckpt-1000.de']
        >>> checkpoint_order(["Online-A", "P3AI", "UF"]) is None
        True
    """
    if len(names) < MIN_CHECKPOINTS or not all(_DIGITS.search(n) for n in names):
        return None
    if len({_DIGITS.sub("#", n) for n in names}) != 1:
        return None
    return sorted(names, key=natural_key)


def parse_renames(pairs: Sequence[str], names: Sequence[str]) -> dict[str, str]:
    """``OLD=NEW`` pairs (the CLI's ``--name``) as a mapping from each named system to its display name.

    Raises:
        ValueError: a pair without ``=``, an empty side, a name that is not one of ``names``, a system renamed
            twice, or two systems given the same display name (the message names it).

    Example:
        >>> parse_renames(["a.de=A", "b.de=B=2"], ["a.de", "b.de", "c.de"])
        {'a.de': 'A', 'b.de': 'B=2'}
        >>> parse_renames(["x=y"], ["a.de"])
        Traceback (most recent call last):
        ...
        ValueError: no system named 'x' (systems: a.de)
    """
    out: dict[str, str] = {}
    for pair in pairs:
        old, sep, new = pair.partition("=")
        if not sep or not old or not new.strip():
            raise ValueError(f"expected OLD=NEW, got {pair!r}")
        if old not in names:
            raise ValueError(f"no system named {old!r} (systems: {', '.join(names)})")
        if old in out:
            raise ValueError(f"{old!r} is renamed twice")
        out[old] = new
    _check_distinct(out, names)
    return out


def _check_distinct(renames: Mapping[str, str], names: Sequence[str]) -> None:
    shown = [renames.get(n, n) for n in names]
    for name in set(shown):
        if shown.count(name) > 1:
            raise ValueError(f"two systems would both be shown as {name!r}")
