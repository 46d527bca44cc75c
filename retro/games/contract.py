# Tangled from literate/house.md: edit the chapter, not this file, then run `retro tangle`.
"""What a game and its host agree on: a front end, a sitting, a command.

Tangled from literate/house.md, which explains it.
"""
from __future__ import annotations

from collections import namedtuple
from collections.abc import Iterator

from retro.common import next_seed, whole_number


class FrontEnd(namedtuple("FrontEnd", "play add_options commands lately",
                          defaults=(None, (), None))):
    """A game's conversation, its options for `retro play`, its commands,
    and what LOOK AT tells of what happened to it lately."""

    __slots__ = ()


class RoomCommand(namedtuple("RoomCommand", "phrase about action plays "
                                            "shared", defaults=(False, False))):
    """A command a game adds to the room: RESET HER, and what it does;
    `plays` if it seats the player at the game, `shared` if it changes
    what every player shares (then its action says what it did, for the
    room to announce)."""

    __slots__ = ()


class Sitting(namedtuple("Sitting", "game store seed")):
    """One player sat down at one game: what the game is handed."""

    __slots__ = ()

    def seeds(self) -> Iterator[int]:
        """The seed of each game of the sitting in turn: the sitting's
        first, then each the next of the one before."""
        seed = self.seed
        while True:
            yield seed
            seed = next_seed(seed)


QUIT_WORDS = frozenset({"q", "quit", "leave", "exit", "stop"})


def is_quit(answer: str) -> bool:
    """Whether `answer` asks to leave the game, in any case."""
    return answer.strip().lower() in QUIT_WORDS


class Abandoned(Exception):
    """The player left a game before it ended: nothing of it is kept."""


def add_from_option(parser) -> None:
    """`--from N`, for `retro play GAME` of a game that learns."""
    parser.add_argument(
        "--from", dest="replay_of", type=whole_number(1), metavar="N",
        help="play again from where game N of SCORES began (nothing of the "
             "replay is kept)")


async def recorded(sitting: Sitting, number: int):
    """Game `number` of SCORES, if it is one of this game's; else None."""
    found = await sitting.store.run(lambda store: store.result(number))
    return found if found is not None and found.game == sitting.game.name \
        else None


class Game(namedtuple("Game", "name title aliases description front_end "
                              "room_options", defaults=((),))):
    """One game in the room: what to call it, and how to reach it."""

    __slots__ = ()
