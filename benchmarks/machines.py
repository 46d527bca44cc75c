"""How fast the machines play, and whether SCP's cost per play stays flat.

    python benchmarks/machines.py [--plays N]

Prints plays per second for every machine in the registry (one play is one
choose() and one learn(), against a seeded random opponent), then SCP's time
for one 20,000-play game against twenty 1,000-play games: the contextual
predictor is incremental, so the two should take about the same time
(target: within 1.5x), and how long the contexts it reads are on average,
which is what its cost per play follows. Last, the same comparison for SCP's
context tree alone, fed a constant history, where every walk goes to the
depth bound.

Times are the CPU time of this process (time.process_time), so that other
work on a shared machine disturbs them less; each comparison is the best of
three runs.
"""
from __future__ import annotations

import argparse
import random
import time

from retro.engines.entrants import MACHINES, MachineError, make_machine
from retro.engines.scp import MAX_DEPTH, SL, ContextPredictor, ContextTree


def opponent_plays(count: int, seed: int) -> list[int]:
    """A coin's plays."""
    rng = random.Random(seed)
    return [rng.getrandbits(1) for _ in range(count)]


def time_games(make, games: int, plays: int, seed: int = 1) -> float:
    """Seconds to play `games` games of `plays` plays against a coin."""
    opponents = [opponent_plays(plays, seed * 1000 + g) for g in range(games)]
    start = time.process_time()
    for g, opponent in enumerate(opponents):
        machine = make(random.Random(g))
        for play in opponent:
            machine.choose()
            machine.learn(play)
    return time.process_time() - start


def mean_context(games: int, plays: int, seed: int = 1) -> float:
    """The mean length of the longest context SCP finds, over every play of
    `games` games of `plays` plays against a coin (untimed)."""
    found = 0
    for g in range(games):
        machine = ContextPredictor(random.Random(g))
        for play in opponent_plays(plays, seed * 1000 + g):
            machine.choose()
            found += machine.reading.found
            machine.learn(play)
    return found / (games * plays)


def plays_per_second(name: str, plays: int) -> float | None:
    def make(rng):
        return make_machine(name, rng)
    try:
        make(random.Random(0))
    except MachineError:
        return None
    games = max(1, plays // 200)
    return games * 200 / time_games(make, games, 200)


def best_of(runs: int, measure) -> float:
    return min(measure() for _ in range(runs))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--plays", type=int, default=20_000,
                        help="plays per machine for the speed table")
    args = parser.parse_args()

    print(f"plays per second (games of 200 plays, {args.plays} plays each)")
    for name in MACHINES:
        rate = plays_per_second(name, args.plays)
        shown = "not available" if rate is None else f"{rate:>10,.0f}"
        print(f"  {name:<6} {shown}")

    long_game = best_of(3, lambda: time_games(ContextPredictor, 1, 20_000))
    short_games = best_of(3, lambda: time_games(ContextPredictor, 20, 1_000))
    report("SCP against a coin", long_game, short_games)
    print(f"  longest context found, mean  {mean_context(1, 20_000):.1f} "
          f"vs {mean_context(20, 1_000):.1f} symbols")

    long_game = best_of(3, lambda: time_constant_history(1, 20_000))
    short_games = best_of(3, lambda: time_constant_history(20, 1_000))
    report("SCP's context tree at its depth bound (a constant history: "
           f"every walk {MAX_DEPTH} deep)", long_game, short_games)


def time_constant_history(games: int, plays: int) -> float:
    """Seconds to read and extend a context tree fed one symbol over and
    over: the worst case, every context recurs to MAX_DEPTH."""
    start = time.process_time()
    for _ in range(games):
        tree = ContextTree()
        for _ in range(plays):
            tree.counts_by_length()
            tree.append(SL)
    return time.process_time() - start


def report(title: str, long_game: float, short_games: float) -> None:
    print()
    print(f"{title}, best of 3")
    print(f"  one game of 20,000 plays   {long_game:.3f} s")
    print(f"  twenty games of 1,000      {short_games:.3f} s")
    print(f"  ratio                      {long_game / short_games:.2f}x"
          "  (target: within 1.5x)")


if __name__ == "__main__":
    main()
