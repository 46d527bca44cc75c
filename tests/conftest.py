"""Settings for the whole test suite.

With RETRO_NO_SKIPS=1 (as .ci/run sets) a skipped test fails the run: in CI
every test must run, and a skip that hides a missing tool or source shows up
as a failure with its reason.
"""
from __future__ import annotations

import fcntl
import functools
import os
import re
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from hypothesis import settings

ROOT = Path(__file__).resolve().parent.parent

# A property is about what the code does, not how fast a busy machine does
# it: hypothesis's deadline (200 ms an example) would fail a test on the
# wall clock, so the tests' profile has none. Speed has its benchmarks.
settings.register_profile("retro", deadline=None)
settings.load_profile("retro")


def pytest_sessionfinish(session, exitstatus):
    if os.environ.get("RETRO_NO_SKIPS") != "1":
        return
    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    skipped = reporter.stats.get("skipped", []) if reporter else []
    if skipped and exitstatus == 0:
        session.exitstatus = 1
        reporter.write_line(f"retro: {len(skipped)} test(s) skipped, and CI "
                            "allows none (RETRO_NO_SKIPS=1)", red=True)


def pytest_xdist_auto_num_workers(config):
    """`-n auto` (in addopts) runs a worker a core, and one more: many
    tests spend part of their time waiting on a server, a terminal or a
    browser, and the extra worker runs a test meanwhile (the quick loop on
    two cores: 80 s with two workers, 64 s with three, 72 s with four).
    A command that names single tests (`pytest tests/test_x.py::test_y`)
    runs them here, in one process, as starting the workers would take
    longer than the tests."""
    if config.args and all("::" in arg for arg in config.args):
        return 0
    return len(os.sched_getaffinity(0)) + 1


# a fixture made once for a whole module (the browser's walk through the
# book, Python loaded in a page, a tournament replayed), in its source
SHARED_BY_A_MODULE = re.compile(r"""scope=["']module["']""")


@functools.cache
def shared_by_a_module(module: str) -> bool:
    """Whether a test module's tests share a fixture made once for the
    module: then one worker runs the module whole, and makes it once."""
    try:
        return bool(SHARED_BY_A_MODULE.search((ROOT / module).read_text()))
    except OSError:
        return False


def pytest_collection_modifyitems(config, items):
    """The modules whose tests share a fixture made once for the module
    come first, each in its own order, then the rest as they were: each
    worker collects the same order, and is dealt its tests in it (below)."""
    items.sort(key=lambda item: not shared_by_a_module(
        item.nodeid.split("::", 1)[0]))


def pytest_xdist_make_scheduler(config, log):
    """The tests are dealt to the workers one at a time, as each worker
    asks for more, except a module whose tests share a fixture made once
    for the module: it goes whole to one worker. Those modules are dealt
    first, in the order collected (above), as they are the longest pieces
    of work (the browser's walk through the book takes minutes); the single
    tests then fill in around them, so that the workers finish together.
    (pytest-xdist's `loadscope` deals modules whole, the largest first by
    the number of tests, which left the book's two browser modules for
    last; its `load` deals tests one at a time, and would make a module's
    fixture once in each worker that ran one of its tests.)"""
    if config.getvalue("dist") != "loadscope":  # as addopts says
        return None  # another way asked for on the command line
    from xdist.scheduler import LoadScopeScheduling

    class ModulesSharingFirst(LoadScopeScheduling):
        def _split_scope(self, nodeid: str) -> str:
            module = nodeid.split("::", 1)[0]
            return module if shared_by_a_module(module) else nodeid

    config.option.loadscopereorder = False  # the order collected, above
    return ModulesSharingFirst(config, log)


class Book:
    """The book of this run, built once with `mkdocs build --strict`.

    The tests run in several processes at once (pytest-xdist), and all of
    them share one build, kept in the run's own temporary directory. The
    build starts in the background as soon as the tests are collected, if
    any of them reads the book: it takes half a minute, and the tests that
    do not need it run meanwhile. Whoever builds holds a lock on the
    directory until the book is there; a test that needs it waits on that
    lock. A failed build is remembered, and fails every test that reads the
    book, with mkdocs's own words, without building again.
    """

    def __init__(self, config):
        base = config._tmp_path_factory.getbasetemp()
        run = base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base
        self.site, self.failed = run / "site", run / "site.failed"
        self.lock = run / "site.lock"
        self.building: subprocess.Popen | None = None
        self.finishing: threading.Thread | None = None

    def start(self) -> None:
        """Start the build in the background, unless it is begun or done."""
        lock = open(self.lock, "a")
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:  # another worker is building it
            lock.close()
            return
        if self.site.exists() or self.failed.exists():
            lock.close()
            return
        self.building = self._mkdocs()
        self.finishing = threading.Thread(target=self._finish, args=(lock,),
                                          daemon=True)
        self.finishing.start()

    def wait(self) -> Path:
        """The built site; built here and now if no one has begun it."""
        with open(self.lock, "a") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            if not (self.site.exists() or self.failed.exists()):
                self.building = self._mkdocs()
                self._finish(None)
        if self.failed.exists():
            pytest.fail(self.failed.read_text(), pytrace=False)
        return self.site

    def done(self) -> None:
        """Wait for a build begun here: other workers may be waiting on it,
        even when this one has no test left."""
        if self.finishing is not None:
            self.finishing.join()

    def _mkdocs(self) -> subprocess.Popen:
        return subprocess.Popen(
            [sys.executable, "-m", "mkdocs", "build", "--strict",
             "--site-dir", str(self.site.with_suffix(".building"))],
            cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
            text=True, env={**os.environ, "NO_MKDOCS_2_WARNING": "1"})

    def _finish(self, lock) -> None:
        """Wait for the build, keep its outcome, and let the others in."""
        try:
            _, stderr = self.building.communicate()
            if self.building.returncode == 0:
                self.site.with_suffix(".building").rename(self.site)
            else:
                self.failed.write_text(
                    f"mkdocs build --strict failed "
                    f"(status {self.building.returncode}):\n{stderr}")
        finally:
            if lock is not None:
                lock.close()


BOOK = pytest.StashKey[Book]()


def pytest_collection_finish(session):
    if any("site" in item.fixturenames for item in session.items):
        session.config.stash[BOOK] = Book(session.config)
        session.config.stash[BOOK].start()


def pytest_unconfigure(config):
    if BOOK in config.stash:
        config.stash[BOOK].done()


@pytest.fixture(scope="session")
def site(pytestconfig):
    """The book, built once for the whole run (Book, above)."""
    book = pytestconfig.stash.setdefault(BOOK, Book(pytestconfig))
    return book.wait()


@pytest.fixture
def served(tmp_path):
    """Start served rooms on the loopback (tests/served.py), each with the
    limits given; every one is closed after the test."""
    from served import Running, limits_of  # tests/served.py

    running = []

    def start(**limits) -> Running:
        ssh = limits.pop("ssh", False)
        running.append(Running(tmp_path / "home", limits_of(**limits), ssh))
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
