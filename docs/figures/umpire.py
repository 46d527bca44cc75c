# Tangled from literate/umpire.md: edit the chapter, not this file, then run `retro tangle`.
"""The paper's Tables 1-3 beside the umpire's: a figure of the umpire
chapter.

Tangled from literate/umpire.md, which explains it.
"""
from __future__ import annotations

import re
from functools import cache, partial
from pathlib import Path

from retro.engines.umpire import standings, tournament

GAMES, SEED = 300, 1      # as the tables above


CHAPTER = Path(__file__).resolve().parents[2] / "literate" / "umpire.md"
TITLE = re.compile(r"^\*\*Table (\d), (\w+) against (\w+)\*\*", re.MULTILINE)
ROW = re.compile(r"^\| (\d+) \| ([\d.]+) \u2013 [\d.]+ \| ([\d.]+) \|",
                 re.MULTILINE)


def papers_tables() -> list[tuple[str, str, str, dict[int, tuple]]]:
    """(table number, A, B, {plays: (A's average, its standard error)})."""
    text = CHAPTER.read_text(encoding="utf-8")
    titles = list(TITLE.finditer(text))
    tables = []
    for title, after in zip(titles, [*titles[1:], None]):
        section = text[title.end():after.start() if after else None]
        rows = {int(plays): (float(mean), float(error))
                for plays, mean, error in ROW.findall(section)}
        if not rows:
            raise ValueError(f"no rows under Table {title[1]} in {CHAPTER}")
        tables.append((title[1], title[2].lower(), title[3].lower(), rows))
    if not tables:
        raise ValueError(f"no tables of the paper in {CHAPTER}")
    return tables


@cache
def our_standings(a: str, b: str, plays: tuple[int, ...]) -> list:
    return standings(tournament(a, b, games=GAMES, plays=plays, seed=SEED,
                                jobs=1))


def draw_umpire_tables(figure, columns: int = 3) -> None:
    panels = figure.subplots(3 // columns, columns, sharey=True)
    for axes, (number, a, b, paper) in zip(panels, papers_tables()):
        ours = our_standings(a, b, tuple(paper))
        at = range(len(ours))
        axes.errorbar([x - 0.12 for x in at],
                      [100 * paper[r.plays][0] / r.plays for r in ours],
                      [100 * 1.96 * paper[r.plays][1] / r.plays
                       for r in ours],
                      fmt="o", capsize=3, color="C1", label="paper, 10 games")
        axes.errorbar([x + 0.12 for x in at],
                      [100 * r.a / r.plays for r in ours],
                      [100 * r.half_width / r.plays for r in ours],
                      fmt="s", capsize=3, color="C0",
                      label=f"ours, {GAMES} games")
        axes.axhline(50, color="C4", linestyle=":", linewidth=1)
        axes.set_xticks(list(at), [str(r.plays) for r in ours])
        axes.set(title=f"Table {number}: {a.upper()} v {b.upper()}",
                 xlabel="plays", xlim=(-0.5, len(ours) - 0.5))
    for axes in panels[::columns]:
        axes.set_ylabel("A's wins, % of plays")
    figure.legend(*panels[0].get_legend_handles_labels(),
                  loc="outside lower center", ncols=2)


FIGURES = {"umpire-tables": draw_umpire_tables}
NARROW = {"umpire-tables": partial(draw_umpire_tables, columns=1)}
NARROW_SIZES = {"umpire-tables": (3.8, 7.0)}
