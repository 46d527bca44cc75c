# Tangled from literate/penney.md: edit the chapter, not this file, then run `retro tangle`.
"""Penney's game: bet pennies on coin patterns against a machine that
knows the odds; and `retro penney odds|wait`.

Tangled from literate/penney.md, which explains it.
"""
from __future__ import annotations

import json
import random
import re
from dataclasses import dataclass
from fractions import Fraction

from retro.common import UsageError, whole_number
from retro.engines.penney_odds import (best_first_picks, best_reply, example,
                                       first_pick_chance, odds, odds_matrix,
                                       parse_pattern, patterns, toss_until,
                                       waiting_time)

STAKE = 100                    # pennies in a fresh stake
BANKROLL = "penney.bankroll"   # the store's key for the player's pennies
LENGTHS = range(1, 9)          # tosses in a pattern, for the game

@dataclass(frozen=True)
class Bet:
    """One bet: the picks, the stake, and the tosses that settled it."""

    player: str
    machine: str
    stake: int
    tosses: str
    player_first: bool

    @property
    def player_won(self) -> bool:
        return self.tosses.endswith(self.player)

    @property
    def player_chance(self) -> Fraction:
        """The exact chance the player's pattern had of showing first."""
        return odds(self.player, self.machine)

    def settle(self, bankroll: int) -> int:
        """The bankroll after this bet, at even money."""
        return bankroll + self.stake if self.player_won else bankroll - self.stake


def machine_first_pick(length: int, rng: random.Random) -> str:
    """The machine picking first: one of the picks that lose least."""
    return rng.choice(best_first_picks(length))

class Leave(Exception):
    """The player typed q: the session ends, the bankroll is kept."""


def play(tty, *, rng: random.Random, store, seed: int | None = None,
         length: int = 3, **options) -> None:
    """Penney's game for pennies, until the player leaves or the input ends."""
    if length not in LENGTHS:
        raise ValueError(f"patterns here have 1 to 8 tosses, not {length}")
    tty.say("PENNEY'S GAME")
    tty.say()
    tty.say(f"We each choose a pattern of {length} tosses, like "
            f"{example(length)}. Then I toss a penny and write the tosses "
            f"down until one of our patterns shows: that one wins the bet, at "
            f"even money. Type q at any question to leave.")
    try:
        opening_bankroll(tty, store)
        while True:
            bankroll = one_bet(tty, rng, store, seed, length)
            if bankroll == 0:
                tty.say("You are broke.")
                fresh_stake(tty, store)
    except (Leave, EOFError):
        pass
    tty.say(f"You leave with {pennies(store.get(BANKROLL, STAKE))}.")

def one_bet(tty, rng: random.Random, store, seed: int | None,
            length: int) -> int:
    """Pick, stake, toss, settle: the bankroll after one bet."""
    bankroll = store.get(BANKROLL, STAKE)  # another room may have spent some
    if bankroll == 0:
        return 0
    tty.say()
    player_first = ask(tty, "Do you want to pick first? (y/n) ",
                       read_yes_no, ("y", "n", "q"))
    if player_first:
        player = ask(tty, f"Your pattern of {length} tosses? ",
                     pattern_reader(length))
        machine = best_reply(player)
        tty.say(f"I pick {machine}.")
    else:
        machine = machine_first_pick(length, rng)
        tty.say(f"I pick {machine}.")
        player = ask(tty, f"Your pattern of {length} tosses? ",
                     pattern_reader(length, taken=machine))
    stake = ask(tty, f"Your stake, up to {pennies(bankroll)}? ",
                stake_reader(bankroll), ("all",))
    bet = Bet(player, machine, stake, toss_until(player, machine, rng),
              player_first)
    after = settle(store, bet, seed)  # before the paper shows it
    report(tty, bet)
    tty.say(f"You have {pennies(after)}.")
    return after

QUIT = {"q", "quit", "leave"}


def ask(tty, prompt: str, read, choices=()):
    """Ask until `read` accepts the answer; q raises Leave."""
    while True:
        answer = tty.ask(prompt, choices)
        if answer.lower() in QUIT:
            raise Leave
        try:
            return read(answer)
        except ValueError as error:
            tty.say(sentence(str(error)))


def sentence(message: str) -> str:
    return message[:1].upper() + message[1:] + "."


def read_yes_no(answer: str) -> bool:
    word = answer.lower()
    if word in ("y", "yes"):
        return True
    if word in ("n", "no"):
        return False
    raise ValueError("answer y or n (or q to leave)")

