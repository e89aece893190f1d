"""A PostgreSQL server a test may stop and start (issue 36): its own cluster, as ``postgres_server`` makes one
(a fresh initdb in a temporary directory, a Unix socket there only, Debian's ``postgres`` user when run as root),
kept apart so that stopping it cannot touch the other tests' server."""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import _pg_bin


class PgCluster:
    """A cluster in ``root``: ``start``, ``stop`` (immediate: what a crash or a power cut looks like to clients),
    ``new_database`` (a fresh database's URL)."""

    def __init__(self, bin_dir: Path, root: Path) -> None:
        self.bin_dir, self.root = bin_dir, root
        self.data, self.sock = root / "data", root / "sock"
        self.sock.mkdir()
        self.prefix: list[str] = []
        if os.geteuid() == 0:  # initdb refuses root: the server runs as Debian's postgres user
            shutil.chown(root, "postgres", "postgres")
            shutil.chown(self.sock, "postgres", "postgres")
            self.prefix = ["runuser", "-u", "postgres", "--"]
        self._run("initdb", "-D", str(self.data), "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-sync")

    def _run(self, tool: str, *args: str) -> None:
        subprocess.run([*self.prefix, str(self.bin_dir / tool), *args], check=True, capture_output=True, text=True)

    def start(self) -> None:
        opts = f"-c listen_addresses='' -c unix_socket_directories={self.sock} -c fsync=off -c max_connections=100"
        self._run("pg_ctl", "-D", str(self.data), "-o", opts, "-w", "-l", str(self.root / "log"), "start")

    def stop(self, mode: str = "immediate") -> None:
        self._run("pg_ctl", "-D", str(self.data), "-m", mode, "-w", "stop")

    def new_database(self) -> str:
        import psycopg

        name = "t_" + uuid.uuid4().hex[:12]
        with psycopg.connect(f"postgresql://postgres@/postgres?host={self.sock}", autocommit=True) as conn:
            conn.execute(f"CREATE DATABASE {name}")
        return f"postgresql://postgres@/{name}?host={self.sock}"


@pytest.fixture(scope="module")
def pg_cluster() -> Iterator[PgCluster]:
    """A running cluster of the module's own; a test that stops it starts it again (the next test finds it up).
    Skips without PostgreSQL, fails instead when BLEU_REQUIRE_POSTGRES is set (as ``postgres_server``)."""
    bin_dir = _pg_bin()
    required = bool(os.environ.get("BLEU_REQUIRE_POSTGRES"))
    if bin_dir is None:
        if required:
            pytest.fail("BLEU_REQUIRE_POSTGRES is set but no PostgreSQL under /usr/lib/postgresql (`make postgres`)")
        pytest.skip("PostgreSQL binaries not found under /usr/lib/postgresql (`make postgres` installs them)")
    try:
        import psycopg  # noqa: F401
    except ImportError:
        if required:
            pytest.fail("BLEU_REQUIRE_POSTGRES is set but psycopg is not installed (the test extra has it)")
        pytest.skip("psycopg not installed (pip install -e '.[test]')")
    cluster = PgCluster(bin_dir, Path(tempfile.mkdtemp(prefix="bleu-pg-restart-")))
    cluster.start()
    try:
        yield cluster
    finally:
        subprocess.run(
            [*cluster.prefix, str(bin_dir / "pg_ctl"), "-D", str(cluster.data), "-m", "fast", "-w", "stop"],
            check=False,
            capture_output=True,
        )
        shutil.rmtree(cluster.root, ignore_errors=True)
