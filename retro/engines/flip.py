# Tangled from literate/flip.md: edit the chapter, not this file, then run `retro tangle`.
"""Flip's computer, from More BASIC Computer Games: it learns how you guess.

Tangled from literate/flip.md, which explains it.
"""
from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from dataclasses import dataclass


TURNS = 50            # the listing's B1
OLD_MEMORY = 0.8      # F1: how much of an old estimate survives each visit
RANDOMNESS = 0.3      # F2: how much chance is mixed into each answer
YES, NO = 1, 0
HISTORIES = 16        # the different histories (four bits): one estimate each


@dataclass(frozen=True)
class History:
    """The last two turns: the listing's X(1), X(2), X(3), X(4)."""

    guess_before: int   # X(1): your guess two turns ago
    answer_before: int  # X(2): the computer's answer two turns ago
    guess_last: int     # X(3): your guess last turn
    answer_last: int    # X(4): the computer's answer last turn

    def situation(self) -> int:
        """Which of the 16 estimates applies now (the listing's I9, less 1)."""
        return (8 * self.answer_last + 4 * self.guess_last
                + 2 * self.answer_before + self.guess_before)


@dataclass(frozen=True)
class Mind:
    """All the computer knows: your profile and the last two turns."""

    profile: tuple[float, ...]
    history: History


def fresh_profile() -> tuple[float, ...]:
    """Sixteen estimates of one half: nothing known yet."""
    return (0.5,) * HISTORIES


def random_history(rng: random.Random) -> History:
    """Four random bits, X(1) first, each 1 when the draw is .5 or more."""
    return History(*(int(2 * rng.random()) for _ in range(4)))


def new_mind(rng: random.Random,
             profile: tuple[float, ...] | None = None) -> Mind:
    """A mind for a new game: the profile given (or a fresh one), a new
    history."""
    return Mind(fresh_profile() if profile is None else tuple(profile),
                random_history(rng))


def estimate(mind: Mind) -> float:
    """Z1: the estimated chance that you say yes in the present situation."""
    return mind.profile[mind.history.situation()]


def chance_of_no(estimate: float, rng: random.Random) -> float:
    """Z2: the adjusted chance that the computer answers no."""
    if estimate == 0.5:
        return rng.random()
    if estimate < 0.5:
        return RANDOMNESS * estimate
    return RANDOMNESS * estimate + (1 - RANDOMNESS)


def answer(mind: Mind, rng: random.Random) -> int:
    """The computer's answer for this turn, decided before you guess."""
    z2 = chance_of_no(estimate(mind), rng)  # first: it may draw a number
    return NO if rng.random() < z2 else YES


def shifted(history: History, guess: int, answer: int) -> History:
    """The history after a turn.

    X(1)=X(3), X(2)=X(4), X(3)=guess, X(4)=answer."""
    return History(history.guess_last, history.answer_last, guess, answer)


def learned(mind: Mind, guess: int, answer: int) -> Mind:
    """The mind after a turn: one estimate updated, the history shifted."""
    situation = mind.history.situation()
    old = mind.profile[situation]
    profile = list(mind.profile)
    profile[situation] = OLD_MEMORY * old + (1 - OLD_MEMORY) * guess
    return Mind(tuple(profile), shifted(mind.history, guess, answer))


@dataclass(frozen=True)
class Game:
    """A finished game: the guesses, the answers, and what was learned."""

    guesses: tuple[int, ...]
    answers: tuple[int, ...]
    mind: Mind

    @property
    def score(self) -> int:
        """The turns you won: your guess matched the computer's answer."""
        return sum(g == a for g, a in zip(self.guesses, self.answers))


def autoplay(guesses: Iterable[int], rng: random.Random, *,
             mind: Mind | None = None,
             rule: Callable[[Mind, random.Random], int] = answer) -> Game:
    """Play a game against guesses fixed in advance; `rule` answers."""
    mind = new_mind(rng) if mind is None else mind
    played, answers = [], []
    for guess in guesses:
        computer = rule(mind, rng)
        mind = learned(mind, guess, computer)
        played.append(guess)
        answers.append(computer)
    return Game(tuple(played), tuple(answers), mind)


class FlipMachine:
    """Flip's computer as a matcher: it plays the opposite of Flip's answer."""

    name = "flip"

    def __init__(self, rng: random.Random):
        self.rng = rng
        self.mind = new_mind(rng)
        self.answer: int | None = None

    def choose(self) -> int:
        self.answer = answer(self.mind, self.rng)
        return 1 - self.answer

    def learn(self, opponent: int) -> None:
        if self.answer is None:
            self.answer = answer(self.mind, self.rng)
        self.mind = learned(self.mind, opponent, self.answer)
        self.answer = None


JAVA_RANDOMNESS = 0.06


def java_answer(mind: Mind, rng: random.Random) -> int:
    """The Java retelling's rule: one draw, a 0.06 randomness factor."""
    p = estimate(mind)
    chance_of_yes = 0.5
    if p > 0.501:
        chance_of_yes = p * JAVA_RANDOMNESS
    elif p < 0.499:
        chance_of_yes = p * JAVA_RANDOMNESS + (1 - JAVA_RANDOMNESS)
    return YES if chance_of_yes >= rng.random() else NO
