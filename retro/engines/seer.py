# Tangled from literate/seer.md: edit the chapter, not this file, then run `retro tangle`.
"""Hagelbarger's SEER (1956), the sequence extrapolating robot.

Tangled from literate/seer.md, which explains it.
"""
from __future__ import annotations

import random
from collections import deque
from collections.abc import Sequence

from retro.engines.machines import SITUATION_NAMES, coin, situation

LIMIT = 3  # the counters' stops


def state_of_play(rounds: Sequence[tuple[int, int]]) -> int | None:
    """SEER's situation after rounds of (its play, theirs), or None."""
    if len(rounds) < 2:
        return None
    mine_before, theirs_before = rounds[-2]
    mine_last, theirs_last = rounds[-1]
    return situation(won_before_last=mine_before == theirs_before,
                     changed=mine_last != mine_before,
                     won_last=mine_last == theirs_last)


def play_same(counter: int, win_register: int, rng: random.Random) -> bool:
    """Whether SEER repeats its last play, by Hagelbarger's three rules."""
    wins = (win_register >> 1) + (win_register & 1)
    if wins == 0 or counter == 0:
        return coin(rng) == 1                 # rule 1 (and no instruction)
    instruction = counter > 0
    if wins == 1:
        follow = rng.random() < 0.75          # rule 2: three-to-one odds
        return instruction if follow else not instruction
    return instruction                        # rule 3


class Seer:
    """Hagelbarger's SEER: +-3 counters and win registers in 8 situations."""

    name = "seer"

    def __init__(self, rng: random.Random):
        self.rng = rng
        self.counters = [0] * len(SITUATION_NAMES)
        self.win_registers = [0] * len(SITUATION_NAMES)
        self.rounds: deque[tuple[int, int]] = deque(maxlen=2)
        self.state: int | None = None
        self.play: int | None = None

    def choose(self) -> int:
        self.state = state_of_play(self.rounds)
        if self.state is None:
            self.play = coin(self.rng)
        else:
            last = self.rounds[-1][0]
            same = play_same(self.counters[self.state],
                             self.win_registers[self.state], self.rng)
            self.play = last if same else 1 - last
        return self.play

    def learn(self, opponent: int) -> None:
        state = self.state
        if state is not None:
            previous = self.rounds[-1][0]
            should_have_played_same = opponent == previous
            step = 1 if should_have_played_same else -1
            counter = self.counters[state] + step
            self.counters[state] = max(-LIMIT, min(LIMIT, counter))
            won = self.play == opponent
            register = self.win_registers[state]
            self.win_registers[state] = (register << 1 & 0b11) | won
        self.rounds.append((self.play, opponent))
