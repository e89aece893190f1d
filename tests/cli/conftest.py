"""The CLI's tests: ``bleu_cli.cli.main`` run in this process, which is what a command's output and exit status
need, and a real ``python -m bleu_cli`` only where the process is the point (the entry point's exit status, a
strict stdout, the console script). The real test sets, the interpreter and pdflatex come from tests/conftest.py."""

from __future__ import annotations

import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from bleu_cli.cli import main

Cli = Callable[..., tuple[int, str, str]]


@pytest.fixture
def cli(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> Cli:
    """``cli(*argv, cwd=None)`` runs ``bleu-explorer argv`` in this process from ``cwd`` and returns (exit status,
    stdout, stderr). argparse's usage errors leave by SystemExit, as they leave the process; any other exception
    propagates and fails the test (the console would have shown a traceback)."""

    def run(*argv: str, cwd: Path | None = None) -> tuple[int, str, str]:
        if cwd is not None:
            monkeypatch.chdir(cwd)
        capsys.readouterr()  # only this command's output
        try:
            rc = main(list(argv))
        except SystemExit as exc:
            rc = exc.code if isinstance(exc.code, int) else int(exc.code is not None)
        out = capsys.readouterr()
        return rc, out.out, out.err

    return run


def cli_process(python: str, *argv: str, cwd: Path, timeout: float = 300) -> tuple[int, str, str]:
    """``python -m bleu_cli argv`` as its own process, from ``cwd``: (exit status, stdout, stderr)."""
    p = subprocess.run(
        [python, "-m", "bleu_cli", *argv], capture_output=True, text=True, cwd=cwd, timeout=timeout, check=False
    )
    return p.returncode, p.stdout, p.stderr


def one_error_line(rc: int, out: str, err: str) -> str:
    """The one line a refused input prints: exit status 2, nothing on stdout, no traceback; the message."""
    assert rc == 2, (rc, out, err)
    assert out == ""
    assert "Traceback" not in err
    lines = err.splitlines()
    assert len(lines) == 1, err
    assert err.endswith("\n")
    assert lines[0].startswith("bleu-explorer: error: ")
    return lines[0].removeprefix("bleu-explorer: error: ")
