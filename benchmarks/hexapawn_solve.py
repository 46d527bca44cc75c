"""How far the hexapawn solver reaches: the time to solve 3 x n, n = 1, 2, ...

    python benchmarks/hexapawn_solve.py [--limit 60] [--rows 3] [--plain]

Each n is solved from empty tables. The run stops after the first n that
takes longer than --limit seconds, and prints the largest n solved within
the limit (every smaller n was solved within it too), with Brown's rule
checked for each n on three rows. --plain times the plain memoised search
of the rules chapter instead, for comparison.
"""
from __future__ import annotations

import argparse
import sys
import time

from retro.engines import hexapawn_rules
from retro.engines.hexapawn_solve import brown, solve


def plain(rows: int, cols: int) -> tuple[str, int]:
    hexapawn_rules.wins.cache_clear()
    first = hexapawn_rules.wins(hexapawn_rules.start(rows, cols))
    return ("first" if first else "second"), hexapawn_rules.wins.cache_info().currsize


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limit", type=float, default=60.0,
                        help="seconds allowed for one n (default 60)")
    parser.add_argument("--rows", type=int, default=3)
    parser.add_argument("--start", type=int, default=1, help="first n")
    parser.add_argument("--stop", type=int, default=10_000, help="last n")
    parser.add_argument("--plain", action="store_true",
                        help="time the plain search of the rules chapter")
    args = parser.parse_args()
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 20 * args.stop + 1000))
    print(f"{'n':>4} {'winner':>7} {'Brown':>7} {'positions':>10} {'seconds':>9}")
    largest, disagreements = 0, []
    for cols in range(args.start, args.stop + 1):
        began = time.perf_counter()
        if args.plain:
            winner, positions = plain(args.rows, cols)
        else:
            solution = solve(args.rows, cols)
            winner, positions = solution.winner, solution.positions
        seconds = time.perf_counter() - began
        rule = brown(cols) if args.rows == 3 else "-"
        if args.rows == 3 and rule != winner:
            disagreements.append(cols)
        print(f"{cols:>4} {winner:>7} {rule:>7} {positions:>10} {seconds:>9.2f}",
              flush=True)
        if seconds > args.limit:
            break
        largest = cols
    search = "plain search" if args.plain else "solver"
    print(f"largest n solved within {args.limit:g} s ({search}, "
          f"{args.rows} rows): {largest}")
    if args.rows == 3:
        print("Brown's rule: " + (f"fails for n = {disagreements}" if disagreements
                                  else f"holds for every n tried"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
