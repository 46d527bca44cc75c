"""How well each machine reads players that play like people.

    python benchmarks/people.py [--sequences N] [--rounds R] [--seed S] [--jobs J]

Plays every machine of the registry, in the umpire's first seat, against
every player of literate/people.md and a fair coin: N sequences (default
200) of R rounds (default 100) each, the sequences seeded as the umpire
seeds its games, so every machine meets the same non-reactive sequences.
Prints each machine's share of rounds won, in per cent, with a 95% interval
(1.96 standard errors over the sequences), the best machine of each row
starred, and then each machine's CPU time per play (its choose() and
learn(), timed apart from the player's).
"""
from __future__ import annotations

import argparse
import multiprocessing
import os
import statistics
import time

from retro.engines.machines import MACHINES, PLAYERS, make_machine
from retro.engines.umpire import game_rngs

OPPONENTS = (*PLAYERS, "coin")


def one_pairing(task: tuple[str, str, int, int, int]):
    """(machine, player, shares of each sequence in %, machine seconds)."""
    machine_name, player_name, sequences, rounds, seed = task
    shares, spent = [], 0.0
    for game in range(sequences):
        a_rng, b_rng = game_rngs(seed, game)
        machine = make_machine(machine_name, a_rng)
        player = make_machine(player_name, b_rng)
        wins = 0
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
        shares.append(100 * wins / rounds)
    return machine_name, player_name, shares, spent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sequences", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    args = parser.parse_args()
    tasks = [(m, p, args.sequences, args.rounds, args.seed)
             for p in OPPONENTS for m in MACHINES if m != "coin"]
    with multiprocessing.Pool(args.jobs) as pool:
        results = pool.map(one_pairing, tasks, chunksize=1)
    machines = [m for m in MACHINES if m != "coin"]
    table = {(m, p): shares for m, p, shares, _ in results}
    seconds = {m: 0.0 for m in machines}
    for m, _, _, spent in results:
        seconds[m] += spent
    print(f"share of rounds won, % ({args.sequences} sequences of "
          f"{args.rounds} rounds, seed {args.seed}; 95% interval)")
    print(f"{'player':<18}" + "".join(f"{m:>13}" for m in machines))
    for p in OPPONENTS:
        means = {m: statistics.fmean(table[m, p]) for m in machines}
        best = max(means.values())
        cells = []
        for m in machines:
            half = 1.96 * statistics.stdev(table[m, p]) / len(table[m, p]) ** .5
            star = "*" if means[m] == best else " "
            cells.append(f"{means[m]:>6.1f} ±{half:.1f}{star}")
        print(f"{p:<18}" + "".join(f"{c:>13}" for c in cells))
    plays = args.sequences * args.rounds * len(OPPONENTS)
    print()
    print("machine CPU time per play (choose + learn), microseconds")
    for m in machines:
        print(f"  {m:<6} {1e6 * seconds[m] / plays:8.1f}")


if __name__ == "__main__":
    main()
