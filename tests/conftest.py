"""Settings for the whole test suite.

With RETRO_NO_SKIPS=1 (as .ci/run sets) a skipped test fails the run: in CI
every test must run, and a skip that hides a missing tool or source shows up
as a failure with its reason.
"""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def pytest_sessionfinish(session, exitstatus):
    if os.environ.get("RETRO_NO_SKIPS") != "1":
        return
    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    skipped = reporter.stats.get("skipped", []) if reporter else []
    if skipped and exitstatus == 0:
        session.exitstatus = 1
        reporter.write_line(f"retro: {len(skipped)} test(s) skipped, and CI "
                            "allows none (RETRO_NO_SKIPS=1)", red=True)


@pytest.fixture(scope="session")
def site(tmp_path_factory):
    """The book, built once for the whole run with `mkdocs build --strict`."""
    target = tmp_path_factory.mktemp("site")
    result = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict",
         "--site-dir", str(target)],
        cwd=ROOT, capture_output=True, text=True,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"})
    assert result.returncode == 0, result.stderr
    return target


@pytest.fixture
def served(tmp_path):
    """Start served rooms on the loopback (tests/served.py), each with the
    limits given; every one is closed after the test."""
    from served import Limits, Running  # tests/served.py

    running = []

    def start(**limits) -> Running:
        ssh = limits.pop("ssh", False)
        running.append(Running(tmp_path / "home", Limits(**limits), ssh))
        return running[-1]
    yield start
    for server in running:
        server.close()


@pytest.fixture(scope="session")
def postgres():
    """A real PostgreSQL for this test process (tests/postgres.py)."""
    from postgres import Server

    server = Server()
    yield server
    server.stop()


@pytest.fixture(params=["sqlite", "postgresql"])
def place(request, tmp_path):
    """Where an empty store is, on each engine: a SQLite file, or a database
    of its own on this test process's PostgreSQL (tests/postgres.py)."""
    if request.param == "sqlite":
        return tmp_path / "retro.sqlite3"
    return request.getfixturevalue("postgres").fresh_database()
