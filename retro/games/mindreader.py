# Tangled from literate/mindreader.md: edit the chapter, not this file, then run `retro tangle`.
"""The mind reader at the teletype: a match of matching pennies against
Shannon's machine or any other machine of the registry.

Tangled from literate/mindreader.md, which explains it.
"""
from __future__ import annotations

import random
import textwrap

from retro.common import number_in, quoted
from retro.engines import entrants as machines
from retro.engines.machines import HEADS, TAILS
from retro.engines.mindreader import Score, outcome, report, verdict
from retro.games.contract import (Abandoned, FrontEnd, Option, Paper, Sitting,
                                  is_quit)
from retro.services.store import saving


PLAYS = {"h": HEADS, "heads": HEADS, "t": TAILS, "tails": TAILS}
HELPS = {"help", "?"}

RULES = (
    "Type h (or heads) or t (or tails).  I make my guess before you type: "
    "if it matches your play I win the round, if not you do.  The score "
    "after each round is (yours-mine).  The match lasts 100 rounds, or "
    "until one of us is 20 ahead; quit stops it unscored.")


def read_play(answer: str) -> int | None:
    """HEADS or TAILS for a typed play; None for anything else."""
    return PLAYS.get(answer.strip().lower())


async def ask_play(tty: Paper, prompt: str) -> int | None:
    """Ask until the player gives a play; None if they quit."""
    while True:
        answer = await tty.ask(prompt,
                               choices=("heads", "tails", "help", "quit"))
        play = read_play(answer)
        if play is not None:
            return play
        word = answer.strip().lower()
        if is_quit(word):
            return None
        if word in HELPS:
            tty.say(RULES)
            continue
        tty.say("Please play heads or tails (h or t), or quit.")
        prompt = "heads or tails? "


def seeded(seed: int | None = None) -> random.Random:
    """The machine's source of chance: from `seed`, or fresh if None."""
    return random.Random(seed)


def opponents() -> dict[str, str]:
    """Every machine a player may face: name -> description."""
    return {name: entrant.description
            for name, entrant in machines.MACHINES.items()
            if entrant.kind != "rule"}


OPPONENT_HELP = ("Type the number or the name of a machine from the list "
                 "above, in any case; just Return for awk, or quit to leave.")


def list_opponents(tty: Paper, found: dict[str, str]) -> None:
    """The numbered list of machines, each description under itself."""
    number_width = len(str(len(found)))
    column = 2 + number_width + 2 + max(map(len, found)) + 2
    tty.say("Which machine shall read your mind?")
    for number, (name, description) in enumerate(found.items(), 1):
        tty.say(f"  {number:>{number_width}}. {name}".ljust(column)
                + description, hang=column)


async def choose_opponent(tty: Paper) -> str:
    """Ask which machine to face; an empty answer is awk, quit leaves."""
    found = opponents()
    list_opponents(tty, found)
    names = list(found)
    while True:
        answer = await tty.ask("opponent (awk)? ",
                               choices=(*found, "help", "quit"))
        name, number = answer.strip().lower(), number_in(answer)
        if not name:
            return "awk"
        if name in found:
            return name
        if number is not None and 1 <= number <= len(names):
            return names[number - 1]
        if is_quit(name):
            raise Abandoned
        if name in HELPS:
            tty.say(OPPONENT_HELP)
            continue
        tty.say(f"There is no machine called {quoted(answer)}; "
                "pick a number or a name from the list.")


async def meet_opponent(tty: Paper, name: str, rng: random.Random, *,
                        ask: bool):
    """The machine the player faces, or None if there is to be no match."""
    while True:
        if ask:
            name = await choose_opponent(tty)
        try:
            return machines.make_machine(name, rng)
        except machines.MachineError as error:
            tty.say(f"Sorry: {error}.")
            if not ask:
                return None


SUBTITLE = ("a paper-teletype game after C. E. Shannon's Bell Labs memo of "
            "1953, 'A Mind-Reading (?) Machine'")
BOX = 64  # columns, when the page has them

INTRODUCTION = (
    "Let us match pennies.  Each round you pick heads or tails (h or t will "
    "do), and I guess which.  If I guess right I win the round; if I miss, "
    "you win it.  The score is shown as (yours-mine).  The match lasts 100 "
    "rounds, or until one of us is 20 ahead.  Type help for the rules, or "
    "quit to stop early.")

SIGN_OFF = " T H A N K   Y O U   F O R   P L A Y I N G "


def title_box(title: str, page: int) -> str:
    """The title and subtitle in a box as wide as the page allows."""
    inside = min(page, BOX) - 2
    rows = [f"  {line}" for line in textwrap.wrap(title.upper(), inside - 3)]
    rows += [f"     {line}" for line in textwrap.wrap(SUBTITLE, inside - 6)]
    rule = "+" + "-" * inside + "+"
    return "\n".join([rule, *(f"|{row:<{inside}}|" for row in rows), rule])


async def play_match(tty: Paper, machine, sitting: Sitting) -> None:
    """One match against `machine`, recorded in the store if it ends."""
    tty.draw(title_box(sitting.game.title, tty.page()))
    tty.say(INTRODUCTION)
    if machine.name != "awk":
        tty.say(f"This time your mind is read by {machine.name} -- "
                f"{opponents()[machine.name]}.")
    score, plays, guesses = Score(), [], []
    prompt = "your play? "
    while (ending := verdict(score)) is None:
        guess = machine.choose()
        player = await ask_play(tty, prompt)
        if player is None:
            raise Abandoned
        score = score.after(player, guess)
        tty.say(report(player, guess, score))
        machine.learn(player)
        plays.append(player)
        guesses.append(guess)
        prompt = "? "
    tty.say(ending)
    with saving(tty, f"the match, {score} against {machine.name}"):
        await sitting.store.run(record, sitting, machine.name, score,
                                plays, guesses)


def record(store, sitting: Sitting, opponent: str, score: Score,
           plays: list[int], guesses: list[int]) -> None:
    """The finished match, in the store under the game's name."""
    store.record(sitting.game.name, score=str(score),
                 outcome=outcome(score), seed=sitting.seed,
                 detail={"opponent": opponent,
                         "replay": [] if opponent == "awk"
                         else ["--opponent", opponent],
                         "rounds": score.rounds,
                         "plays": "".join("TH"[p] for p in plays),
                         "guesses": "".join("TH"[g] for g in guesses)})


OPPONENTS = tuple(opponents())
OPTIONS = (
    Option(("--opponent",), "opponent", read=str.lower, default="awk",
           metavar="NAME", choices=OPPONENTS,
           help=f"the machine to play against: {', '.join(OPPONENTS)} "
                "(default: awk, Shannon's machine as the AWK listing plays "
                "it)"),
    Option((), "ask_opponent", default=False, room=True,
           help="ask the player which machine to face"),
)


async def play(tty: Paper, sitting: Sitting, *, opponent: str = "awk",
               ask_opponent: bool = False) -> None:
    """A match of matching pennies against a mind-reading machine."""
    rng = seeded(sitting.seed)
    try:
        machine = await meet_opponent(tty, opponent, rng, ask=ask_opponent)
        if machine is not None:
            await play_match(tty, machine, sitting)
    except (Abandoned, EOFError, KeyboardInterrupt):
        tty.say(SIGN_OFF)  # as the AWK's END block runs at the end of input
        raise
    tty.say(SIGN_OFF)


FRONT_END = FrontEnd(play, options=OPTIONS)
