"""Flip: the engine (retro.engines.flip), the game at the teletype
(retro.games.flip), the machine, and the port checked against a BASIC program
(tests/data/flip.bas), run by the tiny interpreter in tests/flip_basic.py and
by PC-BASIC, a GW-BASIC emulator (for the stored reference figures, and for
one session on every run)."""
from __future__ import annotations

import argparse
import io
import json
import math
import random
import re
import sqlite3
import statistics
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from retro.common import next_seed
from retro.engines import flip as engine
from retro.engines import mindreader, umpire
from retro.engines.flip import (NO, YES, FlipMachine, History, Mind, autoplay,
                                chance_of_no, fresh_profile, learned, new_mind,
                                shifted)
from retro.games import flip
from retro.games.contract import add_options, defaults
from retro.games.flip import profile_table
from retro.services.store import Store, StoreError
from retro.services.teletype import StreamTeletype

HERE = Path(__file__).parent
sys.path.insert(0, str(HERE))  # the helper beside this file
import flip_basic  # noqa: E402
from flip_basic import STRATEGIES, guesses  # noqa: E402
from recording import command, front_end, play  # noqa: E402

TRANSCRIPTS = HERE / "transcripts"
ERROR = "ERROR, MUST BE  Y  OR  N  ."
CHAPTER = HERE.parent / "literate" / "flip.md"
BASIC = flip_basic.SOURCE.read_text()


def run(answers: str, *, seed: int = 5, store=None, **options) -> str:
    out = io.StringIO()
    play("flip", StreamTeletype(io.StringIO(answers), out), store=store,
         seed=seed, **options)
    return out.getvalue()


def forget(answers: str, store) -> str:
    """The room command FORGET FLIP, with `answers` typed at it."""
    out = io.StringIO()
    command("flip", "FORGET FLIP", StreamTeletype(io.StringIO(answers), out),
            store=store)
    return out.getvalue()


def bits(letters) -> list[int]:
    return [YES if letter == "Y" else NO for letter in letters]


def port_scores(strategy: str, seeds) -> list[int]:
    return [autoplay(bits(guesses(strategy, seed)), random.Random(seed)).score
            for seed in seeds]


# --- the engine ---------------------------------------------------------------

def test_situation_numbers_the_four_bits_as_the_listing_does():
    # I9 - 1 = 8*X(4) + 4*X(3) + 2*X(2) + X(1)
    assert History(1, 0, 0, 0).situation() == 1
    assert History(0, 1, 0, 0).situation() == 2
    assert History(0, 0, 1, 0).situation() == 4
    assert History(0, 0, 0, 1).situation() == 8
    assert sorted(History(a, b, c, d).situation() for a in (0, 1)
                  for b in (0, 1) for c in (0, 1) for d in (0, 1)) == list(range(16))


def test_history_shifts_by_one_turn():
    assert shifted(History(1, 0, 0, 1), YES, NO) == History(0, 1, 1, 0)


@pytest.mark.parametrize("estimate, expected", [
    (0.4, 0.3 * 0.4), (0.2, 0.3 * 0.2),
    (0.6, 0.3 * 0.6 + 0.7), (0.96, 0.3 * 0.96 + 0.7)])
def test_the_adjusted_chance_of_no(estimate, expected):
    assert chance_of_no(estimate, random.Random(0)) == pytest.approx(expected)


def test_an_unvisited_situation_draws_two_numbers_for_its_coin():
    rng, copy = random.Random(3), random.Random(3)
    mind = Mind(fresh_profile(), History(0, 0, 0, 0))
    got = engine.answer(mind, rng)
    z2, draw = copy.random(), copy.random()
    assert got == (NO if draw < z2 else YES)
    assert rng.random() == copy.random()  # exactly two were used


def test_a_visited_situation_draws_one_number():
    profile = list(fresh_profile())
    profile[0] = 0.6
    rng, copy = random.Random(4), random.Random(4)
    engine.answer(Mind(tuple(profile), History(0, 0, 0, 0)), rng)
    copy.random()
    assert rng.random() == copy.random()


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(0, 1), min_size=1, max_size=60),
       st.integers(0, 2 ** 32))
def test_each_turn_moves_one_estimate_a_fifth_of_the_way(turns, seed):
    rng = random.Random(seed)
    mind = new_mind(rng)
    for guess in turns:
        computer = engine.answer(mind, rng)
        after = learned(mind, guess, computer)
        where = mind.history.situation()
        changed = [i for i in range(16) if after.profile[i] != mind.profile[i]]
        assert set(changed) <= {where}
        assert after.profile[where] == pytest.approx(
            0.8 * mind.profile[where] + 0.2 * guess)
        assert all(0 <= p <= 1 for p in after.profile)
        assert after.history == shifted(mind.history, guess, computer)
        mind = after


