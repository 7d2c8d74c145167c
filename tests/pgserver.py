"""A real PostgreSQL server for tests: a throwaway cluster in a temporary folder.

`running_postgres()` runs Debian's `initdb` and `pg_ctl` (as the `postgres`
user when the tests run as root, since PostgreSQL refuses to run as root),
listens on 127.0.0.1 at a free port with password authentication, and stops
the server and removes its folder on exit, leaving no process behind.
"""

from __future__ import annotations

import os
import secrets
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import psycopg

INSTALL_HINT = "install it with: apt-get install postgresql (scripts/setup.sh does)"
USER = "codeanchor_test"


@dataclass(frozen=True)
class Postgres:
    """A running server: its address and a superuser password."""

    host: str
    port: int
    password: str
    data_dir: Path

    def dsn(self, database: str = "postgres", password: str | None = None) -> str:
        """A DSN for `database` as the test superuser."""
        secret = self.password if password is None else password
        return f"postgresql://{USER}:{secret}@{self.host}:{self.port}/{database}"

    def create_database(self, name: str) -> str:
        """Create database `name`; returns its DSN."""
        with psycopg.connect(self.dsn(), autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"'.encode())
        return self.dsn(name)


def bin_dir() -> Path | None:
    """Where Debian keeps the newest installed PostgreSQL's server programs."""
    versions = sorted(
        Path("/usr/lib/postgresql").glob("*/bin/initdb"),
        key=lambda p: int(p.parent.parent.name) if p.parent.parent.name.isdigit() else 0,
    )
    return versions[-1].parent if versions else None


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _as_postgres() -> list[str]:
    """PostgreSQL refuses to run as root: run its programs as `postgres` then."""
    return ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []


def _pg_ctl(server: Postgres, *action: str) -> None:
    programs = bin_dir()
    if programs is None:
        raise RuntimeError(f"PostgreSQL server programs not found; {INSTALL_HINT}")
    base = server.data_dir.parent
    options = f"-k {base} -c listen_addresses=127.0.0.1 -p {server.port} -F"
    command = [str(programs / "pg_ctl"), "-D", str(server.data_dir), "-o", options]
    command += ["-l", str(base / "log"), "-w", *action]
    subprocess.run([*_as_postgres(), *command], check=True, capture_output=True, timeout=120)


@contextmanager
def running_postgres() -> Iterator[Postgres]:
    """Start a fresh server; stop it and delete its files when the block ends."""
    programs = bin_dir()
    if programs is None:
        raise RuntimeError(f"PostgreSQL server programs not found; {INSTALL_HINT}")
    base = Path(tempfile.mkdtemp(prefix="codeanchor-pg-"))
    server = Postgres("127.0.0.1", _free_port(), secrets.token_hex(12), base / "data")
    (base / "pw").write_text(server.password)
    if os.geteuid() == 0:
        shutil.chown(base, "postgres")
        shutil.chown(base / "pw", "postgres")
    initdb = [str(programs / "initdb"), "-D", str(server.data_dir), "-U", USER]
    initdb += ["--pwfile", str(base / "pw"), "-A", "scram-sha-256", "-E", "UTF8", "--no-sync"]
    subprocess.run([*_as_postgres(), *initdb], check=True, capture_output=True, timeout=120)
    _pg_ctl(server, "start")
    try:
        yield server
    finally:
        try:
            _pg_ctl(server, "-m", "immediate", "stop")
        finally:
            shutil.rmtree(base, ignore_errors=True)


def restart(server: Postgres) -> None:
    """Stop the server at once (as a crash would) and start it again, same address."""
    _pg_ctl(server, "-m", "immediate", "stop")
    _pg_ctl(server, "start")
