"""``bleu-explorer handout``: the Learn page's handout on standard output or in a file; a file it cannot write is
one line on stderr and exit 2."""

from __future__ import annotations

from pathlib import Path

import pytest

from bleu_app.handout import handout_html
from bleu_cli.cli import main


def test_handout_to_stdout_is_the_pages_download(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["handout"]) == 0
    out = capsys.readouterr().out
    assert out == handout_html() + "\n"
    assert "17/18" in out


def test_handout_to_a_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    target = tmp_path / "worked.html"
    assert main(["handout", "-o", str(target)]) == 0
    assert target.read_text(encoding="utf-8") == handout_html()
    assert f"wrote {target}" in capsys.readouterr().out


def test_handout_to_a_place_it_cannot_write(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    target = tmp_path / "missing" / "worked.html"
    assert main(["handout", "-o", str(target)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert str(target) in err
    assert "cannot write" in err