def test_the_computer_bets_against_a_habit_it_has_learned():
    # after a game of yeses, the yes-situations say yes and it answers no
    game = autoplay([YES] * 50, random.Random(1))
    assert engine.estimate(game.mind) > 0.9
    rng = random.Random(2)
    answers = [engine.answer(game.mind, rng) for _ in range(2000)]
    assert answers.count(NO) > 1900


@pytest.mark.parametrize("estimate, no", [
    (0.2, 0.06), (0.4, 0.12), (0.6, 0.88), (0.9, 0.97)])
def test_how_often_the_computer_says_no(estimate, no):
    # Z2 = .3*Z1 below one half, .3*Z1 + .7 above it. The Java rule (no:
    # .048, .036, .964, .946) or a flat bet against the favourite (no: 0, 0,
    # 1, 1) misses by more than 0.02 (about 4 standard errors) somewhere
    profile = list(fresh_profile())
    profile[5] = estimate
    mind = Mind(tuple(profile), History(1, 0, 1, 0))
    rng = random.Random(f"no {estimate}")
    answers = [engine.answer(mind, rng) for _ in range(4000)]
    assert abs(answers.count(NO) / 4000 - no) < 0.02


def test_the_score_of_a_tiny_game_worked_by_hand():
    # a computer that answers Y, Y, N, N against the guesses Y, N, N, Y:
    # the first and the third turns match, so the score is 2
    told = iter([YES, YES, NO, NO])
    game = autoplay([YES, NO, NO, YES], random.Random(0),
                    rule=lambda mind, rng: next(told))
    assert game.answers == (YES, YES, NO, NO)
    assert game.score == 2


def test_the_score_is_the_asterisks_on_the_pinned_paper():
    # the engine, given the guesses typed in the pinned session, scores
    # what the paper shows: one asterisk for each turn won, and the total
    typed = (TRANSCRIPTS / "flip_seed5.in").read_text().split()
    paper = (TRANSCRIPTS / "flip_seed5.out").read_text()
    guesses = [word.upper() for word in typed[1:]
               if word.upper() in ("Y", "N")]
    game = autoplay(bits(guesses[:50]), random.Random(5))
    asterisks = sum(line.startswith("*") for line in paper.splitlines())
    printed = re.search(r"YOU GOT (\d+) OUT OF 50", paper)
    assert game.score == asterisks == int(printed.group(1))


# --- the game at the teletype ---------------------------------------------------

def test_a_whole_game_with_a_fixed_seed():
    answers = (TRANSCRIPTS / "flip_seed5.in").read_text()
    expected = (TRANSCRIPTS / "flip_seed5.out").read_text()
    store = Store.memory()
    assert run(answers, seed=5, store=store) == expected
    [result] = store.results("flip")
    assert (result.score, result.outcome, result.seed) == ("22-28", "loss", 5)
    assert len(result.detail["guesses"]) == len(result.detail["answers"]) == 50
    assert result.detail["guesses"].startswith("NYYNN")
    # the turns marked with an asterisk are the ones the record says were won
    lines = expected.splitlines()
    prompts = [line[0] for line in lines if line[1:3] == "? "]
    final = lines[lines.index("END OF GAME.") - 1]
    marks = prompts[1:] + [final[:1] or " "]
    won = [g == a for g, a in zip(result.detail["guesses"],
                                  result.detail["answers"])]
    assert [mark == "*" for mark in marks] == won


def test_retro_play_flip_types_the_pinned_game(tmp_path, monkeypatch):
    import subprocess
    monkeypatch.setenv("RETRO_HOME", str(tmp_path))
    answers = (TRANSCRIPTS / "flip_seed5.in").read_text()
    done = subprocess.run(
        [sys.executable, "-m", "retro", "play", "flip", "--seed", "5"],
        input=answers, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout == (TRANSCRIPTS / "flip_seed5.out").read_text()
    store = Store.open()
    try:
        [result] = store.results("flip")
    finally:
        store.close()
    assert (result.score, result.seed) == ("22-28", 5)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.text(max_size=8).filter(lambda t: "\n" not in t
                                           and "\r" not in t),
                max_size=120))
def test_anything_typed_gets_an_answer_never_a_traceback(lines):
    printed = run("".join(line + "\n" for line in lines))
    assert printed.startswith(" " * 24 + "FLIP")


