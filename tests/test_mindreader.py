"""The mind reader: the engine, the game at the teletype, and the port
checked against the original AWK program (assembled at test time from the
LiteratePrograms page among the source documents, tests/sources.py, and run
under mawk by tests/mindreader_awk.py)."""
from __future__ import annotations

import argparse
import asyncio
import importlib
import io
import json
import os
import random
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, strategies as st

from retro.engines import entrants, machines
from retro.engines.machines import HEADS, TAILS
from retro.engines.mindreader import (AwkMachine, Mind, Score, consult,
                                      situation, update, verdict)
from retro.games import mindreader as mr
from retro.games.contract import add_options
from retro.games.mindreader import read_play
from retro.engines import mindreader as engine
from retro.services.store import Store
from retro.services.teletype import Carriage, StreamTeletype

sys.path.insert(0, str(Path(__file__).parent))  # the helpers beside this file
import mindreader_awk as awk  # noqa: E402
from mindreader_awk import PLAYERS, Replay, play_port  # noqa: E402
import recording  # noqa: E402
from recording import Recording, front_end, squashed  # noqa: E402
from sources import source_text  # noqa: E402

TRANSCRIPTS = Path(__file__).parent / "transcripts"
DATA = Path(__file__).parent / "data"

needs_mawk = pytest.mark.skipif(awk.mawk() is None, reason="mawk not installed")


def run(answers: str, *, seed: int = 7, store=None, **options) -> str:
    out = io.StringIO()
    recording.play("mindreader", StreamTeletype(io.StringIO(answers), out),
                   store=store, seed=seed, **options)
    return out.getvalue()


def choose_opponent(answers: str, out: io.StringIO) -> str | None:
    """The opponent question alone, with `answers` typed at it."""
    tty = StreamTeletype(io.StringIO(answers), out)
    return asyncio.run(mr.choose_opponent(tty))


# --- the engine ---------------------------------------------------------------

def test_situations_number_the_three_facts_as_bits():
    # won the round before last (4), changed play (2), won the last round (1)
    assert situation(Mind()) is None
    assert situation(Mind(plays=(1,), guesses=(0,))) is None
    assert situation(Mind(plays=(1, 1), guesses=(1, 1))) == 0
    assert situation(Mind(plays=(1, 1), guesses=(0, 1))) == 4
    assert situation(Mind(plays=(1, 0), guesses=(1, 0))) == 2
    assert situation(Mind(plays=(1, 1), guesses=(1, 0))) == 1
    assert situation(Mind(plays=(0, 1), guesses=(1, 0))) == 7


@pytest.mark.parametrize("plays, guesses, name", [
    ((HEADS, HEADS), (TAILS, TAILS), "WSW"),   # won, stayed, won
    ((HEADS, TAILS), (HEADS, TAILS), "LDL"),   # lost, changed, lost
    ((TAILS, HEADS), (HEADS, TAILS), "WDW"),
    ((HEADS, HEADS), (HEADS, HEADS), "LSL"),
    ((TAILS, TAILS), (HEADS, TAILS), "WSL"),
])
def test_situations_are_numbered_as_the_machines_number_them(plays, guesses, name):
    number = situation(Mind(plays=plays, guesses=guesses))
    assert machines.SITUATION_NAMES[number] == name
    facts = [letter in "WD" for letter in name]
    assert machines.situation(*facts) == number


def mind_with(t: int, last: int = HEADS) -> Mind:
    mind = Mind(plays=(last, last), guesses=(last, last))  # situation 0
    return Mind(tally=(t,) + (0,) * 7, plays=mind.plays, guesses=mind.guesses)


@pytest.mark.parametrize("t, draws, expected", [
    (-5, [], TAILS), (-2, [], TAILS),          # certain: the opposite
    (2, [], HEADS), (9, [], HEADS),            # certain: the same again
    (-1, [0.25], TAILS), (-1, [0.2499], HEADS),  # int(rand()+.75): 3 in 4
    (1, [0.25], HEADS), (1, [0.2499], TAILS),
    (0, [0.5], HEADS), (0, [0.4999], TAILS),   # int(rand()+.5): even
])
def test_consult_follows_the_tally_with_the_awk_odds(t, draws, expected):
    rng = Replay(draws)
    assert consult(mind_with(t), rng) == expected
    assert rng.used == len(draws)  # a random number exactly when the AWK draws one


