# Tangled from literate/mindreader.md: edit the chapter, not this file, then run `retro tangle`.
"""Shannon's mind-reading machine, ported from the AWK literate program:
the machine and the rules of a match, with no input or output.

Tangled from literate/mindreader.md, which explains it.
"""
from __future__ import annotations

import random
from dataclasses import dataclass

ROUNDS = 100  # a match lasts this many rounds...
LEAD = 20     # ...unless one side gets this far ahead first


SITUATION_COUNT = 8  # three yes-or-no facts about the last two rounds


@dataclass(frozen=True)
class Mind:
    """What the machine remembers between rounds."""

    tally: tuple[int, ...] = (0,) * SITUATION_COUNT
    plays: tuple[int, ...] = ()    # the player's last two plays (hpa, hpb)
    guesses: tuple[int, ...] = ()  # the machine's last two guesses (hca, hcb)


def situation(mind: Mind) -> int | None:
    """The situation 0-7 the coming round is played in; None in rounds 1-2.

    Numbered as retro.engines.machines.situation numbers them."""
    if len(mind.plays) < 2:
        return None
    (hpa, hpb), (hca, hcb) = mind.plays, mind.guesses
    won_before_last = hpa != hca
    changed = hpa != hpb
    won_last = hpb != hcb
    return 4 * won_before_last + 2 * changed + won_last


def consult(mind: Mind, rng: random.Random) -> int:
    """The machine's guess at the player's next play: 1 heads, 0 tails."""
    case = situation(mind)
    t = 0 if case is None else mind.tally[case]
    if t == 0:
        return int(rng.random() + .5)
    last = mind.plays[-1]
    if t < -1:
        return 1 - last
    if t == -1:
        return 1 - last if int(rng.random() + .75) else last
    if t == 1:
        return last if int(rng.random() + .75) else 1 - last
    return last


@dataclass(frozen=True)
class Score:
    """Rounds won so far: the player's, then the machine's."""

    player: int = 0
    machine: int = 0

    @property
    def rounds(self) -> int:
        return self.player + self.machine

    def after(self, play: int, guess: int) -> Score:
        if play == guess:
            return Score(self.player, self.machine + 1)
        return Score(self.player + 1, self.machine)

    def __str__(self) -> str:
        return f"{self.player}-{self.machine}"


def face(side: int) -> str:
    """The name of a play: 1 is heads, 0 is tails."""
    return "heads" if side else "tails"


def report(play: int, guess: int, score: Score) -> str:
    """The AWK's line about one round, e.g. '... You win. (1-0)'."""
    winner = "I" if play == guess else "You"
    return (f"You played {face(play)}; I guessed {face(guess)}.  "
            f"{winner} win. ({score})")


def update(mind: Mind, play: int, guess: int) -> Mind:
    """The memory after a round in which the player played `play`."""
    tally = mind.tally
    case = situation(mind)
    if case is not None:
        step = 1 if play == mind.plays[-1] else -1
        tally = tally[:case] + (tally[case] + step,) + tally[case + 1:]
    return Mind(tally=tally,
                plays=(mind.plays + (play,))[-2:],
                guesses=(mind.guesses + (guess,))[-2:])


def verdict(score: Score) -> str | None:
    """How the match ended, in the listing's words; None if it goes on."""
    lead = score.player - score.machine
    if score.rounds >= ROUNDS:
        if lead == 0:
            return f"We drew the match, {games(score.player)} each."
        winner = "You" if lead > 0 else "I"
        return f"{winner} won the match by {games(abs(lead))}."
    if lead >= LEAD:
        return f"You win -- up by {LEAD}"
    if -lead >= LEAD:
        return f"I win -- up by {LEAD}"
    return None


def games(count: int) -> str:
    """'1 game', '20 games'."""
    return f"{count} game" if count == 1 else f"{count} games"


def outcome(score: Score) -> str:
    """The match from the player's side, as the store records it."""
    if score.player == score.machine:
        return "draw"
    return "win" if score.player > score.machine else "loss"


class AwkMachine:
    """Shannon's mind-reading machine, as the AWK program plays it."""

    name = "awk"

    def __init__(self, rng: random.Random):
        self.rng = rng
        self.mind = Mind()
        self.guess: int | None = None

    def choose(self) -> int:
        self.guess = consult(self.mind, self.rng)
        return self.guess

    def learn(self, opponent: int) -> None:
        if self.guess is None:
            raise RuntimeError("learn() called before choose()")
        self.mind = update(self.mind, opponent, self.guess)
        self.guess = None
