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

Each lead is given twice: in rounds won, and in rounds expected. A player
of the people chapter says, before each play, its chance of a change, so
the worth of a machine's guess in that round is known exactly: that
chance if it guessed a change, one less that chance if not. The expected
rounds are the sum of those worths; their mean is the same as the rounds
won's, but without the toss of the player's coin in every round, so their
interval is narrower (half as wide against the mixed person), and a lead
of half a point can be told from none.

With --crowd K, also plays, against the mixed person only, a machine that
knows how the people chapter draws its mixed people, but not which one it
faces: it weighs K imagined mixed people by Bayes' rule against what the
real one has played, and guesses by their vote. It is slow (K players a
round), and it is a floor under what the best machine could do, not a
ceiling: more imagined people would do a little better. It also plays
Augur with that crowd in place of its model of people's habits, to show
what Augur's other parts, there to read machines, cost against a person
even when the model of people is as good as it can be.
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


def worth(player, mine: int) -> float:
    """The chance that `mine` wins this round, by the player's own chance
    of a change; a half where the player has none to tell (a coin, or its
    first play)."""
    chance = getattr(player, "chance_of_change", None)
    if chance is None or not player.plays:
        return 0.5
    change = chance()
    return change if mine != player.plays[-1] else 1 - change


def play(machine, player, rounds: int) -> tuple[int, float, float]:
    """The machine's wins, its expected wins, and its CPU seconds."""
    wins, expected, spent = 0, 0.0, 0.0
    for _ in range(rounds):
        start = time.process_time()
        mine = machine.choose()
        spent += time.process_time() - start
        expected += worth(player, mine)
        theirs = player.choose()
        start = time.process_time()
        machine.learn(theirs)
        spent += time.process_time() - start
        player.learn(1 - mine)
        wins += mine == theirs
    return wins, expected, spent


def one_pairing(task: tuple[str, str, int, int, int]):
    """(machine, player, wins and expected wins of each sequence, machine
    seconds)."""
    machine_name, player_name, sequences, rounds, seed = task
    wins, expected, spent = [], [], 0.0
    for game in range(sequences):
        a_rng, b_rng = game_rngs(seed, game)
        player = make(player_name, b_rng)
        machine = (Knows(a_rng, player) if machine_name == KNOWS
                   else make(machine_name, a_rng))
        won, worth_, seconds = play(machine, player, rounds)
        wins.append(won)
        expected.append(worth_)
        spent += seconds
    return machine_name, player_name, wins, expected, spent


class Imagined:
    """Imagined people, drawn as `player` is, weighed by Bayes' rule
    against the real one's plays: a model of people with Augur's habits'
    two calls, predict() and learn()."""

    def __init__(self, rng: random.Random, player: str, size: int):
        self.imagined = [make(player, random.Random(f"{rng.random()}/{i}"))
                         for i in range(size)]
        self.weights = [0.0] * size      # log-likelihoods
        self.chances: list[float] = []
        self.theirs: int | None = None

    def predict(self) -> float:
        """The chance of a change, by the weighed vote of the imagined."""
        if self.theirs is None:
            self.chances = []
            return 0.5
        top = max(self.weights)
        shares = [math.exp(w - top) for w in self.weights]
        self.chances = [p.chance_of_change() for p in self.imagined]
        return sum(s * c for s, c in zip(shares, self.chances)) / sum(shares)

    def learn(self, mine: int, theirs: int) -> None:
        if self.chances:
            changed = theirs != self.theirs
            self.weights = [w + math.log(max(1e-12, c if changed else 1 - c))
                            for w, c in zip(self.weights, self.chances)]
        for person in self.imagined:     # each lives the real one's game
            person.play = theirs
            person.learn(1 - mine)
        self.theirs = theirs


class Crowd:
    """Guesses by the vote of imagined people."""

    def __init__(self, rng: random.Random, player: str, size: int):
        self.rng = rng
        self.habits = Imagined(rng, player, size)
        self.play: int | None = None

    def choose(self) -> int:
        change, theirs = self.habits.predict(), self.habits.theirs
        if theirs is None:
            self.play = self.rng.getrandbits(1)
        else:
            self.play = 1 - theirs if change >= 0.5 else theirs
        return self.play

    def learn(self, opponent: int) -> None:
        self.habits.learn(self.play, opponent)


def augur_with_crowd(rng: random.Random, player: str, size: int):
    """Augur, its model of people's habits swapped for imagined people."""
    augur = make("augur", rng)
    augur.habits = Imagined(random.Random(rng.random()), player, size)
    return augur


