"""A real PostgreSQL for the tests, from Debian's packages.

One server per test process (each pytest-xdist worker is a process of its
own, so each starts its own), in a temporary directory, listening on a unix
socket in that directory only (no TCP port at all), with fsync off since
nothing in it need outlive the run (benchmarks/store.py turns it on). initdb refuses to run as root, so when
the tests run as root the server runs as `nobody`, through runuser, in a
directory given to that user. Each test that asks for one gets a database of
its own, made by `fresh_database()`; the server is stopped at the end of the
session (the `postgres` fixture in conftest.py).
"""
from __future__ import annotations

import glob
import itertools
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

USER = "retro"  # the database's superuser, made by initdb


def binaries() -> Path:
    """Where Debian put PostgreSQL's programs (the newest version there)."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"),
                   key=lambda path: int(Path(path).parts[-3]))
    if not found:
        raise RuntimeError("PostgreSQL is not installed (apt-get install "
                           "postgresql): the store's tests need it")
    return Path(found[-1]).parent


class Server:
    """One PostgreSQL, started in a temporary directory."""

    def __init__(self, fsync: bool = False) -> None:
        self.dir = Path(tempfile.mkdtemp(prefix="retro-pg-"))
        self.data, self.socket = self.dir / "data", self.dir / "socket"
        self.socket.mkdir()
        self.as_user: list[str] = []
        if os.geteuid() == 0:  # initdb will not run as root
            self.as_user = ["runuser", "-u", "nobody", "--"]
            shutil.chown(self.dir, "nobody")
            shutil.chown(self.socket, "nobody")
        self.numbers = itertools.count(1)
        bin = binaries()
        self._run(bin / "initdb", "-D", self.data, "-U", USER, "-A", "trust",
                  "-E", "UTF8", "--no-locale", "--no-sync")
        self.options = f"-k {self.socket} -c listen_addresses='' " + (
            "" if fsync else "-F -c full_page_writes=off ")  # nothing lasts
        self._run(bin / "pg_ctl", "-D", self.data, "-l", self.dir / "log",
                  "-o", self.options, "-w", "start")
        self.bin = bin

    def _run(self, *command) -> None:
        result = subprocess.run([*self.as_user, *map(str, command)],
                                cwd=self.dir, capture_output=True, text=True)
        if result.returncode != 0:
            raise RuntimeError(f"{Path(str(command[0])).name} failed: "
                               f"{result.stderr or result.stdout}")

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://{USER}@/{database}?host={self.socket}"

    def fresh_database(self) -> str:
        """A new, empty database on this server: its URL."""
        import psycopg

        name = f"test_{os.getpid()}_{next(self.numbers)}"
        with psycopg.connect(self.url(), autocommit=True) as connection:
            connection.execute(f'CREATE DATABASE "{name}"')
        return self.url(name)

    def restart(self) -> None:
        """Stop the server at once and start it again (a crash and back)."""
        self._run(self.bin / "pg_ctl", "-D", self.data, "-m", "immediate",
                  "-w", "stop")
        self._run(self.bin / "pg_ctl", "-D", self.data, "-l",
                  self.dir / "log", "-o", self.options, "-w", "start")

    def stop(self) -> None:
        if self.data.exists():
            subprocess.run([*self.as_user, str(self.bin / "pg_ctl"), "-D",
                            str(self.data), "-m", "immediate", "-w", "stop"],
                           cwd=self.dir, capture_output=True)
        shutil.rmtree(self.dir, ignore_errors=True)

