# Tangled from literate/house.md: edit the chapter, not this file, then run `retro tangle`.
"""The games, the commands and the book's parts, each named once."""
from __future__ import annotations

from collections import namedtuple


class Game(namedtuple("Game", "name title aliases description chapters "
                              "play_options", defaults=((),))):
    """One game in the room: what to call it, and where it lives."""

    __slots__ = ()

    @property
    def front_end(self) -> str:
        """The module that plays it: retro.games.NAME."""
        return f"retro.games.{self.name}"


GAMES: tuple[Game, ...] = (
    Game("mindreader", "The Mind Reader",
         ("mind reader", "shannon", "mrm", "awk", "reader"),
         "A grey relay cabinet with two lamps and a lever: Shannon's MIND "
         "READER. It plays matching pennies and learns how you choose.",
         ("mindreader", "machines", "seer", "mrm", "scp", "mixer", "reader",
          "people", "umpire"),
         play_options=(("ask_opponent", True),)),
    Game("flip", "Flip", ("coin", "basic"),
         "A terminal with a coin taped to its side: FLIP, out of More "
         "BASIC Computer Games. It watches for patterns in your flips.",
         ("flip",)),
    Game("hexapawn", "Hexapawn", ("her", "matchboxes", "matchbox", "pawns"),
         "A little chessboard, three squares by three, beside nineteen "
         "matchboxes of coloured beads: HEXAPAWN, and HER, who learns by "
         "losing beads.",
         ("hexapawn", "matchbox", "hexapawn_theory")),
    Game("penney", "Penney's Game",
         ("penneys game", "penneys", "triplets", "coins"),
         "A coin-tossing machine with a slot for your bet: PENNEY'S GAME. "
         "Pick three tosses; it picks three of its own, and usually wins.",
         ("penney", "penney_odds")),
)


def key(text: str) -> str:
    """A name reduced for comparison: lowercase letters and digits only."""
    return "".join(char for char in text.lower() if char.isalnum())


def game_called(text: str) -> Game | None:
    """The game `text` names, by number, name, title or alias; None if none."""
    typed = text.strip()
    if typed.isascii() and typed.isdigit():
        number = int(typed) if len(typed) <= 3 else 0
        return GAMES[number - 1] if 1 <= number <= len(GAMES) else None
    wanted = key(text)
    for game in GAMES:
        if wanted in {key(name) for name in (game.name, game.title,
                                             *game.aliases)}:
            return game
    return None


Command = namedtuple("Command", "name module help")
Command.__doc__ = "A subcommand of `retro`, and the module that defines it."


COMMANDS: tuple[Command, ...] = (
    Command("tangle", "retro.book.tangle",
            "assemble the modules in retro/ from literate/"),
    Command("umpire", "retro.commands.umpire",
            "play two machines against each other, many times"),
    Command("hexapawn", "retro.games.hexapawn",
            "HER's matchboxes, her training, and the theory of the game"),
    Command("penney", "retro.games.penney",
            "the exact odds and waiting times of Penney's game"),
    Command("serve", "retro.rooms.served",
            "open the machine room to many players over telnet and SSH"),
)


HOUSE_CHAPTERS = ("room", "teletype", "store", "serve", "house")
TOOLCHAIN_CHAPTERS = ("tangle", "weave", "figures", "cli")


def book_parts() -> tuple[tuple[str, tuple[str, ...]], ...]:
    """The book's parts in reading order: (title, chapter names)."""
    games = tuple(chapter for game in GAMES for chapter in game.chapters)
    return (("The games and their machines", games),
            ("The room", HOUSE_CHAPTERS),
            ("The toolchain", TOOLCHAIN_CHAPTERS))
