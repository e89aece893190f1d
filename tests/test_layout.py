"""The app's layout rules (issue 31; DESIGN section 1 and 4), read from the source: one home for the session state
and one for the caches, so that a key or a cache is found in one place."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
STATE = ROOT / "bleu_app" / "ui" / "state.py"
CACHE = ROOT / "bleu_app" / "ui" / "cached.py"


def app_sources() -> list[Path]:
    """Every module of the app: bleu_app, the page scripts and app.py."""
    return sorted([*(ROOT / "bleu_app").rglob("*.py"), *(ROOT / "pages").glob("*.py"), ROOT / "app.py"])


def uses(path: Path, attribute: str) -> list[int]:
    """The lines where ``path`` reads the attribute ``attribute`` of anything (``st.session_state``, ...)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [n.lineno for n in ast.walk(tree) if isinstance(n, ast.Attribute) and n.attr == attribute]


def test_only_the_state_module_touches_the_session_state() -> None:
    found = {str(p.relative_to(ROOT)): uses(p, "session_state") for p in app_sources() if p != STATE}
    assert not {p: lines for p, lines in found.items() if lines}
    assert uses(STATE, "session_state")  # the check can fail: the state module is seen


def test_every_cache_is_in_the_cache_module() -> None:
    found = {}
    for p in app_sources():
        if p != CACHE:
            lines = uses(p, "cache_data") + uses(p, "cache_resource")
            if lines:
                found[str(p.relative_to(ROOT))] = lines
    assert not found
    assert len(uses(CACHE, "cache_data") + uses(CACHE, "cache_resource")) >= 20
