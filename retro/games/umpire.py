# Tangled from literate/umpire.md: edit the chapter, not this file, then run `retro tangle`.
"""The umpire: play two matching-pennies machines against each other.

Tangled from literate/umpire.md, which explains it.
"""
from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import os
import random
import secrets
import signal
import statistics
import sys
from collections.abc import Sequence
from dataclasses import dataclass

from retro.common import whole_number
from retro.engines.machines import MACHINES, Machine, MachineError, make_machine


def play_game(a: Machine, b: Machine, plays: Sequence[int]) -> tuple[int, ...]:
    """A's wins after each length in `plays` (ascending) of one game."""
    wins, after = 0, []
    checkpoints = set(plays)
    for round_number in range(1, plays[-1] + 1):
        a_play, b_play = a.choose(), b.choose()
        a.learn(b_play)
        b.learn(1 - a_play)     # B is shown the opposite of A's play
        wins += a_play == b_play
        if round_number in checkpoints:
            after.append(wins)
    return tuple(after)


def game_rngs(seed: int, game: int) -> tuple[random.Random, random.Random]:
    """The generators of A and B in one game of a tournament."""
    return (random.Random(f"{seed}/{game}/A"),
            random.Random(f"{seed}/{game}/B"))


Task = tuple[str, str, tuple[int, ...], int, int]   # A, B, plays, seed, game


def one_game(task: Task) -> tuple[int, ...]:
    """Play game number `game` of a tournament: the unit of work."""
    a_name, b_name, plays, seed, game = task
    a_rng, b_rng = game_rngs(seed, game)
    return play_game(make_machine(a_name, a_rng),
                     make_machine(b_name, b_rng), plays)


@dataclass(frozen=True)
class Tournament:
    """A's wins at each length, for every game of one pairing."""

    a: str
    b: str
    plays: tuple[int, ...]
    seed: int
    wins: tuple[tuple[int, ...], ...]   # wins[game][i]: A's after plays[i]


def tournament(a: str, b: str, *, games: int, plays: Sequence[int],
               seed: int, jobs: int = 1) -> Tournament:
    """Play `games` games of A against B, spread over `jobs` processes."""
    plays = tuple(sorted(set(plays)))
    for name in (a, b):                      # fail here, not in a worker
        make_machine(name, random.Random(0))
    tasks = [(a, b, plays, seed, game) for game in range(games)]
    jobs = max(1, min(jobs, games))
    if jobs == 1:
        wins = list(map(one_game, tasks))
    else:
        with multiprocessing.Pool(jobs, initializer=signal.signal,
                                  initargs=(signal.SIGINT,
                                            signal.SIG_IGN)) as pool:
            wins = pool.map(one_game, tasks,
                            chunksize=max(1, games // (4 * jobs)))
    return Tournament(a, b, plays, seed, tuple(wins))


@dataclass(frozen=True)
class Standing:
    """Mean wins of each side after one length, and the 95% half-width."""

    plays: int
    a: float
    b: float
    half_width: float


def standings(result: Tournament) -> list[Standing]:
    out = []
    for i, length in enumerate(result.plays):
        wins = [game[i] for game in result.wins]
        mean = statistics.fmean(wins)
        spread = statistics.stdev(wins) if len(wins) > 1 else 0.0
        out.append(Standing(length, mean, length - mean,
                            1.96 * spread / math.sqrt(len(wins))))
    return out


def render_table(result: Tournament) -> str:
    rows = standings(result)
    width = max(12, len(result.a), len(result.b))
    lines = [f"{result.a} against {result.b}: {len(result.wins)} games, "
             f"seed {result.seed} (mean wins, 95% interval)",
             "",
             f"{'plays':>6}  {result.a:<{width}}  {result.b}"]
    for row in rows:
        a = f"{row.a:.1f} \u00b1 {row.half_width:.1f}"
        b = f"{row.b:.1f} \u00b1 {row.half_width:.1f}"
        lines.append(f"{row.plays:>6}  {a:<{width}}  {b}")
    return "\n".join(lines)


def to_json(result: Tournament) -> dict:
    rows = standings(result)
    return {
        "a": result.a, "b": result.b, "games": len(result.wins),
        "seed": result.seed, "plays": list(result.plays),
        "mean": {str(r.plays): [round(r.a, 4), round(r.b, 4)] for r in rows},
        "interval": {str(r.plays): [
            [round(r.a - r.half_width, 4), round(r.a + r.half_width, 4)],
            [round(r.b - r.half_width, 4), round(r.b + r.half_width, 4)]]
            for r in rows},
    }


positive = whole_number(1)


def lengths(text: str) -> tuple[int, ...]:
    try:
        return tuple(sorted({positive(part) for part in text.split(",")}))
    except argparse.ArgumentTypeError as error:
        raise argparse.ArgumentTypeError(
            f"lengths are whole numbers separated by commas, "
            f"like 50,100,200 ({error})")


def register(subparsers) -> None:
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
                        help="lengths to score each game at "
                             "(default: 50,100,200)")
    parser.add_argument("--seed", type=int, metavar="S",
                        default=argparse.SUPPRESS,
                        help="seed of the tournament: same seed, same "
                             "table (default: a fresh one, printed)")
    parser.add_argument("--jobs", type=positive, default=os.cpu_count() or 1,
                        metavar="J",
                        help="worker processes (default: one per core); "
                             "the result does not depend on it")
    parser.add_argument("--json", action="store_true",
                        help="print one JSON object instead of a table")
    parser.set_defaults(func=umpire_command)


def umpire_command(args: argparse.Namespace) -> int:
    if args.list:
        for name, (_, description) in MACHINES.items():
            print(f"{name:<6} {description}")
        return 0
    if args.a is None or args.b is None:
        return usage("name two machines, A and B (retro umpire --list "
                     "shows them)")
    seed = getattr(args, "seed", None)
    if seed is None:
        seed = secrets.randbelow(1_000_000)
    try:
        result = tournament(args.a, args.b, games=args.games,
                            plays=args.plays, seed=seed, jobs=args.jobs)
    except MachineError as error:
        return usage(str(error))
    if args.json:
        print(json.dumps(to_json(result)))
    else:
        print(render_table(result))
    return 0


def usage(message: str) -> int:
    print(f"retro umpire: {message}", file=sys.stderr)
    return 2
