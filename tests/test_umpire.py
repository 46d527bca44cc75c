"""The umpire: one game, tournaments over processes, the paper's tables, the CLI."""
from __future__ import annotations

import json
import math
import subprocess
import sys
from pathlib import Path

import pytest

from retro.cli import main
from retro.engines.machines import MACHINES
from retro.engines.umpire import (Tournament, game_rngs, play_game,
                                  render_table, standings, to_json, tournament)


class Constant:
    name = "constant"

    def __init__(self, side: int):
        self.side = side
        self.shown: list[int] = []

    def choose(self) -> int:
        return self.side

    def learn(self, opponent: int) -> None:
        self.shown.append(opponent)


def run(capsys, *argv):
    status = main(["umpire", *argv])
    out, err = capsys.readouterr()
    return status, out, err


# --- one game -----------------------------------------------------------------

def test_b_is_shown_the_opposite_of_as_play_and_a_wins_on_a_match():
    a, b = Constant(1), Constant(1)
    assert play_game(a, b, (3, 5)) == (3, 5)          # equal plays: A wins
    assert a.shown == [1] * 5 and b.shown == [0] * 5   # B sees the opposite
    assert play_game(Constant(1), Constant(0), (4,)) == (0,)


def test_a_tournament_does_not_depend_on_the_number_of_processes():
    one = tournament("seer", "scp", games=8, plays=(20, 60), seed=5, jobs=1)
    two = tournament("seer", "scp", games=8, plays=(20, 60), seed=5, jobs=2)
    assert one == two
    assert len(one.wins) == 8 and all(len(g) == 2 for g in one.wins)


def test_each_game_has_its_own_seed():
    short = tournament("mrm", "seer", games=5, plays=(50,), seed=9)
    longer = tournament("mrm", "seer", games=10, plays=(50,), seed=9)
    assert longer.wins[:5] == short.wins              # game i is game i
    assert len(set(longer.wins)) > 1                  # and games differ
    assert game_rngs(9, 1)[0].random() != game_rngs(9, 2)[0].random()
    assert game_rngs(9, 1)[0].random() != game_rngs(9, 1)[1].random()


def test_standings_are_means_with_normal_95_percent_intervals():
    result = Tournament("x", "y", (10, 20), 0, ((4, 9), (6, 11), (8, 13)))
    fifty, hundred = standings(result)
    assert (fifty.plays, fifty.a, fifty.b) == (10, 6.0, 4.0)
    assert hundred.a == 11.0 and hundred.b == 9.0
    assert math.isclose(fifty.half_width, 1.96 * 2.0 / math.sqrt(3))
    data = to_json(result)
    assert data["mean"] == {"10": [6.0, 4.0], "20": [11.0, 9.0]}
    assert "x against y: 3 games, seed 0" in render_table(result)


# --- the paper's tables -----------------------------------------------------------

PAPER = {  # Breazu et al. (2020), Tables 1-3: average wins of A - B
    ("seer", "mrm"): {50: 23.1, 100: 44.2, 200: 87.2},
    ("scp", "seer"): {50: 27.2, 100: 54.6, 200: 112.6},
    ("scp", "mrm"): {50: 28.6, 100: 57.3, 200: 113.7},
}


CHAPTER = Path(__file__).parent.parent / "literate" / "umpire.md"
TITLES = {("seer", "mrm"): "**Table 1, SEER against MRM**",
          ("scp", "seer"): "**Table 2, SCP against SEER**",
          ("scp", "mrm"): "**Table 3, SCP against MRM**"}


def chapter_rows(title: str) -> list[list[str]]:
    """The cells of the three rows of the chapter's table under `title`."""
    section = CHAPTER.read_text().split(title, 1)[1]
    lines = [line for line in section.splitlines() if line.startswith("| ")]
    return [[cell.strip() for cell in line.strip("|").split("|")]
            for line in lines[2:5]]


@pytest.fixture(scope="module")
def replayed():
    """The chapter's three tournaments: 300 games each, seed 1."""
    return {pairing: tournament(*pairing, games=300, plays=(50, 100, 200),
                                seed=1)
            for pairing in PAPER}


@pytest.mark.parametrize("pairing", list(PAPER))
def test_the_papers_tables_are_reproduced_within_about_two_wins(pairing,
                                                                 replayed):
    # the paper's own averages, of ten games each, have standard errors of
    # 1.0 to 1.9 wins; the largest difference, Table 2 at 100 plays, is 2.4
    for row in standings(replayed[pairing]):
        assert abs(row.a - PAPER[pairing][row.plays]) < 2.5, (pairing, row)


