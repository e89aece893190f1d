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
    import os
    import shutil
    import subprocess
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


@pytest.fixture(params=["sqlite", "postgresql"])
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
