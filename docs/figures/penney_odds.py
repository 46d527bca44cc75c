# Tangled from literate/penney_odds.md: edit the chapter, not this file, then run `retro tangle`.
"""The triplet odds as a heat map: a figure of the Penney's odds chapter.

Tangled from literate/penney_odds.md, which explains it.
"""
from __future__ import annotations

from fractions import Fraction
from functools import partial

from matplotlib.patches import Rectangle

from retro.engines.penney_odds import best_reply, odds_matrix, patterns


def draw_penney_odds(figure, scale: str = "right") -> None:
    names = patterns(3)
    odds = odds_matrix(3)
    axes = figure.subplots()
    shade = [[float(p) if row != column else float("nan")
              for column, p in enumerate(line)]
             for row, line in enumerate(odds)]
    image = axes.imshow(shade, cmap="PuOr", vmin=0, vmax=1)
    for row, line in enumerate(odds):
        for column, p in enumerate(line):
            if row != column:
                axes.text(column, row, f"{p.numerator}/{p.denominator}",
                          ha="center", va="center",
                          color="white" if abs(p - Fraction(1, 2)) > 0.3
                          else "black")
    for column, pattern in enumerate(names):
        row = names.index(best_reply(pattern))
        axes.add_patch(Rectangle((column - 0.45, row - 0.45), 0.9, 0.9,
                                 fill=False, linewidth=2.2, color="C2"))
    axes.set_xticks(range(len(names)), names)
    axes.set_yticks(range(len(names)), names)
    axes.tick_params(top=True, labeltop=True, bottom=False,
                     labelbottom=False, length=0)
    axes.spines[:].set_visible(False)
    axes.set(xlabel="the first chooser's pattern (column)",
             ylabel="the reply (row)")
    figure.colorbar(image, ax=axes, shrink=0.8, location=scale,
                    label="chance the row's pattern shows first")


FIGURES = {"penney-odds": draw_penney_odds}
SIZES = {"penney-odds": (6.4, 5.4)}
NARROW = {"penney-odds": partial(draw_penney_odds, scale="bottom")}
NARROW_SIZES = {"penney-odds": (3.8, 4.6)}
