"""How well each machine reads players that play like people.

    python benchmarks/people.py [--sequences N] [--rounds R] [--seed S]
                                [--jobs J] [--crowd K]

Plays every machine of the registry, in the umpire's first seat, and the
two rules of literate/people.md ("guess switch", "guess switch while their
switch rate so far is at least half"), against every player of that
chapter and a fair coin: N sequences (default 200) of R rounds (default
100) each, the sequences seeded as the umpire seeds its games, so every
machine meets the same people, and the same non-reactive sequences.

Prints each machine's share of rounds won, in per cent, with a 95% interval
(1.96 standard errors over the sequences), the best machine of each player
starred, and the share won by a machine that knows the player through and
through (its chance of a change, each round); then Augur's lead
over each rule, player by player, in points, with a 95% interval for the
paired difference; then each machine's CPU time per play (its choose() and
learn(), timed apart from the player's).

With --crowd K, also plays, against the mixed person only, a machine that
knows how the people chapter draws its mixed people, but not which one it
faces: it weighs K imagined mixed people by Bayes' rule against what the
real one has played, and guesses by their vote. It is slow (K players a
round), and it is a floor under what the best machine could do, not a
ceiling: more imagined people would do a little better.
"""
from __future__ import annotations

import argparse
import math
import multiprocessing
import os
import random
import statistics
import time

from retro.engines.entrants import ENTRANTS, MACHINES, PLAYERS, make_machine
from retro.engines.umpire import game_rngs

RULES = [name for name, entrant in ENTRANTS.items() if entrant.kind == "rule"]
NAMES = [m for m in MACHINES if m != "coin"]       # the rules come last
OPPONENTS = list(PLAYERS) + ["coin"]
KNOWS = "knows it"     # the row of a machine that knows the player
CROWD = "crowd"        # the row of the machine that weighs imagined people
make = make_machine


class Knows:
    """A machine that knows the player through and through: each round it
    plays the side the player's own chance of a change favours."""

    def __init__(self, rng: random.Random, player):
        self.rng, self.player = rng, player

    def choose(self) -> int:
        player = self.player
        if not getattr(player, "plays", None):   # the first play, or a coin
            return self.rng.getrandbits(1)
        change = player.chance_of_change() >= 0.5
        return 1 - player.plays[-1] if change else player.plays[-1]

    def learn(self, opponent: int) -> None:
        pass


def play(machine, player, rounds: int) -> tuple[int, float]:
    """The machine's wins, and its CPU seconds."""
    wins, spent = 0, 0.0
    for _ in range(rounds):
        start = time.process_time()
        mine = machine.choose()
        spent += time.process_time() - start
        theirs = player.choose()
        start = time.process_time()
        machine.learn(theirs)
        spent += time.process_time() - start
        player.learn(1 - mine)
        wins += mine == theirs
    return wins, spent


def one_pairing(task: tuple[str, str, int, int, int]):
    """(machine, player, wins of each sequence, machine seconds)."""
    machine_name, player_name, sequences, rounds, seed = task
    wins, spent = [], 0.0
    for game in range(sequences):
        a_rng, b_rng = game_rngs(seed, game)
        player = make(player_name, b_rng)
        machine = (Knows(a_rng, player) if machine_name == KNOWS
                   else make(machine_name, a_rng))
        won, seconds = play(machine, player, rounds)
        wins.append(won)
        spent += seconds
    return machine_name, player_name, wins, spent


class Crowd:
    """Weighs imagined people, drawn as `player` is, by Bayes' rule
    against the real one's plays, and guesses by their vote."""

    def __init__(self, rng: random.Random, player: str, size: int):
        self.rng = rng
        self.imagined = [make(player, random.Random(f"{rng.random()}/{i}"))
                         for i in range(size)]
        self.weights = [0.0] * size      # log-likelihoods
        self.chances: list[float] = []
        self.play: int | None = None
        self.theirs: int | None = None

    def choose(self) -> int:
        if self.theirs is None:
            self.play = self.rng.getrandbits(1)
            return self.play
        top = max(self.weights)
        shares = [math.exp(w - top) for w in self.weights]
        self.chances = [p.chance_of_change() for p in self.imagined]
        change = sum(s * c for s, c in zip(shares, self.chances)) / sum(shares)
        self.play = 1 - self.theirs if change >= 0.5 else self.theirs
        return self.play

    def learn(self, opponent: int) -> None:
        if self.theirs is not None:
            changed = opponent != self.theirs
            self.weights = [w + math.log(max(1e-12, c if changed else 1 - c))
                            for w, c in zip(self.weights, self.chances)]
        for person in self.imagined:     # each lives the real one's game
            person.play = opponent
            person.learn(1 - self.play)
        self.theirs = opponent


