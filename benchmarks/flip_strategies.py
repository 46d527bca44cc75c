"""Flip against fixed players: the figures in literate/flip.md.

    python benchmarks/flip_strategies.py [--seeds 2000] [--lockstep 500]

Prints three markdown tables:

1. the port's mean score for each player beside the BASIC program's, as
   PC-BASIC (GW-BASIC) played it (tests/data/flip_gwbasic_reference.json,
   made by `python tests/flip_basic.py --games 300`), with z, the difference
   in standard errors; and how many sessions the port and the BASIC program
   under the test interpreter typed identically (lockstep);
2. the same players against the Java retelling's rule and against the
   listing with the `*` for `+` typo;
3. ports broken on purpose: the largest |z| over the four players.
"""
from __future__ import annotations

import argparse
import io
import json
import math
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

import flip_basic  # noqa: E402
from flip_basic import BROKEN, STRATEGIES, broken_game, guesses  # noqa: E402

from retro.engines import flip as engine  # noqa: E402
from retro.games import flip  # noqa: E402
from retro.services.store import Store  # noqa: E402
from retro.services.teletype import StreamTeletype  # noqa: E402


def bits(letters):
    return [engine.YES if letter == "Y" else engine.NO for letter in letters]


def scores(strategy, seeds, rule=engine.answer):
    return [engine.autoplay(bits(guesses(strategy, seed)), random.Random(seed),
                          rule=rule).score for seed in seeds]


def z_score(ours, theirs):
    spread = math.sqrt(statistics.variance(ours) / len(ours)
                       + statistics.variance(theirs) / len(theirs))
    return (statistics.mean(ours) - statistics.mean(theirs)) / spread


def lockstep(strategy, sessions):
    """Sessions of two games typed identically by the port and flip.bas."""
    source = flip_basic.SOURCE.read_text()
    same = 0
    for seed in range(sessions):
        lines = flip_basic.basic_session(strategy, [seed, seed + 10 ** 6])
        basic = flip_basic.run(source, lines, random.Random(seed))
        out = io.StringIO()
        flip.play(StreamTeletype(io.StringIO("\n".join(lines) + "\n"), out),
                  rng=random.Random(seed), store=Store.memory(), seed=seed,
                  keep=False, show_profile=False)
        same += out.getvalue() == basic
    return same


def described(values):
    return f"{statistics.mean(values):.2f} (sd {statistics.stdev(values):.2f})"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=2000,
                        help="games of the port per player (default 2000)")
    parser.add_argument("--lockstep", type=int, default=500,
                        help="two-game sessions per player checked in "
                             "lockstep (default 500)")
    args = parser.parse_args()
    reference = json.loads(
        (ROOT / "tests" / "data" / "flip_gwbasic_reference.json").read_text())
    seeds = range(args.seeds)
    started = time.perf_counter()

    games = len(next(iter(reference["scores"].values())))
    print(f"| player | BASIC under {reference['interpreter']}, {games} games "
          f"| port, {args.seeds} games | z | lockstep sessions identical |")
    print("| --- | --- | --- | --- | --- |")
    ports = {}
    for strategy in STRATEGIES:
        ports[strategy] = ours = scores(strategy, seeds)
        theirs = reference["scores"][strategy]
        same = lockstep(strategy, args.lockstep)
        print(f"| {strategy} | {described(theirs)} | {described(ours)} "
              f"| {z_score(ours, theirs):+.2f} | {same} of {args.lockstep} |")
    print()

    print("| player | the listing | the Java retelling's rule "
          "| the listing with the `*` typo |")
    print("| --- | --- | --- | --- |")
    for strategy in STRATEGIES:
        java = scores(strategy, seeds, rule=engine.java_answer)
        typo = [broken_game(bits(guesses(strategy, s)), random.Random(s),
                            typo=True) for s in seeds]
        print(f"| {strategy} | {statistics.mean(ports[strategy]):.2f} "
              f"| {statistics.mean(java):.2f} | {statistics.mean(typo):.2f} |")
    print()

    print("| a port with ... | " + " | ".join(STRATEGIES) + " |")
    print("| --- |" + " --- |" * len(STRATEGIES))
    print("| nothing broken (the port itself) | " + " | ".join(
        f"{abs(z_score(ports[s], reference['scores'][s])):.1f}"
        for s in STRATEGIES) + " |")
    for name, breakage in BROKEN.items():
        cells = []
        for strategy in STRATEGIES:
            broken = [broken_game(bits(guesses(strategy, s)),
                                  random.Random(s + 10 ** 6), **breakage)
                      for s in seeds]
            cells.append(f"{abs(z_score(broken, reference['scores'][strategy])):.1f}")
        print(f"| {name} | " + " | ".join(cells) + " |")
    print()
    print(f"({time.perf_counter() - started:.1f} s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
