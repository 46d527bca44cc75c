# Tangled from literate/penney.md: edit the chapter, not this file, then run `retro tangle`.
"""Penney's game: bet pennies on coin patterns against a machine that
knows the odds.

Tangled from literate/penney.md, which explains it.
"""
from __future__ import annotations

import random
from dataclasses import dataclass
from fractions import Fraction

from retro.common import number_in, plural, whole_number
from retro.engines.penney_odds import (best_first_picks, best_reply, example,
                                       first_pick_chance, odds, parse_pattern,
                                       toss_until)
from retro.games.contract import (FROM, Abandoned, FrontEnd, Option, Paper,
                                  Sitting, is_quit, recorded)
from retro.services.store import Store, StoreError


STAKE = 100                    # pennies in a fresh stake
BANKROLL = "penney.bankroll"   # the store's key for a player's pennies
BANK_LIMIT = 10 ** 15          # the most pennies the bank holds for a player
LENGTHS = range(1, 9)          # tosses in a pattern, for the game


def most_stake(bankroll: int) -> int:
    """The largest stake: the bankroll, if the bank could pay as much."""
    return min(bankroll, BANK_LIMIT - bankroll)


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
        return (bankroll + self.stake if self.player_won
                else bankroll - self.stake)


def machine_first_pick(length: int, rng: random.Random) -> str:
    """The machine picking first: one of the picks that lose least."""
    return rng.choice(best_first_picks(length))


class Leave(Exception):
    """The player typed q: the session ends, the bankroll is kept."""


async def play(tty: Paper, sitting: Sitting, *, length: int = 3,
               replay_of: int | None = None) -> None:
    """Penney's game for pennies, until the player leaves or the input ends."""
    if length not in LENGTHS:
        raise ValueError(f"patterns here have 1 to 8 tosses, not {length}")
    if replay_of is None:
        return await bet_until_they_leave(tty, sitting, length)
    scratch = await as_it_began(tty, sitting, replay_of)
    try:
        await bet_until_they_leave(tty, sitting._replace(store=scratch),
                                   length)
    finally:
        scratch.close()


async def bet_until_they_leave(tty: Paper, sitting: Sitting,
                               length: int) -> None:
    seeds, store = sitting.seeds(), sitting.store
    tty.say("PENNEY'S GAME")
    tty.say()
    tty.say(f"We each choose a pattern of {tosses(length)}, like "
            f"{example(length)}. Then I toss a penny and write the tosses "
            f"down until one of our patterns shows: that one wins the bet, at "
            f"even money. Type help at any question for the rules, q to "
            f"leave.")
    rules = how_to_bet(length)
    try:
        bankroll = await store.run(stored_bankroll)
        await opening_bankroll(tty, store, rules, bankroll)
        opened: int | None = bankroll
        while True:
            if await one_bet(tty, next(seeds), sitting, length, rules,
                             opened) == 0:
                tty.say("You are broke.")
                await fresh_stake(tty, store, rules)
            opened = None  # only the first bet began the session
    except (Leave, EOFError, KeyboardInterrupt):
        pass
    except StoreError as error:
        tty.say(f"The game stops here ({error}); no bet was open, so nothing "
                f"was taken or paid.")
    try:
        tty.say(f"You leave with "
                f"{pennies(await store.run(stored_bankroll))}.")
    except StoreError:
        tty.say("You leave.")


async def one_bet(tty: Paper, seed: int, sitting: Sitting, length: int,
                  rules: str, opened: int | None = None) -> int:
    """Pick, stake, toss, settle: the bankroll after one bet, which draws
    its chance from `seed` alone; `opened`, the bankroll the session
    opened with, if this bet is its first."""
    rng = random.Random(seed)
    bankroll = await sitting.store.run(stored_bankroll)  # another room may
    # have spent some since the last bet
    if bankroll == 0:
        return 0
    if most_stake(bankroll) == 0:
        tty.say(f"You have broken the bank: it holds no more than "
                f"{pennies(BANK_LIMIT)} for anyone.")
        raise Leave
    tty.say()
    player_first = await ask(tty, "Do you want to pick first? (y/n) ",
                             read_yes_no, rules, ("y", "n", "q", "help"))
    if player_first:
        player = await ask(tty, f"Your pattern of {tosses(length)}? ",
                           pattern_reader(length), rules)
        machine = best_reply(player)
        tty.say(f"I pick {machine}.")
    else:
        machine = machine_first_pick(length, rng)
        tty.say(f"I pick {machine}.")
        player = await ask(tty, f"Your pattern of {tosses(length)}? ",
                           pattern_reader(length, taken=machine), rules)
    return await stake_and_settle(tty, rng, sitting, seed,
                                  (player, machine, player_first), bankroll,
                                  rules, opened)


