# Tangled from literate/room.md: edit the chapter, not this file, then run `retro tangle`.
"""The game room: a text-adventure prompt in front of the four machines.

Tangled from literate/room.md, which explains it.
"""
from __future__ import annotations

import importlib
import importlib.util
import random
import re
import textwrap
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

from retro.room.teletype import WIDTH

@dataclass(frozen=True)
class Exhibit:
    """A machine standing in the room, and how to find its game."""

    name: str
    title: str
    aliases: tuple[str, ...]
    description: str
    play_options: tuple[tuple[str, object], ...] = ()  # for the game's play

    @property
    def module_name(self) -> str:
        return f"retro.{self.name}"


EXHIBITS: tuple[Exhibit, ...] = (
    Exhibit("mindreader", "The Mind Reader",
            ("mind reader", "shannon", "mrm", "awk", "reader"),
            "A grey relay cabinet with two lamps and a lever: Shannon's MIND "
            "READER. It plays matching pennies and learns how you choose.",
            play_options=(("ask_opponent", True),)),
    Exhibit("flip", "Flip", ("coin", "basic"),
            "A terminal with a coin taped to its side: FLIP, out of More "
            "BASIC Computer Games. It watches for patterns in your flips."),
    Exhibit("hexapawn", "Hexapawn", ("her", "matchboxes", "matchbox", "pawns"),
            "A little chessboard, three squares by three, beside twenty-four "
            "matchboxes of coloured beads: HEXAPAWN, and HER, who learns by "
            "losing beads."),
    Exhibit("penney", "Penney's Game",
            ("penneys game", "penneys", "triplets", "coins"),
            "A coin-tossing machine with a slot for your bet: PENNEY'S GAME. "
            "Pick three tosses; it picks three of its own, and usually wins."),
)


@dataclass(frozen=True)
class Found:
    """What importing a machine's game gave: the module, or why not."""

    module: ModuleType | None
    trouble: str = ""  # "" when ready; otherwise why the machine cannot play


def find_game(exhibit: Exhibit) -> Found:
    """Import the exhibit's game module, if there is one that works."""
    try:
        module = importlib.import_module(exhibit.module_name)
    except ModuleNotFoundError as error:
        if error.name == exhibit.module_name:
            return Found(None, "not yet built")
        return Found(None, f"out of order ({error})")
    except Exception as error:  # a module being written may fail any way
        return Found(None, f"out of order ({type(error).__name__}: {error})")
    if not callable(getattr(module, "play", None)):
        return Found(None, "not yet built (it has no play function)")
    return Found(module)


BANNER = r"""
 ____  _____ _____ ____   ___
|  _ \| ____|_   _|  _ \ / _ \
| |_) |  _|   | | | |_) | | | |
|  _ <| |___  | | |  _ <| |_| |
|_| \_\_____| |_| |_| \_\\___/

Four machines that learned to play, from the age of relays
to the age of BASIC. Type HELP if you are lost.
""".strip("\n")

ROOM = ("You are in the machine room of an old laboratory. Afternoon light "
        "falls through high windows onto four machines, each with a brass "
        "number plate. A Teletype by the door hums to itself, its paper "
        "curling onto the floor.")

HELP = """\
You can type:
  LOOK             look around the room (LOOK AT a machine, too)
  MENU             the machines, numbered
  PLAY <machine>   play one: PLAY 2, PLAY FLIP, or just FLIP
  SCORES           how every game went, in every session
  TEAR [FILE]      save the paper roll to FILE, or to retro-roll-N.txt
  HELP             this list
  QUIT             leave the room (Ctrl-D does too)
Words may be shortened (L, P 1, Q; not TEAR); articles are ignored.
Inside a game, Ctrl-C abandons it and brings you back here."""

PUZZLED = (
    "The Teletype types: WHAT IS \"{word}\"? TYPE HELP.",
    "Nothing in the room answers to \"{word}\". HELP lists what does.",
    "The machines hum politely. None of them knows \"{word}\". Try HELP.",
)

