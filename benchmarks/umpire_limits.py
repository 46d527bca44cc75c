"""What the umpire's limits cost: time and peak memory at the edge, and refused.

    python benchmarks/umpire_limits.py [--no-largest]

First it measures what the umpire's cost table (retro.engines.umpire.
MICROSECONDS and GAME_MICROSECONDS) claims: microseconds a play for every
machine and player (half of one long game against itself, per round), the
people chapter's two rules and mixed person among them, and for a game of
one play. A measured figure above the table's is marked "OVER": the table
should be raised, or a tournament the umpire accepts may take longer than
about a minute.

Then it runs `python -m retro umpire` as a child process: the largest
tournaments the umpire accepts (200-play games, as many as the work limit
allows, for the cheapest and the dearest pairing; the longest game of the
SCP, whose memory grows with the game), and some it refuses (numbers far too
large, counts of work beyond the limit). For each it prints the exit status,
the wall time and the peak resident memory of the largest process (os.wait4's
ru_maxrss, which covers the child and the workers it waited for). The target:
a refusal in well under a second, with the memory of Python starting; an
accepted run in about a minute or less, in tens of megabytes, whatever the
number of games.
"""
from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
import time

from retro.engines import people
from retro.engines.entrants import MACHINES, PLAYERS, make_machine
from retro.engines.umpire import (GAME_MICROSECONDS, MAX_LENGTH,
                                  MICROSECONDS, most_games, one_game,
                                  play_game)

# the people chapter's rules and mixed person, made by class where the
# registry does not list them
OWN = {"switch": people.GuessSwitch,
       "switch-half": people.GuessSwitchWhileHalf,
       "human-mixed": people.Mixed}


def make(name: str, rng: random.Random):
    if name in MACHINES or name in PLAYERS:
        return make_machine(name, rng)
    return OWN[name](rng)


def per_play(name: str, plays: int = 4000) -> float:
    """Microseconds a play of `name`: one game against itself, per side."""
    best = float("inf")
    for seed in range(3):
        a, b = (make(name, random.Random(seed)),
                make(name, random.Random(seed + 100)))
        start = time.process_time()
        play_game(a, b, (plays,))
        best = min(best, time.process_time() - start)
    return best / (2 * plays) * 1e6


def per_game(name: str, games: int = 2000) -> float:
    """Microseconds a game of one play of `name` against itself."""
    start = time.process_time()
    for game in range(games):
        one_game((name, name, (1,), 1, game))
    return (time.process_time() - start) / games * 1e6


def run(argv: list[str]) -> tuple[int, float, float, str]:
    """Exit status, wall seconds, peak MB and the first line of stderr of
    `python -m retro umpire ARGV`."""
    start = time.perf_counter()
    child = subprocess.Popen([sys.executable, "-m", "retro", "umpire", *argv],
                             stdout=subprocess.DEVNULL,
                             stderr=subprocess.PIPE, text=True)
    err = child.stderr.read()
    _, status, usage = os.wait4(child.pid, 0)
    child.returncode = os.waitstatus_to_exitcode(status)
    seconds = time.perf_counter() - start
    return (child.returncode, seconds, usage.ru_maxrss / 1024,
            (err.splitlines() or [""])[0][:100])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--no-largest", action="store_true",
                        help="skip the accepted runs at the limit (minutes)")
    args = parser.parse_args()

    print("microseconds a play: measured (best of 3) vs the umpire's table")
    names = [*MACHINES, *PLAYERS,
             *(name for name in OWN if name not in {*MACHINES, *PLAYERS})]
    for name in names:
        measured, table = per_play(name), MICROSECONDS.get(name)
        mark = "  OVER" if table is None or measured > table else ""
        print(f"  {name:<17} {measured:7.2f}  {table}{mark}")
    worst = max(per_game(name) for name in MACHINES)
    mark = "  OVER" if worst > GAME_MICROSECONDS else ""
    print(f"  a game of one play, the dearest machine: {worst:.1f} "
          f"vs {GAME_MICROSECONDS}{mark}")

    cases = [
        ("refused: --games of 23 digits",
         ["seer", "mrm", "--games", "9" * 23, "--jobs", "1"]),
        ("refused: --plays of 20 digits",
         ["seer", "mrm", "--plays", "9" * 20, "--jobs", "1"]),
        ("refused: --games 10^17 (too much work)",
         ["seer", "mrm", "--games", str(10 ** 17), "--jobs", "1"]),
        ("refused: one game too many",
         ["mixer", "mixer", "--games",
          str(most_games("mixer", "mixer", 200) + 1),
          "--plays", "200"]),
        ("refused: --jobs 100000",
         ["seer", "mrm", "--jobs", "100000"]),
        ("refused: --games 5000 digits",
         ["seer", "mrm", "--games", "1" * 5000]),
    ]
    if not args.no_largest:
        for a, b, jobs in (("coin", "coin", 1), ("mixer", "mixer", 1),
                           ("mixer", "mixer", 2)):
            games = most_games(a, b, 200)
            cases.append((f"largest accepted: {a} {b}, {games} games of 200, "
                          f"--jobs {jobs}",
                          [a, b, "--games", str(games), "--plays", "200",
                           "--seed", "1", "--jobs", str(jobs)]))
        cases.append((f"longest game: scp scp, 1 game of {MAX_LENGTH}",
                      ["scp", "scp", "--games", "1", "--plays",
                       str(MAX_LENGTH), "--seed", "1", "--jobs", "1"]))
    print()
    print(f"{'run':<58} {'exit':>4} {'seconds':>8} {'peak MB':>8}")
    for title, argv in cases:
        status, seconds, peak, err = run(argv)
        print(f"{title:<58} {status:>4} {seconds:8.2f} {peak:8.1f}")
        if err:
            print(f"    {err}")


if __name__ == "__main__":
    main()