def test_the_first_two_rounds_are_coin_tosses_and_leave_the_tallies_alone():
    mind = Mind()
    for play, guess in [(HEADS, TAILS), (TAILS, TAILS)]:
        assert consult(mind, Replay([0.7])) == HEADS
        mind = update(mind, play, guess)
        assert mind.tally == (0,) * 8
    assert mind.plays == (HEADS, TAILS) and mind.guesses == (TAILS, TAILS)
    # third round: situation won-before-last (4), changed (2), lost last (0)
    assert update(mind, TAILS, HEADS).tally[6] == 1   # stayed with tails
    assert update(mind, HEADS, HEADS).tally[6] == -1  # changed to heads


@given(st.lists(st.tuples(st.integers(0, 1), st.integers(0, 1)), max_size=60))
def test_every_round_after_the_second_moves_one_tally_by_one(rounds):
    mind, stays = Mind(), 0
    for i, (play, guess) in enumerate(rounds):
        if i >= 2:
            stays += 1 if play == mind.plays[-1] else -1
        before = mind.tally
        mind = update(mind, play, guess)
        moved = sum(abs(a - b) for a, b in zip(before, mind.tally))
        assert moved == (1 if i >= 2 else 0)
    assert sum(mind.tally) == stays
    assert len(mind.plays) == len(mind.guesses) == min(len(rounds), 2)


def test_the_machine_learns_a_player_who_never_changes():
    machine = AwkMachine(random.Random(3))
    guesses = []
    for _ in range(40):
        guesses.append(machine.choose())
        machine.learn(HEADS)
    assert guesses[-20:] == [HEADS] * 20


def test_learn_before_choose_is_an_error():
    with pytest.raises(RuntimeError):
        AwkMachine(random.Random(1)).learn(HEADS)


def test_read_play_takes_only_the_four_words_in_any_case():
    for word, side in [("h", HEADS), ("H", HEADS), ("heads", HEADS),
                       ("HeAdS", HEADS), ("t", TAILS), ("Tails", TAILS),
                       (" t ", TAILS)]:
        assert read_play(word) == side
    for word in ["", "hello", "help", "tell me", "x", "head", "tail", "ht"]:
        assert read_play(word) is None


@pytest.mark.parametrize("score, words", [
    (Score(10, 10), None),
    (Score(30, 10), "You win -- up by 20"),
    (Score(3, 23), "I win -- up by 20"),
    (Score(50, 50), "We drew the match, 50 games each."),  # the AWK: "You won ... by 0"
    (Score(40, 60), "I won the match by 20 games."),       # 100 rounds checked first
    (Score(55, 45), "You won the match by 10 games."),
    (Score(59, 40), None),
])
def test_verdict(score, words):
    assert verdict(score) == words


# --- the game at the teletype ----------------------------------------------------

def test_transcript_with_a_fixed_seed():
    answers = (TRANSCRIPTS / "mindreader_seed7.in").read_text()
    expected = (TRANSCRIPTS / "mindreader_seed7.out").read_text()
    store = Store.memory()
    assert run(answers, seed=7, store=store) == expected
    [result] = store.results("mindreader")
    assert (result.score, result.outcome, result.seed) == ("42-58", "loss", 7)
    assert result.detail["opponent"] == "awk"
    assert result.detail["rounds"] == 100
    assert len(result.detail["plays"]) == len(result.detail["guesses"]) == 100


def test_the_chapter_shows_what_the_game_prints():
    chapter = (Path(__file__).parent.parent / "literate" / "mindreader.md").read_text()
    section = chapter.split("## A match at the teletype")[1]
    example = section.split("```")[1].strip("\n")
    printed = run("h\nt\nt\nh\nheads\n", seed=7)
    assert printed.startswith(example + "\n? \n")


