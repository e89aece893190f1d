"""``import bleu_core`` (and the CLI module) loads no Streamlit, pandas or Altair (DESIGN.md section 1)."""

from __future__ import annotations

import json
import subprocess

import pytest

from tests.core.conftest import REPO

HEAVY = ("streamlit", "pandas", "altair")

PROBE = """
import json, sys
{imports}
heavy = sorted(m for m in sys.modules if m.split(".")[0] in {heavy!r})
print(json.dumps(heavy))
"""


@pytest.mark.parametrize(
    "imports",
    [
        "import bleu_core",
        "import bleu_core.cli",
        "from bleu_core.cli import build_parser; build_parser()",
        "import bleu_core, bleu_core.explain, bleu_core.variants, bleu_core.paper, bleu_core.corpus",
        "from bleu_core import corpus_bleu; corpus_bleu(['a b'], [['a b']], tokenize='intl')",
    ],
)
def test_no_heavy_modules(python: str, imports: str) -> None:
    code = PROBE.format(imports=imports, heavy=HEAVY)
    p = subprocess.run([python, "-c", code], capture_output=True, text=True, cwd=REPO, timeout=120, check=False)
    assert p.returncode == 0, p.stderr
    assert json.loads(p.stdout.strip().splitlines()[-1]) == []


def test_probe_can_fail(python: str) -> None:
    """The probe itself sees a heavy module when one is imported (so the test above can fail)."""
    code = PROBE.format(imports="import pandas", heavy=HEAVY)
    p = subprocess.run([python, "-c", code], capture_output=True, text=True, cwd=REPO, timeout=120, check=False)
    assert p.returncode == 0, p.stderr
    assert "pandas" in json.loads(p.stdout.strip().splitlines()[-1])


def test_cli_score_of_a_small_file_starts_without_numpy(python: str, tmp_path) -> None:
    """`bleu-explorer score` must start no slower than sacrebleu: on a small file it counts line by line
    and never imports numpy (about 0.1 s here). Big files take the vectorised path."""
    (tmp_path / "ref.txt").write_text("the cat sat on the mat .\nhello world\n", encoding="utf-8")
    (tmp_path / "hyp.txt").write_text("the cat sat on a mat .\nhello there world\n", encoding="utf-8")
    code = (
        "import sys, json, io, contextlib\n"
        "from bleu_core.cli import main\n"
        "buf = io.StringIO()\n"
        "with contextlib.redirect_stdout(buf):\n"
        f"    rc = main(['score', {str(tmp_path / 'ref.txt')!r}, '-i', {str(tmp_path / 'hyp.txt')!r}, '--json'])\n"
        "print(json.dumps([rc, json.loads(buf.getvalue())['score'], 'numpy' in sys.modules]))\n"
    )
    p = subprocess.run([python, "-c", code], capture_output=True, text=True, cwd=REPO, timeout=120, check=False)
    assert p.returncode == 0, p.stderr
    rc, score, numpy_loaded = json.loads(p.stdout.strip().splitlines()[-1])
    assert rc == 0
    assert score > 0
    assert numpy_loaded is False


def test_public_api_resolves_and_leaves_internals_out() -> None:
    """Every name of ``bleu_core.__all__`` loads; the helpers the issue named as internals are not in it."""
    import bleu_core

    for name in bleu_core.__all__:
        assert getattr(bleu_core, name) is not None, name
    assert {"ReferenceSet", "compare", "pairwise_matrix", "parse_folder", "Corpus", "corpus_bleu"} <= set(
        bleu_core.__all__
    )
    assert not {"SegmentStats", "preprocess", "tokenize_line", "FastPathUnsupportedError"} & set(bleu_core.__all__)
    with pytest.raises(AttributeError, match="no attribute 'preprocess'"):
        _ = bleu_core.preprocess


def test_page_scripts_use_only_the_public_api() -> None:
    """pages/*.py and app.py are scripts, outside import-linter's packages: they import ``bleu_core``'s
    public names only (the bleu_app half is pyproject's contract)."""
    import ast

    import bleu_core

    scripts = [REPO / "app.py", *sorted((REPO / "pages").glob("*.py"))]
    assert len(scripts) > 2
    for path in scripts:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("bleu_core"):
                assert node.module == "bleu_core", f"{path.name}: from {node.module} import ..."
                assert {a.name for a in node.names} <= set(bleu_core.__all__), path.name
            if isinstance(node, ast.Import):
                assert not any(a.name.startswith("bleu_core.") for a in node.names), path.name


def test_type_checking_imports_mirror_the_lazy_table() -> None:
    """bleu_core/__init__.py names each public name twice (the lazy table for run time, the TYPE_CHECKING
    imports for mypy): the two agree."""
    import ast

    import bleu_core

    tree = ast.parse((REPO / "bleu_core" / "__init__.py").read_text(encoding="utf-8"))
    block = next(n for n in tree.body if isinstance(n, ast.If) and getattr(n.test, "id", "") == "TYPE_CHECKING")
    typed = {(f".{n.module}", a.name) for n in block.body if isinstance(n, ast.ImportFrom) for a in n.names}
    assert typed == {(module, name) for name, module in bleu_core._LAZY.items()}