def pattern_reader(length: int, taken: str | None = None):
    def read(answer: str) -> str:
        pattern = parse_pattern(answer, length)
        if pattern == taken:
            raise ValueError(f"{taken} is mine: pick a different pattern")
        return pattern
    return read


def stake_reader(bankroll: int):
    def read(answer: str) -> int:
        if answer.lower() == "all":
            return bankroll
        if re.fullmatch(r"[0-9]{1,9}", answer) and 1 <= int(answer) <= bankroll:
            return int(answer)
        raise ValueError(f"stake a whole number of pennies from 1 to "
                         f"{bankroll}, or all")
    return read

def report(tty, bet: Bet) -> None:
    tty.say("Tossing: " + " ".join(bet.tosses))
    shown = bet.player if bet.player_won else bet.machine
    who = "you win" if bet.player_won else "I win"
    tty.say(f"{shown} shows after {len(bet.tosses)} tosses: {who} "
            f"{pennies(bet.stake)}.")
    yours, mine = bet.player_chance, 1 - bet.player_chance
    tty.say(f"Your {bet.player} had a chance of {yours} ({float(yours):.1%}), "
            f"my {bet.machine} {mine} ({float(mine):.1%}).")
    better = hint(bet)
    if better:
        tty.say(better)


def hint(bet: Bet) -> str | None:
    """What the player could have picked instead, if anything was better."""
    if bet.player_first:
        picks = best_first_picks(len(bet.player))
        if bet.player in picks:
            return None
        either = ", ".join(picks[:-1]) + " or " + picks[-1]
        return (f"(Picking first, {either} would have had "
                f"{first_pick_chance(picks[0])} against my reply.)")
    reply = best_reply(bet.machine)
    if odds(reply, bet.machine) <= bet.player_chance:
        return None
    return f"(Against my {bet.machine}, {reply} would have had " \
           f"{odds(reply, bet.machine)}.)"


def pennies(count: int) -> str:
    return f"{count} penny" if count == 1 else f"{count} pennies"

def opening_bankroll(tty, store) -> int:
    bankroll = store.get(BANKROLL, STAKE)
    if bankroll > 0:
        tty.say(f"You have {pennies(bankroll)}.")
        return bankroll
    tty.say("You were broke when you last left.")
    return fresh_stake(tty, store)


def fresh_stake(tty, store) -> int:
    """Offer a broke player a new stake; Leave if it is refused."""
    if not ask(tty, f"Would you like a fresh stake of {STAKE} pennies? (y/n) ",
               read_yes_no, ("y", "n")):
        raise Leave
    store.put(BANKROLL, STAKE)
    tty.say(f"Here are {STAKE} pennies.")
    return STAKE


def settle(store, bet: Bet, seed: int | None) -> int:
    """Pay the bet: the new bankroll and the result, in one transaction."""
    with store.transaction():
        bankroll = store.get(BANKROLL, STAKE)  # as it is now, not as it was
        after = max(0, bet.settle(bankroll))
        store.put(BANKROLL, after)
        store.record(
            "penney", score=f"{after - bankroll:+d} to {after}",
            outcome="win" if bet.player_won else "loss", seed=seed,
            detail={"player": bet.player, "machine": bet.machine,
                    "first": "player" if bet.player_first else "machine",
                    "stake": bet.stake, "tosses": bet.tosses,
                    "chance": str(bet.player_chance), "bankroll": after})
    return after

play_length = whole_number(min(LENGTHS), max(LENGTHS))


def add_play_options(parser) -> None:
    """`retro play penney --length K`."""
    parser.add_argument("--length", "-k", type=play_length, default=3,
                        metavar="K", help="tosses in each pattern, 1 to 8 "
                                          "(default 3)")

ODDS_LENGTHS = range(1, 11)   # the whole matrix: 2**k by 2**k
WAIT_LENGTHS = range(1, 17)   # the waiting times: 2**k of them
TABLE_SIZE = 16               # most rows, and tosses, for a printed table

