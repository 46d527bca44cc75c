# Tangled from literate/hexapawn_theory.md: edit the chapter, not this file, then run `retro tangle`.
"""Who wins hexapawn, board by board: a figure of the chapter on solving it.

Tangled from literate/hexapawn_theory.md, which explains it.
"""
from __future__ import annotations

from functools import cache, partial

from matplotlib.patches import Rectangle

from retro.engines.hexapawn_solve import Search, solve


REACH = {2: 30, 3: 30, 4: 6, 5: 4}    # columns solved, by rows
COLOURS = {"first": "#1c4f8a", "second": "#a5d8ff"}


@cache
def winners() -> dict[tuple[int, int], str]:
    """Who wins each board solved: (rows, columns) -> first or second."""
    found = {}
    for rows, reach in REACH.items():
        search = Search(rows)
        for cols in range(1, reach + 1):
            found[rows, cols] = solve(rows, cols, search).winner
    return found


def draw_hexapawn_winners(figure, band: int = 30) -> None:
    widest = max(REACH.values())
    bands = figure.subplots(-(-widest // band), 1, squeeze=False)[:, 0]
    for first, axes in zip(range(1, widest + 1, band), bands):
        last = first + band - 1
        for (rows, cols), winner in winners().items():
            if first <= cols <= last:
                line = list(REACH).index(rows)
                axes.add_patch(Rectangle((cols - 0.45, line - 0.45), 0.9,
                                         0.9, color=COLOURS[winner],
                                         linewidth=0))
                axes.text(cols, line, winner[0].upper(), ha="center",
                          va="center", fontsize=8, color="white"
                          if winner == "first" else "black")
        axes.set(xlim=(first - 0.5, last + 0.5), aspect="equal",
                 ylim=(len(REACH) - 0.5, -0.5), ylabel="rows")
        axes.set_xticks([first, *range(first + 4, last + 1, 5)])
        axes.set_yticks(range(len(REACH)), [str(rows) for rows in REACH])
        axes.tick_params(length=0)
        axes.spines[:].set_visible(False)
    bands[0].set_title("F: the first player wins; S: the second")
    bands[-1].set_xlabel("columns")


FIGURES = {"hexapawn-winners": draw_hexapawn_winners}
SIZES = {"hexapawn-winners": (7.2, 1.7)}
NARROW = {"hexapawn-winners": partial(draw_hexapawn_winners, band=15)}
NARROW_SIZES = {"hexapawn-winners": (3.8, 2.6)}
