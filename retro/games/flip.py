# Tangled from literate/flip.md: edit the chapter, not this file, then run `retro tangle`.
"""Flip at the teletype: fifty guesses against a computer that learns you.

Tangled from literate/flip.md, which explains it.
"""
from __future__ import annotations

import random
from collections.abc import Sequence

from retro.engines.flip import (HISTORIES, NO, TURNS, YES, Game, History,
                                Mind, answer, fresh_profile, learned,
                                new_mind)
from retro.games.contract import (FROM, Abandoned, FrontEnd, Option, Paper,
                                  RoomCommand, Sitting, is_quit, recorded)
from retro.services.store import StoreError, saving


ERROR = "ERROR, MUST BE  Y  OR  N  ."

HELP = """\
ANSWER Y FOR YES OR N FOR NO; ONLY THE FIRST
LETTER COUNTS.  ON EACH TURN THE COMPUTER HAS
CHOSEN BEFORE YOU GUESS: MATCH IT AND YOU WIN THE
TURN, AND THE NEXT LINE STARTS WITH AN ASTERISK.
Q OR QUIT STOPS; A GAME NOT FINISHED IS NOT COUNTED."""


class Quit(Exception):
    """The player typed QUIT (or Q, or another word for leaving)."""


async def read_yes_or_no(tty: Paper, prompt: str) -> int:
    """YES or NO, from the first letter typed, in either case."""
    while True:
        reply = await tty.ask(prompt, ("Y", "N", "HELP", "QUIT"))
        first, word = reply[:1].upper(), reply.strip().upper()
        if first == "Y":
            return YES
        if first == "N":
            return NO
        if is_quit(word):
            raise Quit
        if word == "HELP":
            tty.say(HELP)
            continue
        tty.say(ERROR)
        prompt = "? "


async def play_turns(tty: Paper, mind: Mind, rng: random.Random) -> Game:
    """Fifty turns at the teletype; returns the finished game."""
    mark, guesses, answers = " ", [], []
    for _ in range(TURNS):
        computer = answer(mind, rng)
        guess = await read_yes_or_no(tty, mark + "? ")
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
    lines = ["YOUR PROFILE, AS THE COMPUTER ESTIMATES IT: THE CHANCE",
             "(IN PERCENT) THAT YOU SAY YES AFTER TWO TURNS.  Y/N MEANS",
             "YOU SAID YES, THE COMPUTER NO; -- MEANS IT HAS LEARNED",
             "NOTHING OF THOSE TWO TURNS YET, AND GUESSES FIFTY-FIFTY.",
             "",
             "              LAST TURN",
             "TURN BEFORE " + "".join(f"{name[p]:>5}" for p in pairs)]
    for before in pairs:
        cells = []
        for last in pairs:
            value = profile[History(*before, *last).situation()]
            cells.append("   --" if value == 0.5
                         else f"{round(100 * value):5d}")
        lines.append(f"    {name[before]}     " + "".join(cells))
    return "\n".join(lines)


def end_of_game(tty: Paper, game: Game, *, show_profile: bool) -> None:
    tty.say("END OF GAME.")
    tty.say(f"YOU GOT {game.score} OUT OF {TURNS} CORRECT.")
    if show_profile:
        tty.say()
        tty.draw(profile_table(game.mind.profile))
    tty.say()
    tty.say()


GOOD = TURNS // 2 - 1  # "A SCORE OF 24 OR MORE IS GOOD"


def outcome(score: int) -> str:
    """The game from your side, by the game's own measure: good is a win."""
    return "win" if score >= GOOD else "loss"


def record(store, sitting: Sitting, game: Game, *, seed: int, number: int,
           kept: bool, start: tuple[float, ...]) -> None:
    """Put a finished game in the store's results."""
    letters = lambda bits: "".join("NY"[bit] for bit in bits)
    began = {} if start == fresh_profile() else {"from": list(start)}
    store.record(sitting.game.name,
                 score=f"{game.score}-{TURNS - game.score}",
                 outcome=outcome(game.score), seed=seed,
                 detail={"game": number, "kept": kept, "replay": [],
                         "guesses": letters(game.guesses),
                         "answers": letters(game.answers), **began})


PROFILE_KEY = "flip.profile"


def is_profile(value) -> bool:
    """Sixteen estimates, each a number from 0 to 1."""
    return (isinstance(value, list) and len(value) == HISTORIES
            and all(isinstance(p, (int, float)) and not isinstance(p, bool)
                    and 0 <= p <= 1 for p in value))


def saved_profile(store) -> tuple[float, ...] | None:
    """The profile a remembering session saved, or None if there is none."""
    value = store.get(store.own(PROFILE_KEY), valid=is_profile)
    return None if value is None else tuple(float(p) for p in value)


async def recall(tty: Paper, store) -> tuple[float, ...] | None:
    """The profile to start a remembering session with, and a word about
    it; None if the saved notes cannot be read now."""
    try:
        profile = await store.run(saved_profile)
    except StoreError as error:
        tty.say(f"THE COMPUTER CANNOT READ ITS NOTES ON YOU ({error}).")
        tty.say("IT STARTS AFRESH AND LEAVES THEM AS THEY ARE.")
        return None
    if profile is None:
        tty.say("THE COMPUTER HAS NO NOTES ON YOU YET.  IT WILL KEEP SOME.")
        return fresh_profile()
    tty.say("THE COMPUTER REMEMBERS HOW YOU GUESSED LAST TIME.")
    return profile


