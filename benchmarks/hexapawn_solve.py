"""How far the hexapawn solver reaches: the time to solve R x n, n = 1, 2, ...

    python benchmarks/hexapawn_solve.py [--limit 60] [--rows 3] [--plain]
    python benchmarks/hexapawn_solve.py --rows 3 --start 50 --memory 400 --openings
    python benchmarks/hexapawn_solve.py --widest

Each n is solved from empty tables. The run stops after the first n that
takes longer than --limit seconds, and prints the largest n solved within
the limit (every smaller n was solved within it too), with Brown's rule
checked for each n on three rows. --plain times the plain memoised search
of the rules chapter instead, for comparison.

With --memory MB each n is solved in a child process of its own, as
`retro hexapawn solve` would (with --openings, the winning first moves
too, from the same search), and its peak memory is measured as well; the
run also stops at the first n that needs more than MB megabytes.

--widest checks the limits `retro hexapawn solve` enforces (WIDEST in
retro/engines/hexapawn_solve.py): for each number of rows it solves the
widest board accepted, with its openings, in a child process, and prints
the seconds and the peak memory, which the theory chapter reports.
"""
from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import threading
import time

from retro.engines import hexapawn_rules
from retro.engines.hexapawn_solve import WIDEST, brown, solve

CHILD = """
import json, sys, time
from retro.engines.hexapawn_solve import Search, solve, winning_openings
rows, cols, openings = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3] == "1"
began = time.perf_counter()
search = Search(rows)
solution = solve(rows, cols, search)
if openings:
    winning_openings(rows, cols, search)
print(json.dumps({"winner": solution.winner, "positions": len(search.known),
                  "seconds": time.perf_counter() - began}))
"""


def plain(rows: int, cols: int) -> tuple[str, int]:
    hexapawn_rules.wins.cache_clear()
    first = hexapawn_rules.wins(hexapawn_rules.start(rows, cols))
    return ("first" if first else "second"), hexapawn_rules.wins.cache_info().currsize


def in_a_child(rows: int, cols: int, openings: bool, *, seconds: float = 600,
               megabytes: float = 4000) -> tuple[str, int, float, float]:
    """Solve in a fresh process: winner, positions, seconds, peak megabytes.

    The child is stopped once it has run twice `seconds` or its address space
    passes twice `megabytes`, so that one board too many cannot take the
    machine down; the winner is then "(stopped)"."""
    def bounded() -> None:
        room = int(2 * megabytes) * 2 ** 20
        resource.setrlimit(resource.RLIMIT_AS, (room, room))

    began = time.perf_counter()
    child = subprocess.Popen([sys.executable, "-c", CHILD, str(rows), str(cols),
                              "1" if openings else "0"], stdout=subprocess.PIPE,
                             stderr=subprocess.DEVNULL, preexec_fn=bounded)
    timer = threading.Timer(2 * seconds, child.kill)
    timer.start()
    out = child.stdout.read()
    _, status, usage = os.wait4(child.pid, 0)
    timer.cancel()
    child.returncode = os.waitstatus_to_exitcode(status)
    peak = usage.ru_maxrss / 1024   # kilobytes on Linux
    if child.returncode:
        return "(stopped)", 0, time.perf_counter() - began, peak
    report = json.loads(out)
    return report["winner"], report["positions"], report["seconds"], peak


def widest(openings: bool = True) -> int:
    print(f"{'rows':>4} {'widest':>7} {'winner':>7} {'positions':>10} "
          f"{'seconds':>9} {'peak MB':>8}")
    for rows, cols in sorted(WIDEST.items()):
        winner, positions, seconds, megabytes = in_a_child(rows, cols, openings)
        print(f"{rows:>4} {cols:>7} {winner:>7} {positions:>10} {seconds:>9.2f} "
              f"{megabytes:>8.0f}", flush=True)
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limit", type=float, default=60.0,
                        help="seconds allowed for one n (default 60)")
    parser.add_argument("--memory", type=float, default=None, metavar="MB",
                        help="megabytes allowed for one n; each n in a child process")
    parser.add_argument("--openings", action="store_true",
                        help="with --memory: also find the winning first moves")
    parser.add_argument("--rows", type=int, default=3)
    parser.add_argument("--start", type=int, default=1, help="first n")
    parser.add_argument("--stop", type=int, default=10_000, help="last n")
    parser.add_argument("--plain", action="store_true",
                        help="time the plain search of the rules chapter")
    parser.add_argument("--widest", action="store_true",
                        help="time the widest board `retro hexapawn solve` accepts")
    args = parser.parse_args()
    if args.widest:
        return widest()
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 20 * args.stop + 1000))
    print(f"{'n':>4} {'winner':>7} {'Brown':>7} {'positions':>10} {'seconds':>9}"
          + (f" {'peak MB':>8}" if args.memory else ""))
    largest, disagreements = 0, []
    for cols in range(args.start, args.stop + 1):
        megabytes = 0.0
        began = time.perf_counter()
        if args.plain:
            winner, positions = plain(args.rows, cols)
        elif args.memory:
            winner, positions, _, megabytes = in_a_child(
                args.rows, cols, args.openings, seconds=args.limit,
                megabytes=args.memory)
        else:
            solution = solve(args.rows, cols)
            winner, positions = solution.winner, solution.positions
        seconds = time.perf_counter() - began
        rule = brown(cols) if args.rows == 3 else "-"
        if args.rows == 3 and rule != winner != "(stopped)":
            disagreements.append(cols)
        print(f"{cols:>4} {winner:>7} {rule:>7} {positions:>10} {seconds:>9.2f}"
              + (f" {megabytes:>8.0f}" if args.memory else ""), flush=True)
        if seconds > args.limit or (args.memory and megabytes > args.memory) \
                or winner == "(stopped)":
            break
        largest = cols
    search = "plain search" if args.plain else "solver"
    within = f"{args.limit:g} s" + (f" and {args.memory:g} MB" if args.memory else "")
    print(f"largest n solved within {within} ({search}, {args.rows} rows"
          + (", with openings" if args.openings else "") + f"): {largest}")
    if args.rows == 3:
        print("Brown's rule: " + (f"fails for n = {disagreements}" if disagreements
                                  else "holds for every n tried"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