def test_bad_lines_get_a_message_and_another_chance_and_change_nothing():
    plain = run("h\nt\nh\n")
    noisy = run("h\n\nhello\nx\nt\nh\n")
    assert noisy.count("Please play heads or tails (h or t), or quit.") == 3
    reports = lambda text: [line for line in text.splitlines() if line.startswith("You played")]
    assert reports(noisy) == reports(plain)


@given(st.lists(st.text(st.characters(blacklist_characters="\n",
                                      blacklist_categories=("Cs",)),
                        max_size=8), max_size=30))
def test_anything_typed_gets_an_answer_never_a_traceback(lines):
    out = run("".join(line + "\n" for line in lines))
    assert out.rstrip().endswith("T H A N K   Y O U   F O R   P L A Y I N G")
    typed_plays = sum(read_play(line.strip()) is not None for line in lines)
    assert out.count("You played") <= typed_plays


def test_the_seed_makes_the_machines_generator():
    # the game draws its chance from random.Random(seed), as the engine's
    # own match does with that generator: the same guesses, round by round
    typed = [HEADS, TAILS, TAILS, HEADS] + [HEADS] * 96
    store = Store.memory()
    letter = {HEADS: "h\n", TAILS: "t\n"}
    out = run("".join(letter[p] for p in typed), seed=7, store=store)
    port = play_port(lambda rounds: typed[len(rounds)], random.Random(7))
    reports = [line for line in out.splitlines() if line.startswith("You played")]
    assert reports == port.reports
    assert port.ending in out
    assert [r.score for r in store.results()] == [str(port.score)]


def test_end_of_input_ends_cleanly_and_records_nothing():
    store = Store.memory()
    out = run("h\nt\n", store=store)
    assert out.rstrip().endswith("T H A N K   Y O U   F O R   P L A Y I N G")
    assert store.results() == []


def test_quit_stops_the_match_unscored():
    store = Store.memory()
    out = run("h\nquit\nh\n", store=store)
    assert out.count("You played") == 1
    assert "T H A N K" in out
    assert store.results() == []


def test_a_player_who_never_changes_loses_by_twenty():
    store = Store.memory()
    out = run("h\n" * 100, seed=7, store=store)
    assert "I win -- up by 20" in out
    [result] = store.results()
    assert result.outcome == "loss" and result.score == "5-25"


def test_the_banner_says_once_whose_score_is_whose():
    out = run("h\nt\n")
    assert out.count("(yours-mine)") == 1
    assert out.index("(yours-mine)") < out.index("your play?")
    assert "You played heads; I guessed tails.  You win. (1-0)" in out


def test_help_prints_the_rules_and_asks_the_same_question_again():
    plain = run("h\nt\nh\n")
    helped = run("h\nhelp\nt\n?\nHELP\nh\n")
    rules = Carriage().fold(mr.RULES + "\n")  # folded as the paper folds it
    assert helped.count(rules) == 3
    assert "Please play" not in helped
    assert helped.count("? help\n" + rules + "? t\n") == 1
    reports = lambda text: [line for line in text.splitlines() if line.startswith("You played")]
    assert reports(helped) == reports(plain)
    assert "\n" not in mr.RULES  # a paragraph, for the page to fold


def test_a_match_of_another_length_counts_one_game_in_the_singular(
        monkeypatch):
    monkeypatch.setattr(engine, "ROUNDS", 99)
    assert verdict(Score(50, 49)) == "You won the match by 1 game."
    assert verdict(Score(48, 51)) == "I won the match by 3 games."
    assert engine.games(1) == "1 game" and engine.games(0) == "0 games"


# --- the store at the end of a match -------------------------------------------------

READ_ONLY = "the store is read-only"
BUSY = "the store is busy: another program is writing to it"


def store_file(tmp_path) -> Path:
    path = tmp_path / "retro.sqlite3"
    Store.open(path).close()
    return path