def one_crowd(task: tuple[str, int, range, int, int]):
    """(player, the crowd's wins and the first rule's, per sequence)."""
    player_name, size, games, rounds, seed = task
    crowd, rule = [], []
    for game in games:
        a_rng, b_rng = game_rngs(seed, game)
        crowd.append(play(Crowd(a_rng, player_name, size),
                          make(player_name, b_rng), rounds)[0])
        a_rng, b_rng = game_rngs(seed, game)
        rule.append(play(make("switch", a_rng), make(player_name, b_rng),
                         rounds)[0])
    return player_name, crowd, rule


def interval(values: list[float]) -> float:
    """1.96 standard errors of the mean."""
    return 1.96 * statistics.stdev(values) / len(values) ** 0.5


def print_shares(table, rounds: int) -> None:
    print(f"{'machine':<12}" + "".join(f"{p.removeprefix('human-'):>13}"
                                       for p in OPPONENTS))
    best = {p: max(statistics.fmean(table[m, p]) for m in NAMES)
            for p in OPPONENTS}
    for m in [*NAMES, KNOWS]:
        cells = []
        for p in OPPONENTS:
            shares = [100 * w / rounds for w in table[m, p]]
            mean = statistics.fmean(shares)
            star = "*" if statistics.fmean(table[m, p]) == best[p] else " "
            cells.append(f"{mean:>6.1f} ±{interval(shares):.1f}{star}")
        print(f"{m:<12}" + "".join(f"{c:>13}" for c in cells))


def print_leads(table, rounds: int) -> None:
    print("Augur's lead over each rule, points (95% interval, paired)")
    print(f"{'player':<14}" + "".join(f"{r:>17}" for r in RULES))
    for p in OPPONENTS:
        cells = []
        for rule in RULES:
            lead = [100 * (a - b) / rounds
                    for a, b in zip(table["augur", p], table[rule, p])]
            cells.append(f"{statistics.fmean(lead):+6.2f} ±"
                         f"{interval(lead):.2f}")
        print(f"{p.removeprefix('human-'):<14}" + "".join(f"{c:>17}"
                                                         for c in cells))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sequences", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--crowd", type=int, default=0, metavar="K",
                        help="also play the crowd of K imagined people")
    args = parser.parse_args()
    tasks = [(m, p, args.sequences, args.rounds, args.seed)
             for p in OPPONENTS for m in [*NAMES, KNOWS]]
    with multiprocessing.Pool(args.jobs) as pool:
        results = pool.map(one_pairing, tasks, chunksize=1)
        parts = [range(start, args.sequences, args.jobs)
                 for start in range(args.jobs)]
        crowds = pool.map(one_crowd, [
            ("human-mixed", args.crowd, games, args.rounds, args.seed)
            for games in parts] if args.crowd else [], chunksize=1)
    table = {(m, p): wins for m, p, wins, _ in results}
    seconds = {m: 0.0 for m in NAMES}
    for m, _, _, spent in results:
        if m in seconds:
            seconds[m] += spent
    print(f"share of rounds won, % ({args.sequences} sequences of "
          f"{args.rounds} rounds, seed {args.seed}; 95% interval)")
    print_shares(table, args.rounds)
    print()
    print_leads(table, args.rounds)
    if crowds:
        crowd = [w for _, part, _ in crowds for w in part]
        rule = [w for _, _, part in crowds for w in part]
        lead = [100 * (a - b) / args.rounds for a, b in zip(crowd, rule)]
        print()
        print(f"against the mixed person, a crowd of {args.crowd} imagined "
              f"ones wins {100 * statistics.fmean(crowd) / args.rounds:.1f}"
              f"%, {statistics.fmean(lead):+.2f} ±{interval(lead):.2f} "
              f"points over the rule 'switch'")
    plays = args.sequences * args.rounds * len(OPPONENTS)
    print()
    print("machine CPU time per play (choose + learn), microseconds")
    for m in NAMES:
        print(f"  {m:<12} {1e6 * seconds[m] / plays:8.1f}")


if __name__ == "__main__":
    main()