async def stake_and_settle(tty: Paper, rng: random.Random, sitting: Sitting,
                           seed: int, picks: tuple[str, str, bool],
                           bankroll: int, rules: str,
                           opened: int | None = None) -> int:
    """Ask the stake until the store covers it; settle; the new bankroll."""
    player, machine, player_first = picks
    while True:
        most = most_stake(bankroll)
        stake = await ask(tty, f"Your stake, up to {pennies(most)}? ",
                          stake_reader(most), rules, ("all",))
        bet = Bet(player, machine, stake, toss_until(player, machine, rng),
                  player_first)
        try:  # settled before the paper shows it
            after = await sitting.store.run(settle, sitting, bet, seed,
                                            opened)
            break
        except Uncovered as short:
            bankroll = short.bankroll
            tty.say(f"Another game has changed your bankroll: you have "
                    f"{pennies(bankroll)} now, and nothing was taken.")
            if most_stake(bankroll) == 0:
                return bankroll
        except StoreError as error:
            tty.say(f"The bet is off ({error}): nothing was taken or paid.")
            return bankroll
    report(tty, bet)
    tty.say(f"You have {pennies(after)}.")
    return after


HELP = {"help", "?"}


async def ask(tty: Paper, prompt: str, read, rules: str, choices=()):
    """Ask until `read` accepts an answer; q raises Leave, help `rules`."""
    while True:
        answer = await tty.ask(prompt, choices)
        word = answer.lower()
        if is_quit(word):
            raise Leave
        if word in HELP:
            tty.say(rules)
            continue
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
    raise ValueError("answer y or n (or q to leave, help for the rules)")


def how_to_bet(length: int) -> str:
    """What help prints: how a bet goes, and how to leave."""
    return (f"How to bet: say whether you pick first (y or n); whoever picks "
            f"second sees the other's pattern. A pattern is {tosses(length)}, "
            f"each H or T, like {example(length)}. Stake whole pennies, up to "
            f"what you have, or all. I toss until one pattern shows, and it "
            f"wins the stake. Type q at any question to leave: your pennies "
            f"are kept.")


def pattern_reader(length: int, taken: str | None = None):
    def read(answer: str) -> str:
        pattern = parse_pattern(answer, length)
        if pattern == taken:
            raise ValueError(f"{taken} is mine: pick a different pattern")
        return pattern
    return read


def stake_reader(most: int):
    def read(answer: str) -> int:
        if answer.lower() == "all":
            return most
        stake = number_in(answer)
        if stake is None or not 1 <= stake <= most:
            raise ValueError(f"stake a whole number of pennies from 1 to "
                             f"{most}, or all")
        return stake
    return read