def read_only_store(path: Path) -> Store:
    """The store at `path` on a connection that cannot write (as root, file
    permissions would not stop it)."""
    return Store(sqlite3.connect(f"file:{path}?mode=ro", uri=True,
                                 isolation_level=None), path)


LOSING = "h\n" * 40   # the machine reads always-heads and wins by 20


def test_a_match_the_store_cannot_keep_says_so_in_one_line(tmp_path):
    path = store_file(tmp_path)
    store = read_only_store(path)
    out = run(LOSING, store=store)
    assert "I win -- up by 20" in out
    assert (f"NOT SAVED: the match, 5-25 against awk ({READ_ONLY}).\n"
            in out)
    assert out.rstrip().endswith(SIGN_OFF) and "Traceback" not in out
    store.close()
    with Store.open(path) as again:
        assert again.results() == []


def test_a_match_ending_while_another_program_holds_the_store(tmp_path):
    path = store_file(tmp_path)
    store = Store.open(path, timeout=0.1)
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    try:
        out = run(LOSING, store=store)
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    said = " ".join(out.split())                 # folded at 72 columns
    assert said.endswith(f"NOT SAVED: the match, 5-25 against awk ({BUSY}). "
                         + " ".join(SIGN_OFF.split()))
    run(LOSING, store=store)                     # free again: kept
    assert [r.score for r in store.results()] == ["5-25"]
    store.close()


# --- hostile input ---------------------------------------------------------------

def assert_the_roll_is_intact(tty: Recording, printed: str) -> None:
    """The roll is what was printed, and holds every question and its
    answer, in order (folding aside)."""
    assert tty.paper() == printed
    paper, at = squashed(printed), 0
    for prompt, answer in tty.asked:
        found = paper.find(squashed(prompt + answer), at)
        assert found >= 0, (prompt, answer[:40])
        at = found + len(squashed(prompt + answer))


# --- choosing the opponent ----------------------------------------------------------

SIGN_OFF = "T H A N K   Y O U   F O R   P L A Y I N G"


class Contrary:
    """A toy machine: always plays tails."""

    name = "contrary"

    def __init__(self, rng):
        pass

    def choose(self):
        return TAILS

    def learn(self, opponent):
        pass


def make_ghost(rng):
    """A machine whose module is missing."""
    importlib.import_module("retro.no_such_module")
    raise AssertionError("retro.no_such_module was imported")


@pytest.fixture
def registry(monkeypatch):
    """The registry with a toy machine and one whose module will not import."""
    every = dict(entrants.ENTRANTS)
    every["contrary"] = entrants.Entrant(Contrary, "always tails", 1, "rival")
    every["ghost"] = entrants.Entrant(make_ghost, "never built", 1, "rival")
    table = {name: entrant for name, entrant in every.items()
             if entrant.kind != "person"}
    monkeypatch.setattr(entrants, "ENTRANTS", every)
    monkeypatch.setattr(entrants, "MACHINES", table)
    return table


def test_the_opponents_are_the_registry_in_its_order_the_awk_machine_first():
    names = list(mr.opponents())
    assert names[0] == "awk"
    assert names == [name for name, entrant in entrants.MACHINES.items()
                     if entrant.kind != "rule"]  # the rules are bars, not foes
    assert mr.opponents()["seer"] == entrants.MACHINES["seer"].description
    assert mr.OPPONENTS == tuple(names)  # what --opponent accepts


def test_the_chapter_shows_the_question_as_the_game_asks_it():
    chapter = (Path(__file__).parent.parent / "literate" / "mindreader.md").read_text()
    section = chapter.split("## Choosing an opponent")[1]
    example = section.split("```")[1].strip("\n")
    typed = [line.split("? ", 1)[1] for line in example.splitlines()
             if line.startswith("opponent (awk)? ")]
    assert typed == ["hal", "4"]          # a wrong name, then a number
    printed = run("".join(line + "\n" for line in typed) + "h\n",
                  ask_opponent=True)
    assert printed.startswith(example + "\n" + mr.title_box("The Mind Reader", 72).splitlines()[0])
    assert "This time your mind is read by scp -- the Sibiu" in printed


