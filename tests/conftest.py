"""Fixtures every test folder shares: the real MT data (../shared/data from the repo root, read in place and never
copied) as one family of test sets, the venv's interpreter, pdflatex, PostgreSQL, and the hypothesis profiles.

Tiers (``make test-core`` and ``make test``; markers registered in pyproject.toml): ``slow`` runs (every system of
a test set against sacreBLEU, exhaustive kernel checks), ``live`` (a server process), ``browser``, ``postgres`` and
``tex`` are left out of ``make test-core``, which also loads the hypothesis profile ``core`` (a fifth of the
examples). ``make test`` runs them all, with the full profile.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from hypothesis import settings

from tests.core.cases import read_lines

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT.parent / "shared" / "data"

# hypothesis's own default (100 examples) is the full profile; `make test-core` passes --hypothesis-profile=core
settings.register_profile("core", max_examples=20)


def examples(full: int) -> int:
    """How many random cases a test draws: ``full`` under the full profile, a fifth under ``core`` (at least 5).
    For hypothesis settings that name their own ``max_examples`` and for the seeded loops of the parity tests, so
    that the fast loop runs every check on fewer cases."""
    return max(min(full, 5), full * settings.default.max_examples // 100)


@pytest.fixture(scope="session")
def data_dir() -> Path:
    """The shared real-data folder; a missing folder is a failure, not a skip."""
    assert DATA.is_dir(), f"real MT data not found at {DATA} (expected ../shared/data beside the repo)"
    return DATA


@pytest.fixture(scope="session")
def python() -> str:
    """The interpreter that runs the CLI in a subprocess (the venv's, which has the project installed)."""
    venv = ROOT / ".venv" / "bin" / "python"
    return str(venv) if venv.exists() else sys.executable


# --- the real test sets: one family (WMT21 en-de, WMT22 zh-en, TED sk-en), read once per worker ----------------
_LINES: dict[Path, list[str]] = {}


def cached_lines(path: Path) -> list[str]:
    """A file's lines as the CLI reads them (``tests.core.cases.read_lines``), read once per process: the lists
    are shared, so a test that wants to change one copies it first."""
    if path not in _LINES:
        _LINES[path] = read_lines(path)
    return _LINES[path]


@dataclass(frozen=True)
class RealSet:
    """One real test set: its folder, reference files and system files, and the source when it has one."""

    name: str
    ref_paths: tuple[Path, ...]
    sys_paths: tuple[Path, ...]
    source_path: Path | None = None

    @property
    def folder(self) -> Path:
        return self.ref_paths[0].parent

    @property
    def names(self) -> tuple[str, ...]:
        """The systems' names (file stems), in file order."""
        return tuple(p.stem for p in self.sys_paths)

    def path(self, name: str) -> Path:
        """The file of the system called ``name``."""
        return next(p for p in self.sys_paths if p.stem == name)

    def refs(self) -> list[list[str]]:
        """Every reference stream, in file order."""
        return [cached_lines(p) for p in self.ref_paths]

    def system(self, path: Path | str) -> list[str]:
        """A system's lines, by file or by name."""
        return cached_lines(self.path(path) if isinstance(path, str) else path)

    def source(self) -> list[str]:
        assert self.source_path is not None, f"{self.name} has no source file"
        return cached_lines(self.source_path)


def real_sets(data_dir: Path) -> list[RealSet]:
    wmt21 = data_dir / "wmt21-news-en-de"
    wmt22 = data_dir / "wmt22-general-zh-en"
    ted = data_dir / "compare-mt-ted-sk-en"
    return [
        RealSet(
            "wmt21-news-en-de",
            tuple(wmt21 / f"reference.{k}.de" for k in "ACD"),
            tuple(sorted((wmt21 / "systems").glob("*.de"))),
            wmt21 / "source.en",
        ),
        RealSet(
            "wmt22-general-zh-en",
            tuple(wmt22 / f"reference.{k}.en" for k in "AB"),
            tuple(sorted((wmt22 / "systems").glob("*.en"))),
            wmt22 / "source.zh",
        ),
        RealSet("ted-detok", (ted / "ted.ref.detok.eng",), (ted / "ted.sys1.detok.eng", ted / "ted.sys2.detok.eng")),
        RealSet("ted-tok", (ted / "ted.ref.eng",), (ted / "ted.sys1.eng", ted / "ted.sys2.eng")),
    ]


@pytest.fixture(scope="session")
def real(data_dir: Path) -> dict[str, RealSet]:
    """Every real test set by name, its files checked once."""
    sets = {s.name: s for s in real_sets(data_dir)}
    assert len(sets["wmt21-news-en-de"].sys_paths) == 20
    assert len(sets["wmt22-general-zh-en"].sys_paths) == 12
    for s in sets.values():
        for p in (*s.ref_paths, *s.sys_paths, *([s.source_path] if s.source_path else [])):
            assert p.is_file(), p
    return sets


@pytest.fixture(scope="session")
def wmt21(real: dict[str, RealSet]) -> RealSet:
    """WMT21 news en-de: 1,002 segments, references A, C and D, 20 systems, the English source."""
    return real["wmt21-news-en-de"]


@pytest.fixture(scope="session")
def wmt22(real: dict[str, RealSet]) -> RealSet:
    """WMT22 general zh-en: 1,875 segments, references A and B, 12 systems, the Chinese source."""
    return real["wmt22-general-zh-en"]


# --- TeX -------------------------------------------------------------------------------------------------------
def compile_latex(body: str, folder: Path, *, twocolumn: bool = False, preamble: str = "") -> str:
    """Compile ``body`` (a table) in a booktabs article with Debian's pdflatex in ``folder``; return the log.
    ``twocolumn``: a two-column article, where a ``table`` is one column wide; ``preamble``: more of it (a
    geometry). Tests that call it carry the ``tex`` mark. Without pdflatex they skip, unless BLEU_REQUIRE_TEX is
    set (``make test`` installs TeX Live and sets it): then they fail."""
    if shutil.which("pdflatex") is None:
        if os.environ.get("BLEU_REQUIRE_TEX"):
            pytest.fail("pdflatex is missing although make test installs it (`make tex`)")
        pytest.skip("pdflatex not installed (`make tex` installs it)")
    article = "\\documentclass[twocolumn]{article}" if twocolumn else "\\documentclass{article}"
    doc = f"{article}\n\\usepackage{{booktabs}}\n{preamble}\\begin{{document}}\n{body}\\end{{document}}\n"
    (folder / "t.tex").write_text(doc, encoding="utf-8")
    run = subprocess.run(
        ["pdflatex", "-interaction=nonstopmode", "-halt-on-error", "-no-shell-escape", "t.tex"],
        cwd=folder,
        check=False,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stdout[-2000:]
    assert (folder / "t.pdf").stat().st_size > 1000
    return (folder / "t.log").read_text(encoding="utf-8", errors="replace")


# --- PostgreSQL for the store's tests (issue 23) ---------------------------------------------------------------
PG_BIN_ROOT = Path("/usr/lib/postgresql")


def _pg_bin() -> Path | None:
    """The newest Debian PostgreSQL's bin directory (``make postgres`` installs the package), or None."""
    found = sorted(
        PG_BIN_ROOT.glob("*/bin/pg_ctl"),
        key=lambda p: int(p.parent.parent.name) if p.parent.parent.name.isdigit() else 0,
    )
    return found[-1].parent if found else None


@pytest.fixture(scope="session")
def postgres_server():
    """A PostgreSQL server of our own: a fresh cluster (initdb) in a temporary directory, listening on a Unix
    socket there only (no TCP port), stopped and removed afterwards. As root (CI) the server runs as Debian's
    ``postgres`` user, which initdb requires. Yields a function that makes a fresh database and returns its URL.
    Without the binaries the tests skip, unless BLEU_REQUIRE_POSTGRES is set (``make test``): then they fail."""
    import tempfile
    import uuid

    bin_dir = _pg_bin()
    if bin_dir is None:
        if os.environ.get("BLEU_REQUIRE_POSTGRES"):
            pytest.fail(
                "BLEU_REQUIRE_POSTGRES is set but no PostgreSQL under /usr/lib/postgresql (run `make postgres`)"
            )
        pytest.skip("PostgreSQL binaries not found under /usr/lib/postgresql (`make postgres` installs them)")
    try:
        import psycopg
    except ImportError:
        if os.environ.get("BLEU_REQUIRE_POSTGRES"):
            pytest.fail("BLEU_REQUIRE_POSTGRES is set but psycopg is not installed (the test extra has it)")
        pytest.skip("psycopg not installed (pip install -e '.[test]')")
    root = Path(tempfile.mkdtemp(prefix="bleu-pg-"))
    data, sock = root / "data", root / "sock"
    sock.mkdir()
    prefix: list[str] = []
    if os.geteuid() == 0:
        shutil.chown(root, "postgres", "postgres")
        shutil.chown(sock, "postgres", "postgres")
        prefix = ["runuser", "-u", "postgres", "--"]
    run = lambda *cmd: subprocess.run([*prefix, *cmd], check=True, capture_output=True, text=True)  # noqa: E731
    run(str(bin_dir / "initdb"), "-D", str(data), "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-sync")
    opts = f"-c listen_addresses='' -c unix_socket_directories={sock} -c fsync=off -c max_connections=200"
    run(str(bin_dir / "pg_ctl"), "-D", str(data), "-o", opts, "-w", "-l", str(root / "log"), "start")
    admin = f"postgresql://postgres@/postgres?host={sock}"

    def new_database() -> str:
        name = "t_" + uuid.uuid4().hex[:12]
        with psycopg.connect(admin, autocommit=True) as conn:
            conn.execute(f"CREATE DATABASE {name}")
        return f"postgresql://postgres@/{name}?host={sock}"

    try:
        yield new_database
    finally:
        subprocess.run(
            [*prefix, str(bin_dir / "pg_ctl"), "-D", str(data), "-m", "fast", "-w", "stop"],
            check=False,
            capture_output=True,
        )
        shutil.rmtree(root, ignore_errors=True)


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def store_env(request, tmp_path, monkeypatch):
    """Each store test twice: SQLite in a temporary data directory, PostgreSQL in a fresh database. Sets the
    environment the app reads (so AppTest sessions share the store) and yields the store."""
    from bleu_app import store as store_mod

    monkeypatch.setenv(store_mod.DATA_DIR_ENV, str(tmp_path / "data"))
    if request.param == "postgresql":
        monkeypatch.setenv(store_mod.DATABASE_URL_ENV, request.getfixturevalue("postgres_server")())
    else:
        monkeypatch.delenv(store_mod.DATABASE_URL_ENV, raising=False)
    store = store_mod.get_store()
    yield store
    store.close()
    store_mod._stores.clear()


@pytest.fixture
def read_only_dir(tmp_path) -> Iterator[tuple[Path, Callable[[], None]]]:
    """A data directory and a function that makes it read-only (a bind mount as root, chmod otherwise)."""
    d = tmp_path / "data"
    d.mkdir()
    mounted: list[bool] = []

    def freeze() -> None:
        if os.geteuid() != 0:
            for p in d.iterdir():
                p.chmod(0o444)
            d.chmod(0o555)
            return
        try:
            subprocess.run(["mount", "--bind", str(d), str(d)], check=True, capture_output=True)
            mounted.append(True)
            subprocess.run(["mount", "-o", "remount,bind,ro", str(d)], check=True, capture_output=True)
        except (OSError, subprocess.CalledProcessError) as exc:
            pytest.skip(f"cannot make a read-only directory as root here (no bind mount): {exc}")

    try:
        yield d, freeze
    finally:
        if mounted:
            subprocess.run(["umount", "-l", str(d)], check=False, capture_output=True)
        d.chmod(0o755)
