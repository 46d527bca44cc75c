"""The tangler stands alone: it repairs a tree whose other modules are broken.

Each test works on a scratch copy of the project (its chapters, its package
and pyproject.toml), runs `python -m retro tangle ...` there as a user would,
with the scratch copy first on the import path, and looks at what a user sees.
"""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
BROKEN = "retro/games/penney.py"
MISSING = "retro/engines/seer.py"


@pytest.fixture
def scratch(tmp_path) -> Path:
    """A copy of the project, with one game module broken and one engine gone."""
    for name in ("literate", "retro"):
        shutil.copytree(ROOT / name, tmp_path / name,
                        ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    broken = tmp_path / BROKEN
    broken.write_text(broken.read_text() + "\ndef oops(:\n")
    (tmp_path / MISSING).unlink()
    return tmp_path


def retro(project: Path, *args: str) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=str(project))
    return subprocess.run([sys.executable, *args], cwd=project, env=env,
                          capture_output=True, text=True, timeout=120)


def test_the_scratch_copy_is_the_package_that_runs(scratch):
    result = retro(scratch, "-c", "import retro.book.tangle as t; print(t.__file__)")
    assert Path(result.stdout.strip()).is_relative_to(scratch), result.stderr


def test_check_tangle_and_where_survive_a_broken_game_and_a_missing_engine(scratch):
    check = retro(scratch, "-m", "retro", "tangle", "--check")
    assert check.returncode == 1, check.stdout + check.stderr
    assert "Traceback" not in check.stderr
    assert f"{BROKEN} would change" in check.stdout
    assert f"{MISSING} would change" in check.stdout

    tangled = retro(scratch, "-m", "retro", "tangle")
    assert tangled.returncode == 0, tangled.stdout + tangled.stderr
    assert f"wrote {BROKEN}" in tangled.stdout
    assert f"wrote {MISSING}" in tangled.stdout
    assert (scratch / BROKEN).read_bytes() == (ROOT / BROKEN).read_bytes()
    assert (scratch / MISSING).read_bytes() == (ROOT / MISSING).read_bytes()

    again = retro(scratch, "-m", "retro", "tangle", "--check")
    assert again.returncode == 0, again.stdout + again.stderr
    assert "up to date" in again.stdout


def test_where_answers_while_a_game_is_broken(scratch):
    where = retro(scratch, "-m", "retro", "tangle", "--where",
                  "retro/book/tangle.py:40")
    assert where.returncode == 0, where.stderr
    assert "Traceback" not in where.stderr
    assert where.stdout.startswith("literate/tangle.md:")


def imported_modules(stderr: str) -> list[str]:
    """The module names in the report of `python -X importtime`."""
    return [line.rsplit("|", 1)[1].strip() for line in stderr.splitlines()
            if line.startswith("import time:") and "|" in line]


def test_tangle_check_imports_nothing_of_the_games_engines_or_room():
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    result = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "retro", "tangle", "--check"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    modules = imported_modules(result.stderr)
    assert "retro.book.tangle" in modules and "Traceback" not in result.stderr
    retro_modules = [name for name in modules if name.startswith("retro")]
    assert not [name for name in retro_modules
                if name.startswith(("retro.games", "retro.engines", "retro.rooms", "retro.services"))]
    assert set(retro_modules) <= {"retro", "retro.cli", "retro.book",
                                  "retro.book.tangle"}
