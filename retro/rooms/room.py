# Tangled from literate/room.md: edit the chapter, not this file, then run `retro tangle`.
"""The game room: a text-adventure prompt in front of the games.

Tangled from literate/room.md, which explains it.
"""
from __future__ import annotations

import random
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass

from retro.common import new_seed, plural, quoted
from retro.games.contract import (Abandoned, FrontEnd, Game, RoomCommand,
                                  Sitting, in_the_room)
from retro.games.registry import GAMES
from retro.rooms.reports import help_column, help_row, scores_report, tear
from retro.rooms.words import (AROUND, VERBS, WHOLE_WORDS, Meaning,
                               game_named, names_of, parse, squash, words_of)
from retro.services.store import Store, StoreError
from retro.services.teletype import GoingDown


@dataclass(frozen=True)
class Installed:
    """A game's front end as reached: the record, or why it could not be."""

    front_end: FrontEnd | None
    trouble: str = ""  # one line: what stopped the import


def install(game: Game) -> Installed:
    """Reach `game`'s front end; a failure becomes one line of trouble."""
    try:
        return Installed(game.front_end())
    except Exception as error:  # a damaged install may fail any way
        return Installed(None, " ".join(f"{type(error).__name__}: {error}"
                                        .split()))


class FrontEnds:
    """The front ends a room has looked for, each reached only once."""

    def __init__(self) -> None:
        self.found: dict[str, Installed] = {}

    def __getitem__(self, game: Game) -> Installed:
        if game.name not in self.found:
            self.found[game.name] = install(game)
        return self.found[game.name]


BANNER = r"""
 ____  _____ _____ ____   ___
|  _ \| ____|_   _|  _ \ / _ \
| |_) |  _|   | | | |_) | | | |
|  _ <| |___  | | |  _ <| |_| |
|_| \_\_____| |_| |_| \_\\___/
""".strip("\n")

WELCOME = ("Four machines that learned to play, from the age of relays",
           "to the age of BASIC. Type HELP if you are lost.")

ROOM = ("You are in the machine room of an old laboratory. Afternoon light "
        "falls through high windows onto four machines, each with a brass "
        "number plate. A Teletype by the door hums to itself, its paper "
        "curling onto the floor.")

HELP = (
    ("LOOK", "look around the room (LOOK AT a machine, too)"),
    ("MENU", "the machines, numbered"),
    ("PLAY <machine>", "play one: PLAY 2, PLAY FLIP, or just FLIP"),
    ("SCORES [ALL]", "how your games went; SCORES ALL: everyone's"),
    ("TEAR [FILE]", "tear off the paper, to FILE or retro-roll-N.txt"),
    ("HELP", "this list"),
    ("QUIT", "leave the room (Ctrl-D does too)"),
)
HELP_NOTES = """\
Words may be shortened (L, P 1, Q; not TEAR); articles are ignored.
In a game, QUIT, Ctrl-C or Ctrl-D leaves it and brings you back here."""

PUZZLED = (
    "The Teletype types: WHAT IS {word}? TYPE HELP.",
    "Nothing in the room answers to {word}. HELP lists what does.",
    "The machines hum politely. None of them knows {word}. Try HELP.",
)

FAREWELL = "You switch off the lights and leave the machines to their dreams."


async def play_game(game: Game, conversation: Callable, tty, store: Store,
                    *, seed: int, options: dict | None = None) -> str:
    """Play one game; how it ended: "over", "left", "abandoned" (Ctrl-C),
    "eof" or "stopped"."""
    try:
        await conversation(tty, Sitting(game, store, seed), **(options or {}))
        ending = "over"
    except (Abandoned, KeyboardInterrupt, EOFError) as left:
        tty.say()
        tty.say("*** GAME ABANDONED ***")
        ending = ("left" if isinstance(left, Abandoned) else "eof"
                  if isinstance(left, EOFError) else "abandoned")
    except StoreError as error:
        tty.say()
        tty.say(f"*** GAME STOPPED: {str(error).rstrip('.')} ***")
        ending = "stopped"
    await drain_quietly(tty)
    return ending


async def drain_quietly(tty) -> None:
    """Print what is left to print; a Ctrl-C now only stops the printing."""
    try:
        await tty.drain()
    except KeyboardInterrupt:
        tty.say()


@dataclass(frozen=True)
class GameCommand:
    """A command a game adds to the room, and the game it comes from."""

    command: RoomCommand
    game: Game


def game_commands(games: Sequence[Game],
                  front_ends: FrontEnds) -> dict[str, GameCommand]:
    """Every game's commands, by their squashed phrase."""
    commands = {}
    for game in games:
        front_end = front_ends[game].front_end
        for command in front_end.commands if front_end else ():
            commands[squash(words_of(command.phrase))] = GameCommand(command,
                                                                     game)
    return commands


