# Tangled from literate/house.md: edit the chapter, not this file, then run `retro tangle`.
"""What a game and its host agree on: a front end, a sitting, a command.

Tangled from literate/house.md, which explains it.
"""
from __future__ import annotations

from collections import namedtuple
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from retro.common import next_seed, whole_number


class FrontEnd(namedtuple("FrontEnd", "play options commands lately",
                          defaults=((), (), None))):
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


@dataclass(frozen=True)
class Option:
    """One option of a game: typed after `retro play GAME`, given by the
    room, and a keyword of the game's `play`."""

    flags: tuple[str, ...]
    dest: str
    help: str = ""
    default: object = None
    read: Callable[[str], object] | None = None
    const: object = True
    metavar: str | None = None
    choices: tuple[str, ...] | None = None
    apart: str = ""
    room: object = ...


def add_options(parser, options: tuple[Option, ...]) -> None:
    """The options that are typed, as arguments of `parser`."""
    groups: dict[str, object] = {}
    for option in options:
        if not option.flags:
            continue
        if option.apart and option.apart not in groups:
            groups[option.apart] = parser.add_mutually_exclusive_group()
        where = groups[option.apart] if option.apart else parser
        if option.read is None:
            how = dict(action="store_const", const=option.const)
        else:
            how = dict(type=option.read, metavar=option.metavar,
                       choices=option.choices)
        where.add_argument(*option.flags, dest=option.dest, help=option.help,
                           default=option.default, **how)


def typed(options: tuple[Option, ...]) -> tuple[str, ...]:
    """The keywords that `retro play` reads from its command line."""
    return tuple(dict.fromkeys(o.dest for o in options if o.flags))


def defaults(front_end: FrontEnd) -> dict[str, object]:
    """The game's options as `retro play GAME` leaves them when none is
    typed: what a page of the book plays the game with."""
    found: dict[str, object] = {}
    for option in front_end.options:
        found.setdefault(option.dest, option.default)
    return found


def in_the_room(front_end: FrontEnd) -> dict[str, object]:
    """The game's options as the room plays it."""
    found = defaults(front_end)
    for option in front_end.options:
        if option.room is not ...:
            found[option.dest] = option.room
    return found


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


FROM = Option(("--from",), "replay_of", read=whole_number(1), metavar="N",
              help="play again from where game N of SCORES began (nothing "
                   "of the replay is kept)")


async def recorded(sitting: Sitting, number: int):
    """Game `number` of SCORES, if it is one of this game's; else None."""
    found = await sitting.store.run(lambda store: store.result(number))
    return found if found is not None and found.game == sitting.game.name \
        else None


class Game(namedtuple("Game", "name title aliases description front_end")):
    """One game in the room: what to call it, and how to reach it."""

    __slots__ = ()
