# Tangled from literate/cli.md: edit the chapter, not this file, then run `retro tangle`.
"""The `retro` command: the room, `play`, and the other commands."""
from __future__ import annotations

import sys
from collections import namedtuple

from retro import __version__


SESSION_OPTIONS = (
    ("--seed", "N", "seed the randomness: same seed, same game"),
    ("--baud", "N", "print at the pace of an N-baud teletype "
                    "(110 = 10 characters a second; 0 = at once)"),
    ("--transcript", "FILE", "copy the paper roll to FILE as it is printed"),
)
SESSION_FLAGS = tuple(flag for flag, _, _ in SESSION_OPTIONS)


def add_session_options(parser, *, suppress: bool = False) -> None:
    """--seed, --baud and --transcript, on the main parser or a subcommand."""
    import argparse

    from retro.common import whole_number

    kinds = {"--seed": (whole_number(0, 2 ** 63 - 1), None),
             "--baud": (whole_number(0), 0), "--transcript": (str, None)}
    for flag, metavar, help in SESSION_OPTIONS:
        kind, default = kinds[flag]
        parser.add_argument(flag, type=kind, metavar=metavar, help=help,
                            default=argparse.SUPPRESS if suppress else default)


Command = namedtuple("Command", "name help register")
Command.__doc__ = "A subcommand of `retro`, and how to reach its module."


def register_tangle(subparsers) -> None:
    from retro.book.tangle import register
    register(subparsers)


def register_umpire(subparsers) -> None:
    from retro.commands.umpire import register
    register(subparsers)


def register_hexapawn(subparsers) -> None:
    from retro.commands.hexapawn import register
    register(subparsers)


def register_penney(subparsers) -> None:
    from retro.commands.penney import register
    register(subparsers)


def register_serve(subparsers) -> None:
    from retro.rooms.serve import register
    register(subparsers)


def register_store(subparsers) -> None:
    from retro.commands.store import register
    register(subparsers)


COMMANDS: tuple[Command, ...] = (
    Command("tangle", "assemble the modules in retro/ from literate/",
            register_tangle),
    Command("umpire", "play two machines against each other, many times",
            register_umpire),
    Command("hexapawn", "HER's matchboxes, her training, and the theory of "
            "the game", register_hexapawn),
    Command("penney", "the exact odds and waiting times of Penney's game",
            register_penney),
    Command("serve", "open the machine room to many players over telnet and "
            "SSH", register_serve),
    Command("store", "copy a room's records between SQLite and PostgreSQL",
            register_store),
)


def named_words(argv: list[str]) -> list[int]:
    """Where the command (and, after play, the game) stand in argv."""
    found, skip = [], False
    for index, word in enumerate(argv):
        if skip:
            skip = False
        elif word.split("=", 1)[0] in SESSION_FLAGS:
            skip = "=" not in word
        elif not word.startswith("-"):
            found.append(index)
            if len(found) == 2 or argv[index] != "play":
                break
    return found


def with_game_names(argv: list[str]) -> list[str]:
    """argv with a game's alias after `play` replaced by its name."""
    from retro.games.registry import game_called

    where = named_words(argv)
    if len(where) == 2 and argv[where[0]] == "play":
        typed = argv[where[1]]
        game = game_called(typed)
        if game is not None:
            return argv[:where[1]] + [game.name] + argv[where[1] + 1:]
        refuse_a_machine(typed)
    return argv


def refuse_a_machine(typed: str) -> None:
    """A UsageError if `typed` names a machine of the mind reader."""
    from retro.common import UsageError, quoted
    from retro.engines.entrants import MACHINES

    name = typed.strip().lower()
    if name in MACHINES:
        raise UsageError(f"{quoted(typed)} is a machine, not a game; to face "
                         f"it, type: retro play mindreader --opponent {name}")


def one_line_parser(**options):
    """An argparse parser whose usage errors take one line."""
    import argparse

    class Parser(argparse.ArgumentParser):
        def error(self, message: str):
            self.exit(2, f"{self.prog}: error: {message}; "
                         f"try '{self.prog} --help'\n")

        def _get_values(self, action, arg_strings):
            if action.option_strings and action.nargs is None \
                    and arg_strings == ["--"]:  # `--games=--`
                self.error(f"argument {'/'.join(action.option_strings)}: "
                           "expected one argument")
            return super()._get_values(action, arg_strings)

    return Parser(**options)