FAREWELL = "You switch off the lights and leave the machines to their dreams."


NAMELIKE = re.compile(r"[^\W_]+(?:['\-.][^\W_]+)*")
VERBS = ("look", "play", "menu", "help", "scores", "tear", "quit")
WHOLE_WORDS = frozenset({"tear"})  # verbs that are never abbreviated
SYNONYMS = {"x": "look", "examine": "look", "describe": "look",
            "start": "play", "run": "play", "list": "menu", "machines": "menu",
            "?": "help", "score": "scores", "results": "scores",
            "exit": "quit", "bye": "quit", "leave": "quit", "logout": "quit"}
TRIMMED = ".,;:!?\"'()[]"
LITTLE_WORDS = frozenset({"the", "a", "an", "at", "to", "on", "with",
                          "machine", "game", "please"})


@dataclass(frozen=True)
class Command:
    """What a line means: a verb, and the rest of the words."""

    verb: str  # one of VERBS, "" for an empty line, "?" if not understood
    rest: tuple[str, ...] = ()
    raw: str = ""  # the words after the verb as typed (a file name for TEAR)


def words_of(line: str) -> list[str]:
    """The words of a line, lowercased, without articles and punctuation."""
    words = (token.strip(TRIMMED) or token for token in line.lower().split())
    return [word for word in words if word not in LITTLE_WORDS]


def squash(words: Sequence[str]) -> str:
    """Words run together without punctuation: 'mind-reader' -> 'mindreader'."""
    return re.sub(r"[\W_]", "", "".join(words))


def parse(line: str, exhibits: Sequence[Exhibit] = EXHIBITS) -> Command:
    """Work out what a line typed at the room's prompt means."""
    words = words_of(line)
    if not words:
        return Command("")
    first = words[0]
    verb = SYNONYMS.get(first) or next(
        (name for name in VERBS if name == first or name.startswith(first)
         and name not in WHOLE_WORDS), None)
    if verb is None:
        if game_named(words, exhibits) is not None:
            return Command("play", tuple(words), line.strip())
        return Command("?", tuple(words), line.strip())
    raw = line.strip().split(None, 1)
    return Command(verb, tuple(words[1:]), raw[1] if len(raw) > 1 else "")


def game_named(words: Sequence[str],
               exhibits: Sequence[Exhibit] = EXHIBITS) -> Exhibit | None:
    """The machine these words name: a number, a name, or its beginning."""
    if not all(NAMELIKE.fullmatch(word) for word in words):
        return None
    key = squash(words)
    if not key:
        return None
    if key.isdigit():
        number = int(key)
        return exhibits[number - 1] if 1 <= number <= len(exhibits) else None
    names = [(squash([name]), exhibit) for exhibit in exhibits
             for name in (exhibit.name, exhibit.title) + exhibit.aliases]
    for name, exhibit in names:
        if name == key:
            return exhibit
    matches = {exhibit for name, exhibit in names if name.startswith(key)}
    return matches.pop() if len(matches) == 1 else None


def new_seed(rng: random.Random | None = None) -> int:
    """A fresh seed for a game: from `rng`, or from the system."""
    return (rng or random.SystemRandom()).randrange(2 ** 32)


def play_game(module: ModuleType, tty, store, *, seed: int,
              options: dict | None = None) -> str:
    """Play one game; say how it ended: 'over', 'eof' or 'abandoned'."""
    try:
        module.play(tty, rng=random.Random(seed), store=store, seed=seed,
                    **(options or {}))
    except EOFError:
        return "eof"
    except KeyboardInterrupt:
        tty.say()
        tty.say("*** GAME ABANDONED ***")
        return "abandoned"
    return "over"


