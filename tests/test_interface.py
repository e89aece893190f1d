"""The app's declared interface to the core, and the core's user API written once.

The app (bleu_app, pages, app.py) may import the core's modules by name and, from each, only what its
``__all__`` declares; never a ``_private`` module or name. ``bleu_core`` itself offers users the short list in
its ``TYPE_CHECKING`` block, which is also what ``__all__`` and the lazy loader read.
"""

from __future__ import annotations

import ast
import importlib
import importlib.util
import pkgutil
import subprocess
import sys
from pathlib import Path

import pytest

import bleu_core

ROOT = Path(__file__).resolve().parents[1]
APP_FILES = sorted([*ROOT.joinpath("bleu_app").rglob("*.py"), *ROOT.joinpath("pages").rglob("*.py"), ROOT / "app.py"])


def _core_imports(path: Path) -> list[tuple[int, str, str]]:
    """(line, module, name) for every name the file imports from bleu_core (name "" for `import bleu_core.x`)."""
    out = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.level == 0 and (node.module or "").split(".")[0] == "bleu_core":
            out += [(node.lineno, str(node.module), a.name) for a in node.names]
        elif isinstance(node, ast.Import):
            out += [(node.lineno, a.name, "") for a in node.names if a.name.split(".")[0] == "bleu_core"]
    return out


def _violations(path: Path) -> list[str]:
    bad = []
    for line, module, name in _core_imports(path):
        where = f"{path.relative_to(ROOT)}:{line}"
        if any(part.startswith("_") for part in module.split(".")):
            bad.append(f"{where}: private module {module}")
            continue
        if not name:
            continue
        if name.startswith("_") and name != "__version__":
            bad.append(f"{where}: private name {module}.{name}")
            continue
        mod = importlib.import_module(module)
        if hasattr(mod, "__path__") and importlib.util.find_spec(f"{module}.{name}") is not None:
            continue  # `from bleu_core.display import latex`: a module by name, imported or not yet
        if isinstance(getattr(mod, name, None), type(sys)):
            continue  # `from bleu_core.significance import testsize`: a module by name
        if name not in getattr(mod, "__all__", ()):
            bad.append(f"{where}: {module}.{name} is not in {module}.__all__")
    return bad


def test_the_app_imports_only_declared_names() -> None:
    assert len(APP_FILES) > 20
    assert sum(len(_core_imports(p)) for p in APP_FILES) > 50  # the scan sees the app's imports
    assert [v for p in APP_FILES for v in _violations(p)] == []


def test_the_check_catches_a_private_name(tmp_path: Path) -> None:
    sample = ROOT / "bleu_app" / "_interface_probe.py"
    sample.write_text(
        "from bleu_core.metrics.bleu import _my_log\nfrom bleu_core.engine import _kernel\n"
        "from bleu_core.config import dataclass\n",
        encoding="utf-8",
    )
    try:
        found = _violations(sample)
    finally:
        sample.unlink()
    assert [f.split(": ", 1)[1] for f in found] == [
        "private name bleu_core.metrics.bleu._my_log",
        "private name bleu_core.engine._kernel",
        "bleu_core.config.dataclass is not in bleu_core.config.__all__",
    ]


def test_user_api_is_the_type_checking_block_and_loads() -> None:
    names = [n for n in bleu_core.__all__ if n != "__version__"]
    # sacreBLEU exports 21, its corpus/sentence functions for BLEU, chrF and TER among them
    assert 18 <= len(names) <= 27
    assert len(set(names)) == len(names)
    # every submodule loaded first: a public name that is also a submodule's name would be shadowed by it
    for info in pkgutil.iter_modules(bleu_core.__path__):
        if info.name != "__main__":
            importlib.import_module(f"bleu_core.{info.name}")
    for name in names:
        value = getattr(bleu_core, name)
        assert not isinstance(value, type(sys)), f"bleu_core.{name} is the submodule, not the API name"
        home = bleu_core._LAZY[name]
        assert name in importlib.import_module(home, "bleu_core").__all__
    with pytest.raises(AttributeError, match="no attribute 'holm_floor'"):
        _ = bleu_core.holm_floor  # the app's helpers are not the user's API


def test_import_bleu_core_loads_no_numpy() -> None:
    code = "import sys, bleu_core; print('numpy' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT)
    assert out.stdout.strip() == "False"


def test_the_core_names_neither_the_app_nor_the_cli() -> None:
    """Not even by string (import_module, a path): import-linter sees only import statements."""
    core = [*sorted(ROOT.joinpath("bleu_core").rglob("*.py")), ROOT / "bleu_core" / "engine" / "_kernel.c"]
    found = [
        f"{p.relative_to(ROOT)}:{i}"
        for p in core
        for i, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1)
        if "bleu_app" in line or "bleu_cli" in line
    ]
    assert len(core) > 20
    assert found == []
