"""No import circle anywhere in the project (issue 19): every import of every module, at the top or inside a
function, between the project's own modules (bleu_core, bleu_app, bleu_cli, bench, pages, app.py), read from the
source with ``ast``; a circle is a strongly connected component of more than one module (or a module importing
itself)."""

from __future__ import annotations

import ast
from collections.abc import Iterable, Mapping
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("bleu_core", "bleu_app", "bleu_cli", "bench")


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


def _sources() -> dict[str, Path]:
    files = [p for pkg in PACKAGES for p in (ROOT / pkg).rglob("*.py")]
    files += [*(ROOT / "pages").glob("*.py"), ROOT / "app.py"]
    return {_module_name(p): p for p in files}


def _imports(name: str, path: Path, known: Iterable[str]) -> set[str]:
    """The project modules ``name`` imports (``from pkg import module`` counts as the module when it is one)."""
    known = set(known)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                up = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*up, base] if base else up)
            out.add(base)
            out.update(f"{base}.{a.name}" for a in node.names)
    found = set()
    for imported in out:
        # the longest known module the import names (a name imported from a module counts as the module)
        target = imported
        while target and target not in known:
            target = target.rpartition(".")[0]
        if target and target != name and not name.startswith(target + "."):
            found.add(target)  # a package's __init__ imported by its own submodule is not a circle of modules
    return found


def circles(graph: Mapping[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one node (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in graph.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in graph:
        if v not in index:
            visit(v)
    return out


def test_circles_finds_a_circle() -> None:
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert circles({"a": {"b"}, "b": set()}) == []


def test_the_reader_sees_relative_and_function_level_imports(tmp_path: Path) -> None:
    pkg = tmp_path / "p"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "a.py").write_text("def f():\n    from . import b\n    return b\n")
    (pkg / "b.py").write_text("from p.a import f\n")
    known = ["p", "p.a", "p.b"]
    assert _imports("p.a", pkg / "a.py", known) == {"p.b"}
    assert _imports("p.b", pkg / "b.py", known) == {"p.a"}


def test_no_import_circle_in_the_project() -> None:
    sources = _sources()
    graph = {name: _imports(name, path, sources) for name, path in sources.items()}
    assert sum(len(v) for v in graph.values()) > 200  # the reader does see the project's imports
    assert circles(graph) == []
