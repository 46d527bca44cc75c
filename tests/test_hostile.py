"""A hostile player: whatever is typed at any prompt, the room survives.

Arbitrary text (any Unicode, control characters, 100,000-character lines,
numbers of thousands of digits, Unicode digits) goes to the room's prompt and,
through it, to every prompt of every game, both through the stream teletype
(a pipe) and through the prompt_toolkit teletype (a terminal). Nothing may
escape as an exception, the room must end cleanly when the input ends, and
the paper roll must hold exactly what was printed. Every bounded number that a
subcommand takes is attacked the same way: a one-line usage error, exit 2.
"""
from __future__ import annotations

import asyncio
import io
import sys
import threading
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from retro import cli
from retro.games import registry
from retro.rooms.room import FAREWELL, ROOM, Room
from retro.services.store import Store
from retro.services.teletype import cells, graphemes

sys.path.insert(0, str(Path(__file__).parent))  # the helpers beside this file
from recording import RoomAndGames, hostile_lines, squashed  # noqa: E402

NASTY = ["²", "④", "٣", "1" * 5000, "7-" + "4" * 5000, "x" * 100_000,
         "\x00\x07\x1b[2J", "%s{}", "tear ~nosuchuser/x.txt", "é̈", "שלום",
         "😀" * 50, "-1", "play ③", "look at ③", "", "help", "q", "y", "n",
         "h", "t", "hth", "10", "1-4", "1 4", "yes", "no", "1" * 19]
PLAYS = [f"play {game.name}" for game in registry.GAMES] + [
    str(number) for number in range(1, len(registry.GAMES) + 1)]


def screen_width(line: str) -> int:
    """The cells a line takes, measured as the teletype's carriage does."""
    return sum(cells(grapheme) for grapheme in graphemes(line))


# -- the room's prompt, and whatever it leads to --------------------------------

HUGE = ["1" * 4301, "play " + "1" * 4301, "look at " + "9" * 5000,
        "7-" + "4" * 4301, "x" * 100_000, "play " + "y" * 100_000]
typed = st.one_of(
    st.text(max_size=40),
    st.text(alphabet=st.characters(max_codepoint=0x9F), max_size=20),
    st.text(alphabet=st.characters(categories=["Nd", "No"]), max_size=6),
    st.sampled_from(HUGE + NASTY + PLAYS + ["PLAY \u2463", "look at \u2462",
                                           "t", "b"]),
).map(lambda line: line.replace("\n", " ").replace("\r", " "))


@settings(max_examples=40, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(room_lines=st.lists(typed, max_size=6),
       game_lines=st.lists(typed, max_size=8))
def test_whatever_is_typed_at_the_room_it_answers_and_keeps_its_roll(
        room_lines, game_lines, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # a TEAR among the lines writes here
    out = io.StringIO()
    tty = RoomAndGames(room_lines + ["look"], game_lines, out)
    room = Room(tty, Store.memory(), seed=1)
    obey = room.obey  # a QUIT among the lines must not end the session:

    async def obey_but_stay(line):  # the last LOOK is the test
        return await obey(line) or True

    room.obey = obey_but_stay
    assert asyncio.run(room.run()) == 0
    paper = out.getvalue()
    assert paper.endswith(tty.paper())  # the roll is what was printed since
    after = paper.rsplit(f"{Room.PROMPT}look\n", 1)[1]  # a TEAR, if any
    assert after.startswith(ROOM[:40])  # the last LOOK still answered
    assert paper.rstrip().endswith(FAREWELL)
    assert max(map(screen_width, paper.splitlines()), default=0) <= 72


# -- every prompt of every game: one property, each game's words and books --

def results_add_up(name: str, store: Store, printed: str) -> None:
    """What each game's records must say of themselves, whatever was typed."""
    from retro.games import hexapawn_her, penney

    results = store.results(name)
    if name == "mindreader":
        for r in results:
            yours, mine = map(int, r.score.split("-"))
            assert yours + mine == r.detail["rounds"] == len(r.detail["plays"])
    elif name == "flip":
        for r in results:
            assert sum(map(int, r.score.split("-"))) == 50
            assert len(r.detail["guesses"]) == len(r.detail["answers"]) == 50
    elif name == "hexapawn":  # one lesson of HER's for every game recorded
        assert len(results) == len(hexapawn_her.load_her(store).record)
    elif name == "penney":  # every penny: a bet recorded, or a fresh stake
        moved = sum(int(r.score.split()[0]) for r in results)
        fresh = printed.count(f"Here are {penney.STAKE} pennies.")
        assert store.get(store.own(penney.BANKROLL), penney.STAKE) == \
            penney.STAKE + moved + fresh * penney.STAKE


WORDS = {  # what each game's questions know, beside the hostile words
    "mindreader": ("h" * 100_000, "?", "h", "t", "HEADS", "\uff48", "seer",
                   "MIXER", "3", "9"),
    "flip": ("y" * 100_000, "y", "n", "Y", "N", "\uff59", "\u1e99", "maybe"),
    "hexapawn": ("7-" + "4" * 5000, "7-4", "8-5", "9-6", "74", "5 2", "4-1",
                 "6-3", "9-5", "7-5", "8-4", "5-2", "4-2", "5-1", "5-3", "y",
                 "n", "board", "\u202e7-4", "7\t4", "\u0663-\u0664"),
    "penney": ("y", "n", "HHT", "THT", "HTH", "TTT", "10", "all", "1" * 30,
               "hth", "HHHH", "t", "h"),
}


@pytest.mark.parametrize("game", registry.GAMES, ids=lambda game: game.name)
@settings(max_examples=40, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture,
                                 HealthCheck.too_slow])
@given(data=st.data())
def test_hostile_lines_at_every_prompt_of_a_game(game, data, tmp_path,
                                                 monkeypatch):
    """Whatever is typed at a game's questions (and at its commands' in the
    room, RESET HER and the rest), through the room: each is answered in its
    turn, the roll holds it all, the game's records add up, and the room
    answers again when the game and its commands are over."""
    monkeypatch.chdir(tmp_path)
    typed = data.draw(st.lists(hostile_lines(*WORDS[game.name]),
                               max_size=60), label="typed")
    out = io.StringIO()
    commands = [command.phrase for command in game.front_end().commands]
    tty = RoomAndGames([f"play {game.name}", *commands, "look"], typed, out)
    store = Store.memory()
    store.notice = tty.say
    assert asyncio.run(Room(tty, store, seed=1962).run()) == 0
    printed = out.getvalue()
    assert tty.paper() == printed
    assert "Traceback" not in printed
    paper, at = squashed(printed), 0
    for prompt, answer in tty.asked:  # every question, then its answer
        found = paper.find(squashed(prompt + answer), at)
        assert found >= 0, (prompt, answer[:40])
        at = found + len(squashed(prompt + answer))
    after = printed.rsplit(f"{Room.PROMPT}look\n", 1)[1]
    assert after.startswith(ROOM[:40])  # the game ended, the room answers
    assert printed.rstrip("\n").endswith(FAREWELL)
    results_add_up(game.name, store, printed)


# -- the same at a terminal ---------------------------------------------------

@settings(max_examples=5, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture,
                                 HealthCheck.too_slow])
