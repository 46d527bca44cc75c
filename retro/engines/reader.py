# Tangled from literate/reader.md: edit the chapter, not this file, then run `retro tangle`.
"""Augur: the mixer, with a model of how people try to be random.

Tangled from literate/reader.md, which explains it.
"""
from __future__ import annotations

import math
import random
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass

from retro.engines.mixer import Mixer, squash, stretch

SWITCH = 0.6          # a person's chance of changing, before any evidence
MEMORY = 8            # plays the people model remembers
BALANCE = 6           # the window in which it looks for balance
CLIP = 0.02           # neither mind is taken to be surer than 98%
PERSON = 3.0          # log-odds that the opponent is a person, at first
BOUND = 6.0           # ... held within +-BOUND, so that it can turn
GUESS_WEIGHT = 0.5    # the belief's step for a right guess the other missed
TRUST = 8.0           # follow the guess with probability squash(TRUST+form)
MIRROR_PRIOR = 10.0   # a reading's rate starts at 1/2, held as 2x this
MIRROR_SURE = 0.52    # ... and speaks by how far it stands above this
PLAYS_FADE = 0.8      # the plays reading forgets as Flip's machine does


def clip(p: float) -> float:
    return min(1 - CLIP, max(CLIP, p))


@dataclass(frozen=True)
class Moment:
    """The opponent's game as the habits look at it, before a round."""

    plays: tuple[int, ...]   # its last plays, oldest first
    run: int                 # its present run, 1 or more plays
    alternations: int        # its last changes in a row that were switches
    surplus: float           # its last side's lead in its last BALANCE
    won: bool                # whether it won the last round

    def pattern(self, n: int) -> float:
        """+1 if playing as it did n rounds ago would be a change, -1 if
        a stay, 0 before there were n plays."""
        if len(self.plays) < n:
            return 0.0
        return 1.0 if self.plays[-n] != self.plays[-1] else -1.0


def trailing(values: Sequence[bool], value: bool) -> int:
    """How many of the last values in a row equal `value`."""
    count = 0
    for v in reversed(values):
        if v != value:
            break
        count += 1
    return count


@dataclass(frozen=True)
class Habit:
    """A habit of people, as a question Augur asks of one person."""

    name: str
    feature: Callable[[Moment], float]   # what it looks at, this round
    mean: float     # its strength, in log-odds of a change, in people
    spread: float   # how far that strength varies from person to person
    chance: float   # the chance that a person has the habit at all
    sign: int       # the findings' direction: +1 more changes, -1 fewer


HABITS = (
    Habit("switching", lambda now: 1.0, stretch(SWITCH), 0.55, 1.0, 0),
    *(Habit(f"a run of {n}", lambda now, n=n: float(now.run >= n), mean,
            0.4, 0.7, +1) for n, mean in ((2, 0.2), (3, 0.2), (4, 0.2),
                                         (5, 0.0))),
    *(Habit(f"{n} alternations", lambda now, n=n: float(
        now.alternations >= n), mean, 1.7, 0.3, -1)
      for n, mean in ((3, 0.0), (4, -0.5), (5, -0.5), (6, -0.5))),
    Habit("balance", lambda now: now.surplus, 0.5, 0.63, 0.7, +1),
    Habit("win-stay, lose-shift", lambda now: 1.0 if now.won else -1.0,
          -0.2, 0.35, 0.7, -1),
    *(Habit(f"a pattern of {n}", lambda now, n=n: now.pattern(n), 0.0, 0.2,
            0.7, 0) for n in (3, 4, 5, 6)),
)


class Habits:
    """What the opponent is likely to do, by the habits of people,
    weighed against its own plays."""

    def __init__(self):
        self.mean = [habit.mean for habit in HABITS]
        self.precision = [1 / habit.spread ** 2 for habit in HABITS]
        self.theirs: list[int] = []      # its plays
        self.changes: list[bool] = []    # did it change
        self.wons: list[bool] = []       # did it win (the last round)
        self.features: list[float] | None = None
        self.p = 0.5

    def predict(self) -> float:
        """The chance that the opponent changes its play this round."""
        if not self.theirs:
            self.features = None
            return 0.5
        now = self.moment()
        self.features = [habit.feature(now) for habit in HABITS]
        self.p = squash(sum(self.counts(i) * x
                            for i, x in enumerate(self.features) if x))
        return self.p

    def moment(self) -> Moment:
        plays, last = tuple(self.theirs), self.theirs[-1]
        recent = plays[-BALANCE:]
        same = sum(play == last for play in recent)
        return Moment(plays, 1 + trailing(self.changes, False),
                      trailing(self.changes, True),
                      (2 * same - len(recent)) / BALANCE, self.wons[-1])

    def has(self, i: int) -> float:
        """The chance that the person has habit i, by Bayes' rule: its
        strength zero, or drawn from people's spread."""
        habit = HABITS[i]
        if habit.chance == 1:
            return 1.0
        prior = habit.spread ** 2
        seen = self.precision[i] - 1 / prior        # what the plays told
        if seen < 1e-9:
            return habit.chance
        noise = 1 / seen
        alone = (self.precision[i] * self.mean[i] - habit.mean / prior) * noise
        evidence = (math.log(noise / (noise + prior)) / 2
                    - (alone - habit.mean) ** 2 / (2 * (noise + prior))
                    + alone ** 2 / (2 * noise))
        return squash(stretch(habit.chance) + evidence)

    def counts(self, i: int) -> float:
        """Habit i's strength as it counts: the findings' direction, times
        the chance that the person has it."""
        sign, mean = HABITS[i].sign, self.mean[i]
        held = max(0.0, mean) if sign > 0 else min(0.0, mean) if sign < 0 \
            else mean
        return held * self.has(i)

    def learn(self, mine: int, theirs: int) -> None:
        if self.features is not None:
            changed = theirs != self.theirs[-1]
            error, curvature = changed - self.p, self.p * (1 - self.p)
            for i, x in enumerate(self.features):
                if x:
                    self.precision[i] += curvature * x * x
                    self.mean[i] += error * x / self.precision[i]
            self.changes = (self.changes + [changed])[-MEMORY:]
        self.theirs = (self.theirs + [theirs])[-MEMORY:]
        self.wons = (self.wons + [theirs != mine])[-1:]


