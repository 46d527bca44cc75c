# Tangled from literate/cli.md: edit the chapter, not this file, then run `retro tangle`.
"""The `retro` command: the room, `play`, and each module's subcommand."""
from __future__ import annotations

import argparse
import importlib
import sys

from retro import __version__

SUBCOMMAND_MODULES = ("retro.tangle", "retro.umpire", "retro.hexapawn",
                      "retro.penney")
GAMES = ("mindreader", "flip", "hexapawn", "penney")


def optional_module(name: str):
    """Import a module of Retro, or None if there is no such module."""
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as error:
        if error.name == name:
            return None
        raise


def whole_number(low: int, high: int | None = None):
    """An argparse type: a whole number from `low` to `high` (if given)."""
    def read(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"not a whole number: {text!r}")
        if value < low:
            raise argparse.ArgumentTypeError(
                f"must not be negative: {value}" if low == 0
                else f"must be at least {low}: {value}")
        if high is not None and value > high:
            raise argparse.ArgumentTypeError(f"must be at most {high}: {value}")
        return value
    return read


def add_session_options(parser: argparse.ArgumentParser, *,
                        suppress: bool = False) -> None:
    """--seed, --baud and --transcript, on the main parser or a subcommand."""
    def default(value):
        return argparse.SUPPRESS if suppress else value

    parser.add_argument("--seed", type=int, metavar="N", default=default(None),
                        help="seed the randomness: same seed, same game")
    parser.add_argument("--baud", type=whole_number(0), metavar="N",
                        default=default(0),
                        help="print at the pace of an N-baud teletype "
                             "(110 = 10 characters a second; 0 = at once)")
    parser.add_argument("--transcript", metavar="FILE", default=default(None),
                        help="copy the paper roll to FILE as it is printed")


class Parser(argparse.ArgumentParser):
    """argparse, with a usage error on one line."""

    def error(self, message: str):
        self.exit(2, f"{self.prog}: error: {message}; "
                     f"try '{self.prog} --help'\n")


ROOM_OPTIONS = ("--seed", "--baud", "--transcript")


def is_room(argv: list[str]) -> bool:
    """True if argv only holds session options: `retro` opens the room."""
    words = iter(argv)
    for word in words:
        name = word.split("=", 1)[0]
        if name not in ROOM_OPTIONS:
            return False
        if "=" not in word and next(words, None) is None:
            return False  # the option lacks its value: let argparse say so
    return True


def build_parser(*, room_only: bool = False) -> argparse.ArgumentParser:
    parser = Parser(
        prog="retro",
        description="Play the machines that first learned to play games, "
                    "read how they work, and tangle the book into code. "
                    "With no command, open the game room.")
    parser.add_argument("--version", action="version",
                        version=f"retro {__version__}")
    add_session_options(parser)
    parser.set_defaults(func=room_command)
    if room_only:
        return parser
    subparsers = parser.add_subparsers(title="commands", metavar="COMMAND")
    play = subparsers.add_parser(
        "play", help="play one game: " + ", ".join(GAMES),
        description="Go straight to one game, without the room.")
    games = play.add_subparsers(title="games", metavar="GAME", required=True)
    for game in GAMES:
        module = optional_module_quietly(f"retro.{game}")
        title = getattr(module, "TITLE", game)
        one = games.add_parser(game, help=title, description=f"Play {title}.")
        add_session_options(one, suppress=True)
        before = {action.dest for action in one._actions}
        adder = getattr(module, "add_play_options", None)
        if adder is not None:
            adder(one)
        one.set_defaults(func=play_command, game=game, game_options=tuple(
            action.dest for action in one._actions if action.dest not in before))
    for name in SUBCOMMAND_MODULES:
        module = optional_module(name)
        if module is not None and hasattr(module, "register"):
            module.register(subparsers)
    return parser


def optional_module_quietly(name: str):
    """Like optional_module, but a broken module also counts as missing."""
    try:
        return optional_module(name)
    except Exception:
        return None


class UsageError(Exception):
    """A mistake on the command line: one line, exit status 2."""


def open_session(args: argparse.Namespace):
    """The store and the teletype for a room or a game."""
    from retro.store import Store, data_dir
    from retro.teletype import open_teletype

    transcript = None
    if getattr(args, "transcript", None):
        try:
            transcript = open(args.transcript, "w", encoding="utf-8")
        except OSError as error:
            raise UsageError(f"cannot write the transcript {args.transcript}: "
                             f"{error.strerror or error}")
    history = data_dir() / "history"
    try:
        history.parent.mkdir(parents=True, exist_ok=True)
        with open(history, "a", encoding="utf-8"):
            pass
    except OSError:
        history = None
    store = Store.open()
    tty = open_teletype(history=history, baud=getattr(args, "baud", 0),
                        transcript=transcript)
    return store, tty, transcript


def room_command(args: argparse.Namespace) -> int:
    from retro.room import Room

    store, tty, transcript = open_session(args)
    try:
        return Room(tty, store, seed=args.seed).run()
    finally:
        store.close()
        if transcript is not None:
            transcript.close()


def play_command(args: argparse.Namespace) -> int:
    from retro.room import EXHIBITS, find_game, new_seed, play_game

    exhibit = next(e for e in EXHIBITS if e.name == args.game)
    found = find_game(exhibit)
    if found.module is None:
        print(f"retro play: {exhibit.title} is {found.trouble}",
              file=sys.stderr)
        return 1
    seed = args.seed if args.seed is not None else new_seed()
    options = {name: getattr(args, name) for name in args.game_options}
    store, tty, transcript = open_session(args)
    try:
        ending = play_game(found.module, tty, store, seed=seed,
                           options=options)
    finally:
        store.close()
        if transcript is not None:
            transcript.close()
    return 130 if ending == "abandoned" else 0


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    parser = build_parser(room_only=is_room(argv))
    args = parser.parse_args(argv)
    try:
        return args.func(args)
    except UsageError as error:
        print(f"retro: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(file=sys.stderr)
        return 130
    except BrokenPipeError:
        import os

        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 0
