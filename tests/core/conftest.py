"""Fixtures for the core tests: the real WMT/TED corpora (read in place, never copied) and sacrebleu."""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.core.cases import read_lines

REPO = Path(__file__).resolve().parents[2]


@dataclass(frozen=True)
class RealSet:
    """One real test set: reference files and system files (paths and lines)."""

    name: str
    ref_paths: tuple[Path, ...]
    sys_paths: tuple[Path, ...]

    def refs(self) -> list[list[str]]:
        return [_cached_lines(p) for p in self.ref_paths]

    def system(self, path: Path) -> list[str]:
        return _cached_lines(path)


_LINES: dict[Path, list[str]] = {}


def _cached_lines(path: Path) -> list[str]:
    if path not in _LINES:
        _LINES[path] = read_lines(path)
    return _LINES[path]


def real_sets(data_dir: Path) -> list[RealSet]:
    wmt21 = data_dir / "wmt21-news-en-de"
    wmt22 = data_dir / "wmt22-general-zh-en"
    ted = data_dir / "compare-mt-ted-sk-en"
    return [
        RealSet(
            "wmt21-news-en-de",
            tuple(wmt21 / f"reference.{k}.de" for k in "ACD"),
            tuple(sorted((wmt21 / "systems").glob("*.de"))),
        ),
        RealSet(
            "wmt22-general-zh-en",
            tuple(wmt22 / f"reference.{k}.en" for k in "AB"),
            tuple(sorted((wmt22 / "systems").glob("*.en"))),
        ),
        RealSet("ted-detok", (ted / "ted.ref.detok.eng",), (ted / "ted.sys1.detok.eng", ted / "ted.sys2.detok.eng")),
        RealSet("ted-tok", (ted / "ted.ref.eng",), (ted / "ted.sys1.eng", ted / "ted.sys2.eng")),
    ]


@pytest.fixture(scope="session")
def real(data_dir: Path) -> dict[str, RealSet]:
    sets = {s.name: s for s in real_sets(data_dir)}
    assert len(sets["wmt21-news-en-de"].sys_paths) == 20
    assert len(sets["wmt22-general-zh-en"].sys_paths) == 12
    for s in sets.values():
        for p in (*s.ref_paths, *s.sys_paths):
            assert p.is_file(), p
    return sets


@pytest.fixture(scope="session")
def python() -> str:
    """The interpreter that runs the CLI (the venv's, which has bleu_core installed)."""
    venv = REPO / ".venv" / "bin" / "python"
    return str(venv) if venv.exists() else sys.executable
