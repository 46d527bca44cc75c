# Tangled from literate/umpire.md: edit the chapter, not this file, then run `retro tangle`.
"""`retro umpire`: a tournament between two machines, at the command line.

Tangled from literate/umpire.md, which explains it.
"""
from __future__ import annotations

import argparse
import json
import os

from retro.common import UsageError, new_seed, whole_number
from retro.engines.entrants import ENTRANTS, MachineError
from retro.engines.umpire import (MAX_LENGTH, TournamentError, render_table,
                                  to_json, tournament)


positive = whole_number(1)
length = whole_number(1, MAX_LENGTH)
JOBS = min(os.cpu_count() or 1, 32)    # the default: one worker per core
MAX_JOBS = max(JOBS, 4)                # a few more are harmless, no more
a_seed = whole_number(0, 2 ** 63 - 1)  # as every seed in Retro


def lengths(text: str) -> tuple[int, ...]:
    """The argparse type of --plays: '50,100,200' gives (50, 100, 200)."""
    try:
        return tuple(sorted({length(part) for part in text.split(",")}))
    except argparse.ArgumentTypeError as error:
        raise argparse.ArgumentTypeError(
            f"lengths are whole numbers separated by commas, "
            f"like 50,100,200 ({error})")


def register(subparsers) -> None:
    """Add `retro umpire`."""
    parser = subparsers.add_parser(
        "umpire", help="play two machines against each other",
        description="Play N games between two matching-pennies machines (B "
                    "is shown the opposite of A's play) and print each "
                    "side's mean wins after each length, with 95% intervals.")
    parser.add_argument("a", nargs="?", metavar="A",
                        help="the first machine (wins when the plays match)")
    parser.add_argument("b", nargs="?", metavar="B",
                        help="the second machine (wins when they differ)")
    parser.add_argument("--list", action="store_true",
                        help="list the machines, one per line, and stop")
    parser.add_argument("--games", type=positive, default=100, metavar="N",
                        help="games to play (default: 100)")
    parser.add_argument("--plays", type=lengths, default=(50, 100, 200),
                        metavar="L,L,...",
                        help=f"lengths to score each game at, 1 to "
                             f"{MAX_LENGTH} (default: 50,100,200)")
    parser.add_argument("--seed", type=a_seed, metavar="S",
                        default=argparse.SUPPRESS,
                        help="seed of the tournament: same seed, same "
                             "table (default: a fresh one, printed)")
    parser.add_argument("--jobs", type=whole_number(1, MAX_JOBS),
                        default=JOBS, metavar="J",
                        help=f"worker processes, 1 to {MAX_JOBS} (default: "
                             f"one per core); the result does not depend "
                             f"on it")
    parser.add_argument("--json", action="store_true",
                        help="print one JSON object instead of a table")
    parser.set_defaults(func=umpire_command)


def lineup(width: int = 79) -> list[str]:
    """What `retro umpire --list` prints: a line or two per entrant."""
    import textwrap

    column = max(map(len, ENTRANTS)) + 2
    kinds = max(len(entrant.kind) for entrant in ENTRANTS.values()) + 2
    lines = []
    for name, entrant in ENTRANTS.items():
        lines += textwrap.wrap(
            entrant.description, width,
            initial_indent=name.ljust(column) + entrant.kind.ljust(kinds),
            subsequent_indent=" " * (column + kinds))
    return lines


def umpire_command(args: argparse.Namespace) -> int:
    """`retro umpire`: the machines, or one tournament's table."""
    if args.list:
        for line in lineup():
            print(line)
        return 0
    if args.a is None or args.b is None:
        raise UsageError("name two machines, A and B (retro umpire --list "
                         "shows them)")
    seed = getattr(args, "seed", None)
    if seed is None:
        seed = new_seed()
    try:
        result = tournament(args.a, args.b, games=args.games,
                            plays=args.plays, seed=seed, jobs=args.jobs)
    except (MachineError, TournamentError) as error:
        raise UsageError(str(error)) from None
    if args.json:
        print(json.dumps(to_json(result)))
    else:
        print(render_table(result))
    return 0
