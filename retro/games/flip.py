# Tangled from literate/flip.md: edit the chapter, not this file, then run `retro tangle`.
"""Flip, from More BASIC Computer Games: a computer that learns how you guess.

Tangled from literate/flip.md, which explains it.
"""
from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

TITLE = "Flip"

TURNS = 50            # the listing's B1
OLD_MEMORY = 0.8      # F1: how much of an old estimate survives each visit
RANDOMNESS = 0.3      # F2: how much chance is mixed into each answer
YES, NO = 1, 0
SITUATIONS = 16


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
    return (0.5,) * SITUATIONS


def random_history(rng: random.Random) -> History:
    """Four random bits, drawn X(1) first, each 1 when the draw is .5 or more."""
    return History(*(int(2 * rng.random()) for _ in range(4)))


def new_mind(rng: random.Random,
             profile: tuple[float, ...] | None = None) -> Mind:
    """A mind for a new game: a given profile (or a fresh one), a new history."""
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
    """The history after a turn: X(1)=X(3), X(2)=X(4), X(3)=guess, X(4)=answer."""
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


ERROR = "ERROR, MUST BE  Y  OR  N  ."


def read_yes_or_no(tty, prompt: str) -> int:
    """YES or NO, from the first letter typed, in either case."""
    while True:
        reply = tty.ask(prompt, ("Y", "N"))
        first = reply[:1].upper()
        if first == "Y":
            return YES
        if first == "N":
            return NO
        tty.say(ERROR)
        prompt = "? "


def play_turns(tty, mind: Mind, rng: random.Random) -> Game:
    """Fifty turns at the teletype; returns the finished game."""
    mark, guesses, answers = " ", [], []
    for _ in range(TURNS):
        computer = answer(mind, rng)
        guess = read_yes_or_no(tty, mark + "? ")
        mark = "*" if guess == computer else " "
        mind = learned(mind, guess, computer)
        guesses.append(guess)
        answers.append(computer)
    tty.say(mark)
    return Game(tuple(guesses), tuple(answers), mind)


def profile_table(profile: Sequence[float]) -> str:
    """The sixteen estimates as a 4 by 4 table a person can read."""
    pairs = [(guess, answer) for guess in (NO, YES) for answer in (NO, YES)]
    name = {(g, a): f"{'NY'[g]}/{'NY'[a]}" for g, a in pairs}
    lines = ["YOUR PROFILE: THE CHANCE (IN PERCENT) THAT YOU SAY YES",
             "AFTER TWO TURNS.  Y/N MEANS YOU SAID YES, THE COMPUTER NO;",
             "-- MEANS THE COMPUTER HAS NOT SEEN THOSE TWO TURNS YET.",
             "",
             "              LAST TURN",
             "TURN BEFORE " + "".join(f"{name[p]:>5}" for p in pairs)]
    for before in pairs:
        cells = []
        for last in pairs:
            value = profile[History(*before, *last).situation()]
            cells.append("   --" if value == 0.5 else f"{round(100 * value):5d}")
        lines.append(f"    {name[before]}     " + "".join(cells))
    return "\n".join(lines)


def outcome(score: int) -> str:
    """The game from your side: more than half the turns is a win."""
    if 2 * score > TURNS:
        return "win"
    return "loss" if 2 * score < TURNS else "draw"


def end_of_game(tty, game: Game, *, show_profile: bool) -> None:
    tty.say("END OF GAME.")
    tty.say(f"YOU GOT {game.score} OUT OF {TURNS} CORRECT.")
    if show_profile:
        tty.say()
        tty.say(profile_table(game.mind.profile))
    tty.say()
    tty.say()


def record(store, game: Game, *, seed: int | None, number: int,
           kept: bool) -> None:
    """Put a finished game in the store's results."""
    letters = lambda bits: "".join("NY"[bit] for bit in bits)
    store.record("flip", score=f"{game.score}-{TURNS - game.score}",
                 outcome=outcome(game.score), seed=seed,
                 detail={"game": number, "kept": kept,
                         "guesses": letters(game.guesses),
                         "answers": letters(game.answers)})


PROFILE_KEY = "flip.profile"


def saved_profile(store) -> tuple[float, ...] | None:
    """The profile a remembering session saved, or None if there is none."""
    value = store.get(PROFILE_KEY)
    if value is None:
        return None
    try:
        profile = tuple(float(p) for p in value)
    except (TypeError, ValueError):
        raise ValueError("unreadable") from None
    if len(profile) != SITUATIONS or not all(0 <= p <= 1 for p in profile):
        raise ValueError("unreadable")
    return profile


