"""The test suite's own settings (tests/conftest.py), run on a suite of two
tests: one passes, one is skipped. It runs once, in one worker: every
such run starts pytest and its workers anew, and costs seconds, and one
worker is enough to have the skip in a worker and the outcome decided in
the controller.

The suite runs in parallel, a process a core (pytest-xdist, in
pyproject.toml's addopts); a skip must still fail the run where CI forbids
skips (RETRO_NO_SKIPS=1), though the skip happens in a worker and the run's
outcome is decided in the controller.
"""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent


def run_a_suite_with_a_skip(tmp_path: Path, workers: str,
                            **env) -> tuple:
    suite = tmp_path / "tests"
    suite.mkdir()
    shutil.copy(HERE / "conftest.py", suite / "conftest.py")
    (suite / "test_one_skip.py").write_text(
        "import pytest\n\n\n"
        "def test_passes():\n    pass\n\n\n"
        "def test_is_skipped():\n    pytest.skip('a tool is missing')\n")
    environment = {key: value for key, value in os.environ.items()
                   if key not in ("RETRO_NO_SKIPS", "PYTEST_ADDOPTS")}
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-n", workers,
         "-p", "no:cacheprovider", "--rootdir", str(tmp_path), str(suite)],
        cwd=tmp_path, capture_output=True, text=True, timeout=120,
        env={**environment, **env})
    return done.returncode, done.stdout


def test_a_skip_fails_the_run_in_ci_in_parallel_too(tmp_path):
    status, said = run_a_suite_with_a_skip(tmp_path, "1", RETRO_NO_SKIPS="1")
    assert status == 1, said
    assert "1 passed, 1 skipped" in said  # the skip, not a failure, did it
    assert "1 test(s) skipped, and CI allows none" in said