async def forget(tty: Paper, sitting: Sitting) -> None:
    """Make Flip forget the profile it saved about you."""
    store = sitting.store
    try:
        if await store.run(saved_profile) is None:
            tty.say("FLIP HAS NO NOTES ON YOU.")
            return
        if await read_yes_or_no(
                tty, "ERASE FLIP'S NOTES ON YOU (Y OR N)? ") == NO:
            return
        await store.run(lambda view: view.delete(view.own(PROFILE_KEY)))
    except Quit:
        return
    except StoreError as error:
        tty.say(f"NOT FORGOTTEN: FLIP'S NOTES ON YOU ({error}).")
        return
    tty.say("FORGOTTEN.")


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

THE GAME LASTS {TURNS} TURNS.  A SCORE OF {GOOD} OR MORE
IS GOOD.  WHEN YOU WIN A TURN, THE NEXT LINE STARTS
WITH AN ASTERISK ('*').
"""


async def play(tty: Paper, sitting: Sitting, *, keep: bool | None = None,
               remember: bool = False, show_profile: bool = True,
               replay_of: int | None = None) -> None:
    """Flip: fifty turns of guessing against a computer that learns you."""
    seeds = sitting.seeds()
    try:
        tty.draw(BANNER)
        if await read_yes_or_no(tty, "EXPLANATION (Y OR N)? ") == YES:
            tty.say(EXPLANATION)
        tty.say()
        tty.say()
        profile, saves, records = fresh_profile(), remember, True
        if replay_of is not None:
            profile = await replayed(tty, sitting, replay_of)
            saves = records = False
        elif remember:
            recalled = await recall(tty, sitting.store)
            profile = fresh_profile() if recalled is None else recalled
            saves = recalled is not None
        kept, number = replay_of is not None, 1
        for seed in seeds:
            rng = random.Random(seed)
            tty.say("BEGIN.")
            game = await play_turns(tty, new_mind(rng, profile), rng)
            if records:
                await save(tty, sitting, game, profile=saves, seed=seed,
                           number=number, kept=kept, start=profile)
            end_of_game(tty, game, show_profile=show_profile)
            again = await between_games(tty, keep=keep, remember=remember)
            if again is None:
                return
            kept = again
            profile = game.mind.profile if kept else fresh_profile()
            number += 1
    except Quit:
        raise Abandoned from None


async def replayed(tty: Paper, sitting: Sitting,
                   number: int) -> tuple[float, ...]:
    """The profile game `number` began from, for a replay of it."""
    found = await recorded(sitting, number)
    if found is None:
        tty.say(f"THERE IS NO GAME {number} OF FLIP TO PLAY AGAIN.")
        raise Abandoned
    start = found.detail.get("from", list(fresh_profile()))
    if not is_profile(start):
        tty.say(f"GAME {number} OF FLIP DID NOT KEEP WHAT IT BEGAN FROM.")
        raise Abandoned
    tty.say(f"GAME {number} AGAIN, FROM WHAT THE COMPUTER KNEW OF YOU THEN. "
            f"NOTHING OF IT IS KEPT.")
    return tuple(float(p) for p in start)


async def between_games(tty: Paper, *, keep: bool | None,
                        remember: bool) -> bool | None:
    """Another game? None if not; else whether to keep what was learned."""
    try:
        if await read_yes_or_no(tty, "PLAY AGAIN (Y OR N)? ") == NO:
            return None
        if remember or keep is not None:
            return remember or keep
        return await read_yes_or_no(
            tty, "KEEP WHAT THE COMPUTER LEARNED (Y OR N)? ") == YES
    except (Quit, EOFError, KeyboardInterrupt):  # every game was finished
        return None


async def save(tty: Paper, sitting: Sitting, game: Game, *, profile: bool,
               **told) -> None:
    """The game's result, and its profile if asked, in one transaction."""
    what = ("THIS GAME AND THE COMPUTER'S NOTES ON YOU" if profile
            else "THIS GAME")
    with saving(tty, what):
        await sitting.store.run(keep_game, sitting, game, profile, told)


def keep_game(store, sitting: Sitting, game: Game, profile: bool,
              told: dict) -> None:
    """The store's work of `save`: all of it, or none."""
    with store.transaction():
        record(store, sitting, game, **told)
        if profile:
            store.put(store.own(PROFILE_KEY), list(game.mind.profile))


OPTIONS = (
    Option(("--keep",), "keep", apart="keeping", help="keep what the "
           "computer learned about you from game to game (instead of being "
           "asked after PLAY AGAIN)"),
    Option(("--fresh",), "keep", const=False, apart="keeping",
           help="start every game afresh, as the 1979 program does"),
    Option(("--remember",), "remember", default=False, apart="keeping",
           help="start from the profile saved by the last --remember "
                "session, keep it from game to game, and save it after "
                "every game"),
    Option(("--no-profile",), "show_profile", default=True, const=False,
           help="do not print your profile after each game"),
    FROM,
)


async def play_with_memory(tty: Paper, sitting: Sitting) -> None:
    """Play Flip against a computer that remembers you between visits."""
    await play(tty, sitting, remember=True)


FRONT_END = FrontEnd(play, options=OPTIONS, commands=(
    RoomCommand("PLAY FLIP WITH MEMORY", "Play Flip against a computer that "
                "remembers you between visits.", play_with_memory, plays=True),
    RoomCommand("FORGET FLIP", "Make Flip forget the profile it saved about "
                "you.", forget),
))
