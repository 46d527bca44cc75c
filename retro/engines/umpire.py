# Tangled from literate/umpire.md: edit the chapter, not this file, then run `retro tangle`.
"""The umpire: play two matching-pennies machines against each other, many
times over, and sum up who won.

Tangled from literate/umpire.md, which explains it.
"""
from __future__ import annotations

import math
import multiprocessing
import random
import signal
import statistics
from collections.abc import Sequence
from dataclasses import dataclass

from retro.engines.machines import Machine, make_machine


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
    """Each length's means and interval, shortest length first."""
    out = []
    for i, length in enumerate(result.plays):
        wins = [game[i] for game in result.wins]
        mean = statistics.fmean(wins)
        spread = statistics.stdev(wins) if len(wins) > 1 else 0.0
        out.append(Standing(length, mean, length - mean,
                            1.96 * spread / math.sqrt(len(wins))))
    return out


def render_table(result: Tournament) -> str:
    """The tournament as the command prints it: a heading and a row a length."""
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
    """The tournament as one JSON object, for `--json`."""
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
