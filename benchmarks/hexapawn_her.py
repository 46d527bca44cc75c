"""HER's schooling in figures: the tables of the HER and HIM chapter.

    python benchmarks/hexapawn_her.py [--seeds 1000]

1. HER against the perfect player (which moves first), for each seed until
   she is unbeatable: the games and the defeats it took. Once she is
   unbeatable she cannot lose again, so her last defeat is her last ever.
   The same against a random player, for comparison. Then, against the
   perfect player, where the games go: defeats in the first 36 games, the
   wait between the last two, the box of the last, and what a 50-game
   chart like Gardner's would have shown.
2. Two robots like HER, one always moving first, until the first concedes
   (its opening box empty): the readers' "eighteen games".
3. HER against HIM, 50 games, the first move alternating (HER first in the
   odd games), both fresh: how many each won.
"""
from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections import Counter

from retro.engines.hexapawn_rules import FIRST, SECOND, after, winner, wins
from retro.engines.matchbox import (STRATEGIES, contest, fresh, learn, lesson,
                            matchboxes, train, unbeatable)


def schooling(opponent_name: str, seed: int) -> tuple[str, int | None]:
    """HER's record until she is unbeatable, and the box of her last defeat."""
    rng, her = random.Random(seed), fresh("HER")
    opponent = STRATEGIES[opponent_name]
    record, last_box = "", None
    while not unbeatable(her, SECOND):
        game = contest(opponent, her, rng)
        won = game.winner == SECOND
        changes = lesson(her, game.draws[SECOND], won)
        her = learn(her, changes)
        record += "W" if won else "L"
        if changes and not won:
            last_box = changes[-1].box.number
    return record, last_box


def bad_beads() -> int:
    """The beads of a fresh HER whose move loses against best play."""
    return sum(1 for box in matchboxes() if box.side == SECOND
               for arrow in box.arrows
               if winner(then := after(box.lid, arrow)) is None and wins(then))


def apparent_last_defeat(record: str, streak: int = 14) -> int:
    """The last defeat before `streak` wins in a row: what a chart would show."""
    record += "W" * streak      # unbeatable at the end: she wins from there on
    return record[:record.find("W" * streak)].rfind("L") + 1


def two_hers(seed: int) -> tuple[int, int, bool]:
    """Two robots that learn as HER does, one always first, until it concedes.

    (the second's last defeat, the game at which the first concedes, whether
    the second is then unbeatable)."""
    rng, first, second = random.Random(seed), fresh("HER"), fresh("HER")
    games = last = 0
    while True:
        games += 1
        game = contest(first, second, rng)
        if game.reason == "resigned" and not game.draws[FIRST]:
            return last, games, unbeatable(second, SECOND)
        won = game.winner == SECOND
        second = learn(second, lesson(second, game.draws[SECOND], won))
        first = learn(first, lesson(first, game.draws[FIRST], not won))
        if not won:
            last = games


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
        records = [record for record, _ in runs]
        lasts = [record.rfind("L") + 1 for record in records]
        losses = [record.count("L") for record in records]
        print(f"| {name} | games to her last defeat | {summary(lasts)} |")
        print(f"| {name} | defeats | {summary(losses)} |")
        if name == "perfect":
            perfect_runs, perfect_lasts, perfect_losses = runs, lasts, losses
    print()
    lasts, losses = perfect_lasts, perfect_losses
    within = sum(last <= 36 for last in lasts)
    exact = sum(last == 36 and loss == 11 for last, loss in zip(lasts, losses))
    at_most = sum(loss <= 11 for loss in losses)
    print(f"Against the perfect player: done within 36 games for {within} seeds; "
          f"11 defeats or fewer for {at_most}; exactly Gardner's 36 and 11 "
          f"for {exact}.")
    print(f"Beads whose move loses against best play: {bad_beads()} of 47.")
    by_36 = [record[:36].count("L") for record, _ in perfect_runs]
    gaps = [last - record[:last - 1].rfind("L") - 1
            for last, (record, _) in zip(lasts, perfect_runs)]
    print(f"Defeats in the first 36 games: {summary(by_36)}.")
    print(f"Games between her last two defeats: {summary(gaps)}.")
    boxes = Counter(box for _, box in perfect_runs)
    print("The box of her last defeat: " + ", ".join(
        f"box {box} {count}" for box, count in boxes.most_common()) + ".")
    apparent = [apparent_last_defeat(record) for record, _ in perfect_runs]
    seen_losses = [record[:seen].count("L")
                   for seen, (record, _) in zip(apparent, perfect_runs)]
    fooled = sum(seen < last for seen, last in zip(apparent, lasts))
    print(f"The last defeat before 14 wins in a row (as a 50-game chart shows "
          f"it): {summary(apparent)}, with {summary(seen_losses)} defeats; "
          f"within 36 games for {sum(seen <= 36 for seen in apparent)} seeds; "
          f"followed by another defeat for {fooled}.")
    print()

    pairs = [two_hers(seed) for seed in seeds]
    print(f"Two HERs, one always moving first, {args.seeds} seeds:")
    print()
    print("| | mean | median | 10th-90th percentile | range |")
    print("| --- | --- | --- | --- | --- |")
    print("| the second's last defeat, game | "
          + summary([last for last, _, _ in pairs]) + " |")
    print("| the first concedes for good, game | "
          + summary([conceded for _, conceded, _ in pairs]) + " |")
    print()
    print(f"The second robot unbeatable when the first concedes: "
          f"{sum(proved for _, _, proved in pairs)} seeds.")
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
