"""Time Penney's odds: the whole matrix by Conway's leading numbers at
lengths 4 to 8, one pair at length 64, and the absorbing Markov chain of
mga010's blog post "Penney's Game" beside them for scale; then the largest
question `retro penney odds|wait` accepts by name (64 patterns of 1000
tosses), and one bet settled on a store on disk (stake checked against the
stored bankroll, bankroll and result written, in one transaction).

    python benchmarks/penney.py [--repeat N]

Prints one line per measurement: the best of N runs (default 3).
"""
from __future__ import annotations

import argparse
import contextlib
import io
import random
import tempfile
import time
from pathlib import Path

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

    named_questions(args.repeat)
    settling(args.repeat)


def named_questions(repeat: int) -> None:
    """The largest named question each command accepts, timed whole."""
    from retro.games import penney

    rng = random.Random(1000)
    named = [spell(rng.getrandbits(penney.NAMED_TOSSES), penney.NAMED_TOSSES)
             for _ in range(penney.NAMED_PATTERNS)]
    print(f"The largest named question: {penney.NAMED_PATTERNS} patterns of "
          f"{penney.NAMED_TOSSES} tosses:")
    for name, command in (("odds", penney.odds_command),
                          ("wait", penney.wait_command)):
        args = argparse.Namespace(patterns=named, length=None, json=False,
                                  same_length=name == "odds")
        with contextlib.redirect_stdout(io.StringIO()) as out:
            seconds = best_time(lambda: command(args), repeat)
        print(f"  penney {name}  {seconds:8.3f} s   "
              f"({len(out.getvalue()) // repeat:,} characters printed)")


def settling(repeat: int) -> None:
    """One bet settled on disk: read, check, write, in one transaction."""
    from retro.games import penney
    from retro.services.store import Store

    with tempfile.TemporaryDirectory() as home:
        with Store.open(Path(home) / "retro.sqlite3") as store:
            bet = penney.Bet("HHT", "THH", 1, "HHT", True)
            count = 200
            seconds = best_time(
                lambda: [penney.settle(store, bet, 1) for _ in range(count)],
                repeat)
    print(f"One bet settled on a store on disk: {seconds / count * 1e3:.2f} ms")


if __name__ == "__main__":
    main()