def test_the_chapter_shows_what_the_game_prints():
    chapter = CHAPTER.read_text()
    printed = (TRANSCRIPTS / "flip_seed5.out").read_text()
    section = chapter.split("## A game at the teletype")[1]
    start, ending = section.split("```")[1], section.split("```")[3]
    assert printed.startswith(start.strip("\n") + "\n")
    assert ending.strip("\n") + "\n" in printed
    profile = chapter.split("## End of game")[1].split("```")[1].strip("\n")
    assert profile + "\n" in printed


def test_the_dialogue_order_explanation_first_play_again_last():
    printed = run("n\n" + "y\n" * 50 + "n\n", show_profile=False)
    prompts = [line for line in printed.splitlines() if "(Y OR N)" in line]
    assert prompts == ["EXPLANATION (Y OR N)? n", "PLAY AGAIN (Y OR N)? n"]
    assert "ON EACH TURN" not in printed
    assert printed.count("BEGIN.") == 1
    assert printed.rstrip().endswith("PLAY AGAIN (Y OR N)? n")


def test_lower_case_and_whole_words_are_read_by_their_first_letter():
    upper = run("N\n" + "Y\nN\n" * 25 + "N\n", seed=9)
    lower = run("no\n" + "yes\nnope\n" * 25 + "nah\n", seed=9)
    strip = lambda text: [line[:3] for line in text.splitlines()]
    assert strip(upper) == strip(lower)


@pytest.mark.parametrize("bad", ["", "x", "?", "42", "  ", "\t", "Ö"])
def test_bad_input_gets_the_error_and_another_chance(bad):
    printed = run(f"{bad}\nn\n" + f"{bad}\ny\n" + "y\n" * 49 + "n\n")
    assert printed.count("ERROR, MUST BE  Y  OR  N  .") == 2
    assert "END OF GAME." in printed


def test_end_of_input_ends_quietly_and_records_nothing():
    store = Store.memory()
    printed = run("n\n" + "y\n" * 20, store=store)
    assert "END OF GAME." not in printed
    assert store.results("flip") == []


class Interrupted(StreamTeletype):
    """A teletype whose player presses Ctrl-C at the `at`-th question."""

    def __init__(self, answers: str, at: int):
        super().__init__(io.StringIO(answers), io.StringIO())
        self.asked, self.at = 0, at

    async def ask(self, prompt, choices=(), **options):
        self.asked += 1
        if self.asked == self.at:
            raise KeyboardInterrupt
        return await super().ask(prompt, choices, **options)


SAVED = [0.2, 0.9] * 8


@pytest.mark.parametrize("at", [2, 30, 52, 53, 80])
def test_ctrl_c_never_spoils_the_saved_profile(at):
    # questions: 1 explanation, 2-51 the first game, 52 play again, 53 the
    # second game's first turn ... Ctrl-C at any of them keeps every game
    # that was over, with its profile, and nothing of the game in flight
    store = Store.memory()
    store.put(flip.PROFILE_KEY, SAVED)
    tty = Interrupted("n\n" + "y\n" * 50 + "y\n" + "n\n" * 50 + "n\n", at)
    if at == 52:  # at PLAY AGAIN, Ctrl-C ends the session, as N does
        assert play("flip", tty, store=store, seed=4, remember=True) == "over"
    else:
        with pytest.raises(KeyboardInterrupt):
            play("flip", tty, store=store, seed=4, remember=True)
    results = store.results("flip")
    if at <= 51:
        assert results == [] and store.get(flip.PROFILE_KEY) == SAVED
    else:
        rng = random.Random(4)
        game = autoplay([YES] * 50, rng, mind=new_mind(rng, tuple(SAVED)))
        assert [r.score for r in results] == [f"{game.score}-{50 - game.score}"]
        assert store.get(flip.PROFILE_KEY) == list(game.mind.profile)


def test_an_interrupt_while_saving_keeps_neither_result_nor_profile(
        monkeypatch):
    store = Store.memory()
    store.put(flip.PROFILE_KEY, SAVED)

    def ctrl_c(key, value):
        raise KeyboardInterrupt
    monkeypatch.setattr(store, "put", ctrl_c)
    with pytest.raises(KeyboardInterrupt):
        run("n\n" + "y\n" * 50 + "n\n", store=store, remember=True)
    monkeypatch.undo()
    assert store.results("flip") == []
    assert store.get(flip.PROFILE_KEY) == SAVED


