# Tangled from literate/mrm.md: edit the chapter, not this file, then run `retro tangle`.
"""Shannon's mind-reading machine (1953), as Breazu et al. (2020) describe it.

Tangled from literate/mrm.md, which explains it.
"""
from __future__ import annotations

import random
from collections import deque
from collections.abc import Sequence

from retro.engines.machines import SITUATION_NAMES, coin, situation


def opponents_situation(rounds: Sequence[tuple[int, int]]) -> int | None:
    """The opponent's situation after rounds of (my play, their play)."""
    if len(rounds) < 2:
        return None
    mine_before, theirs_before = rounds[-2]
    mine_last, theirs_last = rounds[-1]
    return situation(won_before_last=theirs_before != mine_before,
                     changed=theirs_last != theirs_before,
                     won_last=theirs_last != mine_last)


def predict_change(changes: tuple[bool, ...]) -> bool | None:
    """Will the opponent change? None when the register shows no habit."""
    if len(changes) == 2 and changes[0] == changes[1]:
        return changes[0]
    return None


class MindReadingMachine:
    """Shannon's MRM: the opponent's last two changes in 8 situations."""

    name = "mrm"

    def __init__(self, rng: random.Random):
        self.rng = rng
        self.registers: list[tuple[bool, ...]] = [()] * len(SITUATION_NAMES)
        self.rounds: deque[tuple[int, int]] = deque(maxlen=2)
        self.state: int | None = None
        self.play: int | None = None

    def choose(self) -> int:
        self.state = opponents_situation(self.rounds)
        change = (None if self.state is None
                  else predict_change(self.registers[self.state]))
        if change is None:
            self.play = coin(self.rng)
        else:
            theirs_last = self.rounds[-1][1]
            self.play = 1 - theirs_last if change else theirs_last
        return self.play

    def learn(self, opponent: int) -> None:
        if self.state is not None:
            changed = opponent != self.rounds[-1][1]
            register = self.registers[self.state]
            self.registers[self.state] = (register + (changed,))[-2:]
        self.rounds.append((self.play, opponent))
