"""The CLI tests use the core tests' fixtures: the real data sets and the venv's interpreter."""

from tests.core.conftest import python, real  # noqa: F401
