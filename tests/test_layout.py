"""The app's layout rules (issue 31; DESIGN section 1 and 4), read from the source: one home for the session state
and one for the caches, so that a key or a cache is found in one place; Learn steps numbered by the registry only;
the Streamlit layer by wing; no module over 700 lines and no function over 60 (``tests/test_sizes.py`` holds the
core and the CLI to the same)."""

from __future__ import annotations

import ast
import re
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
    # state.py and its siblings bleu_app/ui/state_*.py (a wing's keys, so that no state module outgrows the limit)
    siblings = {p for p in app_sources() if p.parent == STATE.parent and p.name.startswith("state")}
    found = {str(p.relative_to(ROOT)): uses(p, "session_state") for p in app_sources() if p not in siblings}
    assert not {p: lines for p, lines in found.items() if lines}
    assert uses(STATE, "session_state")  # the check can fail: the state module is seen


def test_every_cache_is_in_the_cache_module() -> None:
    # the cache layer is bleu_app/ui/cached.py and its siblings bleu_app/ui/cached_*.py (one per wing's new work,
    # so that no cache module outgrows the size limit); nowhere else
    found = {}
    for p in app_sources():
        if not (p.parent == CACHE.parent and p.name.startswith("cached")):
            lines = uses(p, "cache_data") + uses(p, "cache_resource")
            if lines:
                found[str(p.relative_to(ROOT))] = lines
    assert not found
    assert len(uses(CACHE, "cache_data") + uses(CACHE, "cache_resource")) >= 20


REGISTRY = ROOT / "bleu_app" / "ui" / "learn" / "steps.py"
HAND_NUMBERED = re.compile(r"\b[Ss]teps? \d+\b|[?&]step=\d")  # "step 9", "steps 12-17", "?step=3"


def test_no_step_number_is_written_outside_the_registry() -> None:
    # a step is named by key (``{step:KEY}`` in a text, ``?step=KEY`` in a link) and numbered by the registry
    texts = [p for p in app_sources() if p != REGISTRY]
    texts += [*(ROOT / "docs" / "learn").rglob("*.md"), ROOT / "README.md"]
    found = {
        f"{p.relative_to(ROOT)}:{n}": line.strip()
        for p in texts
        for n, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1)
        if HAND_NUMBERED.search(line)
    }
    assert not found
    assert HAND_NUMBERED.search("after Part II (steps 12-17)")  # the check can fail
    assert HAND_NUMBERED.search("[step 0](?present=1&step=0)")
    assert not HAND_NUMBERED.search('st.number_input("Seed", step=1)')
    headings = {  # a step's heading is numbered by the registry, never a literal "N · Title"
        f"{p.relative_to(ROOT)}:{node.lineno}": node.value
        for p in (ROOT / "bleu_app" / "ui" / "learn").glob("*.py")
        for node in ast.walk(ast.parse(p.read_text(encoding="utf-8")))
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and re.match(r"\d+ · ", node.value)
    }
    assert not headings


def test_the_app_by_wing_has_a_short_ui_root_and_no_long_module() -> None:
    # bleu_app/ui: at most 12 loose modules (the platform), the rest in components/ and one package per wing
    loose = [p.name for p in (ROOT / "bleu_app" / "ui").glob("*.py") if p.name != "__init__.py"]
    assert 5 <= len(loose) <= 12, loose
    assert {"learn", "corpus", "classroom", "components"} <= {p.name for p in (ROOT / "bleu_app" / "ui").iterdir()}
    # no module over 700 lines, the store's included (its values, SQL and views are three modules)
    long = {
        str(p.relative_to(ROOT)): n
        for p in app_sources()
        if (n := len(p.read_text(encoding="utf-8").splitlines())) > 700
    }
    assert not long


def test_no_function_of_the_app_is_over_60_lines() -> None:
    from tests.test_sizes import long_functions

    found = [f for p in app_sources() for f in long_functions(p)]
    assert not found
