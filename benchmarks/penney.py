"""Time Penney's odds: the whole matrix by Conway's leading numbers at
lengths 4 to 8, one pair at length 64, and the absorbing Markov chain of
mga010's blog post "Penney's Game" beside them for scale.

    python benchmarks/penney.py [--repeat N]

Prints one line per measurement: the best of N runs (default 3).
"""
from __future__ import annotations

import argparse
import random
import time

from retro.engines.penney_odds import (best_reply, chain_odds, odds,
                                       odds_matrix, patterns, spell,
                                       waiting_time)


def best_time(work, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3,
                        help="runs per measurement; the best is shown")
    args = parser.parse_args()

    print("Conway's leading numbers, the whole matrix (exact Fractions):")
    for length in range(4, 9):
        size = 2 ** length
        seconds = best_time(lambda: odds_matrix(length), args.repeat)
        target = ""
        if length == 8:
            target = "  (target: under 1 s: " + \
                ("met)" if seconds < 1 else "MISSED)")
        print(f"  k={length}  {size:3d} x {size:<3d} {seconds:8.4f} s{target}")

    rng = random.Random(64)
    a, b = spell(rng.getrandbits(64), 64), spell(rng.getrandbits(64), 64)
    reply = best_reply(a)
    pair = best_time(lambda: (odds(a, b), odds(b, a)), args.repeat * 100) / 2
    print("One pair at k=64:")
    print(f"  odds(a, b)          {pair * 1e6:8.1f} us   a={a}")
    print(" " * 36 + f"b={b}")
    print(" " * 36 + f"-> {odds(a, b)}")
    print(f"  best_reply(a)       "
          f"{best_time(lambda: best_reply(a), args.repeat * 100) * 1e6:8.1f} us"
          f"   -> {odds(reply, a)}")
    print(f"  waiting_time(a)     "
          f"{best_time(lambda: waiting_time(a), args.repeat * 100) * 1e6:8.1f} us"
          f"   -> {waiting_time(a)}")

    print("The absorbing Markov chain of windows, for scale:")
    for length in (3, 4, 5):
        first, second = patterns(length)[1], patterns(length)[-2]
        seconds = best_time(lambda: chain_odds(first, second), args.repeat)
        pairs = 2 ** length * (2 ** length - 1)
        print(f"  k={length}  one pair {seconds:8.4f} s"
              f"   (whole matrix, {pairs} pairs: about {seconds * pairs:.1f} s)")


if __name__ == "__main__":
    main()
