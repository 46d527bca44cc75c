"""Settings for the whole test suite.

With RETRO_NO_SKIPS=1 (as .ci/run sets) a skipped test fails the run: in CI
every test must run, and a skip that hides a missing tool or source shows up
as a failure with its reason.
"""
from __future__ import annotations

import fcntl
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


def pytest_collection_modifyitems(items):
    """Keep the tests that share a module's costly fixture on one worker.

    Under pytest-xdist each worker sets up a module-scoped fixture for
    itself: the browser's walk through the book, read twice, would cost
    its minute twice. The tests of a module that use the same such
    fixtures form one xdist group (`--dist loadgroup`), run by one worker;
    the walk and the doctored copy of the book are two groups, side by side.
    """
    for item in items:
        info = getattr(item, "_fixtureinfo", None)
        shared = sorted(
            name for name, defs in (info.name2fixturedefs.items()
                                    if info else ())
            if defs and defs[-1].scope in ("module", "class", "package"))
        if shared:
            group = f"{item.module.__name__}:{'+'.join(shared)}"
            item.add_marker(pytest.mark.xdist_group(group))


@pytest.fixture(scope="session")
def site(tmp_path_factory):
    """The book, built once for the whole run with `mkdocs build --strict`.

    The tests run in several processes at once (pytest-xdist); the first
    to need the book builds it, under a lock, into the run's own directory,
    and the others wait and share it. A failed build is remembered there
    too, so it fails every test that needs the book without building again.
    """
    if os.environ.get("PYTEST_XDIST_WORKER") is None:  # one process: its own
        return build_the_book(tmp_path_factory.mktemp("site"))
    run = tmp_path_factory.getbasetemp().parent  # shared by this run's workers
    target, failed = run / "site", run / "site.failed"
    with open(run / "site.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if failed.exists():
            pytest.fail(failed.read_text(), pytrace=False)
        if not target.exists():
            try:
                build_the_book(run / "site.building").rename(target)
            except AssertionError as error:
                failed.write_text(str(error))
                raise
    return target


def build_the_book(target: Path) -> Path:
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