DESCRIPTION = ("Play the machines that first learned to play games, read "
               "how they work, and tangle the book into code. With no "
               "command, open the game room.")


def build_parser(argv: list[str] = ()):
    named = [argv[index] for index in named_words(list(argv))]
    parser = one_line_parser(prog="retro", description=DESCRIPTION)
    parser.add_argument("--version", action="version",
                        version=f"retro {__version__}")
    add_session_options(parser)
    parser.set_defaults(func=room_command)
    subparsers = parser.add_subparsers(title="commands", metavar="COMMAND")
    chosen = named[1] if len(named) == 2 and named[0] == "play" else None
    add_play_command(subparsers, chosen)
    for command in COMMANDS:
        if named[:1] == [command.name]:
            command.register(subparsers)
        else:
            subparsers.add_parser(command.name, help=command.help)
    return parser


def add_play_command(subparsers, chosen: str | None) -> None:
    from retro.games.registry import GAMES

    play = subparsers.add_parser(
        "play", help="play one game: " + ", ".join(g.name for g in GAMES),
        description="Go straight to one game, without the room.")
    games = play.add_subparsers(title="games", metavar="GAME", required=True)
    for game in GAMES:
        one = games.add_parser(game.name, help=game.title,
                               description=f"Play {game.title}.")
        add_session_options(one, suppress=True)
        added = add_game_options(one, game) if game.name == chosen else ()
        one.set_defaults(func=play_command, game=game.name,
                         game_options=added)


def add_game_options(parser, game) -> tuple[str, ...]:
    """The options of `game`'s own front end, if it has any; the keywords
    they set."""
    from retro.games.contract import add_options, typed
    from retro.rooms.room import install

    front_end = install(game).front_end
    if front_end is None:
        return ()
    add_options(parser, front_end.options)
    return typed(front_end.options)


def open_session(args):
    """The store and the teletype for a room or a game."""
    from retro.common import UsageError, quoted
    from retro.services.store import Store, console_player, data_dir
    from retro.services.teletype import open_teletype

    transcript = None
    if getattr(args, "transcript", None):
        try:
            transcript = open(args.transcript, "w", encoding="utf-8")
        except OSError as error:
            raise UsageError(f"cannot write the transcript "
                             f"{quoted(args.transcript, 60)}: "
                             f"{error.strerror or error}")
    history = data_dir() / "history"
    try:
        history.parent.mkdir(parents=True, exist_ok=True)
        with open(history, "a", encoding="utf-8"):
            pass
    except OSError:
        history = None
    store = Store.open(console=console_player())
    tty = open_teletype(history=history, baud=getattr(args, "baud", 0),
                        transcript=transcript)
    store.notice = tty.say
    return store, tty, transcript


def room_command(args) -> int:
    from retro.rooms.console import at_console
    from retro.rooms.room import Room

    store, tty, transcript = open_session(args)
    try:
        return at_console(tty, Room(tty, store, seed=args.seed).run())
    finally:
        store.close()
        if transcript is not None:
            transcript.close()


def play_command(args) -> int:
    from retro.common import new_seed
    from retro.games.registry import game_called
    from retro.rooms.console import at_console
    from retro.rooms.room import install, play_game

    game = game_called(args.game)
    installed = install(game)
    if installed.front_end is None:
        print(f"retro play: {game.title} is out of order "
              f"({installed.trouble})", file=sys.stderr)
        return 1
    seed = args.seed if args.seed is not None else new_seed()
    options = {name: getattr(args, name) for name in args.game_options}
    store, tty, transcript = open_session(args)
    try:
        ending = at_console(tty, play_game(
            game, installed.front_end.play, tty, store, seed=seed,
            options=options))
    finally:
        store.close()
        if transcript is not None:
            transcript.close()
    return {"abandoned": 130, "stopped": 1}.get(ending, 0)


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    if argv[:1] == ["tangle"]:
        from retro.book.tangle import main as tangle

        return tangle(argv[1:])
    from retro.common import UsageError

    try:
        argv = with_game_names(argv)
        args = build_parser(argv).parse_args(argv)
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
