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
import re
import threading

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from retro import cli
from retro.games import registry
from retro.rooms.room import FAREWELL, Room
from retro.services.store import Store
from retro.services.teletype import StreamTeletype

NASTY = ["²", "④", "٣", "1" * 5000, "7-" + "4" * 5000, "x" * 100_000,
         "\x00\x07\x1b[2J", "%s{}", "tear ~nosuchuser/x.txt", "é̈", "שלום",
         "😀" * 50, "-1", "play ③", "look at ③", "", "help", "q", "y", "n",
         "h", "t", "hth", "10", "1-4", "1 4", "yes", "no", "1" * 19]
PLAYS = [f"play {game.name}" for game in registry.GAMES] + [
    str(number) for number in range(1, len(registry.GAMES) + 1)]
QUITTING = re.compile(r"^\s*(q|qu|qui|quit|exit|bye|leave|logout)\b", re.I)

lines = st.one_of(
    st.sampled_from(NASTY + PLAYS),
    st.text(max_size=60),
    st.text(alphabet=st.characters(max_codepoint=0x1F), max_size=10),
).filter(lambda line: "\n" not in line and "\r" not in line)


def room_session(typed: list[str], tmp_path) -> tuple[int, str, StreamTeletype]:
    out = io.StringIO()
    tty = StreamTeletype(io.StringIO("\n".join(typed) + "\n"), out)
    store = Store.memory()
    store.notice = tty.say
    status = asyncio.run(Room(tty, store, seed=1962).run())
    return status, out.getvalue(), tty


@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture,
                                 HealthCheck.too_slow])
@given(typed=st.lists(lines, max_size=40))
def test_the_room_and_every_game_survive_anything_typed_at_a_pipe(
        typed, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # TEAR writes its files here
    status, printed, tty = room_session(typed, tmp_path)
    assert status == 0
    assert printed.rstrip("\n").endswith(FAREWELL)
    assert tty.paper() == printed  # the roll holds what was printed


@settings(max_examples=25, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture,
                                 HealthCheck.too_slow])
@given(game=st.sampled_from(registry.GAMES),
       typed=st.lists(lines.filter(lambda line: not QUITTING.match(line)),
                      max_size=30))
def test_after_anything_typed_in_a_game_the_room_still_answers(
        game, typed, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    # q and quit leave every game: then the room must still describe itself
    script = [f"play {game.name}", *typed, "q", "q", "quit", "q", "quit",
              "q", "look"]
    status, printed, _ = room_session(script, tmp_path)
    assert status == 0
    assert "machine room of an old laboratory" in printed.split("> look")[-1] \
        or printed.count("> look") == 0  # still inside a game at the end
    assert printed.rstrip("\n").endswith(FAREWELL)


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
        store = Store.memory()
        store.notice = tty.say
        finished = []
        runner = threading.Thread(
            target=lambda: finished.append(
                asyncio.run(Room(tty, store, seed=7).run())))
        runner.start()  # reading before anything is typed: the pipe cannot fill
        for line in typed:
            keys.send_text(line.replace("\r", "").replace("\n", "") + "\r")
        for _ in range(60):  # then Ctrl-D, as a person would, until it ends
            if not runner.is_alive():
                break
            keys.send_text("\r\x04")  # Enter ends a search (Ctrl-S, Ctrl-R)
            runner.join(timeout=0.3)
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