def test_ctrl_c_at_retro_play_flip(tmp_path, monkeypatch):
    # a real SIGINT in the middle of the second game of a --remember
    # session: the first game and its profile stay, the second leaves no trace
    import signal
    import subprocess
    monkeypatch.setenv("RETRO_HOME", str(tmp_path))
    typed = "n\n" + "y\n" * 50 + "y\n" + "y\n" * 10
    child = subprocess.Popen(
        [sys.executable, "-m", "retro", "play", "flip", "--seed", "6",
         "--remember"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, text=True)
    child.stdin.write(typed)
    child.stdin.flush()
    echoed = 0
    while echoed < typed.count("\n"):  # wait until all ten are read
        line = child.stdout.readline()
        assert line, child.stderr.read()
        echoed += line.rstrip("\n").endswith(("? y", "? n"))
    child.send_signal(signal.SIGINT)
    rest, _ = child.communicate(timeout=60)
    assert child.returncode == 130
    assert "GAME ABANDONED" in rest
    store = Store.open()
    try:
        results, saved = store.results("flip"), store.get(flip.PROFILE_KEY)
    finally:
        store.close()
    rng = random.Random(6)
    game = autoplay([YES] * 50, rng)
    assert [r.score for r in results] == [f"{game.score}-{50 - game.score}"]
    assert saved == list(game.mind.profile)


def test_a_second_game_and_the_keep_question():
    store = Store.memory()
    printed = run("n\n" + "y\n" * 50 + "y\ny\n" + "y\n" * 50 + "n\n",
                  seed=11, store=store)
    assert "KEEP WHAT THE COMPUTER LEARNED (Y OR N)? y" in printed
    assert printed.count("BEGIN.") == 2
    first, second = store.results("flip")
    assert (first.detail["kept"], second.detail["kept"]) == (False, True)
    # the second game is the engine's game from the first game's profile
    rng = random.Random(11)
    one = autoplay([YES] * 50, rng)
    two = autoplay([YES] * 50, rng, mind=new_mind(rng, one.mind.profile))
    assert (first.score, second.score) == (f"{one.score}-{50 - one.score}",
                                           f"{two.score}-{50 - two.score}")


@pytest.mark.parametrize("keep", [True, False])
def test_the_keep_option_answers_the_question_in_advance(keep):
    store = Store.memory()
    printed = run("n\n" + "y\n" * 50 + "y\n" + "y\n" * 50 + "n\n",
                  seed=11, store=store, keep=keep)
    assert "KEEP WHAT" not in printed
    assert [r.detail["kept"] for r in store.results("flip")] == [False, keep]


def test_remember_carries_the_profile_across_sessions():
    store = Store.memory()
    first = run("n\n" + "y\n" * 50 + "n\n", seed=1, store=store, remember=True)
    assert "NO NOTES ON YOU YET" in first
    saved = store.get(flip.PROFILE_KEY)
    assert len(saved) == 16 and max(saved) > 0.9
    second = run("n\n" + "y\n" * 50 + "n\n", seed=2, store=store, remember=True)
    assert "REMEMBERS HOW YOU GUESSED" in second
    rng = random.Random(2)
    game = autoplay([YES] * 50, rng, mind=new_mind(rng, tuple(saved)))
    assert store.results("flip")[-1].score == f"{game.score}-{50 - game.score}"
    assert store.get(flip.PROFILE_KEY) == list(game.mind.profile)
    # a game without --remember neither reads nor changes the saved profile
    run("n\n" + "n\n" * 50 + "n\n", seed=3, store=store)
    assert store.get(flip.PROFILE_KEY) == list(game.mind.profile)


@pytest.mark.parametrize("junk", ["junk", [0.5] * 15, [2.0] * 16, {"a": 1},
                                  [True] * 16, ["0.5"] * 16, [-0.1] + [0.5] * 15])
def test_an_unreadable_saved_profile_is_set_aside_with_a_word(junk):
    store = Store.memory()
    notices = []
    store.notice = notices.append
    store.put(flip.PROFILE_KEY, junk)
    printed = run("n\n" + "y\n" * 50 + "n\n", store=store, remember=True)
    assert "NO NOTES ON YOU YET" in printed and "END OF GAME." in printed
    assert len(notices) == 1 and "flip.profile was damaged" in notices[0]
    assert store.get("flip.profile.damaged-1") == junk      # nothing lost
    assert flip.is_profile(store.get(flip.PROFILE_KEY))     # a new one saved


def test_the_profile_table():
    profile = list(fresh_profile())
    profile[History(YES, NO, YES, YES).situation()] = 0.2
    profile[History(NO, NO, NO, NO).situation()] = 0.6
    table = profile_table(profile).splitlines()
    top = table.index("TURN BEFORE   N/N  N/Y  Y/N  Y/Y")
    assert table[top + 1] == "    N/N        60   --   --   --"
    assert table[top + 3] == "    Y/N        --   --   --   20"
    assert "ESTIMATES" in " ".join(table[:top])  # the computer's beliefs
    assert all(len(line) <= 72 for line in table)


def test_a_good_score_is_a_win_as_the_game_says():
    said = run("y\n")  # the explanation, then the input ends
    good = int(re.search(r"A SCORE OF (\d+) OR MORE\s+IS GOOD", said).group(1))
    assert good == 24  # the listing's words
    assert [flip.outcome(n) for n in (50, good, good - 1, 0)] == \
        ["win", "win", "loss", "loss"]


def test_play_options():
    parser = argparse.ArgumentParser()
    add_options(parser, front_end("flip").options)
    assert vars(parser.parse_args([])) == defaults(front_end("flip")) == {
        "keep": None, "remember": False, "show_profile": True,
        "replay_of": None}
    assert parser.parse_args(["--from", "12"]).replay_of == 12
    assert parser.parse_args(["--keep"]).keep is True
    assert parser.parse_args(["--fresh"]).keep is False
    assert parser.parse_args(["--no-profile", "--remember"]).show_profile is False
    for clash in (["--keep", "--fresh"], ["--remember", "--fresh"],
                  ["--remember", "--keep"]):
        with pytest.raises(SystemExit):
            parser.parse_args(clash)


def test_remember_keeps_the_profile_from_game_to_game():
    store = Store.memory()
    printed = run("n\n" + "y\n" * 50 + "y\n" + "y\n" * 50 + "n\n",
                  seed=12, store=store, remember=True)
    assert "KEEP WHAT" not in printed
    assert [r.detail["kept"] for r in store.results("flip")] == [False, True]


def test_forget_flip_asks_first():
    store = Store.memory()
    assert "NO NOTES" in forget("", store)
    store.put(flip.PROFILE_KEY, [0.5] * 16)
    forget("n\n", store)
    assert store.get(flip.PROFILE_KEY) is not None
    forget("y\n", store)
    assert store.get(flip.PROFILE_KEY) is None
    assert {c.phrase for c in front_end("flip").commands} == {
        "PLAY FLIP WITH MEMORY", "FORGET FLIP"}


def test_play_flip_with_memory_from_the_room():
    store = Store.memory()
    out = io.StringIO()
    command("flip", "PLAY FLIP WITH MEMORY",
            StreamTeletype(io.StringIO("n\n" + "y\n" * 50 + "n\n"), out),
            store=store, seed=5)
    assert "END OF GAME." in out.getvalue()
    assert len(store.get(flip.PROFILE_KEY)) == 16
    assert store.results("flip")[-1].seed == 5


# --- quit and help ----------------------------------------------------------------

@pytest.mark.parametrize("word", ["q", "Q", "quit", "QUIT", " Quit "])
@pytest.mark.parametrize("where, before", [
    ("explanation", ""),
    ("a turn", "n\n" + "y\n" * 20),
    ("after an error", "n\n" + "y\n" * 20 + "maybe\n"),
    ("play again", "n\n" + "y\n" * 50),
    ("keep", "n\n" + "y\n" * 50 + "y\n"),
])
def test_quit_at_any_question_ends_the_session_keeping_finished_games(
        word, where, before):
    store = Store.memory()
    printed = run(before + word + "\n" + "y\n" * 60, store=store)
    assert printed.endswith(word.strip() + "\n")      # nothing after it
    assert ERROR not in printed.replace("? maybe\n" + ERROR, "")
    finished = 1 if where in ("play again", "keep") else 0
    assert len(store.results("flip")) == finished


def test_help_prints_a_paragraph_and_asks_the_same_question_again():
    plain = run("n\n" + "y\nn\n" * 25 + "n\n", seed=3)
    helped = run("help\nn\n" + "y\nHELP\nn\n" + "y\nn\n" * 24
                 + "Help\nn\n", seed=3)
    assert helped.count(flip.HELP) == 3 and ERROR not in helped
    assert "EXPLANATION (Y OR N)? help\n" + flip.HELP + \
        "\nEXPLANATION (Y OR N)? n" in helped
    assert all(len(line) <= 72 for line in flip.HELP.splitlines())
    # each HELP is its line and the paragraph, then the same question again:
    # without them the session is the plain one, marks, score and all
    without = re.sub(r"[^\n]*\? (?i:help)\n" + re.escape(flip.HELP) + "\n",
                     "", helped)
    assert without == plain


def test_other_bad_answers_still_get_the_listings_error():
    for bad in ("qq", "quitter", "helpme", "h", "?"):
        printed = run(f"{bad}\nn\n" + "y\n" * 50 + "n\n")
        assert printed.count(ERROR) == 1, bad


# --- a store that cannot be written ------------------------------------------------

READ_ONLY = "the store is read-only"
BUSY = "the store is busy: another program is writing to it"


def store_file(tmp_path, profile=None) -> Path:
    path = tmp_path / "retro.sqlite3"
    with Store.open(path) as store:
        if profile is not None:
            store.put(flip.PROFILE_KEY, profile)
    return path


def read_only_store(path: Path) -> Store:
    """The store at `path` on a connection that cannot write (as root, file
    permissions would not stop it)."""
    return Store(sqlite3.connect(f"file:{path}?mode=ro", uri=True,
                                 isolation_level=None), path, console="you")


def one_line(text: str) -> str:
    return " ".join(text.split())


def test_remember_with_a_read_only_store_says_what_was_not_saved(tmp_path):
    path = store_file(tmp_path, SAVED)
    store = read_only_store(path)
    printed = run("n\n" + "y\n" * 50 + "y\n" + "y\n" * 50 + "n\n",
                  store=store, remember=True)
    said = one_line(printed)
    assert "REMEMBERS HOW YOU GUESSED" in printed
    assert said.count("NOT SAVED: THIS GAME AND THE COMPUTER'S NOTES ON YOU "
                      f"({READ_ONLY}).") == 2
    assert printed.count("END OF GAME.") == 2          # the session went on
    assert printed.rstrip().endswith("PLAY AGAIN (Y OR N)? n")
    store.close()
    with Store.open(path) as again:
        assert again.results() == [] and again.get(flip.PROFILE_KEY) == SAVED


def test_a_game_ending_while_another_program_holds_the_store(tmp_path):
    path = store_file(tmp_path, SAVED)
    store = Store.open(path, timeout=0.1, console="you")
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    try:
        printed = run("n\n" + "y\n" * 50 + "n\n", store=store, remember=True)
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert (f"NOT SAVED: THIS GAME AND THE COMPUTER'S NOTES ON YOU ({BUSY})."
            in one_line(printed))
    assert store.get(flip.PROFILE_KEY) == SAVED and store.results() == []
    run("n\n" + "y\n" * 50 + "n\n", store=store)       # a plain game, free
    assert len(store.results("flip")) == 1
    assert store.get(flip.PROFILE_KEY) == SAVED
    store.close()


def test_notes_that_cannot_be_read_are_left_alone(monkeypatch):
    store = Store.memory()
    store.put(flip.PROFILE_KEY, SAVED)

    def unreadable(*args, **kwargs):
        raise StoreError("the store cannot be read: disk I/O error")
    monkeypatch.setattr(store, "get", unreadable)
    printed = run("n\n" + "y\n" * 50 + "y\n" + "y\n" * 50 + "n\n",
                  store=store, remember=True)
    monkeypatch.undo()
    assert "CANNOT READ ITS NOTES ON YOU (the store cannot be read: disk I/O" \
        in one_line(printed)
    assert "KEEP WHAT" not in printed                 # still kept in session
    assert [r.detail["kept"] for r in store.results("flip")] == [False, True]
    assert store.get(flip.PROFILE_KEY) == SAVED       # not written over


def test_forget_flip_with_a_store_that_cannot_be_written(tmp_path):
    path = store_file(tmp_path, SAVED)
    store = read_only_store(path)
    assert forget("y\n", store).splitlines()[-1] == (
        f"NOT FORGOTTEN: FLIP'S NOTES ON YOU ({READ_ONLY}).")
    assert store.get(flip.PROFILE_KEY) == SAVED
    store.close()


def test_forget_flip_quit_or_help_at_its_question():
    store = Store.memory()
    store.put(flip.PROFILE_KEY, SAVED)
    printed = forget("help\nquit\n", store)
    assert flip.HELP in printed and "FORGOTTEN" not in printed
    assert store.get(flip.PROFILE_KEY) == SAVED


def test_play_flip_with_memory_from_the_room_with_a_read_only_store(tmp_path):
    store = read_only_store(store_file(tmp_path))
    out = io.StringIO()
    command("flip", "PLAY FLIP WITH MEMORY",
            StreamTeletype(io.StringIO("n\n" + "y\n" * 50 + "n\n"), out),
            store=store, seed=5)
    assert "NOT SAVED: THIS GAME AND THE COMPUTER'S NOTES ON YOU" in \
        one_line(out.getvalue())
    assert "END OF GAME." in out.getvalue()
    store.close()


# --- hostile input ---------------------------------------------------------------

# --- Flip among the machines ------------------------------------------------------

def test_the_machine_plays_the_mirror_of_flips_answers():
    opponent = bits(guesses("YYN repeated", 0))
    machine = FlipMachine(random.Random(6))
    plays = []
    for move in opponent:
        plays.append(machine.choose())
        machine.learn(move)
    game = autoplay(opponent, random.Random(6))
    assert plays == [1 - a for a in game.answers]
    assert machine.mind == game.mind


def test_the_machine_is_registered_and_matches_a_habit():
    from retro.engines.entrants import MACHINES, make_machine
    machine = make_machine("flip", random.Random(0))
    assert isinstance(machine, FlipMachine) and machine.name == "flip"
    wins = 0
    for _ in range(200):
        wins += machine.choose() == 1
        machine.learn(1)
    assert wins > 170  # it matches an opponent who always plays 1
    assert "flip" in MACHINES


# --- the port against the BASIC program -----------------------------------------

def test_the_interpreter_reads_basic_numbers_and_tabs():
    printed = flip_basic.run('10 PRINT TAB(3);"A";2;-1.5;.25\n20 PRINT "X",'
                             '"Y"\n30 FOR I=1 TO 3:PRINT I;:NEXT I\n', [],
                             random.Random(0))
    assert printed == "  A 2 -1.5  .25 \nX             Y\n 1  2  3 "


@pytest.mark.parametrize("strategy", STRATEGIES)
def test_lockstep_the_port_prints_what_the_basic_program_prints(strategy):
    # the explanation asked for, the same seed: the BASIC program (with
    # Python's generator as RND) and the port type the same paper, character
    # for character; and the second game of a sitting, which has a seed of
    # its own (next_seed of the first), types what the program types for a
    # game played with that seed
    for seed in range(8):
        one = flip_basic.basic_session(strategy, [seed])
        one[0] = "Y"
        one[3:3] = ["MAYBE", ""]  # two bad lines in the game
        basic = flip_basic.run(BASIC, one, random.Random(seed))
        port = run("\n".join(one) + "\n", seed=seed, keep=False,
                   show_profile=False)
        assert port == basic, (strategy, seed)
        two = flip_basic.basic_session(strategy, [seed, seed + 100])
        port = run("\n".join(two) + "\n", seed=seed, keep=False,
                   show_profile=False)
        second = ["N", *guesses(strategy, seed + 100), "N"]
        basic = flip_basic.run(BASIC, second, random.Random(next_seed(seed)))
        assert port.split("BEGIN.")[2] == basic.split("BEGIN.")[1], \
            (strategy, seed)


def test_lockstep_would_see_a_one_draw_coin():
    # the averages cannot tell a one-draw coin from the listing's two draws;
    # the lockstep check can
    seeds = range(20)
    same = [flip_basic.broken_game(bits(guesses("random", s)), random.Random(s))
            for s in seeds]
    one = [flip_basic.broken_game(bits(guesses("random", s)), random.Random(s),
                                  one_draw=True) for s in seeds]
    assert same == port_scores("random", seeds)
    assert same != one


def without_luck(transcript: str) -> list[str]:
    """A transcript with the results of the turns blanked out."""
    lines = []
    for line in transcript.rstrip("\n").split("\n"):
        line = re.sub(r"^\*(\?|$)", r" \1", line).rstrip()
        lines.append(re.sub(r"YOU GOT \d+ ", "YOU GOT n ", line))
    return lines


@pytest.mark.skipif(flip_basic.pcbasic() is None,
                    reason="PC-BASIC is not installed (pip install -e '.[dev]' "
                           "installs it; CI allows no skips)")
def test_gw_basic_types_the_same_paper_but_for_the_luck():
    # a real BASIC reads flip.bas as the small interpreter does: the same
    # banner, spacing, prompts and messages; only the turns' results differ
    lines = flip_basic.basic_session("YYN repeated", [0, 1])
    lines[0] = "Y"
    lines[5:5] = ["MAYBE"]
    gw = flip_basic.gwbasic_transcript(lines, 7)
    port = run("\n".join(lines) + "\n", keep=False, show_profile=False)
    assert without_luck(gw) == without_luck(port)


REFERENCE = json.loads((HERE / "data" / "flip_gwbasic_reference.json").read_text())


def z_score(ours: list[float], theirs: list[float]) -> float:
    spread = math.sqrt(statistics.variance(ours) / len(ours)
                       + statistics.variance(theirs) / len(theirs))
    return (statistics.mean(ours) - statistics.mean(theirs)) / spread


@pytest.mark.parametrize("strategy", STRATEGIES)
def test_mean_scores_agree_with_the_basic_program_under_gw_basic(strategy):
    # GW-BASIC's own RND against Python's: single games differ, the means
    # over many games must agree within their sampling error
    theirs = REFERENCE["scores"][strategy]
    ours = port_scores(strategy, range(400))
    assert abs(z_score(ours, theirs)) < 4


def test_the_mean_score_check_sees_a_broken_port():
    seen = {}
    for name, breakage in flip_basic.BROKEN.items():
        seen[name] = max(
            abs(z_score([flip_basic.broken_game(bits(guesses(strategy, s)),
                                                random.Random(s), **breakage)
                         for s in range(400)],
                        REFERENCE["scores"][strategy]))
            for strategy in STRATEGIES)
    assert seen.pop("one draw for an unvisited situation") < 4
    assert all(z > 4 for z in seen.values()), seen


def chapter_section(heading: str) -> str:
    """The chapter's text from `heading` to the next section."""
    after = CHAPTER.read_text().split(heading + "\n")[1]
    return after.split("\n## ")[0]


def chapter_umpire_table() -> dict[str, list[tuple[float, float]]]:
    section = chapter_section("## Flip against the other machines")
    rows = {}
    for line in section.splitlines():
        cells = [cell.strip() for cell in line.strip("|").split("|")]
        if len(cells) == 4 and " - " in cells[1]:
            rows[cells[0]] = [tuple(float(x) for x in cell.split(" - "))
                              for cell in cells[1:]]
    return rows


def test_the_chapters_umpire_table_is_what_the_umpire_measures():
    # another seed and fewer games than the chapter's: each cell must agree
    # within 2 wins (about 5 standard errors at 200 plays)
    table = chapter_umpire_table()
    assert set(table) == {"coin", "seer", "mrm", "awk", "scp", "mixer"}
    # the chapter's verdicts: Flip beats SEER and the AWK machine by 200
    # plays, and SCP and the mixer beat Flip at every length
    assert all(a > b for a, b in table["seer"][2:] + table["awk"][2:])
    assert all(a < b for a, b in table["scp"] + table["mixer"])
    for opponent, cells in table.items():
        result = umpire.tournament("flip", opponent, games=300,
                                   plays=(50, 100, 200), seed=2)
        measured = [(s.a, s.b) for s in umpire.standings(result)]
        for (flip_wins, _), (now, _) in zip(cells, measured):
            assert abs(flip_wins - now) < 2, (opponent, cells, measured)


def test_the_chapters_table_of_flip_and_mind_reader_situations():
    # each row: a Flip situation, its mirror, and the mind reader's question,
    # worked out by the mind reader's own code for the mirrored machine
    section = chapter_section("### Flip and the mind reader")
    rows = [line.strip("|").split("|") for line in section.splitlines()
            if line.startswith("| `")]
    assert len(rows) == 8
    seen = set()
    for flip_bits, mirror_bits, question in rows:
        words = [word.strip() for word in question.split(",")]
        expected = (4 * (words[0] == "won") + 2 * (words[1] == "changed")
                    + (words[2] == "won"))
        for text in (flip_bits, mirror_bits):
            x1, x2, x3, x4 = (int(b) for b in text.strip(" `").split())
            seen.add((x1, x2, x3, x4))
            mind = mindreader.Mind(plays=(x1, x3), guesses=(1 - x2, 1 - x4))
            assert mindreader.situation(mind) == expected, text
    assert len(seen) == 16


def test_players_sharing_a_store_each_keep_their_own_profile(tmp_path):
    path = store_file(tmp_path)
    with Store.open(path, player="ada") as ada:
        run("n\n" + "y\n" * 50 + "n\n", store=ada, remember=True)
        learned = flip.saved_profile(ada)
    with Store.open(path, player="bob") as bob:
        assert flip.saved_profile(bob) is None     # ada's notes are not bob's
        run("n\n" + "n\n" * 50 + "n\n", store=bob, remember=True)
        assert flip.saved_profile(bob) != learned
    with Store.open(path, player="ada") as again:
        assert flip.saved_profile(again) == learned
    with Store.open(path) as console:
        assert flip.saved_profile(console) is None
