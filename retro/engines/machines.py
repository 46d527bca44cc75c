# Tangled from literate/machines.md: edit the chapter, not this file, then run `retro tangle`.
"""Machines that match pennies: their interface, situations and registry.

Tangled from literate/machines.md, which explains it.
"""
from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Protocol

from retro.common import quoted


HEADS, TAILS = 1, 0


class Machine(Protocol):
    """A player of matching pennies that tries to match its opponent."""

    name: str

    def choose(self) -> int:
        """The machine's play for this round: HEADS (1) or TAILS (0)."""
        ...

    def learn(self, opponent: int) -> None:
        """Be told the opponent's play in the round just chosen."""
        ...


def coin(rng: random.Random) -> int:
    """Heads or tails at even odds."""
    return rng.getrandbits(1)


class Coin:
    """Tosses a fair coin every round and learns nothing."""

    name = "coin"

    def __init__(self, rng: random.Random):
        self.rng = rng

    def choose(self) -> int:
        return coin(self.rng)

    def learn(self, opponent: int) -> None:
        pass


SITUATION_NAMES = tuple(before + change + last
                        for before in "LW" for change in "SD"
                        for last in "LW")


def situation(won_before_last: bool, changed: bool, won_last: bool) -> int:
    """The number of a situation, 0 (LSL) to 7 (WDW): the three facts read
    as a binary number, a win or a change counting 1."""
    return 4 * won_before_last + 2 * changed + won_last


@dataclass(frozen=True)
class Entrant:
    """A machine or a player as the registry knows it."""

    make: Callable[[random.Random], Machine]
    description: str
    microseconds: float  # a play, rounded up
    kind: str  # "control", "rival", "ours" or "person"


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
    "coin": Entrant(Coin, "a fair coin: learns nothing, cannot be read",
                    0.25, "control"),
    "human-switcher": Entrant(person("Switcher"), "like a person: switches "
                              "sides 6 times in 10", 2, "person"),
    "human-run-avoider": Entrant(person("RunAvoider"), "like a person: avoids "
                                 "runs, never more than 4", 2, "person"),
    "human-balancer": Entrant(person("Balancer"), "like a person: evens out "
                              "its last 6 plays", 2, "person"),
    "human-tiring": Entrant(person("Tiring"), "like a person: starts at "
                            "random, tires into a habit", 2, "person"),
    "human-reactive": Entrant(person("Reactive"), "like a person: stays after "
                              "a win, shifts after a loss", 2, "person"),
    "human": Entrant(person("Human"), "a person: one of the habits above, "
                     "drawn for each game", 2, "person"),
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