@dataclass(frozen=True)
class Verb:
    """A verb a host adds to the room, or puts in place of one of its own."""

    name: str  # as typed, in lower case: "who"
    usage: str  # as HELP shows it: "WHO"
    about: str  # what HELP says it does
    action: Callable[[Meaning], Awaitable[object]]


def help_rows(verbs: Sequence[Verb]) -> tuple[tuple[str, str], ...]:
    """HELP's rows of verbs: the room's, a host's put in place or added."""
    given = {verb.name: (verb.usage, verb.about) for verb in verbs}
    rows = [given.pop(usage.split()[0].lower(), (usage, about))
            for usage, about in HELP]
    return tuple(rows[:-2]) + tuple(given.values()) + tuple(rows[-2:])


class Room:
    """The text-adventure loop in front of the games."""

    PROMPT = "> "

    def __init__(self, tty, store, *, seed: int | None = None,
                 games: Sequence[Game] = GAMES, verbs: Sequence[Verb] = (),
                 operator: bool = True,
                 announce: Callable[[str], object] | None = None):
        self.tty, self.store = tty, store
        self.operator, self.announce = operator, announce
        self.seeds = random.Random(seed)
        self.games = tuple(games)
        self.front_ends = FrontEnds()
        self.puzzled = 0
        self.playing: Game | None = None  # the game being played, if any
        self._extras: dict[str, GameCommand] | None = None
        self.actions: dict[str, Callable[[Meaning], Awaitable[object]]] = {
            "": lambda said: self.say_lines(()),
            "?": lambda said: self.say_puzzled(said.rest[0]),
            "look": lambda said: self.look(said.rest),
            "menu": lambda said: self.menu(),
            "help": lambda said: self.help(),
            "play": lambda said: self.play(said.rest),
            "scores": lambda said: self.scores(said.rest),
            "tear": lambda said: self.say_lines([tear(self.tty, said.raw)]),
        }
        self.actions.update((verb.name, verb.action) for verb in verbs)
        self.verbs = VERBS + tuple(verb.name for verb in verbs
                                   if verb.name not in VERBS)
        self.help_rows = help_rows(verbs)

    async def run(self) -> int:
        """The whole session; returns the exit status (always 0)."""
        self.tty.draw(BANNER)
        self.tty.say()
        self.tty.table(WELCOME)
        self.tty.say()
        await self.look()
        while True:
            try:
                line = await self.tty.ask(self.PROMPT, self.choices,
                                          history="room")
                if not await self.obey(line):
                    break
            except (EOFError, GoingDown):
                break
            except KeyboardInterrupt:
                self.tty.say()
                self.tty.say("(To leave the room, type QUIT.)")
        self.tty.say(FAREWELL)
        await drain_quietly(self.tty)
        return 0

    async def obey(self, line: str) -> bool:
        """Do what one line says; False when the player leaves."""
        extra = self.extras.get(squash(words_of(line)))
        if extra is not None:
            await self.run_extra(extra)
            return True
        meaning = parse(line, self.games, self.verbs)
        if meaning.verb == "quit":
            return False
        try:
            await self.actions[meaning.verb](meaning)
        except StoreError as error:
            reason = str(error).rstrip(".")
            self.tty.say(f"({meaning.verb.upper()} failed: {reason}.)")
        return True

    async def say_lines(self, lines: Sequence[str]) -> None:
        for line in lines:
            self.tty.say(line)

    async def scores(self, rest: Sequence[str] = ()) -> None:
        """The scoreboard: its table drawn, the newest games said; the
        player's own, or with ALL everyone's."""
        everyone = bool(rest) and rest[0] in ("all", "everyone", "room")
        board = await self.store.run(Store.scoreboard,
                                     None if everyone else self.store.player)
        lines = scores_report(board, self.games, self.tty.page())
        table = lines.index("") if "" in lines else len(lines)
        self.tty.table(lines[:table])
        await self.say_lines(lines[table:])

    async def say_puzzled(self, word: str) -> None:
        """The next of the replies to a word the room does not know."""
        whole = next((verb for verb in WHOLE_WORDS if verb.startswith(word)), None)
        if whole is not None:
            self.tty.say(f"To {WHOLE_WORDS[whole]}, type {whole.upper()} in full.")
            return
        reply = PUZZLED[self.puzzled % len(PUZZLED)]
        self.tty.say(reply.format(word=quoted(word)))
        self.puzzled += 1

    async def look(self, rest: Sequence[str] = ()) -> None:
        """Describe the room, or the machine named in `rest`."""
        rest = [word for word in rest if word not in AROUND]
        if rest:
            game = game_named(rest, self.games)
            if game is not None:
                await self.closer_look(game)
            else:
                self.tty.say(f"You see no {quoted(' '.join(rest))} here.")
            return
        self.tty.say(ROOM)
        for number, game in enumerate(self.games, 1):
            self.tty.say()
            self.tty.say(f"{number}. {game.description}", hang=3)
        self.tty.say()

    async def closer_look(self, game: Game) -> None:
        """What LOOK AT says of one machine: more than LOOK said."""
        number = self.games.index(game) + 1
        seen = [game.description,
                f'Its brass plate reads "{number}. {game.title.upper()}"'
                + (f"; it also answers to {names_of(game.aliases)}."
                   if game.aliases else ".")]
        trouble = self.front_ends[game].trouble
        if trouble:
            seen.append(f"A card on it says: OUT OF ORDER ({trouble}).")
        try:
            board = await self.store.run(Store.scoreboard, self.store.player, 0)
            played = next((one for one in board.tallies
                           if one.game == game.name), None)
            seen.append(f"You have played it {plural(played.played, 'time')} "
                        f"and won {played.won}." if played else
                        "You have not played it yet.")
            front_end = self.front_ends[game].front_end
            lately = front_end.lately if front_end is not None else None
            told = await self.store.run(lately) if lately is not None else None
            if told:
                seen.append(told)
        except StoreError:
            pass
        seen.append(f"PLAY {number} sits you down at it.")
        self.tty.say(" ".join(seen))

    async def menu(self) -> None:
        self.tty.say("The machines:")
        for number, game in enumerate(self.games, 1):
            sign = "  (out of order)" if self.front_ends[game].trouble else ""
            self.tty.say(f"  {number}. {game.title}{sign}")
        self.tty.say("Type PLAY and a number or a name.")

    async def play(self, rest: Sequence[str]) -> None:
        if not rest:
            await self.menu()
            return
        game = game_named(rest, self.games)
        if game is None:
            self.tty.say(f"There is no machine called {quoted(' '.join(rest))} "
                         f"here. MENU lists them.")
            return
        installed = self.front_ends[game]
        if installed.front_end is None:
            self.tty.say(f"{game.title} is out of order ({installed.trouble}). "
                         f"Try another machine.")
            return
        await self.seat(game, installed.front_end.play,
                        in_the_room(installed.front_end))

    async def seat(self, game: Game, conversation: Callable,
                   options: dict) -> None:
        """Sit the player down at `game`, play, and bring them back."""
        self.tty.say(f"You sit down at {game.title}.")
        self.tty.say()
        self.playing = game
        try:
            await play_game(game, conversation, self.tty, self.store,
                            seed=new_seed(self.seeds), options=options)
        finally:
            self.playing = None
        self.tty.say()
        self.tty.say("You are back in the machine room.")

    @property
    def extras(self) -> dict[str, GameCommand]:
        """The games' own commands, by their squashed phrase."""
        if self._extras is None:
            self._extras = game_commands(self.games, self.front_ends)
        return self._extras

    async def help(self) -> None:
        added = [(extra.command.phrase.upper(), extra.command.about)
                 for extra in self.extras.values()]
        column = help_column([usage for usage, _ in self.help_rows + tuple(added)],
                             self.tty.page())
        self.tty.say("You can type:")
        for usage, about in self.help_rows:
            self.tty.say(help_row(usage, about, column), hang=column)
        self.tty.say(HELP_NOTES)
        if added:
            self.tty.say("The machines add:")
            for usage, about in added:
                self.tty.say(help_row(usage, about, column), hang=column)

    def choices(self) -> dict[str, list[str]]:
        """What Tab completes at the room's prompt, by the words before it."""
        machines = [game.name for game in self.games]
        offers = {"": list(self.verbs) + machines, "play": machines,
                  "look": ["at"] + machines, "look at": machines}
        for extra in self.extras.values():
            words = extra.command.phrase.lower().split()
            for at, word in enumerate(words):
                offered = offers.setdefault(" ".join(words[:at]), [])
                if word not in offered:
                    offered.append(word)
        return offers

    async def run_extra(self, extra: GameCommand) -> None:
        if extra.command.plays:  # PLAY FLIP WITH MEMORY: seated, as for PLAY
            await self.seat(extra.game, extra.command.action, {})
            return
        phrase = extra.command.phrase.upper()
        if extra.command.shared and not self.operator:
            self.tty.say(f"Only the operator may {phrase}: it changes "
                         f"{extra.game.title} for everyone.")
            return
        try:
            done = await extra.command.action(
                self.tty, Sitting(extra.game, self.store, new_seed(self.seeds)))
            if done and extra.command.shared and self.announce is not None:
                self.announce(f"{self.store.player} {done}")
        except EOFError:
            pass
        except KeyboardInterrupt:
            self.tty.say()
            self.tty.say(f"({phrase} abandoned.)")
        except StoreError as error:
            reason = str(error).rstrip(".")
            self.tty.say(f"({phrase} failed: {reason}.)")
