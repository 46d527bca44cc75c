# Tangled from literate/umpire.md: edit the chapter, not this file, then run `retro tangle`.
"""The registry of every machine and player, by name.

Tangled from literate/umpire.md, which explains it.
"""
from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import MappingProxyType

from retro.common import quoted
from retro.engines.machines import Coin, Machine


@dataclass(frozen=True)
class Entrant:
    """A machine or a player as the registry knows it."""

    make: Callable[[random.Random], Machine]
    description: str
    microseconds: float  # a play, rounded up
    kind: str  # "control", "rival", "ours", "rule" or "person"


def make_seer(rng: random.Random) -> Machine:
    from retro.engines.seer import Seer
    return Seer(rng)


def make_mrm(rng: random.Random) -> Machine:
    from retro.engines.mrm import MindReadingMachine
    return MindReadingMachine(rng)


def make_awk(rng: random.Random) -> Machine:
    from retro.engines.mindreader import AwkMachine
    return AwkMachine(rng)


def make_scp(rng: random.Random) -> Machine:
    from retro.engines.scp import ContextPredictor
    return ContextPredictor(rng)


def make_flip(rng: random.Random) -> Machine:
    from retro.engines.flip import FlipMachine
    return FlipMachine(rng)


def make_mixer(rng: random.Random) -> Machine:
    from retro.engines.mixer import Mixer
    return Mixer(rng)


def make_augur(rng: random.Random) -> Machine:
    from retro.engines.reader import Augur
    return Augur(rng)


def person(habit: str) -> Callable[[random.Random], Machine]:
    """A maker of the player of retro.engines.people called `habit`."""
    def make(rng: random.Random) -> Machine:
        from retro.engines import people
        return getattr(people, habit)(rng)
    make.__qualname__ = f"make people.{habit}"
    return make


ENTRANTS: Mapping[str, Entrant] = MappingProxyType({
    "awk": Entrant(make_awk, "Shannon's machine as the AWK listing plays "
                   "it: unbounded tallies", 2.5, "rival"),
    "mrm": Entrant(make_mrm, "Shannon's mind-reading machine (1953): 8 "
                   "situations, 2-bit change registers", 1, "rival"),
    "seer": Entrant(make_seer, "Hagelbarger's SEER (1956): 8 situations, "
                    "+-3 counters, win registers", 1.5, "rival"),
    "scp": Entrant(make_scp, "the Sibiu simple contextual predictor "
                   "(2020): longest unbalanced context", 6, "rival"),
    "flip": Entrant(make_flip, "Flip, from More BASIC Computer Games: a "
                    "learned probability per two-round history", 2.5,
                    "rival"),
    "mixer": Entrant(make_mixer, "ours: contexts of several kinds, mixed; "
                     "reads machines best", 35, "ours"),
    "augur": Entrant(make_augur, "ours: the mixer with a model of people; "
                     "reads people best", 60, "ours"),
    "switch": Entrant(person("GuessSwitch"), "a rule: guess that they will "
                      "switch", 0.25, "rule"),
    "switch-half": Entrant(person("GuessSwitchWhileHalf"), "a rule: guess "
                           "switch while their switch rate so far is at "
                           "least half", 0.5, "rule"),
    "coin": Entrant(Coin, "a fair coin: learns nothing, cannot be read",
                    0.25, "control"),
    "human-switcher": Entrant(person("Switcher"), "like a person: switches "
                              "4 to 8 times in 10, breaks long alternations", 2,
                              "person"),
    "human-run-avoider": Entrant(person("RunAvoider"), "like a person: avoids "
                                 "runs, never more than 3 to 5", 2, "person"),
    "human-balancer": Entrant(person("Balancer"), "like a person: evens out "
                              "its last 4 to 10 plays", 2, "person"),
    "human-tiring": Entrant(person("Tiring"), "like a person: starts at "
                            "random, tires into a habit", 2, "person"),
    "human-reactive": Entrant(person("Reactive"), "like a person: stays after "
                              "a win, shifts after a loss", 2, "person"),
    "human": Entrant(person("Human"), "a person: one of the habits above, "
                     "drawn for each game", 2, "person"),
    "human-mixed": Entrant(person("Mixed"), "like a person: every habit at "
                           "once, one of them each round", 7, "person"),
})


MACHINES: Mapping[str, Entrant] = MappingProxyType(
    {name: entrant for name, entrant in ENTRANTS.items()
     if entrant.kind != "person"})
PLAYERS: Mapping[str, Entrant] = MappingProxyType(
    {name: entrant for name, entrant in ENTRANTS.items()
     if entrant.kind == "person"})


class MachineError(ValueError):
    """A machine that cannot be made; the message is one line."""


def make_machine(name: str, rng: random.Random) -> Machine:
    """A fresh machine called `name` that draws its chance from `rng`."""
    try:
        entrant = ENTRANTS[name]
    except KeyError:
        raise MachineError(f"no machine called {quoted(name)}; "
                           f"try one of {', '.join(MACHINES)} or a "
                           f"player: {', '.join(PLAYERS)}") from None
    try:
        return entrant.make(rng)
    except (ImportError, AttributeError) as error:
        raise MachineError(f"the machine {quoted(name)} cannot be loaded "
                           f"({error})") from None
