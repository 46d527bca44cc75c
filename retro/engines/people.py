# Tangled from literate/people.md: edit the chapter, not this file, then run `retro tangle`.
"""Players that write the sequences people write when they try to be
random: switching too often, avoiding runs, balancing, tiring, reacting.

Tangled from literate/people.md, which explains it.
"""
from __future__ import annotations

import random
from collections.abc import Sequence

from retro.engines.machines import coin

MEMORY = 16   # plays a player keeps: more than any window below


class Person:
    """A player that writes a person's sequence; subclasses say how."""

    name = "human"

    def __init__(self, rng: random.Random):
        self.rng = rng
        self.plays: list[int] = []    # its last MEMORY plays, oldest first
        self.wins: list[bool] = []    # whether it won each of them
        self.rounds = 0               # rounds played so far
        self.play: int | None = None

    def choose(self) -> int:
        self.play = self.next_play()
        return self.play

    def learn(self, opponent: int) -> None:
        self.plays = (self.plays + [self.play])[-MEMORY:]
        self.wins = (self.wins + [self.play == opponent])[-MEMORY:]
        self.rounds += 1

    def next_play(self) -> int:
        raise NotImplementedError

    def switch_with(self, chance: float) -> int:
        """Its last play, or the other side with this chance; a coin
        toss for the first play."""
        if not self.plays:
            return coin(self.rng)
        last = self.plays[-1]
        return 1 - last if self.rng.random() < chance else last


class Switcher(Person):
    """Switches sides more often than a coin would."""

    name = "human-switcher"

    def __init__(self, rng: random.Random, switch: float = 0.6):
        super().__init__(rng)
        self.switch = switch

    def next_play(self) -> int:
        return self.switch_with(self.switch)


def run_length(plays: Sequence[int]) -> int:
    """How many of the last plays are the same as the very last."""
    run = 0
    for play in reversed(plays):
        if play != plays[-1]:
            break
        run += 1
    return run


class RunAvoider(Person):
    """Grows less willing to repeat the longer its run, and stops at a
    limit."""

    name = "human-run-avoider"

    def __init__(self, rng: random.Random, switch: float = 0.5,
                 longest: int = 4):
        super().__init__(rng)
        self.switch, self.longest = switch, longest

    def next_play(self) -> int:
        run = run_length(self.plays)
        if run >= self.longest:
            return self.switch_with(1.0)
        step = (run - 1) / (self.longest - 1) if run else 0.0
        return self.switch_with(self.switch + (1 - self.switch) * step)


class Balancer(Person):
    """Plays the side it has played less, lately, more often."""

    name = "human-balancer"

    def __init__(self, rng: random.Random, window: int = 6,
                 pull: float = 1.0):
        super().__init__(rng)
        self.window, self.pull = window, pull

    def next_play(self) -> int:
        recent = self.plays[-self.window:]
        tails_surplus = len(recent) - 2 * sum(recent)
        heads = 0.5 + self.pull * tails_surplus / self.window
        return int(self.rng.random() < min(1.0, max(0.0, heads)))


HABITS = ((1, 1, 0), (1, 0, 0), (1, 1, 0, 0), (1, 0, 1, 1, 0),
          (1, 1, 0, 1, 0, 0))


class Tiring(Person):
    """Starts near random and drifts into a habitual pattern."""

    name = "human-tiring"

    def __init__(self, rng: random.Random, habit: float = 0.8,
                 ramp: int = 60):
        super().__init__(rng)
        self.habit, self.ramp = habit, ramp
        cycle = rng.choice(HABITS)
        self.cycle = cycle if coin(rng) else tuple(1 - c for c in cycle)

    def habit_now(self) -> float:
        """The chance of following the pattern in the coming round."""
        return self.habit * min(1.0, self.rounds / self.ramp)

    def next_play(self) -> int:
        if self.rng.random() < self.habit_now():
            return self.cycle[self.rounds % len(self.cycle)]
        return coin(self.rng)


class Reactive(Person):
    """Win-stay, lose-shift, each with a probability."""

    name = "human-reactive"

    def __init__(self, rng: random.Random, stay_after_win: float = 0.7,
                 shift_after_loss: float = 0.7):
        super().__init__(rng)
        self.stay_after_win = stay_after_win
        self.shift_after_loss = shift_after_loss

    def next_play(self) -> int:
        if not self.wins:
            return coin(self.rng)
        won = self.wins[-1]
        return self.switch_with(1 - self.stay_after_win if won
                                else self.shift_after_loss)


def Human(rng: random.Random) -> Person:
    """One of the kinds above, with parameters drawn for this sequence."""
    kind = rng.randrange(5)
    if kind == 0:
        return Switcher(rng, rng.uniform(0.52, 0.68))
    if kind == 1:
        return RunAvoider(rng, rng.uniform(0.45, 0.6), rng.choice((3, 4, 5)))
    if kind == 2:
        return Balancer(rng, rng.choice((4, 6, 8, 10)),
                        rng.uniform(0.5, 1.0))
    if kind == 3:
        return Tiring(rng, rng.uniform(0.5, 0.9), rng.choice((40, 60, 80)))
    return Reactive(rng, rng.uniform(0.55, 0.8), rng.uniform(0.55, 0.8))