def test_a_piped_session_that_chooses_its_opponent():
    """Answers in any case, a wrong name, then a match against MRM."""
    answers = (TRANSCRIPTS / "mindreader_opponent_seed5.in").read_text()
    expected = (TRANSCRIPTS / "mindreader_opponent_seed5.out").read_text()
    store = Store.memory()
    assert run(answers, seed=5, store=store, ask_opponent=True) == expected
    [result] = store.results("mindreader")
    assert result.detail["opponent"] == "mrm" and result.outcome == "loss"


def test_an_empty_answer_is_the_awk_machine_and_costs_no_chance():
    asked = run("\nh\nt\nh\n", ask_opponent=True)
    listing, match = asked.split("opponent (awk)? \n")
    assert listing.startswith("Which machine shall read your mind?\n")
    assert match == run("h\nt\nh\n")      # the very match `retro play` plays
    assert "your mind is read by" not in match


def test_a_wrong_name_gets_one_line_and_the_question_again():
    out = io.StringIO()
    assert choose_opponent("hal\nShannon's own\n  SEER  \n", out) == "seer"
    after = out.getvalue().split("opponent (awk)? hal\n", 1)[1]
    assert after.splitlines() == [
        'There is no machine called "hal"; pick a number or a name from the '
        'list.',
        "opponent (awk)? Shannon's own",
        'There is no machine called "Shannon\'s own"; pick a number or a name '
        'from',                           # one line, folded at 72 columns
        "the list.",
        "opponent (awk)? SEER"]


def test_a_number_picks_the_machine_in_that_place_on_the_list():
    names = list(mr.opponents())
    for number, name in enumerate(names, 1):
        out = io.StringIO()
        assert choose_opponent(f" {number} \n", out) == name
        assert f"  {number}. {name} " in out.getvalue()
    out = io.StringIO()
    beyond = len(names) + 1
    assert choose_opponent(f"0\n{beyond}\n\u0663\n\n", out) == "awk"
    assert out.getvalue().count("There is no machine called") == 3


def test_help_at_the_question_says_what_it_wants():
    out = io.StringIO()
    assert choose_opponent("help\n?\nmrm\n", out) == "mrm"
    assert " ".join(out.getvalue().split()).count(mr.OPPONENT_HELP) == 2
    assert "There is no machine" not in out.getvalue()


def test_quit_at_the_question_plays_no_match():
    store = Store.memory()
    out = run("quit\nh\n", store=store, ask_opponent=True)
    assert "your play?" not in out and "THE MIND READER" not in out
    assert out.rstrip().endswith(SIGN_OFF)
    assert store.results() == []


@pytest.mark.parametrize("answers", ["", "hal\n", "seer\n"])
def test_end_of_input_while_choosing_or_playing_ends_cleanly(answers):
    store = Store.memory()
    out = run(answers, store=store, ask_opponent=True)
    assert out.rstrip().endswith(SIGN_OFF)
    assert store.results() == []


def test_the_room_lets_the_player_pick_the_opponent(registry):
    store = Store.memory()
    out = run("contrary\n" + "h\n" * 20, store=store, ask_opponent=True)
    number = list(mr.opponents()).index("contrary") + 1
    assert f"  {number}. contrary  always tails" in out
    assert "This time your mind is read by contrary -- always tails." in out
    assert "You win -- up by 20" in out
    assert store.results()[0].detail["opponent"] == "contrary"


def test_a_machine_that_cannot_be_made_is_refused_in_one_message(registry):
    sorry = ('Sorry: the machine "ghost" cannot be loaded '
             "(No module named 'retro.no_such_module').")
    out = run("ghost\ncontrary\nh\n", ask_opponent=True)
    assert " ".join(out.split()).count(sorry) == 1   # folded at 72 columns
    assert "This time your mind is read by contrary" in out
    out = run("h\n", opponent="ghost")   # from the command line: no match
    assert " ".join(out.split()).startswith(sorry)
    assert out.rstrip().endswith(SIGN_OFF) and "your play?" not in out