def recall(tty, store) -> tuple[float, ...]:
    """The profile to start a remembering session with, and a word about it."""
    try:
        profile = saved_profile(store)
    except ValueError:
        tty.say("THE COMPUTER'S NOTES ON YOU ARE UNREADABLE; IT STARTS AFRESH.")
        return fresh_profile()
    if profile is None:
        tty.say("THE COMPUTER HAS NO NOTES ON YOU YET.  IT WILL KEEP SOME.")
        return fresh_profile()
    tty.say("THE COMPUTER REMEMBERS HOW YOU GUESSED LAST TIME.")
    return profile


BANNER = (" " * 24 + "FLIP\n"
          + " " * 17 + "CREATIVE COMPUTING\n"
          + " " * 15 + "MORRISTOWN NEW JERSEY\n\n\n")

EXPLANATION = f"""\
ON EACH TURN YOU GUESS YES ('Y') OR NO ('N').
THE COMPUTER HAS MADE ITS OWN CHOICE BEFORE YOU
GUESS, AND YOU WIN THE TURN IF YOU MATCH IT.  AT
FIRST IT IS PURE CHANCE, FIFTY-FIFTY; LATER THE
COMPUTER LOOKS FOR PATTERNS IN YOUR GUESSING AND
TURNS THEM AGAINST YOU.

THE GAME LASTS {TURNS} TURNS.  A SCORE OF {TURNS // 2 - 1} OR MORE
IS GOOD.  WHEN YOU WIN A TURN, THE NEXT LINE STARTS
WITH AN ASTERISK ('*').
"""


def play(tty, *, rng: random.Random, store, seed: int | None = None,
         keep: bool | None = None, remember: bool = False,
         show_profile: bool = True, **options) -> None:
    """Flip: fifty turns of guessing against a computer that learns you."""
    try:
        tty.say(BANNER)
        if read_yes_or_no(tty, "EXPLANATION (Y OR N)? ") == YES:
            tty.say(EXPLANATION)
        tty.say()
        tty.say()
        profile = recall(tty, store) if remember else fresh_profile()
        kept, number = False, 1
        while True:
            tty.say("BEGIN.")
            game = play_turns(tty, new_mind(rng, profile), rng)
            with store.transaction():
                record(store, game, seed=seed, number=number, kept=kept)
                if remember:
                    store.put(PROFILE_KEY, list(game.mind.profile))
            end_of_game(tty, game, show_profile=show_profile)
            if read_yes_or_no(tty, "PLAY AGAIN (Y OR N)? ") == NO:
                return
            if remember or keep is not None:
                kept = remember or keep
            else:
                kept = read_yes_or_no(
                    tty, "KEEP WHAT THE COMPUTER LEARNED (Y OR N)? ") == YES
            profile = game.mind.profile if kept else fresh_profile()
            number += 1
    except EOFError:
        return


def add_play_options(parser) -> None:
    """The options of `retro play flip`."""
    keeping = parser.add_mutually_exclusive_group()
    keeping.add_argument(
        "--keep", dest="keep", action="store_true",
        help="keep what the computer learned about you from game to game "
             "(instead of being asked after PLAY AGAIN)")
    keeping.add_argument(
        "--fresh", dest="keep", action="store_false",
        help="start every game afresh, as the 1980 program does")
    parser.set_defaults(keep=None)
    keeping.add_argument(
        "--remember", action="store_true",
        help="start from the profile saved by the last --remember session, "
             "keep it from game to game, and save it after every game")
    parser.add_argument(
        "--no-profile", dest="show_profile", action="store_false",
        help="do not print your profile after each game")


def play_with_memory(tty, store, *, seed: int) -> None:
    """Play Flip against a computer that remembers you between visits."""
    play(tty, rng=random.Random(seed), store=store, seed=seed, remember=True)


def forget(tty, store, **_) -> None:
    """Make Flip forget the profile it saved about you."""
    if store.get(PROFILE_KEY) is None:
        tty.say("FLIP HAS NO NOTES ON YOU.")
        return
    if read_yes_or_no(tty, "ERASE FLIP'S NOTES ON YOU (Y OR N)? ") == YES:
        store.put(PROFILE_KEY, None)
        tty.say("FORGOTTEN.")


ROOM_COMMANDS = {"PLAY FLIP WITH MEMORY": play_with_memory,
                 "FORGET FLIP": forget}


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
