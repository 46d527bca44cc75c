# Tangled from literate/mixer.md: edit the chapter, not this file, then run `retro tangle`.
"""Mixer: our own matching-pennies machine, a small PAQ-style context mixer.

Tangled from literate/mixer.md, which explains it.
"""
from __future__ import annotations

import math
import random
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass

from retro.engines.machines import coin, situation

PRIOR = 0.4          # pseudo-counts on each side of a fresh context
DECAY = 0.9          # old counts fade by this much each visit
RATE = 0.1           # the mixer's learning rate
START_WEIGHT = 0.15  # every model's first weight
HISTORY = 6          # rounds remembered: the longest direct context
LIMIT = 3            # the hindsight counters' stops, as SEER's
TRUST = 3.0          # follow the guess with probability squash(TRUST + form)
FORM_DECAY = 0.95


@dataclass(frozen=True)
class Round:
    """One round, from the opponent's seat."""

    they_changed: bool   # the opponent's play differed from its last
    i_changed: bool      # mine differed from my last
    they_won: bool       # the plays differed
    theirs: int          # the opponent's play, HEADS or TAILS
    mine: int            # mine

    @property
    def symbol(self) -> tuple[bool, bool]:
        """SCP's sw/sl/dw/dl: did they change, did they win."""
        return self.they_changed, self.they_won


class Counts:
    """Decaying counts of stay/change per context, and the odds they give."""

    def __init__(self):
        self.table: dict[Hashable, tuple[float, float]] = {}

    def probability(self, context: Hashable) -> float:
        """How likely the opponent is to change, in this context."""
        stayed, changed = self.table.get(context, (0.0, 0.0))
        return (changed + PRIOR) / (stayed + changed + 2 * PRIOR)

    def update(self, context: Hashable, they_changed: bool) -> None:
        stayed, changed = self.table.get(context, (0.0, 0.0))
        stayed, changed = stayed * DECAY, changed * DECAY
        self.table[context] = ((stayed + (not they_changed),
                                changed + they_changed))


def last_rounds(length: int) -> Callable[[Sequence[Round]], Hashable]:
    def context(history: Sequence[Round]) -> Hashable:
        if len(history) < length:
            return None
        return tuple(r.symbol for r in history[-length:])
    return context


def last_changes(length: int) -> Callable[[Sequence[Round]], Hashable]:
    def context(history: Sequence[Round]) -> Hashable:
        if len(history) < length:
            return None
        return tuple(r.they_changed for r in history[-length:])
    return context


def nothing(history: Sequence[Round]) -> Hashable:
    return ()


DIRECT = (nothing,
          *(last_rounds(n) for n in (1, 2, 3, 4)),
          *(last_changes(n) for n in (1, 2, 3, 4, 6)))


def opponents_situation(history: Sequence[Round]) -> Hashable:
    """The opponent's situation, numbered as the machines chapter does."""
    if len(history) < 2:
        return None
    before, last = history[-2:]
    return situation(before.they_won, last.they_changed, last.they_won)


def last_plays(length: int) -> Callable[[Sequence[Round]], Hashable]:
    def context(history: Sequence[Round]) -> Hashable:
        if len(history) < length:
            return None
        return tuple((r.theirs, r.mine) for r in history[-length:])
    return context


@dataclass(frozen=True)
class Indirect:
    """A context, what to note about the round after each visit to it, and
    what of the present to join to the notes."""

    context: Callable[[Sequence[Round]], Hashable]
    note: Callable[[Round], Hashable]
    now: Callable[[Round], Hashable]
    visits: int


def both_changes(r: Round) -> Hashable:
    return r.they_changed, r.i_changed


def they_won(r: Round) -> Hashable:
    return r.they_won


INDIRECT = (
    Indirect(opponents_situation, both_changes, they_won, visits=2),
    Indirect(last_rounds(1), both_changes, they_won, visits=2),
    Indirect(last_rounds(2), both_changes, they_won, visits=2),
    Indirect(last_plays(2), note=lambda r: r.mine, now=lambda r: r.theirs,
             visits=3),
)


def hindsight(counter: int, round_: Round) -> int:
    """SEER's +-3 counter, kept for the opponent: +1 when staying would have
    won it the round (it stayed and won, or changed and lost)."""
    stay_would_have_won = round_.they_changed != round_.they_won
    step = 1 if stay_would_have_won else -1
    return max(-LIMIT, min(LIMIT, counter + step))


