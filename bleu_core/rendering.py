"""The renderer registry, one direction: result types ask it for their HTML; ``bleu_core.display.notebook`` fills it.

A result type's ``_repr_html_`` calls :func:`to_html` and knows no renderer; the renderers know the types. The
package's ``__init__`` imports ``display.notebook`` (which imports no result type at run time), so the registry is
full before any result exists. The same arrangement as Altair's renderer registry, without plugins. It sits at the
top of the core, apart from ``display``: every result type reads it, and it reads nothing.
"""

from __future__ import annotations

import html
from collections.abc import Callable
from typing import Any, TypeVar

__all__ = ["register", "to_html"]

_F = TypeVar("_F", bound=Callable[[Any], str])
_HTML: dict[str, Callable[[Any], str]] = {}


def register(type_name: str) -> Callable[[_F], _F]:
    """Make the decorated function the HTML renderer of the result type named ``type_name``."""

    def add(render: _F) -> _F:
        _HTML[type_name] = render
        return render

    return add


def to_html(obj: object) -> str:
    """``obj`` as HTML by its type's renderer; a type with none shows its ``repr`` as escaped text."""
    render = _HTML.get(type(obj).__name__)
    if render is None:
        return f"<pre>{html.escape(repr(obj))}</pre>"
    return render(obj)