@pytest.mark.parametrize("name", list(mr.opponents()))
def test_every_machine_of_the_registry_can_read_your_mind(name):
    out = run("h\nt\n" * 10, opponent=name)
    assert out.count("You played") == 20
    assert ("This time your mind is read by" in out) == (name != "awk")


def test_opponent_option(registry):
    # the option's choices are the registry's machines as the game module
    # found them, without the toy ones the fixture adds afterwards
    parser = argparse.ArgumentParser(prog="retro play mindreader", exit_on_error=False)
    add_options(parser, front_end("mindreader").options)
    assert parser.parse_args([]).opponent == "awk"
    assert parser.parse_args(["--opponent", "seer"]).opponent == "seer"
    assert parser.parse_args(["--opponent", "SEER"]).opponent == "seer"
    assert parser.parse_args(["--opponent", "Mixer"]).opponent == "mixer"
    for name in ("nobody", "contrary"):
        with pytest.raises(argparse.ArgumentError):
            parser.parse_args(["--opponent", name])
    assert "You win -- up by 20" in run("h\n" * 20, opponent="contrary")


# --- the port against the original AWK ---------------------------------------------

@pytest.fixture(scope="module")
def original(tmp_path_factory):
    """The AWK program, assembled from the LiteratePrograms page."""
    return awk.assemble(source_text(awk.PAGE),
                        tmp_path_factory.mktemp("mindreader_awk"))


def test_a_listing_is_assembled_from_its_chunks_in_the_roots_order():
    # A made-up page in the saved page's shape: references lost their angle
    # brackets, a chunk ends at a blank line, "Download code" ends the page.
    page = ("Some prose.\n\n<<greet>>=\n{ print \"hi\" }\n\nMore prose.\n\n"
            "<<main.awk>>=\nBEGIN\u00a0{ x = 1 }\ngreet\n<<bye>>\n\n"
            "<<bye>>=\nEND { print \"bye\" }\nDownload code\ntrailing text\n")
    page = page.replace("main.awk", "mindreader.awk")
    assert awk.extract_listing(page) == ('BEGIN { x = 1 }\n{ print "hi" }\n'
                                         'END { print "bye" }\n')


def test_the_original_is_the_pages_chunks_with_set_seed_still_commented(original):
    listing = original.listing.read_text().splitlines()
    assert listing[0] == "BEGIN\t{"
    assert '| An AWKward mind-reading machine                              |' \
        in " ".join(listing)
    seed_line = '#BEGIN\t{ "date +%s" | getline seed; srand(seed) }'
    assert listing.count(seed_line) == 1
    for chunk in ("set seed", "consult model", "get input", "report results",
                  "update model", "check for victory"):
        assert chunk not in listing   # every reference expanded in its place
    assert listing[-2:] == ['\tprint " T H A N K   Y O U   F O R   P L A Y I N G "',
                            "\t}"]
    assert original.set_seed.read_text() == "BEGIN\t{ srand(seed) }\n"


@needs_mawk
def test_the_assembled_original_replays_its_recorded_match(original):
    """The recording was made from the same page: it plays byte for byte."""
    lines = (TRANSCRIPTS / "mindreader_awk_seed3.in").read_text().split()
    recorded = (TRANSCRIPTS / "mindreader_awk_seed3.out").read_text()
    assert awk.run_awk(original, lines, seed=3) == recorded


def test_the_port_replays_a_recorded_awk_match_line_for_line():
    """tests/transcripts/mindreader_awk_seed3.out is the AWK's own output."""
    lines = (TRANSCRIPTS / "mindreader_awk_seed3.in").read_text().split()
    awk_out = (TRANSCRIPTS / "mindreader_awk_seed3.out").read_text()
    uniforms = [float(x) for x in (DATA / "mindreader_awk_seed3.rand").read_text().split()]
    typed = iter(read_play(x) for x in lines)
    port = play_port(lambda rounds: next(typed), Replay(uniforms))
    assert [m.group(0) for m in awk.REPORT.finditer(awk_out)] == port.reports
    assert port.ending in awk_out


