# Tangled from literate/house.md: edit the chapter, not this file, then run `retro tangle`.
"""What a game and its host agree on: a front end, a sitting, a command,
and what a game may use of its paper and its store.

Tangled from literate/house.md, which explains it.
"""
from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterator, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, NamedTuple, Protocol, TypeVar

from retro.common import next_seed, whole_number

if TYPE_CHECKING:  # for the annotations; `retro --help` need not load them
    from argparse import ArgumentParser

    from retro.services.teletype import Choices

Done = TypeVar("Done")  # what a store's work gives back


class Paper(Protocol):
    """What a game may use of its teletype: say, draw, ask, page."""

    def say(self, text: str = "", *, hang: int = 0) -> None:
        """Print `text` and end the line, folded at the margin."""

    def draw(self, text: str) -> None:
        """Print a drawing just as it is laid out."""

    async def ask(self, prompt: str, choices: Choices = (),
                  history: str = "game") -> str:
        """Print `prompt`, wait for a line, return it cleaned."""
        ...

    def page(self) -> int:
        """The width the paper folds at now, in columns."""
        ...


class GameStore(Protocol):
    """What a game may use of its store: work, run and awaited."""

    @property
    def player(self) -> str:
        """Whose games these are."""
        ...

    def run(self, work: Callable[..., Done], /,
            *args: Any) -> Awaitable[Done]:
        """Do `work(view, *args)` where the store lives; what it returns."""
        ...


class StoreView(Protocol):
    """What the work a game gives its store may use of it."""

    @property
    def player(self) -> str: ...

    def get(self, key: str, default: Any = None) -> Any: ...

    def put(self, key: str, value: Any) -> None: ...

    def delete(self, key: str) -> None: ...

    def own(self, key: str) -> str: ...

    def record(self, game: str, *, score: str, outcome: str,
               **details: Any) -> Any: ...

    def result(self, number: int) -> Any: ...

    def transaction(self) -> AbstractContextManager[Any]: ...


Conversation = Callable[..., Awaitable[object]]  # (tty, sitting, **options)


class FrontEnd(NamedTuple):
    """A game's conversation, its options for `retro play`, its commands,
    and what LOOK AT tells of what happened to it lately."""

    play: Conversation
    options: tuple[Option, ...] = ()
    commands: Sequence[RoomCommand] = ()
    lately: Callable[[Any], str | None] | None = None


class RoomCommand(NamedTuple):
    """A command a game adds to the room: RESET HER, and what it does;
    `plays` if it seats the player at the game, `shared` if it changes
    what every player shares (then its action says what it did, for the
    room to announce)."""

    phrase: str
    about: str
    action: Callable[[Paper, Sitting], Awaitable[str | None]]
    plays: bool = False
    shared: bool = False


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


def add_options(parser: ArgumentParser,
                options: tuple[Option, ...]) -> None:
    """The options that are typed, as arguments of `parser`."""
    groups: dict[str, Any] = {}
    for option in options:
        if not option.flags:
            continue
        if option.apart and option.apart not in groups:
            groups[option.apart] = parser.add_mutually_exclusive_group()
        where = groups[option.apart] if option.apart else parser
        how: dict[str, Any]
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


class Sitting(NamedTuple):
    """One player sat down at one game: what the game is handed."""

    game: Game
    store: GameStore
    seed: int

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


async def recorded(sitting: Sitting, number: int) -> Any:
    """Game `number` of SCORES, if it is one of this game's; else None."""
    found = await sitting.store.run(lambda store: store.result(number))
    return found if found is not None and found.game == sitting.game.name \
        else None


class Game(NamedTuple):
    """One game in the room: what to call it, and how to reach it."""

    name: str
    title: str
    aliases: tuple[str, ...]
    description: str
    front_end: Callable[[], FrontEnd]