def weigh(person: float, minds: tuple[float, float], changed: bool) -> float:
    """The log-odds that the opponent is a person, after a round: the
    chance each mind, people's and the mixer's, gave to what happened,
    and whose guess was right."""
    people, mixer = (p if changed else 1 - p for p in minds)
    evidence = (math.log(people / mixer)
                + GUESS_WEIGHT * ((people > 0.5) - (mixer > 0.5)))
    return max(-BOUND, min(BOUND, person + evidence))


VIEWS = ("change", "hindsight", "plays")


class Mirror:
    """Augur's own plays as three kinds of rival would read them, and how
    often the opponent has played against each reading."""

    def __init__(self):
        self.counts: list[dict[Hashable, tuple[float, float]]] = [
            {} for _ in VIEWS]
        self.against = [0] * len(VIEWS)   # rounds it played against it
        self.seen = [0] * len(VIEWS)      # rounds the reading had a play
        self.mine: int | None = None      # my last play
        self.symbol: tuple[bool, bool] | None = None   # changed, won
        self.pairs: tuple[tuple[int, int], ...] = ()   # (mine, theirs)
        self.readings: list[int | None] = [None] * len(VIEWS)

    def contexts(self) -> list[Hashable]:
        """Each reading's context now; None where it has none yet."""
        pairs = self.pairs if len(self.pairs) == 2 else None
        return [self.symbol, self.symbol, pairs]

    def read(self) -> list[int | None]:
        """The play each rival would expect of me this round, or None where
        its counts are level or it has none."""
        self.readings = []
        for view, counts, key in zip(VIEWS, self.counts, self.contexts()):
            no, yes = counts.get(key, (0.0, 0.0))
            if key is None or no == yes or self.mine is None:
                self.readings.append(None)
            elif view == "plays":
                self.readings.append(int(yes > no))
            else:
                self.readings.append(1 - self.mine if yes > no else self.mine)
        return self.readings

    def opinion(self, theirs: int) -> float:
        """Evidence that the opponent, whose last play was `theirs`, changes:
        each rival it has played like expects it to play against its
        reading of me."""
        x = 0.0
        for reading, against, seen in zip(self.readings, self.against,
                                          self.seen):
            if reading is None:
                continue
            rate = (against + MIRROR_PRIOR) / (seen + 2 * MIRROR_PRIOR)
            if rate > MIRROR_SURE:
                lean = stretch(rate) - stretch(MIRROR_SURE)
                x += lean if 1 - reading != theirs else -lean
        return x

    def learn(self, mine: int, theirs: int) -> None:
        for i, reading in enumerate(self.readings):
            if reading is not None:
                self.seen[i] += 1
                self.against[i] += theirs != reading
        if self.mine is not None:
            changed, won = mine != self.mine, mine == theirs
            outcomes = (changed, changed == won, bool(mine))
            for view, counts, key, yes in zip(VIEWS, self.counts,
                                              self.contexts(), outcomes):
                if key is not None:
                    fade = PLAYS_FADE if view == "plays" else 1.0
                    no, yes_ = counts.get(key, (0.0, 0.0))
                    counts[key] = (fade * no + (not yes), fade * yes_ + yes)
            self.symbol = (changed, won)
        self.mine = mine
        self.pairs = (self.pairs + ((mine, theirs),))[-2:]
        self.readings = [None] * len(VIEWS)


class Augur(Mixer):
    """The mixer, with a model of people and a mirror beside it."""

    name = "augur"

    def __init__(self, rng: random.Random, *, careful: bool = True):
        super().__init__(rng, careful=careful)
        self.habits = Habits()
        self.mirror = Mirror()
        self.person = PERSON    # log-odds that the opponent is a person
        self.minds: tuple[float, float] | None = None  # their chances

    def predict(self) -> int | None:
        """The opponent's likely play this round, or None before the first."""
        people = self.habits.predict()
        self.mirror.read()
        if self.last is None:
            return None
        super().predict()
        self.minds = (clip(people), clip(self.p_change))
        person = squash(self.person)
        p = person * self.minds[0] + (1 - person) * self.minds[1]
        theirs = self.last[1]
        x = stretch(p) + self.mirror.opinion(theirs)
        self.guess = None if x == 0 else 1 - theirs if x > 0 else theirs
        return self.guess

    def trust(self) -> float:
        return squash(TRUST + self.form) if self.careful else 1.0

    def learn(self, opponent: int) -> None:
        if self.minds is not None:
            changed = opponent != self.last[1]
            self.person = weigh(self.person, self.minds, changed)
            self.minds = None
        self.habits.learn(self.play, opponent)
        self.mirror.learn(self.play, opponent)
        super().learn(opponent)