@pytest.mark.parametrize("pairing", list(PAPER))
def test_the_chapter_shows_the_tables_the_umpire_prints(pairing, replayed):
    rows = chapter_rows(TITLES[pairing])
    for row, (plays, paper, _, ours, difference) in zip(
            standings(replayed[pairing]), rows, strict=True):
        assert int(plays) == row.plays
        assert float(paper.split(" \u2013 ")[0]) == PAPER[pairing][row.plays]
        assert ours == (f"{row.a:.1f} \u2013 {row.b:.1f} "
                        f"(\u00b1 {row.half_width:.1f})")
        shown = float(difference.replace("\u2212", "-"))
        assert abs(shown - (row.a - PAPER[pairing][row.plays])) < 0.051


def test_the_chapter_shows_table_1_as_the_command_prints_it(replayed):
    text = CHAPTER.read_text()
    block = text.split("$ retro umpire seer mrm --games 300 --seed 1\n", 1)[1]
    assert block.split("```", 1)[0].strip("\n") == \
        render_table(replayed["seer", "mrm"])


def test_the_mixer_table_is_the_same_in_both_chapters():
    def table(chapter: str) -> list[str]:
        text = (CHAPTER.parent / chapter).read_text()
        section = text.split("| B | mixer\u2013B after 50 |", 1)[1]
        return section.split("\n\n", 1)[0].splitlines()
    assert table("umpire.md") == table("mixer.md")


def test_mrm_beats_seer_about_55_45():
    result = tournament("seer", "mrm", games=150, plays=(100,), seed=2)
    (row,) = standings(result)
    assert 54 < row.b < 58


# --- the command --------------------------------------------------------------------

def test_json_maps_each_length_to_both_means(capsys):
    status, out, err = run(capsys, "seer", "mrm", "--games", "12",
                           "--plays", "10,30", "--seed", "3", "--json",
                           "--jobs", "1")
    assert status == 0 and err == ""
    data = json.loads(out)
    assert set(data["mean"]) == {"10", "30"}
    for length, (a, b) in data["mean"].items():
        assert math.isclose(a + b, int(length))
    assert data["games"] == 12 and data["seed"] == 3


def test_the_table_has_a_row_per_length(capsys):
    status, out, _ = run(capsys, "coin", "seer", "--games", "6", "--seed", "1",
                         "--jobs", "1")
    assert status == 0
    lines = out.splitlines()
    assert lines[0] == ("coin against seer: 6 games, seed 1 "
                        "(mean wins, 95% interval)")
    rows = [line.split() for line in lines[3:]]
    assert [row[0] for row in rows] == ["50", "100", "200"]
    assert all(row[2] == "\u00b1" for row in rows)


def test_a_seed_before_the_subcommand_counts(capsys):
    assert main(["--seed", "4", "umpire", "seer", "mrm", "--games", "3",
                 "--json", "--jobs", "1"]) == 0
    before = json.loads(capsys.readouterr().out)
    main(["umpire", "seer", "mrm", "--games", "3", "--json", "--seed", "4",
          "--jobs", "1"])
    after = json.loads(capsys.readouterr().out)
    assert before == after and before["seed"] == 4


def test_without_a_seed_the_umpire_picks_one_and_says_so(capsys):
    status, out, _ = run(capsys, "coin", "coin", "--games", "2", "--json")
    assert status == 0 and isinstance(json.loads(out)["seed"], int)


def test_list_prints_one_machine_per_line_name_first(capsys):
    status, out, _ = run(capsys, "--list")
    assert status == 0
    lines = out.splitlines()
    assert [line.split()[0] for line in lines] == list(MACHINES)
    assert all(len(line.split()) > 1 for line in lines)


@pytest.mark.parametrize("argv, words", [
    (["seer", "hal9000"], "hal9000"),
    (["seer"], "two machines"),
    ([], "two machines"),
])
def test_mistakes_are_one_line_and_status_2(capsys, argv, words):
    status, out, err = run(capsys, *argv)
    assert status == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and words in err
    assert err.startswith("retro: ") and "Traceback" not in err


@pytest.mark.parametrize("option", [["--games", "0"], ["--plays", "50,x"],
                                    ["--plays", "0"], ["--jobs", "-1"],
                                    ["--games", "lots"]])
def test_bad_numbers_are_usage_errors(capsys, option):
    with pytest.raises(SystemExit) as stop:
        main(["umpire", "seer", "mrm", *option])
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err and "retro umpire: error:" in err


def test_the_command_spreads_games_over_processes():
    # the real thing, through `python -m retro`, with two worker processes
    def umpire(jobs):
        done = subprocess.run(
            [sys.executable, "-m", "retro", "umpire", "scp", "mixer",
             "--games", "6", "--plays", "40", "--seed", "8", "--json",
             "--jobs", str(jobs)], capture_output=True, text=True, timeout=60)
        assert done.returncode == 0, done.stderr
        return json.loads(done.stdout)
    assert umpire(2) == umpire(1)
