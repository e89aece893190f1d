"""Shared fixtures: where the real MT data lives (../shared/data from the repo root, never copied)."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT.parent / "shared" / "data"


@pytest.fixture(scope="session")
def data_dir() -> Path:
    """The shared real-data folder; a missing folder is a failure, not a skip."""
    assert DATA.is_dir(), f"real MT data not found at {DATA} (expected ../shared/data beside the repo)"
    return DATA
