# Tangled from literate/room.md: edit the chapter, not this file, then run `retro tangle`.
"""What the room reports: the scoreboard, the paper torn off, and HELP's
two columns.

Tangled from literate/room.md, which explains it.
"""
from __future__ import annotations

import itertools
import re
from collections.abc import Iterator, Sequence
from pathlib import Path

from retro.common import quoted
from retro.games.contract import Game
from retro.games.registry import GAMES
from retro.services.store import Scoreboard
from retro.services.teletype import WIDTH


def shown(value: object, width: int = 20) -> str:
    """A stored value as the scoreboard prints it: printable, cut short."""
    text = "".join(char if char.isprintable() else "?"
                   for char in str(value)[:width + 1])
    return text[:width - 3] + "..." if len(text) > width else text


def scores_report(board: Scoreboard, games: Sequence[Game] = GAMES,
                  width: int = WIDTH) -> list[str]:
    """The lines SCORES prints for this scoreboard, on a paper `width`
    columns wide: a table of the tallies if it fits, else a line each."""
    if not board.tallies:
        return ["No games played yet. The scoreboard is clean."]
    titles = {game.name: game.title for game in games}
    order = {name: at for at, name in enumerate(titles)}
    tallies = [(titles.get(one.game, shown(one.game)), one)
               for one in sorted(board.tallies, key=lambda one: (
                   order.get(one.game, len(order)), shown(one.game)))]
    lines = [f"{'game':<18}{'played':>7}{'won':>6}{'lost':>6}"
             f"{'drawn':>7}  last", *(tally(*it) for it in tallies)]
    if max(map(len, lines)) > width:
        lines = [f"{title}: played {one.played}, won {one.won}, lost "
                 f"{one.lost}, drawn {one.drawn}; last {shown(one.last)}"
                 for title, one in tallies]
    lines += ["", "The last games, newest first, and how to play each "
                  "again:"]
    for r in board.newest:
        title = titles.get(r.game, shown(r.game))
        whose = f"{shown(r.player, 16)}: " if board.players > 1 else ""
        lines.append(f"  #{r.number:<3} {shown(r.played_at)[:10]}  {whose}"
                     f"{title}: {shown(r.score)} ({shown(r.outcome)})")
        command = replay_command(r)
        if command is not None:
            lines.append(f"       {command}")
    return lines


PLAIN = re.compile(r"[A-Za-z0-9_.,=-]{1,40}")  # a word safe to type


def replay_command(result) -> str | None:
    """The command that plays a recorded game again; None if there is
    none to trust."""
    replay = result.detail.get("replay", [])
    words = [result.game, *replay] if isinstance(replay, list) else [None]
    if result.seed is None or not all(
            isinstance(word, str) and PLAIN.fullmatch(word) for word in words):
        return None
    command = ["retro", "play", result.game, "--seed", str(result.seed),
               *replay]
    if "from" in result.detail:
        command += ["--from", str(result.number)]
    return " ".join(command)


def tally(title: str, one) -> str:
    """One line of the scoreboard: played, won, lost, drawn, last score."""
    return (f"{title[:17]:<18}{one.played:>7}{one.won:>6}"
            f"{one.lost:>6}{one.drawn:>7}  {shown(one.last)}")


def rolls() -> Iterator[Path]:
    """retro-roll-N.txt in the current directory, for N = 1, 2, 3, ..."""
    return (Path(f"retro-roll-{n}.txt") for n in itertools.count(1))


def tear(tty, name: str = "") -> str:
    """Tear the roll off into `name`, or the next free roll; the reply."""
    try:
        paths = [Path(name).expanduser()] if name else rolls()
    except RuntimeError:  # "~someone" with no home directory
        return (f"The paper will not tear: there is no home directory "
                f"{quoted(Path(name).parts[0])}.")
    for path in paths:
        try:
            tty.tear(path)
        except FileExistsError:
            if name:
                return (f'There is already a file "{path}", and TEAR never '
                        f"overwrites. Try another name.")
        except (OSError, ValueError) as error:  # ValueError: a NUL in a name
            reason = getattr(error, "strerror", None) or error
            return f"The paper will not tear: {reason}."
        else:
            return f"You tear off the paper roll. It is saved as {path}."
    raise AssertionError("the rolls run out only after every number")


HELP_COLUMN = 19, 28  # where the descriptions start: at least, at most


def help_column(usages: Sequence[str], page: int = WIDTH) -> int:
    """The column of the descriptions: two spaces past the longest usage,
    and never past half the page."""
    least, most = HELP_COLUMN
    least, most = min(least, page // 2), min(most, page // 2)
    return max([least] + [len(usage) + 4 for usage in usages
                          if len(usage) + 4 <= most])


def help_row(usage: str, about: str, column: int) -> str:
    """One row of HELP: the usage, then what it does from `column` on (to
    be said with `hang=column`)."""
    if len(usage) + 3 > column:
        return f"  {usage}\n" + " " * column + about
    return f"  {usage}".ljust(column) + about
