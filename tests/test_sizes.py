"""The core's and the CLI's size contracts (issue 31): at most 12 loose modules in ``bleu_core`` (the rest grouped
by kind), no module over 700 lines and no function over 60 lines in ``bleu_core`` and ``bleu_cli``; read from the
source with ``ast``."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MAX_LOOSE = 12
MAX_MODULE_LINES = 700
MAX_FUNCTION_LINES = 60


def _modules() -> list[Path]:
    return sorted([*ROOT.joinpath("bleu_core").rglob("*.py"), *ROOT.joinpath("bleu_cli").rglob("*.py")])


def long_functions(path: Path, limit: int = MAX_FUNCTION_LINES, root: Path = ROOT) -> list[str]:
    """``module:line name (lines)`` of every function (and method) longer than ``limit`` lines, docstring included."""
    out = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            length = (node.end_lineno or node.lineno) - node.lineno + 1
            if length > limit:
                out.append(f"{path.relative_to(root)}:{node.lineno} {node.name} ({length})")
    return out


def test_the_check_sees_a_long_function(tmp_path: Path) -> None:
    sample = tmp_path / "probe.py"
    sample.write_text("def f():\n" + "    x = 1\n" * 60 + "def g():\n" + "    x = 1\n" * 59, encoding="utf-8")
    assert long_functions(sample, root=tmp_path) == ["probe.py:1 f (61)"]


def test_few_loose_modules_in_the_core() -> None:
    loose = sorted(p.name for p in ROOT.joinpath("bleu_core").glob("*.py"))
    assert "__init__.py" in loose
    assert len(loose) <= MAX_LOOSE, loose


def test_no_module_over_700_lines() -> None:
    sizes = {str(p.relative_to(ROOT)): len(p.read_text(encoding="utf-8").splitlines()) for p in _modules()}
    assert len(sizes) > 40
    assert {k: v for k, v in sizes.items() if v > MAX_MODULE_LINES} == {}


def test_no_function_over_60_lines() -> None:
    assert [f for p in _modules() for f in long_functions(p)] == []
