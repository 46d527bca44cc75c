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
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction

from retro.engines.entrants import ENTRANTS, make_machine
from retro.engines.machines import Machine


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
    """A's wins at each length, summed over every game of one pairing."""

    a: str
    b: str
    plays: tuple[int, ...]
    seed: int
    games: int
    totals: tuple[int, ...]    # totals[i]: A's wins after plays[i], summed
    squares: tuple[int, ...]   # the same wins squared, summed: the spread


def fold(a: str, b: str, plays: Sequence[int], seed: int,
         wins: Iterable[tuple[int, ...]]) -> Tournament:
    """The tournament of the games whose wins come in, in any order."""
    games, totals, squares = 0, [0] * len(plays), [0] * len(plays)
    for game in wins:
        games += 1
        for i, won in enumerate(game):
            totals[i] += won
            squares[i] += won * won
    return Tournament(a, b, tuple(plays), seed, games, tuple(totals),
                      tuple(squares))


def tasks(a: str, b: str, plays: tuple[int, ...], seed: int,
          games: int) -> Iterator[Task]:
    """The tournament's games, one task at a time."""
    return ((a, b, plays, seed, game) for game in range(games))


CHUNK = 200   # the most games sent to a worker at once


def tournament(a: str, b: str, *, games: int, plays: Sequence[int],
               seed: int, jobs: int = 1) -> Tournament:
    """Play `games` games of A against B, spread over `jobs` processes."""
    plays = tuple(sorted(set(plays)))
    for name in (a, b):                      # fail here, not in a worker
        make_machine(name, random.Random(0))
    check_work(a, b, games, plays)
    stream = tasks(a, b, plays, seed, games)
    jobs = max(1, min(jobs, games))
    if jobs == 1:
        return fold(a, b, plays, seed, map(one_game, stream))
    chunk = max(1, min(CHUNK, games // (4 * jobs)))
    with multiprocessing.Pool(jobs, initializer=signal.signal,
                              initargs=(signal.SIGINT,
                                        signal.SIG_IGN)) as pool:
        return fold(a, b, plays, seed,
                    pool.imap_unordered(one_game, stream, chunksize=chunk))


MICROSECONDS = {name: entrant.microseconds    # a play, from the registry
                for name, entrant in ENTRANTS.items()}
GAME_MICROSECONDS = 30     # making a game's machines, sending its wins back
WORK_LIMIT = 60.0          # seconds of one core: about a minute
MAX_LENGTH = 100_000       # plays in one game


class TournamentError(ValueError):
    """A tournament the umpire will not play; the message is one line."""


def seconds_of_work(a: str, b: str, games: int, plays: Sequence[int]) -> float:
    """About how long the tournament takes on one core."""
    dearest = max(MICROSECONDS.values())
    per_round = MICROSECONDS.get(a, dearest) + MICROSECONDS.get(b, dearest)
    return games * (GAME_MICROSECONDS + max(plays) * per_round) / 1e6


def check_work(a: str, b: str, games: int, plays: Sequence[int]) -> None:
    """Raise TournamentError for a tournament the umpire will not play."""
    if games < 1 or not plays or min(plays) < 1:
        raise TournamentError("a tournament is at least one game of at "
                              "least one play")
    if max(plays) > MAX_LENGTH:
        raise TournamentError(f"a game is at most {MAX_LENGTH} plays, "
                              f"not {max(plays)}")
    seconds = seconds_of_work(a, b, games, plays)
    if seconds > WORK_LIMIT:
        most = most_games(a, b, max(plays))
        raise TournamentError(
            f"{counted(games, 'game')} of {counted(max(plays), 'play')} of "
            f"{a} against {b} would take about {duration(seconds)}; the "
            f"umpire plays at most {WORK_LIMIT:.0f} seconds' worth "
            f"({counted(most, 'game')} of {counted(max(plays), 'play')})")


def most_games(a: str, b: str, length: int) -> int:
    """The most games of `length` plays the umpire plays of A against B."""
    games = int(WORK_LIMIT / seconds_of_work(a, b, 1, (length,)))
    while seconds_of_work(a, b, games + 1, (length,)) <= WORK_LIMIT:
        games += 1
    while games and seconds_of_work(a, b, games, (length,)) > WORK_LIMIT:
        games -= 1
    return games


def counted(number: int, noun: str) -> str:
    """'1 game', '2 games'."""
    return f"{number} {noun}" if number == 1 else f"{number} {noun}s"


def duration(seconds: float) -> str:
    """'61 seconds', '23 minutes', '2314815 years'."""
    for unit, size in (("year", 365 * 86400), ("day", 86400),
                       ("hour", 3600), ("minute", 60)):
        if seconds >= 2 * size:
            return counted(round(seconds / size), unit)
    return counted(max(1, math.ceil(seconds)), "second")


@dataclass(frozen=True)
class Standing:
    """Mean wins of each side after one length, and the 95% half-width."""

    plays: int
    a: float
    b: float
    half_width: float


def standings(result: Tournament) -> list[Standing]:
    """Each length's means and interval, shortest length first."""
    n, out = result.games, []
    for length, total, square in zip(result.plays, result.totals,
                                     result.squares):
        mean = total / n
        variance = (Fraction(n * square - total * total, n * (n - 1))
                    if n > 1 else Fraction(0))
        out.append(Standing(length, mean, length - mean,
                            1.96 * math.sqrt(variance) / math.sqrt(n)))
    return out


def render_table(result: Tournament) -> str:
    """The tournament as the command prints it: a heading, a row a length."""
    rows = standings(result)
    width = max(12, len(result.a), len(result.b))
    lines = [f"{result.a} against {result.b}: "
             f"{counted(result.games, 'game')}, "
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
        "a": result.a, "b": result.b, "games": result.games,
        "seed": result.seed, "plays": list(result.plays),
        "mean": {str(r.plays): [round(r.a, 4), round(r.b, 4)] for r in rows},
        "interval": {str(r.plays): [
            [round(r.a - r.half_width, 4), round(r.a + r.half_width, 4)],
            [round(r.b - r.half_width, 4), round(r.b + r.half_width, 4)]]
            for r in rows},
    }
