# Tangled from literate/house.md: edit the chapter, not this file, then run `retro tangle`.
"""The games of the room, each named once, and how to reach each.

Tangled from literate/house.md, which explains it.
"""
from __future__ import annotations

from retro.games.contract import FrontEnd, Game


def load_mindreader() -> FrontEnd:
    from retro.games.mindreader import FRONT_END
    return FRONT_END


def load_flip() -> FrontEnd:
    from retro.games.flip import FRONT_END
    return FRONT_END


def load_hexapawn() -> FrontEnd:
    from retro.games.hexapawn import FRONT_END
    return FRONT_END


def load_penney() -> FrontEnd:
    from retro.games.penney import FRONT_END
    return FRONT_END


GAMES: tuple[Game, ...] = (
    Game("mindreader", "The Mind Reader",
         ("mind reader", "shannon", "reader"),
         "A grey relay cabinet with two lamps and a lever: Shannon's MIND "
         "READER. It plays matching pennies and learns how you choose.",
         load_mindreader),
    Game("flip", "Flip", ("basic",),
         "A terminal with a coin taped to its side: FLIP, out of More "
         "BASIC Computer Games. It watches for patterns in your flips.",
         load_flip),
    Game("hexapawn", "Hexapawn", ("her", "matchboxes", "matchbox", "pawns"),
         "A little chessboard, three squares by three, beside nineteen "
         "matchboxes of coloured beads: HEXAPAWN, and HER, who learns by "
         "losing beads.",
         load_hexapawn),
    Game("penney", "Penney's Game",
         ("penneys game", "penneys", "triplets", "coins"),
         "A coin-tossing machine with a slot for your bet: PENNEY'S GAME. "
         "Pick three tosses; it picks three of its own, and usually wins.",
         load_penney),
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
