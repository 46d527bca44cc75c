# Tangled from literate/people.md: edit the chapter, not this file, then run `retro tangle`.
"""Players that write the sequences people write when they try to be
random: switching too often, avoiding runs, balancing, tiring, reacting;
and two one-line rules that guess they will switch.

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
        """Its last play, or the other side with the chance of a change;
        a coin toss for the first play."""
        if not self.plays:
            self.play = coin(self.rng)
        elif self.rng.random() < self.chance_of_change():
            self.play = 1 - self.plays[-1]
        else:
            self.play = self.plays[-1]
        return self.play

    def learn(self, opponent: int) -> None:
        self.plays = (self.plays + [self.play])[-MEMORY:]
        self.wins = (self.wins + [self.play == opponent])[-MEMORY:]
        self.rounds += 1

    def chance_of_change(self) -> float:
        """The chance that its next play differs from its last."""
        raise NotImplementedError


def alternation(plays: Sequence[int]) -> int:
    """How many of the last changes in a row were switches."""
    count = 0
    for before, after in zip(reversed(plays[:-1]), reversed(plays[1:])):
        if before == after:
            break
        count += 1
    return count


class Switcher(Person):
    """Switches sides more often than a coin would, and breaks an
    alternation that has gone on too long."""

    name = "human-switcher"

    def __init__(self, rng: random.Random, switch: float | None = None,
                 alternations: int | None = None):
        super().__init__(rng)
        self.switch = drawn(rng, switch, 0.4, 0.8)
        self.alternations = drawn_from(rng, alternations, (4, 5, 6))

    def chance_of_change(self) -> float:
        return 0.0 if alternation(self.plays) >= self.alternations \
            else self.switch


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

    def __init__(self, rng: random.Random, switch: float | None = None,
                 longest: int | None = None):
        super().__init__(rng)
        self.switch = drawn(rng, switch, 0.3, 0.65)
        self.longest = drawn_from(rng, longest, (3, 4, 5))

    def chance_of_change(self) -> float:
        run = run_length(self.plays)
        if run >= self.longest:
            return 1.0
        step = (run - 1) / (self.longest - 1) if run else 0.0
        return self.switch + (1 - self.switch) * step


class Balancer(Person):
    """Plays the side it has played less, lately, more often."""

    name = "human-balancer"

    def __init__(self, rng: random.Random, window: int | None = None,
                 pull: float | None = None):
        super().__init__(rng)
        self.window = drawn_from(rng, window, (4, 6, 8, 10))
        self.pull = drawn(rng, pull, 0.5, 1.0)

    def chance_of_change(self) -> float:
        recent = self.plays[-self.window:]
        tails_surplus = len(recent) - 2 * sum(recent)
        heads = min(1.0, max(0.0, 0.5 + self.pull * tails_surplus
                                 / self.window))
        return heads if self.plays[-1] == 0 else 1 - heads


HABITS = ((1, 1, 0), (1, 0, 0), (1, 1, 0, 0), (1, 0, 1, 1, 0),
          (1, 1, 0, 1, 0, 0))


class Tiring(Person):
    """Starts near random and drifts into a habitual pattern."""

    name = "human-tiring"

    def __init__(self, rng: random.Random, habit: float | None = None,
                 ramp: int | None = None):
        super().__init__(rng)
        self.habit = drawn(rng, habit, 0.5, 0.9)
        self.ramp = drawn_from(rng, ramp, (40, 60, 80))
        cycle = rng.choice(HABITS)
        self.cycle = cycle if coin(rng) else tuple(1 - c for c in cycle)

    def habit_now(self) -> float:
        """The chance of following the pattern in the coming round."""
        return self.habit * min(1.0, self.rounds / self.ramp)

    def chance_of_change(self) -> float:
        """The pattern's next step with the habit's chance, else a coin."""
        step = self.cycle[self.rounds % len(self.cycle)]
        habit = self.habit_now()
        return habit * (step != self.plays[-1]) + (1 - habit) / 2


class Reactive(Person):
    """Win-stay, lose-shift, each with a probability."""

    name = "human-reactive"

    def __init__(self, rng: random.Random,
                 stay_after_win: float | None = None,
                 shift_after_loss: float | None = None):
        super().__init__(rng)
        self.stay_after_win = drawn(rng, stay_after_win, 0.55, 0.8)
        self.shift_after_loss = drawn(rng, shift_after_loss, 0.55, 0.8)

    def chance_of_change(self) -> float:
        return (1 - self.stay_after_win if self.wins[-1]
                else self.shift_after_loss)


def drawn(rng: random.Random, given: float | None, low: float,
          high: float) -> float:
    """`given`, or a value drawn evenly from low to high for this person."""
    return rng.uniform(low, high) if given is None else given


def drawn_from(rng: random.Random, given: int | None,
               choices: Sequence[int]) -> int:
    """`given`, or one of `choices` drawn for this person."""
    return rng.choice(choices) if given is None else given


KINDS = (Switcher, RunAvoider, Balancer, Tiring, Reactive)


def Human(rng: random.Random) -> Person:
    """One of the kinds above, with parameters drawn for this sequence."""
    return rng.choice(KINDS)(rng)


class Mixed(Person):
    """Every habit at once: each round one of them, drawn by the
    person's shares, writes the play."""

    name = "human-mixed"

    def __init__(self, rng: random.Random,
                 habits: Sequence[Person] | None = None,
                 shares: Sequence[float] | None = None):
        super().__init__(rng)
        self.habits = (list(habits) if habits is not None
                       else [kind(rng) for kind in KINDS])
        if shares is None:
            shares = [rng.expovariate(1.0) for _ in self.habits]
        self.shares = [share / sum(shares) for share in shares]

    def chance_of_change(self) -> float:
        return sum(share * habit.chance_of_change()
                   for share, habit in zip(self.shares, self.habits))

    def learn(self, opponent: int) -> None:
        for habit in self.habits:
            habit.play = self.play       # what was played, by any habit
            habit.learn(opponent)
        super().learn(opponent)


class GuessSwitch:
    """The rule "they will switch": plays the side the opponent did not
    play last."""

    name = "switch"

    def __init__(self, rng: random.Random):
        self.rng = rng
        self.theirs: int | None = None   # the opponent's last play

    def choose(self) -> int:
        return coin(self.rng) if self.theirs is None else 1 - self.theirs

    def learn(self, opponent: int) -> None:
        self.theirs = opponent


class GuessSwitchWhileHalf(GuessSwitch):
    """Guesses "switch" while the opponent's switch rate so far is at
    least half, "stay" when it is less."""

    name = "switch-half"

    def __init__(self, rng: random.Random):
        super().__init__(rng)
        self.changes = self.seen = 0    # its changes, of the rounds seen

    def choose(self) -> int:
        if self.theirs is None or 2 * self.changes >= self.seen:
            return super().choose()
        return self.theirs

    def learn(self, opponent: int) -> None:
        if self.theirs is not None:
            self.seen += 1
            self.changes += opponent != self.theirs
        super().learn(opponent)