@needs_mawk
def test_the_port_replays_live_awk_matches_line_for_line(original):
    same = awk.lockstep(original, range(1, 11))
    assert same == {name: 10 for name in PLAYERS}


DRAW_SEED = 4  # the first seed where mawk and the coin flipper end 50-50


@needs_mawk
def test_the_awk_announces_a_drawn_match_as_a_win_by_zero(original):
    # The port, given mawk's random numbers, plays the same 100 rounds and
    # calls the result a draw.
    awk_match = awk.play_awk(original, PLAYERS["coin flipper"](DRAW_SEED),
                             DRAW_SEED)
    assert awk_match.score == Score(50, 50)
    assert awk_match.ending == "You won the match by 0 games."
    port = play_port(PLAYERS["coin flipper"](DRAW_SEED),
                     Replay(awk.awk_uniforms(DRAW_SEED)))
    assert port.reports == awk_match.reports
    assert port.ending == "We drew the match, 50 games each."


@needs_mawk
def test_lockstep_catches_a_port_that_clips_its_tallies(original):
    same = awk.lockstep(original, range(1, 11),
                        awk.BROKEN["clips its tallies at +-2"])
    assert same["coin flipper"] < 10


@needs_mawk
@pytest.mark.parametrize("typed, reports", [
    # an empty line replays the previous play; a leading letter h is heads
    ("h\n\nhello\n", 3),
    # a leading space is not a play; quit is not a way out
    (" t\nquit\nh\n", 1),
])
def test_what_the_awk_does_with_lines_that_are_not_plays(original, typed,
                                                        reports):
    out = awk.run_awk(original, typed.splitlines(), seed=1)
    assert out.count("You played heads") == reports
    assert out.count("heads or tails? ") == 3 - reports


MEAN_SEEDS = range(1, 301)
Z_LIMIT = 4.0


@pytest.fixture(scope="module")
def reference():
    """mawk's figures for 2000 seeds (tests/mindreader_awk.py reference)."""
    return json.loads((DATA / "mindreader_awk_reference.json").read_text())


@pytest.mark.parametrize("name", list(PLAYERS))
def test_mean_final_scores_agree_with_the_awk(name, reference):
    """The port with Python's generator against mawk's own figures."""
    assert awk.worst_z(name, MEAN_SEEDS, reference) < Z_LIMIT


@pytest.mark.parametrize("label, player", [
    ("follows a tally of +-1 at even odds", "always heads"),
    ("follows a tally of +-1 always", "alternating"),
    ("ignores whether you won the round before last", "h h t repeated"),
])
def test_the_mean_check_would_catch_a_broken_port(label, player, reference):
    assert awk.worst_z(player, MEAN_SEEDS, reference, awk.BROKEN[label]) > Z_LIMIT


# --- the command line -------------------------------------------------------------

def test_retro_play_mindreader_prints_the_transcript(tmp_path):
    env = {**os.environ, "RETRO_HOME": str(tmp_path)}
    retro = [sys.executable, "-m", "retro", "play", "mindreader"]
    done = subprocess.run(retro + ["--seed", "7"], env=env, text=True,
                          input=(TRANSCRIPTS / "mindreader_seed7.in").read_text(),
                          capture_output=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout == (TRANSCRIPTS / "mindreader_seed7.out").read_text()
    bad = subprocess.run(retro + ["--opponent", "nobody"], env=env, text=True,
                         capture_output=True)
    assert bad.returncode == 2 and "invalid choice" in bad.stderr
    assert len(bad.stderr.splitlines()) == 1
    upper = subprocess.run(retro + ["--opponent", "MIXER", "--seed", "1"],
                           env=env, text=True, input="h\n",
                           capture_output=True)
    assert upper.returncode == 0, upper.stderr
    assert "This time your mind is read by mixer" in upper.stdout
