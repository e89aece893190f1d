"""The check of a user's regular expression (a slice's ``~``, a document filter): a shared server runs it, so a
long one or one that can backtrack for ever is refused before it runs."""

from __future__ import annotations

import re
from typing import Final

from bleu_core.errors import InputError

__all__ = ["MAX_PATTERN", "compile_pattern", "pattern_problem"]

MAX_PATTERN: Final = 200
_NESTED_QUANTIFIER: Final = re.compile(r"\((?:[^()\\]|\\.)*[*+}](?:[^()\\]|\\.)*\)\s*[*+{]")


def pattern_problem(pattern: str) -> str | None:
    """Why a user's regular expression is refused (too long, or a nested quantifier that can backtrack for
    ever), or None; slices and the document filters both ask.

    Example:
        >>> pattern_problem("[0-9]+"), pattern_problem("(a+)+")
        (None, 'a quantified group quantified again (like (a+)+) can take forever: refused')
    """
    if len(pattern) > MAX_PATTERN:
        return f"regular expression longer than {MAX_PATTERN} characters"
    if _NESTED_QUANTIFIER.search(pattern):
        return "a quantified group quantified again (like (a+)+) can take forever: refused"
    return None


def compile_pattern(pattern: str, where: str) -> re.Pattern[str]:
    """A user's regular expression, compiled; refused (naming ``where``) when too long, dangerous or bad.

    Example:
        >>> compile_pattern("(a+)+", "--where")
        Traceback (most recent call last):
        ...
        bleu_core.errors.InputError: --where: a quantified group quantified again (like (a+)+) can take forever: refused
    """
    problem = pattern_problem(pattern)
    if problem is not None:
        raise InputError(problem, where)
    try:
        return re.compile(pattern)
    except re.error as e:
        raise InputError(f"bad regular expression {pattern!r} ({e})", where) from None
