"""The umpire: one game, tournaments over processes, the paper's tables, the CLI."""
from __future__ import annotations

import json
import math
import re
import statistics
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import assume, given, settings, strategies as st

from retro.cli import main
from retro.engines import umpire
from retro.engines.entrants import ENTRANTS, MACHINES, PLAYERS
from retro.engines.umpire import (MAX_LENGTH, WORK_LIMIT, TournamentError,
                                  check_work, fold, game_rngs, most_games,
                                  one_game, play_game, render_table,
                                  seconds_of_work, standings, tasks, to_json,
                                  tournament)


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
    assert one.games == 8 and len(one.totals) == len(one.squares) == 2


def test_each_game_has_its_own_seed():
    games = [one_game(task) for task in tasks("mrm", "seer", (50,), 9, 10)]
    short = tournament("mrm", "seer", games=5, plays=(50,), seed=9)
    longer = tournament("mrm", "seer", games=10, plays=(50,), seed=9)
    assert short == fold("mrm", "seer", (50,), 9, games[:5])  # game i is game i
    assert longer == fold("mrm", "seer", (50,), 9, games)
    assert len(set(games)) > 1                                # and games differ
    assert game_rngs(9, 1)[0].random() != game_rngs(9, 2)[0].random()
    assert game_rngs(9, 1)[0].random() != game_rngs(9, 1)[1].random()


def test_standings_are_means_with_normal_95_percent_intervals():
    result = fold("x", "y", (10, 20), 0, [(4, 9), (6, 11), (8, 13)])
    fifty, hundred = standings(result)
    assert (fifty.plays, fifty.a, fifty.b) == (10, 6.0, 4.0)
    assert hundred.a == 11.0 and hundred.b == 9.0
    assert math.isclose(fifty.half_width, 1.96 * 2.0 / math.sqrt(3))
    data = to_json(result)
    assert data["mean"] == {"10": [6.0, 4.0], "20": [11.0, 9.0]}
    assert "x against y: 3 games, seed 0" in render_table(result)
    one = fold("x", "y", (10,), 0, [(4,)])
    assert "x against y: 1 game, seed 0" in render_table(one)
    assert standings(one)[0].half_width == 0.0


@settings(max_examples=80, deadline=None)
@given(st.lists(st.lists(st.integers(0, 300), min_size=2, max_size=2),
                min_size=2, max_size=40), st.randoms(use_true_random=False))
def test_the_sums_give_the_means_and_spreads_of_the_games_in_any_order(
        wins, rng):
    # a tournament keeps sums, not games: the standings must be what the
    # list of games would give, whatever order the workers return them in
    games = [tuple(game) for game in wins]
    shuffled = games[:]
    rng.shuffle(shuffled)
    result = fold("x", "y", (300, 301), 0, games)
    assert result == fold("x", "y", (300, 301), 0, shuffled)
    for i, row in enumerate(standings(result)):
        column = [game[i] for game in games]
        assert row.a == statistics.fmean(column)
        width = 1.96 * statistics.stdev(column) / math.sqrt(len(column))
        assert math.isclose(row.half_width, width, rel_tol=1e-12,
                            abs_tol=1e-12)


def test_a_tournament_streams_its_games(monkeypatch):
    # the tasks are made one at a time, as the games are played: a
    # tournament of 10^15 games (were it allowed) would start at once
    made = iter(tasks("seer", "mrm", (50,), 1, 10 ** 15))
    assert next(made) == ("seer", "mrm", (50,), 1, 0)
    assert next(made)[-1] == 1
    monkeypatch.setattr(umpire, "WORK_LIMIT", float("inf"))
    played = []

    class Enough(Exception):
        pass

    def one_game(task):
        played.append(task[-1])
        if len(played) == 3:
            raise Enough
        return (1,)
    monkeypatch.setattr(umpire, "one_game", one_game)
    with pytest.raises(Enough):
        tournament("seer", "mrm", games=10 ** 15, plays=(50,), seed=1,
                   jobs=1)
    assert played == [0, 1, 2]


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
    named = [line for line in lines if not line.startswith(" ")]
    assert [line.split()[0] for line in named] == list(MACHINES) + list(PLAYERS)
    kinds = [line.split()[1] for line in named]
    assert kinds == [entrant.kind for entrant in ENTRANTS.values()]
    assert kinds[-len(PLAYERS):] == ["person"] * len(PLAYERS)
    # three columns that line up whatever the names, folded under themselves
    columns = {tuple(word.start() for word in re.finditer(r"\S+", line))[1:3]
               for line in named}
    assert len(columns) == 1
    (description,) = {column for _, column in columns}
    assert all(line[:description].isspace() for line in lines
               if line.startswith(" "))
    assert max(map(len, lines)) <= 79


