# Tangled from literate/hexapawn_theory.md: edit the chapter, not this file, then run `retro tangle`.
"""Who wins hexapawn, board by board: a figure of the chapter on solving it.

Tangled from literate/hexapawn_theory.md, which explains it.
"""
from __future__ import annotations

from matplotlib.patches import Rectangle

from retro.engines.hexapawn_solve import Search, solve


REACH = {2: 30, 3: 30, 4: 6, 5: 4}    # columns solved, by rows
COLOURS = {"first": "#1c4f8a", "second": "#a5d8ff"}


def draw_hexapawn_winners(figure) -> None:
    axes = figure.subplots()
    for line, (rows, reach) in enumerate(REACH.items()):
        search = Search(rows)
        for cols in range(1, reach + 1):
            winner = solve(rows, cols, search).winner
            axes.add_patch(Rectangle((cols - 0.45, line - 0.45), 0.9, 0.9,
                                     color=COLOURS[winner], linewidth=0))
            axes.text(cols, line, winner[0].upper(), ha="center",
                      va="center", fontsize=7,
                      color="white" if winner == "first" else "black")
    widest = max(REACH.values())
    axes.set(xlim=(0.5, widest + 0.5), ylim=(len(REACH) - 0.5, -0.5),
             aspect="equal", xlabel="columns", ylabel="rows",
             title="F: the first player wins; S: the second")
    axes.set_xticks([1, *range(5, widest + 1, 5)])
    axes.set_yticks(range(len(REACH)), [str(rows) for rows in REACH])
    axes.tick_params(length=0)
    axes.spines[:].set_visible(False)


FIGURES = {"hexapawn-winners": draw_hexapawn_winners}
SIZES = {"hexapawn-winners": (7.2, 1.7)}
