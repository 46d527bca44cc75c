"""HER's schooling in figures: the tables of the HER and HIM chapter.

    python benchmarks/hexapawn_her.py [--seeds 1000]

1. HER against the perfect player (which moves first), for each seed until
   she is unbeatable: the games and the defeats it took. Once she is
   unbeatable she cannot lose again, so her last defeat is her last ever.
   The same against a random player, for comparison.
2. HER against HIM, 50 games, the first move alternating (HER first in the
   odd games), both fresh: how many each won.
"""
from __future__ import annotations

import argparse
import random
import statistics
import sys
import time

from retro.hexapawn_rules import FIRST, SECOND
from retro.matchbox import (STRATEGIES, contest, fresh, learn, lesson, train,
                            unbeatable)


def schooling(opponent_name: str, seed: int) -> tuple[int, int]:
    """(games until HER's last defeat, defeats), playing until unbeatable."""
    rng, her = random.Random(seed), fresh("HER")
    opponent = STRATEGIES[opponent_name]
    games = losses = last = 0
    while not unbeatable(her, SECOND):
        games += 1
        game = contest(opponent, her, rng)
        won = game.winner == SECOND
        her = learn(her, lesson(her, game.draws[SECOND], won))
        if not won:
            losses, last = losses + 1, games
    return last, losses


def summary(values: list[int]) -> str:
    ordered = sorted(values)
    tenth, ninetieth = ordered[len(ordered) // 10], ordered[len(ordered) * 9 // 10]
    return (f"{statistics.mean(values):.1f} | {statistics.median(values):g} | "
            f"{tenth}-{ninetieth} | {min(values)}-{max(values)}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=1000)
    args = parser.parse_args()
    seeds = range(1, args.seeds + 1)
    began = time.perf_counter()

    print(f"HER until unbeatable, {args.seeds} seeds (mean | median | "
          f"10th-90th percentile | range):")
    print()
    print("| opponent | | mean | median | 10th-90th percentile | range |")
    print("| --- | --- | --- | --- | --- | --- |")
    for name in ("perfect", "random"):
        runs = [schooling(name, seed) for seed in seeds]
        lasts, losses = [r[0] for r in runs], [r[1] for r in runs]
        print(f"| {name} | games to her last defeat | {summary(lasts)} |")
        print(f"| {name} | defeats | {summary(losses)} |")
        if name == "perfect":
            within = sum(last <= 36 for last in lasts)
            exact = sum(run == (36, 11) for run in runs)
            at_most = sum(loss <= 11 for loss in losses)
    print()
    print(f"Against the perfect player: done within 36 games for {within} seeds; "
          f"11 defeats or fewer for {at_most}; exactly Gardner's 36 and 11 "
          f"for {exact}.")
    print()

    her_wins, tallies = [], {"HER": 0, "HIM": 0, "tie": 0}
    first_wins = []
    for seed in seeds:
        done = train(fresh("HER"), fresh("HIM"), 50, random.Random(seed),
                     first="alternate")
        wins = done.record.count("W")
        her_wins.append(wins)
        tallies["HER" if wins > 25 else "HIM" if wins < 25 else "tie"] += 1
        first_wins.append(sum((outcome == "W") == (leader == "R")
                              for outcome, leader in zip(done.record, done.firsts)))
    print(f"HER against HIM, 50 games alternating, {args.seeds} seeds:")
    print()
    print("| | mean | median | 10th-90th percentile | range |")
    print("| --- | --- | --- | --- | --- |")
    print("| HER's wins | " + summary(her_wins) + " |")
    print("| games won by the player moving first | " + summary(first_wins) + " |")
    print()
    print(f"Tournaments won: HER {tallies['HER']}, HIM {tallies['HIM']}, "
          f"tied {tallies['tie']}.")
    print(f"({time.perf_counter() - began:.0f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