def stretch(p: float) -> float:
    return math.log(p / (1 - p))


def squash(x: float) -> float:
    return 1 / (1 + math.exp(-max(-30.0, min(30.0, x))))


class Mixer:
    """Ours: direct and indirect contexts, mixed in the logistic domain."""

    name = "mixer"

    def __init__(self, rng: random.Random, *, careful: bool = True):
        self.rng = rng
        self.careful = careful   # False: always follow the guess
        self.history: tuple[Round, ...] = ()
        self.last: tuple[int, int] | None = None   # (my play, theirs)
        self.models = [Counts() for _ in DIRECT + INDIRECT + ("counter",)]
        self.visits: list[dict[Hashable, tuple]] = [{} for _ in INDIRECT]
        self.counters: dict[Hashable, int] = {}
        self.weights = [START_WEIGHT] * len(self.models) + [0.0]
        self.form = 0.0
        self.guess: int | None = None
        self.play: int | None = None

    def predict(self) -> int | None:
        """The opponent's likely play this round, or None before the first."""
        if self.last is None:
            return None
        history = self.history
        self.direct_keys = [context(history) for context in DIRECT]
        self.indirect_keys = [i.context(history) for i in INDIRECT]
        keys = self.direct_keys + [
            None if key is None else (i.now(history[-1]), visits.get(key, ()))
            for i, visits, key in zip(INDIRECT, self.visits,
                                      self.indirect_keys)]
        self.situation = opponents_situation(history)
        keys.append(None if self.situation is None
                    else self.counters.get(self.situation, 0))
        self.keys = keys
        self.inputs = [0.0 if key is None else stretch(counts.probability(key))
                       for counts, key in zip(self.models, keys)] + [1.0]
        self.p_change = squash(sum(w * x for w, x in zip(self.weights,
                                                         self.inputs)))
        theirs = self.last[1]
        if self.p_change == 0.5:
            self.guess = None
        else:
            self.guess = 1 - theirs if self.p_change > 0.5 else theirs
        return self.guess

    def choose(self) -> int:
        guess = self.predict()
        follow = self.rng.random() < self.trust()
        self.play = guess if guess is not None and follow else coin(self.rng)
        return self.play

    def trust(self) -> float:
        """The chance of following the guess: high while guesses come good."""
        return squash(TRUST + self.form) if self.careful else 1.0

    def learn(self, opponent: int) -> None:
        if self.last is not None:
            round_ = Round(they_changed=opponent != self.last[1],
                           i_changed=self.play != self.last[0],
                           they_won=opponent != self.play,
                           theirs=opponent, mine=self.play)
            they_changed = round_.they_changed
            error = they_changed - self.p_change
            self.weights = [w + RATE * error * x
                            for w, x in zip(self.weights, self.inputs)]
            for counts, key in zip(self.models, self.keys):
                if key is not None:
                    counts.update(key, they_changed)
            for i, visits, key in zip(INDIRECT, self.visits, self.indirect_keys):
                if key is not None:
                    notes = visits.get(key, ()) + (i.note(round_),)
                    visits[key] = notes[-i.visits:]
            if self.guess is not None:
                right = 1 if self.guess == opponent else -1
                self.form = FORM_DECAY * self.form + right
            if self.situation is not None:
                counter = self.counters.get(self.situation, 0)
                self.counters[self.situation] = hindsight(counter, round_)
            self.history = (self.history + (round_,))[-HISTORY:]
        self.last = (self.play, opponent)
        self.guess = None


class Reader:
    """Knows the mixer's code: plays against its guess. Not in the registry;
    it only makes sense against a mixer."""

    name = "reader"

    def __init__(self, rng: random.Random, *, shown_opposite: bool = True,
                 careful: bool = True):
        self.rng = rng
        self.shown_opposite = shown_opposite
        self.copy = Mixer(random.Random(0), careful=careful)
        self.play: int | None = None

    def choose(self) -> int:
        guess = self.copy.predict()
        if guess is None:
            self.play = coin(self.rng)
        else:
            # the mixer will play `guess`; the reader wants to differ,
            # which in the second seat means matching what it is shown
            self.play = 1 - guess if self.shown_opposite else guess
        return self.play

    def learn(self, opponent: int) -> None:
        mixer_play = 1 - opponent if self.shown_opposite else opponent
        my_play = self.play if self.shown_opposite else 1 - self.play
        self.copy.play = mixer_play
        self.copy.learn(my_play)
