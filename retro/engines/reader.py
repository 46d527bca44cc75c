# Tangled from literate/reader.md: edit the chapter, not this file, then run `retro tangle`.
"""Augur: the mixer, with a model of how people try to be random.

Tangled from literate/reader.md, which explains it.
"""
from __future__ import annotations

import math
import random
from collections.abc import Hashable, Sequence

from retro.engines.mixer import Mixer, squash, stretch

SWITCH = 0.6          # a person's chance of changing, before any evidence
PRIOR_ROUNDS = 20.0   # ... held as if from this many rounds
FADE = 0.99           # the people model's counts fade by this each visit
SHARPNESS = 1.5       # Bayes' rule, sharpened
SHARE = 0.005         # the share of trust given back each round
MEMORY = 8            # plays the people model remembers
BALANCE = 6           # the window in which it looks for balance
LONGEST_RUN = 5       # runs this long or longer are one context
CLIP = 0.02           # the people model is never surer than 98%
LEAD = 2.0            # the mixer's lead that silences the people model
START_GAIN = 4.0      # the gain is START_GAIN * e^(-tally/SCALE) ...
SCALE = 2.0
MAX_GAIN = 20.0       # ... at most this
TRUST = 4.0           # follow the guess with probability squash(TRUST+form)
MIRROR_PRIOR = 5.0    # a reading's rate starts at 1/2, held as 2x this
MIRROR_SURE = 0.55    # ... and speaks once it is above this
PLAYS_FADE = 0.8      # the plays reading forgets as Flip's machine does


class Ladder:
    """Counts of stay/change after the last 0..depth values of a feature;
    each rung's estimate starts from the rung below it."""

    def __init__(self, depth: int, shrink: float):
        self.depth, self.shrink = depth, shrink
        self.table: dict[tuple, tuple[float, float]] = {}
        self.keys: list[tuple] = []

    def estimates(self, values: Sequence[Hashable]) -> list[float]:
        """The chance of a change at each depth, 0 to `depth`; a rung that
        the game is too short for repeats the one below."""
        rungs = min(self.depth, len(values))
        self.keys = [tuple(values[len(values) - d:]) if d else ()
                     for d in range(rungs + 1)]
        p, weight, found = SWITCH, PRIOR_ROUNDS, []
        for key in self.keys:
            stayed, changed = self.table.get(key, (0.0, 0.0))
            p = (changed + weight * p) / (stayed + changed + weight)
            weight = self.shrink
            found.append(p)
        return found + [p] * (self.depth + 1 - len(found))

    def update(self, changed: bool) -> None:
        """Count the round in every rung just estimated."""
        for key in self.keys:
            stayed, changed_ = self.table.get(key, (0.0, 0.0))
            self.table[key] = (FADE * stayed + (not changed),
                               FADE * changed_ + changed)


EXPERTS = (          # (ladder, its depth, its pull, trust in rungs 1..)
    ("changes", 5, 8.0, (0.3, 0.1, 0.05, 0.03, 0.02)),
    ("symbols", 2, 8.0, (0.2, 0.1)),
    ("run", 1, 8.0, (0.2,)),
    ("balance", 1, 8.0, (0.2,)),
    ("won", 2, 2.0, (6.0, 0.3)),
    ("situation", 1, 2.0, (1.0,)),
)
NO_CONTEXT_TRUST = 1.0   # rung 0 of the first ladder: a taste for switching


class Habits:
    """What the opponent is likely to do, by the habits of people."""

    def __init__(self):
        self.ladders = {name: Ladder(depth, shrink)
                        for name, depth, shrink, _ in EXPERTS}
        trusts = [NO_CONTEXT_TRUST] + [t for *_, ts in EXPERTS for t in ts]
        self.start = [t / sum(trusts) for t in trusts]
        self.weights = list(self.start)
        self.theirs: list[int] = []      # its plays
        self.changes: list[bool] = []    # did it change
        self.symbols: list[tuple[bool, bool]] = []   # changed, won
        self.wons: list[bool] = []       # did it win
        self.estimates: list[float] | None = None

    def features(self) -> dict[str, Sequence[Hashable]]:
        """Each ladder's recent values, oldest first."""
        run = 0
        for changed in reversed(self.changes):
            if changed:
                break
            run += 1
        last = self.theirs[-1]
        same_side = sum(play == last for play in self.theirs[-BALANCE:])
        situation = ((self.wons[-2], self.changes[-1], self.wons[-1])
                     if len(self.wons) >= 2 and self.changes else None)
        return {"changes": self.changes, "symbols": self.symbols,
                "run": [min(run + 1, LONGEST_RUN)], "balance": [same_side],
                "won": self.wons, "situation": [situation]}

    def predict(self) -> float:
        """The chance the opponent changes its play, by the experts' vote."""
        if not self.theirs:
            self.estimates = None
            return 0.5
        found = self.features()
        self.estimates = []
        for name, *_ in EXPERTS:
            rungs = self.ladders[name].estimates(found[name])
            self.estimates += rungs[1 - (name == "changes"):]
        return sum(w * p for w, p in zip(self.weights, self.estimates))


    def reweigh(self, changed: bool) -> None:
        """Bayes' rule, sharpened, then a share back to the start."""
        weights = [w * (p if changed else 1 - p) ** SHARPNESS
                   for w, p in zip(self.weights, self.estimates)]
        total = sum(weights)
        self.weights = [(1 - SHARE) * w / total + SHARE * start
                        for w, start in zip(weights, self.start)]

    def learn(self, mine: int, theirs: int) -> None:
        if self.theirs:
            changed = theirs != self.theirs[-1]
            self.reweigh(changed)
            for ladder in self.ladders.values():
                ladder.update(changed)
            self.changes = (self.changes + [changed])[-MEMORY:]
            self.symbols = (self.symbols
                            + [(changed, theirs != mine)])[-MEMORY:]
        self.theirs = (self.theirs + [theirs])[-MEMORY:]
        self.wons = (self.wons + [theirs != mine])[-4:]


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
                x += stretch(rate) if 1 - reading != theirs else -stretch(rate)
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
        self.tally = 0.0    # the mixer's right guesses less the model's
        self.guesses: tuple[int | None, int | None] = (None, None)

    def gain(self) -> float:
        """How much the people model counts: more while it guesses better
        than the mixer, nothing once the mixer is ahead by more than LEAD."""
        if self.tally > LEAD:
            return 0.0
        return min(MAX_GAIN, START_GAIN * math.exp(-self.tally / SCALE))

    def predict(self) -> int | None:
        """The opponent's likely play this round, or None before the first."""
        people = self.habits.predict()
        self.mirror.read()
        if self.last is None:
            return None
        mixers = super().predict()
        people = min(1 - CLIP, max(CLIP, people))
        theirs = self.last[1]
        peoples = (None if people == 0.5
                   else 1 - theirs if people > 0.5 else theirs)
        self.guesses = (mixers, peoples)
        x = (stretch(self.p_change) + self.gain() * stretch(people)
             + self.mirror.opinion(theirs))
        self.guess = None if x == 0 else 1 - theirs if x > 0 else theirs
        return self.guess

    def trust(self) -> float:
        return squash(TRUST + self.form) if self.careful else 1.0

    def learn(self, opponent: int) -> None:
        if self.last is not None:
            mixers, peoples = self.guesses
            self.tally += (mixers == opponent) - (peoples == opponent)
        self.habits.learn(self.play, opponent)
        self.mirror.learn(self.play, opponent)
        super().learn(opponent)
