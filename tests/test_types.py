"""The contract between a game and its host, checked by a type checker."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def mypy(tmp_path: Path, *arguments: str) -> subprocess.CompletedProcess:
    """mypy as pyproject.toml configures it, with a cache of its own."""
    return subprocess.run(
        [sys.executable, "-m", "mypy", "--cache-dir", str(tmp_path / "cache"),
         *arguments], cwd=ROOT, capture_output=True, text=True, timeout=300)


def test_the_games_and_what_they_use_pass_the_type_checker(tmp_path):
    checked = mypy(tmp_path)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert checked.stdout.startswith("Success: no issues found")


def test_a_game_that_reaches_past_its_paper_is_caught(tmp_path):
    game = ("from retro.games.contract import Paper\n"
            "async def play(tty: Paper) -> None:\n"
            "    tty.say('HELLO')\n"
            "    await tty.drain()\n"  # the host's business, not the game's
            "    tty.pace.baud = 110\n")
    (tmp_path / "reaching.py").write_text(game, encoding="utf-8")
    checked = mypy(tmp_path, str(tmp_path / "reaching.py"))
    assert checked.returncode == 1, checked.stdout + checked.stderr
    assert '"Paper" has no attribute "drain"' in checked.stdout
    assert '"Paper" has no attribute "pace"' in checked.stdout
    assert "tty.say" not in checked.stdout