def report(tty: Paper, bet: Bet) -> None:
    tty.say("Tossing: " + " ".join(bet.tosses))
    shown = bet.player if bet.player_won else bet.machine
    who = "you win" if bet.player_won else "I win"
    tty.say(f"{shown} shows after {tosses(len(bet.tosses))}: {who} "
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
        either = " or ".join([", ".join(picks[:-1]), picks[-1]] if picks[:-1]
                             else picks)
        return (f"(Picking first, {either} would have had "
                f"{first_pick_chance(picks[0])} against my reply.)")
    reply = best_reply(bet.machine)
    if odds(reply, bet.machine) <= bet.player_chance:
        return None
    return f"(Against my {bet.machine}, {reply} would have had " \
           f"{odds(reply, bet.machine)}.)"


def pennies(count: int) -> str:
    return plural(count, "penny", "pennies")


def tosses(count: int) -> str:
    return plural(count, "toss", "tosses")


def fair_bankroll(value) -> bool:
    """A bankroll as it may be stored: whole pennies the bank can hold."""
    return type(value) is int and 0 <= value <= BANK_LIMIT


def stored_bankroll(store) -> int:
    """The player's pennies as the store holds them now."""
    return store.get(store.own(BANKROLL), STAKE, valid=fair_bankroll)


async def opening_bankroll(tty: Paper, store, rules: str,
                           bankroll: int) -> int:
    if bankroll > 0:
        tty.say(f"You have {pennies(bankroll)}.")
        return bankroll
    tty.say("You were broke when you last left.")
    return await fresh_stake(tty, store, rules)


async def fresh_stake(tty: Paper, store, rules: str) -> int:
    """Offer a broke player a new stake; Leave if it is refused."""
    if not await ask(tty, f"Would you like a fresh stake of "
                          f"{pennies(STAKE)}? (y/n) ", read_yes_no, rules,
                     ("y", "n")):
        raise Leave
    bankroll = await store.run(give_fresh_stake)
    if bankroll:
        tty.say(f"Another game has given you a stake already: you have "
                f"{pennies(bankroll)}.")
        return bankroll
    tty.say(f"Here are {pennies(STAKE)}.")
    return STAKE


def give_fresh_stake(store) -> int:
    """The store's work of a fresh stake: the bankroll found (0 if given)."""
    with store.transaction():
        bankroll = stored_bankroll(store)
        if bankroll == 0:
            store.put(store.own(BANKROLL), STAKE)
    return bankroll


class Uncovered(Exception):
    """The stored bankroll no longer covers the stake: nothing was settled."""

    def __init__(self, bankroll: int):
        super().__init__(f"the bankroll is {bankroll}")
        self.bankroll = bankroll


def settle(store, sitting: Sitting, bet: Bet, seed: int,
           opened: int | None = None) -> int:
    """Pay the bet: the new bankroll and the result, in one transaction."""
    with store.transaction():
        bankroll = stored_bankroll(store)  # as it is now, not as it was
        covered = bet.stake <= most_stake(bankroll)
        began = bankroll if opened is None else opened
        if covered:
            after = bet.settle(bankroll)
            store.put(store.own(BANKROLL), after)
            store.record(
                sitting.game.name, score=f"{after - bankroll:+d} to {after}",
                outcome="win" if bet.player_won else "loss", seed=seed,
                detail={"player": bet.player, "machine": bet.machine,
                        "first": "player" if bet.player_first else "machine",
                        "stake": bet.stake, "tosses": bet.tosses,
                        "chance": str(bet.player_chance), "bankroll": after,
                        "replay": [] if len(bet.player) == 3
                        else ["--length", str(len(bet.player))],
                        **({"from": began} if began != STAKE else {})})
    if not covered:
        raise Uncovered(bankroll)
    return after


async def as_it_began(tty: Paper, sitting: Sitting, number: int) -> Store:
    """The store of a replay of game `number`: one of its own, in memory,
    holding the bankroll that game began from."""
    found = await recorded(sitting, number)
    if found is None:
        tty.say(f"There is no game {number} of Penney's game to play again.")
        raise Abandoned
    began = found.detail.get("from", STAKE)
    if not fair_bankroll(began):
        tty.say(f"Game {number} of Penney's game did not keep the bankroll "
                f"it began from.")
        raise Abandoned
    tty.say(f"Game {number} again, from the bankroll it began with. Nothing "
            f"of it is kept: your own pennies are not touched.")
    scratch = Store.memory(player=sitting.store.player)
    scratch.put(scratch.own(BANKROLL), began)
    return scratch


play_length = whole_number(min(LENGTHS), max(LENGTHS))


OPTIONS = (
    Option(("--length", "-k"), "length", read=play_length, default=3,
           metavar="K", help="tosses in each pattern, 1 to 8 (default 3)"),
    FROM,
)


FRONT_END = FrontEnd(play, options=OPTIONS)