@given(typed=st.lists(st.sampled_from(NASTY + PLAYS) | st.text(max_size=30),
                      min_size=1, max_size=12))
def test_the_room_survives_anything_typed_at_a_terminal(
        typed, tmp_path, monkeypatch):
    from prompt_toolkit.input import create_pipe_input
    from prompt_toolkit.output import DummyOutput

    from retro.services.teletype import TerminalTeletype

    monkeypatch.chdir(tmp_path)
    with create_pipe_input() as keys:
        out = io.StringIO()
        tty = TerminalTeletype(stdout=out, input=keys, output=DummyOutput())
        finished = []
        asked = threading.Condition()  # told each time the room asks
        questions = [0]
        ask = tty.ask

        async def counted(*args, **kwargs):
            with asked:
                questions[0] += 1
                asked.notify_all()
            return await ask(*args, **kwargs)

        tty.ask = counted

        def room() -> int:
            store = Store.memory()  # made in the one thread that uses it
            store.notice = tty.say
            try:
                return asyncio.run(Room(tty, store, seed=7).run())
            finally:
                with asked:
                    questions.append("ended")
                    asked.notify_all()

        runner = threading.Thread(target=lambda: finished.append(room()))
        runner.start()  # reading before anything is typed: the pipe cannot fill
        for line in typed:
            keys.send_text(line.replace("\r", "").replace("\n", "") + "\r")
        deadline = time.monotonic() + 30  # a room that never ends fails
        for _ in range(60):  # then Ctrl-D, as a person would, until it
            with asked:      # ends: each once the room has asked again
                seen, ended = questions[0], len(questions) > 1
            if ended or time.monotonic() > deadline:
                break
            keys.send_text("\r\x04")  # Enter ends a search (Ctrl-R)
            with asked:
                asked.wait_for(lambda: questions[0] > seen
                               or len(questions) > 1,
                               timeout=max(0, deadline - time.monotonic()))
        runner.join(timeout=10)
    assert finished == [0]
    assert tty.paper().rstrip("\n").endswith(FAREWELL)


# -- every bounded number of every subcommand ----------------------------------

def bounded_options(argv: list[str]) -> list[str]:
    """The options of the parser `argv` reaches whose type is whole_number."""
    parser = cli.build_parser(argv)
    for word in argv:
        choices = next(action.choices for action in parser._actions
                       if isinstance(action.choices, dict))
        parser = choices[word]
    return sorted(option for action in parser._actions
                  if getattr(action.type, "__qualname__", "").startswith("whole_number")
                  for option in action.option_strings if option.startswith("--"))


COMMANDS = [["umpire", "seer", "mrm"], ["hexapawn", "boxes"], ["hexapawn", "train"],
            ["hexapawn", "solve"], ["penney", "odds"], ["penney", "wait"],
            *(["play", game.name] for game in registry.GAMES)]
REFUSED = st.one_of(
    st.sampled_from(["--", "٣", "²", "1" * 5000, "-" + "9" * 4400, "9" * 19, "x", "",
                     "1e3", "0x10", " ", "\x00"]),
    st.integers(max_value=-1).map(str),
    st.text(alphabet=st.characters(categories=["Nd"]), min_size=1, max_size=5)
    .filter(lambda text: not text.isascii()),
)


def test_every_command_has_bounded_numbers_to_attack():
    found = {" ".join(argv): bounded_options(argv[:2] if argv[0] != "umpire"
                                             else argv[:1]) for argv in COMMANDS}
    assert found["umpire seer mrm"] and found["hexapawn solve"]


@pytest.mark.parametrize("argv", COMMANDS, ids=" ".join)
@settings(max_examples=15, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(value=REFUSED)
def test_a_hostile_number_is_one_line_and_exit_2(argv, value, capsys):
    path = argv[:1] if argv[0] == "umpire" else argv[:2]
    for option in bounded_options(path) + ["--seed"] * (argv[0] == "play"):
        with pytest.raises(SystemExit) as stopped:
            cli.main([*argv, f"{option}={value}"])
        assert stopped.value.code == 2
        errors = capsys.readouterr().err
        assert errors.count("\n") == 1 and "Traceback" not in errors
        assert len(errors) < 300, errors
