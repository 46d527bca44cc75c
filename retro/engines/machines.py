# Tangled from literate/machines.md: edit the chapter, not this file, then run `retro tangle`.
"""Machines that match pennies: their interface, situations and registry.

Tangled from literate/machines.md, which explains it.
"""
from __future__ import annotations

import importlib
import random
from collections.abc import Callable, Mapping
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


def lazy(module: str, attribute: str) -> Callable[[random.Random], Machine]:
    """A factory that imports `module` only when a machine is made."""
    def make(rng: random.Random) -> Machine:
        return getattr(importlib.import_module(module), attribute)(rng)
    make.__qualname__ = f"make {module}.{attribute}"
    return make


MACHINES: Mapping[str, tuple[Callable[[random.Random], Machine], str]] = \
    MappingProxyType({
        "coin": (Coin, "a fair coin: learns nothing, cannot be read"),
        "seer": (lazy("retro.engines.seer", "Seer"),
                 "Hagelbarger's SEER (1956): 8 situations, +-3 counters, "
                 "win registers"),
        "mrm": (lazy("retro.engines.mrm", "MindReadingMachine"),
                "Shannon's mind-reading machine (1953): 8 situations, "
                "2-bit change registers"),
        "awk": (lazy("retro.engines.mindreader", "AwkMachine"),
                "Shannon's machine as the AWK listing plays it: "
                "unbounded tallies"),
        "scp": (lazy("retro.engines.scp", "ContextPredictor"),
                "the Sibiu simple contextual predictor (2020): "
                "longest unbalanced context"),
        "flip": (lazy("retro.engines.flip", "FlipMachine"),
                 "Flip, from More BASIC Computer Games: a learned "
                 "probability per two-round history"),
        "mixer": (lazy("retro.engines.mixer", "Mixer"),
                  "ours: contexts of several kinds, mixed; reads machines "
                  "best"),
        "augur": (lazy("retro.engines.reader", "Augur"),
                  "ours: the mixer with a model of people; reads people "
                  "best"),
    })


PLAYERS: Mapping[str, tuple[Callable[[random.Random], Machine], str]] = \
    MappingProxyType({
        "human-switcher": (lazy("retro.engines.people", "Switcher"),
                           "like a person: switches sides 6 times in 10"),
        "human-run-avoider": (lazy("retro.engines.people", "RunAvoider"),
                              "like a person: avoids runs, never more "
                              "than 4"),
        "human-balancer": (lazy("retro.engines.people", "Balancer"),
                           "like a person: evens out its last 6 plays"),
        "human-tiring": (lazy("retro.engines.people", "Tiring"),
                         "like a person: starts at random, tires into "
                         "a habit"),
        "human-reactive": (lazy("retro.engines.people", "Reactive"),
                           "like a person: stays after a win, shifts "
                           "after a loss"),
        "human": (lazy("retro.engines.people", "Human"),
                  "a person: one of the habits above, drawn for each "
                  "game"),
    })


class MachineError(ValueError):
    """A machine that cannot be made; the message is one line."""


def make_machine(name: str, rng: random.Random) -> Machine:
    """A fresh machine called `name` that draws its chance from `rng`."""
    try:
        factory, _ = MACHINES[name] if name in MACHINES else PLAYERS[name]
    except KeyError:
        raise MachineError(f"no machine called {quoted(name)}; "
                           f"try one of {', '.join(MACHINES)} or a "
                           f"player: {', '.join(PLAYERS)}") from None
    try:
        return factory(rng)
    except (ImportError, AttributeError) as error:
        raise MachineError(f"the machine {quoted(name)} cannot be loaded "
                           f"({error})") from None
