"""Every game SCORES lists can be played again from the command it prints.

Each test plays a sitting of a game as a player would, at the command line
or in the room, reads SCORES, runs the command SCORES prints for a game,
typed as printed with the same answers, and finds the same game: the same
score and the same outcome (and for a game begun from what was learned
before, the same start). Everything runs in a home directory of its own.
"""
from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

from retro.services.store import FILENAME, Store

ROOT = Path(__file__).resolve().parent.parent
TRANSCRIPTS = Path(__file__).parent / "transcripts"


def retro(home: Path, args: list[str], lines: list[str]) -> str:
    """`retro ARGS` with `lines` piped in; what it printed."""
    done = subprocess.run(
        [sys.executable, "-m", "retro", *args], cwd=ROOT, timeout=120,
        input="".join(line + "\n" for line in lines), capture_output=True,
        text=True, env={**os.environ, "RETRO_HOME": str(home)})
    assert done.returncode == 0 and done.stderr == "", done.stderr
    return done.stdout


def commands(home: Path) -> dict[int, list[str]]:
    """The replay command SCORES prints for each game, by its number."""
    said = retro(home, [], ["scores", "quit"])
    found = re.findall(r"^  #(\d+) .*\n {7}(retro play .*)$", said, re.M)
    return {int(number): shlex.split(command)[1:]
            for number, command in found}


def results(home: Path):
    with Store.open(home / FILENAME) as store:
        return store.results()


def test_a_match_against_another_machine_is_played_again(tmp_path):
    plays = ["h", "t", "t", "h", "h", "h", "t"] * 15
    retro(tmp_path, ["play", "mindreader", "--seed", "11", "--opponent",
                     "seer"], plays)
    [match] = results(tmp_path)
    command = commands(tmp_path)[match.number]
    assert command == ["play", "mindreader", "--seed", "11", "--opponent",
                       "seer"]  # the opponent named, as it changed the game
    retro(tmp_path, command, plays)
    again = results(tmp_path)[-1]
    assert (again.score, again.outcome, again.detail["plays"]) == \
        (match.score, match.outcome, match.detail["plays"])


def test_each_game_of_a_flip_sitting_is_played_again(tmp_path):
    first, second = ["y", "n"] * 25, ["n", "n", "y"] * 16 + ["y", "y"]
    retro(tmp_path, [], ["play 2", "n", *first, "y", "y", *second, "n",
                         "quit"])
    one, two = results(tmp_path)
    assert one.seed != two.seed  # each game of the sitting has its own
    said = commands(tmp_path)
    assert "--from" not in said[one.number]  # it began afresh
    assert said[two.number][-2:] == ["--from", str(two.number)]  # kept
    retro(tmp_path, said[one.number], ["n", *first, "n"])
    assert results(tmp_path)[-1].score == one.score
    replayed = retro(tmp_path, said[two.number], ["n", *second, "n"])
    yours = int(two.score.split("-")[0])
    assert f"YOU GOT {yours} OUT OF 50 CORRECT." in replayed
    assert len(results(tmp_path)) == 3  # a replay from a start keeps nothing


def test_each_game_against_her_is_played_again_against_her_as_she_was(
        tmp_path):
    typed = (TRANSCRIPTS / "hexapawn_seed1962.in").read_text().splitlines()
    again = typed.index("y")
    retro(tmp_path, ["play", "hexapawn", "--seed", "1962"], typed)
    one, two = results(tmp_path)
    said = commands(tmp_path)
    for game, answers in ((one, typed[:again]), (two, typed[again + 1:])):
        assert said[game.number][-2:] == ["--from", str(game.number)]
        replayed = retro(tmp_path, said[game.number], answers)
        won = "YOU WIN." in replayed
        assert won == (game.outcome == "win") and \
            ("HER WINS." in replayed) == (game.outcome == "loss")
        assert game.detail["moves"].split()[0] in replayed
    assert len(results(tmp_path)) == 2  # the lab's HER learned nothing


def test_each_bet_at_penneys_game_is_made_again(tmp_path):
    typed = (TRANSCRIPTS / "penney_bet_seed4.in").read_text().splitlines()
    retro(tmp_path, ["play", "penney", "--seed", "4"], typed)
    bets = results(tmp_path)
    said = commands(tmp_path)
    first, second = bets[:2]  # the machine picked first: n, its pattern,
    # ours, all; from the bankroll the first bet left, so from game 2
    assert said[first.number] == ["play", "penney", "--seed",
                                  str(first.seed)]
    assert said[second.number] == ["play", "penney", "--seed",
                                   str(second.seed), "--from",
                                   str(second.number)]
    replayed = retro(tmp_path, said[second.number], ["n", "HHH", "all", "q"])
    assert f"You have {second.detail['from']} pennies." in replayed
    assert f"I pick {second.detail['machine']}." in replayed
    assert "Tossing: " + " ".join(second.detail["tosses"]) in replayed
    won = "you win" if second.outcome == "win" else "I win"
    assert f"{won} {second.detail['stake']} pennies" in replayed
    assert results(tmp_path) == bets  # the replay kept nothing


def test_a_record_whose_words_are_not_plain_gets_no_command():
    from retro.rooms.reports import replay_command
    from retro.services.store import Result

    def made(**detail):
        return replay_command(Result("mindreader", "", "1-0", "win", 7,
                                     detail, "ada", 3))
    assert made(replay=["--opponent", "seer"]) == \
        "retro play mindreader --seed 7 --opponent seer"
    assert made(replay=["--opponent", "seer; rm -rf ~"]) is None
    assert made(replay="--opponent") is None
    assert made(replay=[], **{"from": {}}) == \
        "retro play mindreader --seed 7 --from 3"
    assert made() == "retro play mindreader --seed 7"  # an older record
