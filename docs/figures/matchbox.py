# Tangled from literate/matchbox.md: edit the chapter, not this file, then run `retro tangle`.
"""HER's schooling, drawn: the figures of the HER and HIM chapter.

Tangled from literate/matchbox.md, which explains it.
"""
from __future__ import annotations

import random
from functools import cache, partial
from statistics import median

from matplotlib.ticker import MaxNLocator

from retro.engines.hexapawn_rules import SECOND
from retro.engines.matchbox import (contest, fresh, learn, lesson,
                                    matchboxes, perfect, unbeatable)

SEEDS = range(1, 121)
SHOWN = 4        # the seed of the learning curve printed in this chapter


def schooling(seed: int) -> tuple[str, list[int]]:
    """HER's record against the perfect player until she is unbeatable,
    and the beads in her boxes before the first game and after each."""
    keys = [box.key for box in matchboxes() if box.side == SECOND]
    rng, her, record = random.Random(seed), fresh("HER"), ""
    beads = [sum(sum(her.beads[key].values()) for key in keys)]
    learned = unbeatable(her, SECOND)
    while not learned:
        game = contest(perfect, her, rng)
        won = game.winner == SECOND
        her = learn(her, lesson(her, game.draws[SECOND], won))
        record += "W" if won else "L"
        beads.append(sum(sum(her.beads[key].values()) for key in keys))
        learned = not won and unbeatable(her, SECOND)
    return record, beads


@cache
def schoolings() -> tuple[tuple[str, list[int]], ...]:
    return tuple(schooling(seed) for seed in SEEDS)


def draw_her_learning(figure) -> None:
    lasts = [record.rfind("L") + 1 for record, _ in schoolings()]
    axes = figure.subplots()
    axes.hist(lasts, bins=range(0, max(lasts) + 10, 10), color="C0",
              rwidth=0.85)
    for at, label, style in ((median(lasts), "median", "--"),
                             (36, "Gardner's 36", ":")):
        axes.axvline(at, color="C1", linestyle=style, label=label)
    axes.set(xlabel="game of her last defeat",
             ylabel=f"seeds (of {len(SEEDS)})")
    axes.yaxis.set_major_locator(MaxNLocator(integer=True))
    axes.legend()


def draw_her_beads(figure, narrow: bool = False) -> None:
    runs = schoolings()
    longest = max(len(curve) for _, curve in runs)
    counts = [curve + [curve[-1]] * (longest - len(curve))
              for _, curve in runs]
    games = range(longest)
    at = [sorted(curve[game] for curve in counts) for game in games]
    tenth, ninetieth = len(runs) // 10, len(runs) * 9 // 10
    axes = figure.subplots()
    axes.fill_between(games, [a[tenth] for a in at],
                      [a[ninetieth] for a in at], step="post", color="C0",
                      alpha=0.25, linewidth=0, label="10th-90th percentile")
    axes.step(games, [median(a) for a in at], where="post", color="C0",
              label="median")
    axes.step(games, counts[SEEDS.index(SHOWN)], where="post", color="C1",
              label=f"seed {SHOWN}")
    axes.axhline(30, color="C4", linestyle=":", label="no bad bead left")
    axes.set(xlabel="game", ylabel="beads in her boxes", ylim=(29, 48))
    axes.yaxis.set_major_locator(MaxNLocator(integer=True))
    if narrow:
        figure.legend(loc="outside lower center", ncols=2)
    else:
        axes.legend(ncols=2)


FIGURES = {"her-learning": draw_her_learning, "her-beads": draw_her_beads}
SIZES = {"her-learning": (6.0, 2.8), "her-beads": (6.0, 2.8)}
NARROW = {"her-beads": partial(draw_her_beads, narrow=True)}
NARROW_SIZES = {"her-beads": (3.8, 3.4)}
