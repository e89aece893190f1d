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
        "import bleu_cli.cli",
        "from bleu_cli.cli import build_parser; build_parser()",
        "import bleu_core, bleu_core.teaching.explain, bleu_core.teaching.variants, bleu_core.teaching.paper, "
        "bleu_core.data.corpus",
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
        "from bleu_cli.cli import main\n"
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