class Room:
    """The text-adventure loop in front of the machines."""

    PROMPT = "> "

    def __init__(self, tty, store, *, seed: int | None = None,
                 exhibits: Sequence[Exhibit] = EXHIBITS):
        self.tty, self.store = tty, store
        self.seeds = random.Random(seed)
        self.exhibits = tuple(exhibits)
        self.found: dict[str, Found] = {}
        self.puzzled = 0
        self._extras: dict[str, tuple[str, Callable, Exhibit]] | None = None

    def run(self) -> int:
        """The whole session; returns the exit status (always 0)."""
        self.tty.say(BANNER)
        self.tty.say()
        self.look()
        while True:
            try:
                line = self.tty.ask(self.PROMPT, self.choices)
                if not self.obey(line):
                    break
            except EOFError:
                break
            except KeyboardInterrupt:
                self.tty.say()
                self.tty.say("(To leave the room, type QUIT.)")
        self.tty.say(FAREWELL)
        return 0

    def obey(self, line: str) -> bool:
        """Do what one line says; False when the player leaves."""
        extra = self.extras.get(squash(words_of(line)))
        if extra is not None:
            self.run_extra(*extra)
            return True
        command = parse(line, self.exhibits)
        if command.verb == "quit":
            return False
        if command.verb == "look":
            self.look(command.rest)
        elif command.verb == "menu":
            self.menu()
        elif command.verb == "help":
            self.help()
        elif command.verb == "play":
            self.play(command.rest)
        elif command.verb == "scores":
            self.scores()
        elif command.verb == "tear":
            self.tear(command.raw)
        elif command.verb == "?":
            word = command.rest[0]
            word = word if len(word) <= 20 else word[:20] + "..."
            self.tty.say(PUZZLED[self.puzzled % len(PUZZLED)].format(word=word))
            self.puzzled += 1
        return True

    def look(self, rest: Sequence[str] = ()) -> None:
        """Describe the room, or the machine named in `rest`."""
        if rest:
            exhibit = game_named(rest, self.exhibits)
            if exhibit is None:
                self.tty.say(f"You see no \"{' '.join(rest)[:20]}\" here.")
            else:
                self.tty.say(self.describe(exhibit))
            return
        self.tty.say(ROOM)
        for number, exhibit in enumerate(self.exhibits, 1):
            self.tty.say()
            self.tty.say(textwrap.fill(f"{number}. {self.describe(exhibit)}",
                                       WIDTH, subsequent_indent="   "))
        self.tty.say()

    def describe(self, exhibit: Exhibit) -> str:
        trouble = self.status(exhibit, look=True)
        if trouble.startswith("not yet built"):
            return (f"{exhibit.description} A dust sheet hangs over it: "
                    f"NOT YET BUILT.")
        if trouble:
            return f"{exhibit.description} A card on it says: {trouble.upper()}."
        return exhibit.description

    def status(self, exhibit: Exhibit, *, look: bool = False) -> str:
        """'' if the machine can be played, otherwise why not."""
        if look and exhibit.name not in self.found:
            try:
                there = importlib.util.find_spec(exhibit.module_name) is not None
            except (ImportError, ValueError):
                there = True  # something is there; playing it will tell
            return "" if there else "not yet built"
        if exhibit.name not in self.found:
            self.found[exhibit.name] = find_game(exhibit)
        return self.found[exhibit.name].trouble

    def menu(self) -> None:
        self.tty.say("The machines:")
        for number, exhibit in enumerate(self.exhibits, 1):
            trouble = self.status(exhibit)
            sign = f"  ({trouble})" if trouble else ""
            self.tty.say(f"  {number}. {exhibit.title}{sign}")
        self.tty.say("Type PLAY and a number or a name.")

    def help(self) -> None:
        self.tty.say(HELP)
        if self.extras:
            self.tty.say("The machines add:")
            column = " " * 19  # where the descriptions of the verbs start
            for phrase, action, exhibit in self.extras.values():
                about = (action.__doc__ or "").strip().splitlines()
                about = about[0].strip() if about else f"(from {exhibit.title})"
                first = f"  {phrase.upper():<16} "
                if len(first) > len(column):
                    self.tty.say(first.rstrip())
                    first = column
                self.tty.say(textwrap.fill(about, WIDTH, initial_indent=first,
                                           subsequent_indent=column))

    def choices(self) -> list[str]:
        """What Tab completes at the room's prompt."""
        names = [exhibit.name for exhibit in self.exhibits]
        extras = [phrase.lower() for phrase, _, _ in self.extras.values()]
        return list(VERBS) + names + extras

    def play(self, rest: Sequence[str]) -> None:
        if not rest:
            self.menu()
            return
        exhibit = game_named(rest, self.exhibits)
        if exhibit is None:
            self.tty.say(f"There is no machine called \"{' '.join(rest)[:20]}\" "
                         f"here. MENU lists them.")
            return
        trouble = self.status(exhibit)
        if trouble:
            self.tty.say(f"{exhibit.title} is {trouble}. Try another machine.")
            return
        self.tty.say(f"You sit down at {exhibit.title}.")
        self.tty.say()
        play_game(self.found[exhibit.name].module, self.tty, self.store,
                  seed=new_seed(self.seeds), options=dict(exhibit.play_options))
        self.tty.say()
        self.tty.say("You are back in the machine room.")

    def scores(self) -> None:
        results = self.store.results()
        if not results:
            self.tty.say("No games played yet. The scoreboard is clean.")
            return
        titles = {exhibit.name: exhibit.title for exhibit in self.exhibits}
        games = list(titles) + sorted({r.game for r in results} - set(titles))
        self.tty.say(f"{'game':<18}{'played':>7}{'won':>6}{'lost':>6}"
                     f"{'drawn':>7}  last")
        for game in games:
            mine = [r for r in results if r.game == game]
            if not mine:
                continue
            count = {outcome: sum(r.outcome == outcome for r in mine)
                     for outcome in ("win", "loss", "draw")}
            self.tty.say(f"{titles.get(game, game)[:17]:<18}{len(mine):>7}"
                         f"{count['win']:>6}{count['loss']:>6}{count['draw']:>7}"
                         f"  {mine[-1].score}")
        self.tty.say()
        self.tty.say("The last games:")
        for r in results[-5:]:
            seed = "" if r.seed is None else f"  seed {r.seed}"
            self.tty.say(f"  {r.played_at[:10]}  {titles.get(r.game, r.game)}: "
                         f"{r.score} ({r.outcome}){seed}")

    def tear(self, name: str = "") -> None:
        path = Path(name).expanduser() if name else next(
            Path(f"retro-roll-{n}.txt") for n in range(1, 10 ** 6)
            if not Path(f"retro-roll-{n}.txt").exists())
        try:
            self.tty.tear(path)
        except OSError as error:
            self.tty.say(f"The paper will not tear: {error.strerror or error}.")
            return
        self.tty.say(f"You tear off the paper roll. It is saved as {path}.")

    @property
    def extras(self) -> dict[str, tuple[str, Callable, Exhibit]]:
        """The games' own commands, by their squashed phrase."""
        if self._extras is None:
            self._extras = self._room_commands()
        return self._extras

    def _room_commands(self) -> dict[str, tuple[str, Callable, Exhibit]]:
        extras = {}
        for exhibit in self.exhibits:
            if self.status(exhibit):
                continue
            module = self.found[exhibit.name].module
            commands = getattr(module, "ROOM_COMMANDS", None) or {}
            for phrase, action in commands.items():
                extras[squash(words_of(phrase))] = (phrase, action, exhibit)
        return extras

    def run_extra(self, phrase: str, action: Callable, exhibit: Exhibit) -> None:
        try:
            action(self.tty, self.store, seed=new_seed(self.seeds))
        except EOFError:
            pass
        except KeyboardInterrupt:
            self.tty.say()
            self.tty.say(f"({phrase.upper()} abandoned.)")