def register(subparsers) -> None:
    """Add `retro penney odds|wait`."""
    penney = subparsers.add_parser(
        "penney", help="Penney's game: exact odds and waiting times",
        description="Exact odds for Penney's game on coin patterns, "
                    "from Conway's leading numbers.")
    questions = penney.add_subparsers(title="questions", metavar="QUESTION",
                                      required=True)
    odds_parser = questions.add_parser(
        "odds", help="P(row pattern shows before column pattern), "
                     "and each pattern's best reply",
        description="The matrix of chances that one pattern shows before "
                    "another, as exact fractions, and each pattern's best "
                    "reply.")
    wait_parser = questions.add_parser(
        "wait", help="each pattern's expected waiting time",
        description="The expected number of tosses until each pattern first "
                    "shows, as exact fractions.")
    for parser, limit in ((odds_parser, ODDS_LENGTHS),
                          (wait_parser, WAIT_LENGTHS)):
        parser.add_argument(
            "patterns", nargs="*", metavar="PATTERN",
            help="only these patterns, of H and T (any length, all the "
                 "same); default: every pattern of --length tosses")
        parser.add_argument(
            "--length", "-k", type=int, metavar="K",
            help=f"tosses in each pattern, {limit.start} to {limit.stop - 1} "
                 f"(default 3)")
        parser.add_argument("--json", action="store_true",
                            help="print one JSON object, fractions as strings")
    odds_parser.set_defaults(func=odds_command, limit=ODDS_LENGTHS)
    wait_parser.set_defaults(func=wait_command, limit=WAIT_LENGTHS)

def chosen_patterns(args) -> list[str]:
    """The patterns a question is about; a UsageError saying what is wrong."""
    if not args.patterns:
        length = 3 if args.length is None else args.length
        if length not in args.limit:
            raise UsageError(f"--length must be {args.limit.start} to "
                             f"{args.limit.stop - 1}, not {length}")
        return patterns(length)
    try:
        chosen = [parse_pattern(text) for text in args.patterns]
    except ValueError as error:
        raise UsageError(str(error)) from None
    if len({len(p) for p in chosen}) > 1:
        raise UsageError("the patterns must all have the same length")
    if args.length is not None and args.length != len(chosen[0]):
        raise UsageError(f"the patterns have {len(chosen[0])} tosses, "
                         f"not --length {args.length}")
    repeated = sorted({p for p in chosen if chosen.count(p) > 1})
    if repeated:
        raise UsageError(f"{repeated[0]} is given twice")
    return chosen

def odds_command(args) -> int:
    """`retro penney odds`: the matrix and the best replies."""
    chosen = chosen_patterns(args)
    if args.patterns:
        matrix = [[odds(a, b) for b in chosen] for a in chosen]
    else:
        matrix = odds_matrix(len(chosen[0]))
    if args.json:
        print(json.dumps({"patterns": chosen,
                          "p": [[str(p) for p in row] for row in matrix]}))
        return 0
    print(f"Chance that the row's pattern shows before the column's "
          f"({len(chosen[0])} tosses):")
    print()
    if len(chosen) <= TABLE_SIZE and len(chosen[0]) <= TABLE_SIZE:
        print_table(chosen, matrix)
    elif args.patterns:
        for a, row in zip(chosen, matrix):
            for b, p in zip(chosen, row):
                if a != b:
                    print(f"  {a} before {b}: {p}")
    else:
        print(f"(The {len(chosen)} x {len(chosen)} matrix is too wide to "
              f"print; --json gives all of it.)")
    print()
    print("Best replies:")
    for pattern in chosen:
        reply = best_reply(pattern)
        print(f"  against {pattern} pick {reply}: it shows first with "
              f"chance {odds(reply, pattern)}")
    return 0

def print_table(chosen: list[str], matrix: list[list[Fraction]]) -> None:
    """The matrix under a row of the patterns, each row under its pattern."""
    cells = [[str(p) for p in row] for row in matrix]
    width = max(len(c) for c in chosen + [c for row in cells for c in row]) + 2
    print(" " * (len(chosen[0]) + 2) + "".join(p.rjust(width) for p in chosen))
    for pattern, row in zip(chosen, cells):
        print(f"  {pattern}" + "".join(c.rjust(width) for c in row))

def wait_command(args) -> int:
    """`retro penney wait`: each pattern's expected waiting time."""
    chosen = chosen_patterns(args)
    waits = {pattern: waiting_time(pattern) for pattern in chosen}
    if args.json:
        print(json.dumps({p: str(w) for p, w in waits.items()}))
        return 0
    print(f"Expected tosses until each pattern first shows "
          f"({len(chosen[0])} tosses):")
    print()
    width = max(len(str(w)) for w in waits.values())
    for pattern, wait in waits.items():
        print(f"  {pattern}  {str(wait).rjust(width)}")
    return 0
