# Tangled from literate/machines.md: edit the chapter, not this file, then run `retro tangle`.
"""Machines that match pennies: their interface, the coin, the situations.

Tangled from literate/machines.md, which explains it.
"""
from __future__ import annotations

import random
from typing import Protocol


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
