# Tangled from literate/penney.md: edit the chapter, not this file, then run `retro tangle`.
"""`retro penney odds|wait`: the exact odds and waiting times.

Tangled from literate/penney.md, which explains it.
"""
from __future__ import annotations

import json
from fractions import Fraction

from retro.common import UsageError, quoted, whole_number
from retro.engines.penney_odds import (best_reply, odds, odds_matrix,
                                       parse_pattern, patterns, waiting_time)
from retro.games.penney import tosses


ODDS_LENGTHS = range(1, 11)   # the whole matrix: 2**k by 2**k
WAIT_LENGTHS = range(1, 17)   # the waiting times: 2**k of them
NAMED_TOSSES = 1000           # most tosses in a pattern named by hand
NAMED_PATTERNS = 64           # most patterns named at once
TABLE_SIZE = 16               # most rows, and tosses, for a printed table


def register(subparsers) -> None:
    """Add `retro penney odds|wait`."""
    penney = subparsers.add_parser(
        "penney", help="Penney's game: exact odds and waiting times",
        description="Exact odds for Penney's game on coin patterns, "
                    "from Conway's leading numbers.")
    questions = penney.add_subparsers(title="questions", metavar="QUESTION",
                                      required=True)
    odds_parser = questions.add_parser(
        "odds", help="P(row pattern shows before column pattern), "
                     "and each pattern's best reply",
        description="The matrix of chances that one pattern shows before "
                    "another, as exact fractions, and each pattern's best "
                    "reply.")
    wait_parser = questions.add_parser(
        "wait", help="each pattern's expected waiting time",
        description="The expected number of tosses until each pattern first "
                    "shows, as exact fractions.")
    for parser, limit, alike in ((odds_parser, ODDS_LENGTHS, "all the same"),
                                 (wait_parser, WAIT_LENGTHS, "any lengths")):
        parser.add_argument(
            "patterns", nargs="*", metavar="PATTERN",
            help=f"only these patterns, of H and T ({alike}, at most "
                 f"{NAMED_TOSSES} tosses, {NAMED_PATTERNS} patterns); "
                 f"default: every pattern of --length tosses")
        parser.add_argument(
            "--length", "-k", type=whole_number(limit.start, limit.stop - 1),
            metavar="K", help=f"tosses in each pattern, {limit.start} to "
                              f"{limit.stop - 1} (default 3)")
        parser.add_argument("--json", action="store_true",
                            help="print one JSON object, fractions as strings")
    odds_parser.set_defaults(func=odds_command, same_length=True)
    wait_parser.set_defaults(func=wait_command, same_length=False)


def chosen_patterns(args) -> list[str]:
    """The patterns a question is about; a UsageError saying what is wrong."""
    if not args.patterns:
        return patterns(3 if args.length is None else args.length)
    if len(args.patterns) > NAMED_PATTERNS:
        raise UsageError(f"name at most {NAMED_PATTERNS} patterns, not "
                         f"{len(args.patterns)}")
    try:
        chosen = [parse_pattern(text) for text in args.patterns]
    except ValueError as error:
        raise UsageError(str(error)) from None
    longest = max(chosen, key=len)
    if len(longest) > NAMED_TOSSES:
        raise UsageError(f"{quoted(longest)} has {tosses(len(longest))}; a "
                         f"pattern named here has at most {NAMED_TOSSES}")
    if args.same_length and len({len(p) for p in chosen}) > 1:
        raise UsageError("the patterns must all have the same length")
    if args.length is not None:
        for pattern in chosen:
            if len(pattern) != args.length:
                raise UsageError(f"{quoted(pattern)} has "
                                 f"{tosses(len(pattern))}, not --length "
                                 f"{args.length}")
    repeated = [p for i, p in enumerate(chosen) if p in chosen[:i]]
    if repeated:
        raise UsageError(f"{quoted(repeated[0])} is given twice")
    return chosen


def odds_command(args) -> int:
    """`retro penney odds`: the matrix and the best replies."""
    chosen = chosen_patterns(args)
    if args.patterns:
        matrix = [[odds(a, b) for b in chosen] for a in chosen]
    else:
        matrix = odds_matrix(len(chosen[0]))
    replies = [(pattern, best_reply(pattern)) for pattern in chosen]
    if args.json:
        print(json.dumps({
            "patterns": chosen, "p": [[str(p) for p in row] for row in matrix],
            "best_replies": [{"against": pattern, "pick": reply,
                              "chance": str(odds(reply, pattern))}
                             for pattern, reply in replies]}))
        return 0
    print(f"Chance that the row's pattern shows before the column's "
          f"({tosses(len(chosen[0]))}):")
    print()
    if len(chosen) <= TABLE_SIZE and len(chosen[0]) <= TABLE_SIZE:
        print_table(chosen, matrix)
    elif args.patterns:
        for a, row in zip(chosen, matrix):
            for b, p in zip(chosen, row):
                if a != b:
                    print(f"  {a} before {b}: {p}")
    else:
        print(f"(The {len(chosen)} x {len(chosen)} matrix is too wide to "
              f"print; --json gives all of it.)")
    print()
    print("Best replies:")
    for pattern, reply in replies:
        print(f"  against {pattern} pick {reply}: it shows first with "
              f"chance {odds(reply, pattern)}")
    return 0


def print_table(chosen: list[str], matrix: list[list[Fraction]]) -> None:
    """The matrix under a row of the patterns, each row under its pattern."""
    cells = [[str(p) for p in row] for row in matrix]
    width = max(len(c) for c in chosen + [c for row in cells for c in row]) + 2
    print(" " * (len(chosen[0]) + 2) + "".join(p.rjust(width) for p in chosen))
    for pattern, row in zip(chosen, cells):
        print(f"  {pattern}" + "".join(c.rjust(width) for c in row))


def wait_command(args) -> int:
    """`retro penney wait`: each pattern's expected waiting time."""
    chosen = chosen_patterns(args)
    waits = {pattern: waiting_time(pattern) for pattern in chosen}
    if args.json:
        print(json.dumps({p: str(w) for p, w in waits.items()}))
        return 0
    shortest, longest = min(map(len, chosen)), max(map(len, chosen))
    lengths = tosses(longest) if shortest == longest else \
        f"{shortest} to {longest} tosses"
    print(f"Expected tosses until each pattern first shows ({lengths}):")
    print()
    width = max(len(str(w)) for w in waits.values())
    for pattern, wait in waits.items():
        print(f"  {pattern.ljust(longest)}  {str(wait).rjust(width)}")
    return 0