CROWDED = ("crowd", "augur + crowd", "switch")   # the crowd's three rows


def one_crowd(task: tuple[str, int, range, int, int]):
    """(player, {row: [(wins, expected wins) per sequence]})."""
    player_name, size, games, rounds, seed = task
    makers = (lambda rng: Crowd(rng, player_name, size),
              lambda rng: augur_with_crowd(rng, player_name, size),
              lambda rng: make("switch", rng))
    rows: dict[str, list[tuple[int, float]]] = {row: [] for row in CROWDED}
    for game in games:
        for row, maker in zip(CROWDED, makers):
            a_rng, b_rng = game_rngs(seed, game)
            rows[row].append(play(maker(a_rng), make(player_name, b_rng),
                                  rounds)[:2])
    return player_name, rows


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


def lead(mine: list[float], theirs: list[float], rounds: int) -> str:
    """The mean lead in points, paired by sequence, with its interval."""
    points = [100 * (a - b) / rounds for a, b in zip(mine, theirs)]
    return f"{statistics.fmean(points):+6.2f} ±{interval(points):.2f}"


def print_leads(table, expected, rounds: int) -> None:
    print("Augur's lead over each rule, points (95% interval, paired):")
    print("in rounds won, and in rounds expected by the player's chances")
    print(f"{'player':<14}" + "".join(f"{f'{r}, {how}':>23}"
                                      for r in RULES
                                      for how in ("won", "expected")))
    for p in OPPONENTS:
        cells = [lead(kind["augur", p], kind[rule, p], rounds)
                 for rule in RULES for kind in (table, expected)]
        print(f"{p.removeprefix('human-'):<14}" + "".join(f"{c:>23}"
                                                         for c in cells))


def print_crowd(crowds, size: int, rounds: int) -> None:
    rows = {row: [pair for _, part in crowds for pair in part[row]]
            for row in CROWDED}
    print(f"against the mixed person, with a crowd of {size} imagined ones:")
    print(f"{'machine':<15}{'won, %':>9}{'expected, %':>13}"
          f"{'over switch, won':>19}{'expected':>17}")
    rule = rows["switch"]
    for row in CROWDED[:-1]:
        pairs = rows[row]
        won, worth_ = ([pair[i] for pair in pairs] for i in (0, 1))
        print(f"{row:<15}{100 * statistics.fmean(won) / rounds:>9.1f}"
              f"{100 * statistics.fmean(worth_) / rounds:>13.1f}"
              f"{lead(won, [r[0] for r in rule], rounds):>19}"
              f"{lead(worth_, [r[1] for r in rule], rounds):>17}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sequences", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--crowd", type=int, default=0, metavar="K",
                        help="also play the crowd of K imagined people, "
                             "alone and as Augur's model of people")
    args = parser.parse_args()
    if args.sequences < 2 or args.rounds < 1 or args.jobs < 1 \
            or args.crowd < 0:
        parser.error("--sequences must be 2 or more, --rounds and --jobs "
                     "1 or more, --crowd 0 or more")
    tasks = [(m, p, args.sequences, args.rounds, args.seed)
             for p in OPPONENTS for m in [*NAMES, KNOWS]]
    with multiprocessing.Pool(args.jobs) as pool:
        results = pool.map(one_pairing, tasks, chunksize=1)
        parts = [range(start, args.sequences, args.jobs)
                 for start in range(args.jobs)]
        crowds = pool.map(one_crowd, [
            ("human-mixed", args.crowd, games, args.rounds, args.seed)
            for games in parts if games] if args.crowd else [], chunksize=1)
    table = {(m, p): wins for m, p, wins, _, _ in results}
    expected = {(m, p): worth_ for m, p, _, worth_, _ in results}
    seconds = {m: 0.0 for m in NAMES}
    for m, _, _, _, spent in results:
        if m in seconds:
            seconds[m] += spent
    print(f"share of rounds won, % ({args.sequences} sequences of "
          f"{args.rounds} rounds, seed {args.seed}; 95% interval)")
    print_shares(table, args.rounds)
    print()
    print_leads(table, expected, args.rounds)
    if crowds:
        print()
        print_crowd(crowds, args.crowd, args.rounds)
    plays = args.sequences * args.rounds * len(OPPONENTS)
    print()
    print("machine CPU time per play (choose + learn), microseconds")
    for m in NAMES:
        print(f"  {m:<12} {1e6 * seconds[m] / plays:8.1f}")


if __name__ == "__main__":
    main()
