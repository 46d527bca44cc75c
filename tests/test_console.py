"""The room at a real terminal, as a player meets it (pexpect, a real pty).

Each test starts `retro` in a pseudo-terminal of a given size, with a home
directory of its own, and types as a person does: what is checked is what
the terminal shows.
"""
from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pexpect

from retro.engines.matchbox import fresh, learning_curve, robot_json
from retro.games.hexapawn_her import HER_KEY
from retro.services.store import FILENAME, Store

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
READY = "\x1b[?2004h"  # prompt_toolkit is about to draw a prompt
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b[>=]|\r")


def spawn(home: Path, *args: str, columns: int = 80,
          fast_paper: bool = False) -> pexpect.spawn:
    """`retro ARGS` in a terminal; with `fast_paper`, its paper's pace kept
    on a clock five times faster than the wall's (tests/fast_paper.py)."""
    env = dict(os.environ, RETRO_HOME=str(home), TERM="xterm",
               PROMPT_TOOLKIT_NO_CPR="1")
    command = [str(HERE / "fast_paper.py")] if fast_paper else ["-m", "retro"]
    return pexpect.spawn(sys.executable, [*command, *args], cwd=ROOT,
                         env=env, timeout=30, dimensions=(50, columns),
                         encoding="utf-8")


def shown(text: str) -> str:
    """What a terminal shows of `text`, without its escape sequences."""
    return ANSI.sub("", text)


def finish(child: pexpect.spawn) -> int:
    """Leave the room; the exit status."""
    child.sendline("quit")
    child.expect(pexpect.EOF)
    child.close()
    return child.exitstatus


def test_hers_curve_is_drawn_whole_at_80_and_at_40_columns(tmp_path):
    trained = json.loads(subprocess.run(
        [sys.executable, "-m", "retro", "hexapawn", "train", "--games", "60",
         "--opponent", "random", "--seed", "23", "--json"], cwd=ROOT,
        capture_output=True, text=True, check=True).stdout)["record"]
    assert len(trained) == 60 and trained.endswith("L")
    for columns in (80, 40):
        home = tmp_path / str(columns)
        home.mkdir()
        with Store.open(home / FILENAME) as store:  # HER, 59 games in
            store.put(HER_KEY, {"robot": robot_json(fresh("HER")),
                                "record": trained[:-1]})
        child = spawn(home, "play", "hexapawn", "--seed", "1962",
                      columns=columns)
        for move in ("8-5", "7-4", "4-1"):  # a game HER loses
            child.expect_exact("YOUR MOVE?")
            child.sendline(move)
        child.expect_exact("ANOTHER GAME (Y OR N)?")
        printed = shown(child.before)
        child.sendline("n")
        child.expect(pexpect.EOF)
        curve = learning_curve(trained)  # as the game of game 60 draws it
        assert curve in printed.replace("\n\n", "\n"), columns
        assert "HER LEARNING CURVE: 60 GAMES" in printed
        # and as `retro hexapawn train --curve` draws the same record
        train = subprocess.run(
            [sys.executable, "-m", "retro", "hexapawn", "train", "--games",
             "60", "--opponent", "random", "--seed", "23", "--curve"],
            cwd=ROOT, capture_output=True, text=True, check=True).stdout
        assert curve in train


def test_a_line_typed_while_the_paper_prints_is_echoed_and_answered(
        tmp_path):
    child = spawn(tmp_path, "--baud", "300", fast_paper=True)
    child.expect_exact("____")  # the banner has begun to print
    child.sendintr()  # enough of it: Ctrl-C stops the printing
    child.expect_exact("(To leave the room, type QUIT.)")
    child.expect_exact(READY)
    child.send("menu\r")
    child.expect_exact("The machines:")  # it prints, ten words a second
    child.send("look at 2\r")  # typed while the menu is still printing
    child.expect_exact("Type PLAY and a number or a name.")
    child.expect_exact("A terminal with a coin")  # answered in its turn
    assert "> look at 2" in shown(child.before)  # and shown as typed
    child.sendintr()
    assert finish(child) == 0


def test_ctrl_c_while_the_banner_prints_only_says_how_to_leave(tmp_path):
    child = spawn(tmp_path, "--baud", "110", fast_paper=True)
    child.expect_exact("____")  # the banner has begun to print
    child.sendintr()
    child.expect_exact("(To leave the room, type QUIT.)", timeout=60)
    assert child.isalive()
    assert finish(child) == 0


def test_three_ways_to_leave_a_game_say_one_thing(tmp_path):
    child = spawn(tmp_path)
    for leave in ("quit", "\x03", "\x04"):  # QUIT, Ctrl-C, Ctrl-D
        child.expect_exact(READY)
        child.sendline("play flip")
        child.expect_exact("EXPLANATION (Y OR N)?")
        child.send("n\r")
        child.expect_exact("BEGIN.")
        child.expect_exact("?")  # the first turn's question
        child.send(leave + ("\r" if leave == "quit" else ""))
        child.expect_exact("*** GAME ABANDONED ***")
        child.expect_exact("You are back in the machine room.")
    assert finish(child) == 0
    with Store.open(tmp_path / FILENAME) as store:
        assert store.results() == []  # nothing of an abandoned game


def test_menus_take_numbers_and_tab_keeps_the_case(tmp_path):
    child = spawn(tmp_path)
    child.expect_exact(READY)
    child.send("PLAY F\t")
    child.expect_exact("PLAY F")
    child.expect_exact("LIP")  # completed in capitals, as typed
    child.sendintr()  # the line is dropped, and the room asks again
    child.expect_exact("(To leave the room, type QUIT.)")
    child.expect_exact(READY)
    child.sendline("play 1")
    child.expect_exact("opponent (awk)?")
    child.sendline("3")  # the third machine of the numbered list
    child.expect_exact("This time your mind is read by seer")
    child.expect_exact("your play?")
    child.sendline("quit")
    child.expect_exact("*** GAME ABANDONED ***")
    assert finish(child) == 0


def test_at_40_columns_prose_is_folded_once_and_tables_keep_columns(
        tmp_path):
    child = spawn(tmp_path, columns=40)
    child.expect_exact(READY)
    child.sendline("help")
    child.expect_exact("You can type:")
    child.expect_exact("starts again.")  # the last row of the help
    rows = shown(child.before).splitlines()
    look = next(row for row in rows if row.startswith("  LOOK "))
    assert look.split("LOOK", 1)[1].strip().startswith("look around")
    column = len(look) - len(look.split("LOOK", 1)[1].lstrip())
    continued = [row for row in rows if row.startswith(" " * column)
                 and len(row) > column and row[column] != " "]
    assert continued and all(row[:column].isspace() for row in continued)
    assert all(len(row) <= 40 for row in rows)
    child.sendline("look")
    child.expect_exact("1. A grey relay cabinet")
    child.expect_exact(READY)
    said = shown(child.before).splitlines()
    assert said[1].startswith("   ") and said[1][3] != " "  # hangs at 3
    assert finish(child) == 0