@pytest.mark.parametrize("argv, words", [
    (["seer", "hal9000"], '"hal9000"'),
    (["seer", "x" * 100_000], '"' + "x" * 20 + '..."'),
    (["\u0663", "mrm"], '"\u0663"'),
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


# --- the limits -----------------------------------------------------------------------

@settings(max_examples=60, deadline=None)
@given(a=st.sampled_from(list(MACHINES) + ["unknown"]),
       b=st.sampled_from(list(MACHINES)),
       length=st.integers(1, MAX_LENGTH))
def test_the_umpire_plays_up_to_a_minutes_work_and_no_more(a, b, length):
    most = most_games(a, b, length)
    assert most >= 1
    check_work(a, b, most, (length,))           # accepted
    assert seconds_of_work(a, b, most, (1, length)) <= WORK_LIMIT
    with pytest.raises(TournamentError) as refused:
        check_work(a, b, most + 1, (length,))
    message = str(refused.value)
    assert "\n" not in message and f"({most} game" in message


@pytest.mark.parametrize("games, plays", [
    (0, (50,)), (1, ()), (1, (0, 50)), (1, (MAX_LENGTH + 1,)),
    (10 ** 30, (1,))])
def test_a_tournament_out_of_bounds_is_refused_before_any_game(
        monkeypatch, games, plays):
    monkeypatch.setattr(umpire, "one_game", None)   # any game would fail
    with pytest.raises(TournamentError):
        tournament("seer", "mrm", games=games, plays=plays, seed=1)


def test_the_chapter_shows_the_limits_the_umpire_keeps(capsys):
    text = CHAPTER.read_text()
    for a, b, label in (("coin", "coin", "coin against coin"),
                        ("seer", "mrm", "SEER against MRM"),
                        ("mixer", "mixer", "mixer against mixer")):
        assert f"| {label} | {most_games(a, b, 200)} games |" in text
    example = text.split("$ retro umpire mixer mixer --games 100000\n", 1)[1]
    status, out, err = run(capsys, "mixer", "mixer", "--games", "100000")
    assert status == 2 and out == ""
    assert err.count("\n") == 1               # one line, which the page folds
    assert " ".join(err.split()) == " ".join(example.split("```")[0].split())


UNICODE_DIGITS = st.characters(categories=("Nd", "No"),
                               exclude_characters="0123456789")
HOSTILE = st.one_of(
    st.sampled_from(["\u0663", "\u00b2", "\u2463", "1" * 5000,
                     "-" + "1" * 5000, "-1", "0", "9" * 19, "9" * 23, "",
                     " ", "x", "1e9", "0x10", "1_000", "+5", "5.0", "\x00",
                     "1\n2", "\u0661\u0660", "50,\u0663", "50,,100"]),
    st.text(UNICODE_DIGITS, min_size=1, max_size=30),
    st.integers(max_value=0).map(str),
    st.integers(min_value=10 ** 18).map(str),
    st.text(max_size=30).filter(lambda s: not s.strip().isascii()
                                or not s.strip().isdigit()),
)
NUMERIC_OPTIONS = ["--games", "--plays", "--jobs", "--seed"]


@settings(max_examples=150, deadline=None)
@given(option=st.sampled_from(NUMERIC_OPTIONS), value=HOSTILE,
       joined=st.booleans())
def test_every_numeric_option_refuses_hostile_values_in_one_line(
        option, value, joined):
    if option == "--seed":
        assume(not re.fullmatch(r"\s*-?0+\s*", value))   # 0 is a good seed
    argv = ["umpire", "seer", "mrm", "--jobs", "1"]
    argv += [f"{option}={value}"] if joined else [option, value]
    status, err = refused(argv)
    assert status == 2
    assert len(err.strip("\n").splitlines()) == 1 and "Traceback" not in err
    assert err.startswith("retro")


@settings(max_examples=60, deadline=None)
@given(games=st.integers(1, 10 ** 18), length=st.integers(1, MAX_LENGTH),
       a=st.sampled_from(list(MACHINES)), b=st.sampled_from(list(MACHINES)))
def test_games_and_lengths_beyond_a_minutes_work_are_one_line_and_status_2(
        games, length, a, b):
    argv = ["umpire", a, b, "--games", str(games), "--plays", str(length),
            "--jobs", "1"]
    if seconds_of_work(a, b, games, (length,)) <= WORK_LIMIT:
        return                                       # this one would be played
    status, err = refused(argv)
    assert status == 2 and err.startswith("retro")
    assert len(err.strip("\n").splitlines()) == 1


def refused(argv: list[str]) -> tuple[int, str]:
    """Exit status and standard error of `retro ARGV`, which must not play."""
    import contextlib
    import io

    err = io.StringIO()
    original = umpire.one_game
    umpire.one_game = None                           # any game would fail
    try:
        with contextlib.redirect_stderr(err), \
                contextlib.redirect_stdout(io.StringIO()):
            try:
                status = main(argv)
            except SystemExit as stop:
                status = stop.code
    finally:
        umpire.one_game = original
    return status, err.getvalue()


def test_every_machine_and_player_has_a_cost_per_play():
    from retro.engines.entrants import MACHINES, PLAYERS
    from retro.engines.umpire import MICROSECONDS

    assert set(MACHINES) | set(PLAYERS) <= set(MICROSECONDS)


AUGURS_RIVALS = {"SEER": "seer", "MRM": "mrm", "SCP": "scp", "AWK": "awk",
                 "Flip": "flip"}


# a row a test: a row that no longer holds fails alone, and says which
@pytest.mark.parametrize("name", AUGURS_RIVALS)
def test_the_reader_chapters_table_of_augur_is_what_the_umpire_measures(name):
    # Augur's chapter, its own command and seed: the margin (wins less
    # losses after 200 plays) in every row, exactly as printed
    text = (CHAPTER.parent / "reader.md").read_text()
    section = text.split("| B | Augur, seed 1 | mixer, seed 1 |", 1)[1]
    rows = [line.strip("|").split("|") for line in section.splitlines()[2:7]]
    assert [row[0].strip() for row in rows] == list(AUGURS_RIVALS)
    (cell,) = [row[1] for row in rows if row[0].strip() == name]
    result = tournament("augur", AUGURS_RIVALS[name], games=300,
                        plays=(200,), seed=1, jobs=2)
    (standing,) = standings(result)
    assert cell.strip() == f"{standing.a - standing.b:.1f}", (name, cell)
