# Tangled from literate/matchbox.md: edit the chapter, not this file, then run `retro tangle`.
"""HER and HIM: Gardner's matchbox robots that learn hexapawn.

Tangled from literate/matchbox.md, which explains it.
"""
from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cache
from types import MappingProxyType

from retro.common import plural
from retro.engines.hexapawn_rules import (FIRST, SECOND, Move, Position, after,
                                  legal_moves, mirror, mirror_move, other,
                                  result, start, winner, winning_moves)

COLOURS = ("RED", "GREEN", "BLUE", "AMBER")


@dataclass(frozen=True)
class Box:
    """One matchbox: the position on its lid and the move it is opened at."""

    number: int      # counted from 1, separately for each side
    move: int        # the move of the game at which it is opened: 1, 2, 3...
    lid: Position    # the position drawn on the lid; lid.to_move opens it

    @property
    def side(self) -> str:
        return self.lid.to_move

    @property
    def key(self) -> str:
        """The store's name for the box: side, then lid, 'X:XXX/.O./O.O'."""
        return f"{self.side}:{self.lid.key}"

    @property
    def arrows(self) -> tuple[Move, ...]:
        """The moves drawn as arrows on the lid, one bead colour each."""
        return legal_moves(self.lid)

    def colour(self, bead: Move) -> str:
        return COLOURS[self.arrows.index(bead)]


def on_the_lid(position: Position) -> tuple[Position, bool]:
    """The lid that shows `position`, and whether it shows it mirrored."""
    seen = mirror(position)
    return (seen, True) if seen.cells > position.cells else (position, False)


@cache
def matchboxes() -> tuple[Box, ...]:
    """Every box either side can need, found by playing out every game."""
    met: dict[Position, int] = {}  # lid -> the move at which it is met
    frontier, move = [start()], 1
    while frontier:
        following = []
        for position in frontier:
            lid, _ = on_the_lid(position)
            if lid in met:
                continue
            met[lid] = move
            for option in legal_moves(position):
                then = after(position, option)
                if winner(then) is None:
                    following.append(then)
        frontier, move = following, move + 1
    counted = {FIRST: 0, SECOND: 0}
    boxes = []
    for lid, move in sorted(met.items(),
                            key=lambda item: (item[1], item[0].cells)):
        counted[lid.to_move] += 1
        boxes.append(Box(counted[lid.to_move], move, lid))
    return tuple(boxes)


@cache
def box_index() -> Mapping[str, Box]:
    return MappingProxyType({box.key: box for box in matchboxes()})


def box_for(position: Position) -> tuple[Box, bool]:
    """The box for `position`, and whether the board mirrors its lid."""
    lid, mirrored = on_the_lid(position)
    return box_index()[f"{lid.to_move}:{lid.key}"], mirrored


@dataclass(frozen=True)
class Robot:
    """A matchbox robot: how many beads of each move are in each box."""

    name: str
    rewarded: bool = False   # True for HIM: a won game adds beads
    beads: Mapping[str, Mapping[str, int]] = field(default_factory=dict)

    def beads_in(self, box: Box) -> tuple[tuple[Move, int], ...]:
        """The box's arrows that still have beads, and how many each."""
        held = self.beads.get(box.key, {})
        return tuple((arrow, held.get(str(arrow), 0)) for arrow in box.arrows
                     if held.get(str(arrow), 0) > 0)

    @property
    def total(self) -> int:
        return sum(sum(box.values()) for box in self.beads.values())


def fresh(name: str = "HER") -> Robot:
    """A robot that knows only the rules: one bead for every legal move."""
    name = name.upper()
    if name not in ("HER", "HIM"):
        raise ValueError(f"the robots are HER and HIM, not {name}")
    return Robot(name, name == "HIM", {
        box.key: {str(arrow): 1 for arrow in box.arrows}
        for box in matchboxes()})


def robot_json(robot: Robot) -> dict:
    return {"name": robot.name, "rewarded": robot.rewarded,
            "beads": {key: dict(held) for key, held in robot.beads.items()}}


def robot_from_json(data) -> Robot | None:
    """The robot stored as `data`, or None if `data` is not one."""
    try:
        fallback = fresh(data["name"])
        stored = data["beads"]
        beads = {}
        for box in matchboxes():
            held = stored[box.key]
            counts = {str(arrow): held.get(str(arrow), 0)
                      for arrow in box.arrows}
            if not all(type(n) is int and n >= 0 for n in counts.values()):
                return None
            beads[box.key] = counts
        return Robot(fallback.name,
                     bool(data.get("rewarded", fallback.rewarded)), beads)
    except (KeyError, TypeError, AttributeError, ValueError):
        return None


def robot_changes(robot: Robot) -> dict:
    """The boxes where `robot` differs from a fresh robot of its name."""
    unchanged = fresh(robot.name).beads
    return {key: dict(held) for key, held in robot.beads.items()
            if dict(held) != unchanged[key]}


def robot_changed(name: str, changes) -> Robot | None:
    """A fresh robot called `name` with `changes`; None if they are not a
    robot's."""
    try:
        beads = dict(fresh(name).beads) | dict(changes)
    except (TypeError, ValueError):
        return None
    return robot_from_json({"name": name, "beads": beads})


@dataclass(frozen=True)
class Draw:
    """A bead drawn from a box: the move on the lid, and so on the board."""

    box: Box
    bead: Move        # the arrow on the lid
    mirrored: bool    # the board is the lid's mirror image

    @property
    def move(self) -> Move:
        if self.mirrored:
            return mirror_move(self.bead, self.box.lid.cols)
        return self.bead

    @property
    def colour(self) -> str:
        return self.box.colour(self.bead)


def draw(robot: Robot, position: Position, rng: random.Random) -> Draw | None:
    """Shake the box for `position` and draw a bead; None if it is empty."""
    box, mirrored = box_for(position)
    inside = robot.beads_in(box)
    pick = rng.randrange(sum(count for _, count in inside)) if inside else None
    for bead, count in inside:
        if pick < count:
            return Draw(box, bead, mirrored)
        pick -= count
    return None


@dataclass(frozen=True)
class Change:
    """One bead added (+1) to a box, or taken from it (-1)."""

    box: Box
    bead: Move
    beads: int

    @property
    def colour(self) -> str:
        return self.box.colour(self.bead)


def lesson(robot: Robot, draws: Sequence[Draw],
           won: bool) -> tuple[Change, ...]:
    """What a game teaches the robot that drew `draws`."""
    if won:
        if not robot.rewarded:
            return ()
        return tuple(Change(d.box, d.bead, +1) for d in draws)
    if not draws:
        return ()
    last = draws[-1]
    return (Change(last.box, last.bead, -1),)


def learn(robot: Robot, changes: Sequence[Change]) -> Robot:
    """The robot with `changes` made to its beads."""
    beads = {key: dict(held) for key, held in robot.beads.items()}
    for change in changes:
        held = beads.setdefault(change.box.key, {})
        bead = str(change.bead)
        held[bead] = max(0, held.get(bead, 0) + change.beads)
    return replace(robot, beads=beads)


Strategy = Callable[[Position, random.Random], Move]


def perfect(position: Position, rng: random.Random) -> Move:
    """A winning move if there is one, else any move."""
    return rng.choice(winning_moves(position) or legal_moves(position))


def anything(position: Position, rng: random.Random) -> Move:
    """Any legal move, at random."""
    return rng.choice(legal_moves(position))


STRATEGIES: dict[str, Strategy] = {"perfect": perfect, "random": anything}


Player = Robot | Strategy


@dataclass(frozen=True)
class Game:
    """A finished game between two players."""

    moves: tuple[Move, ...]
    winner: str
    reason: str            # "row", "pawns", "blocked" or "resigned"
    draws: Mapping[str, tuple[Draw, ...]]  # each side's beads, if a robot


def contest(first: Player, second: Player, rng: random.Random) -> Game:
    """Play a game, `first` moving first; robots draw but do not learn."""
    players = {FIRST: first, SECOND: second}
    position, moves = start(), []
    draws: dict[str, list[Draw]] = {FIRST: [], SECOND: []}
    while True:
        side = position.to_move
        player = players[side]
        if isinstance(player, Robot):
            bead = draw(player, position, rng)
            if bead is None:
                return Game(tuple(moves), other(side), "resigned",
                            {s: tuple(d) for s, d in draws.items()})
            draws[side].append(bead)
            move = bead.move
        else:
            move = player(position, rng)
        moves.append(move)
        position = after(position, move)
        champion, reason = result(position)
        if champion is not None:
            return Game(tuple(moves), champion, reason,
                        {s: tuple(d) for s, d in draws.items()})


@dataclass(frozen=True)
class Training:
    """A robot after a series of games, with its record."""

    robot: Robot
    opponent: Player
    record: str                # "W" or "L" per game, from the robot's side
    firsts: str                # "R" or "O" per game: who moved first

    @property
    def losses(self) -> int:
        return self.record.count("L")

    @property
    def last_loss(self) -> int:
        """The number of the robot's last lost game, 0 if it never lost."""
        return self.record.rfind("L") + 1


def robot_first(first: str, game: int) -> bool:
    if first not in ("robot", "opponent", "alternate"):
        raise ValueError(f"first must be robot, opponent or alternate, "
                         f"not {first!r}")
    return first == "robot" or (first == "alternate" and game % 2 == 1)


def train(robot: Robot, opponent: Player, games: int, rng: random.Random, *,
          first: str = "opponent") -> Training:
    """Play `games` games and let every robot in them learn from each."""
    record, firsts = [], []
    for game in range(1, games + 1):
        leads = robot_first(first, game)
        side = FIRST if leads else SECOND
        played = (contest(robot, opponent, rng) if leads
                  else contest(opponent, robot, rng))
        won = played.winner == side
        robot = learn(robot, lesson(robot, played.draws[side], won))
        if isinstance(opponent, Robot):
            theirs = other(side)
            opponent = learn(opponent, lesson(opponent, played.draws[theirs],
                                              not won))
        record.append("W" if won else "L")
        firsts.append("R" if leads else "O")
    return Training(robot, opponent, "".join(record), "".join(firsts))


def unbeatable(robot: Robot, side: str = SECOND) -> bool:
    """True if the robot wins every game on `side`, whatever happens."""

    def wins_after(position: Position, move: Move) -> bool:
        then = after(position, move)
        champion = winner(then)
        return champion == side if champion is not None else safe(then)

    def safe(position: Position) -> bool:
        if position.to_move != side:
            return all(wins_after(position, m) for m in legal_moves(position))
        box, mirrored = box_for(position)
        inside = robot.beads_in(box)
        return bool(inside) and all(
            wins_after(position, Draw(box, bead, mirrored).move)
            for bead, _ in inside)

    return safe(start())


def possessive(name: str) -> str:
    """The robot's word for its own things: HER boxes, HIS curve."""
    return {"HER": "HER", "HIM": "HIS"}.get(name, f"{name}'S")


def learning_curve(record: str, name: str = "HER", *, width: int = 60,
                   height: int = 20) -> str:
    """Gardner's Figure 45 in type: up a step for a win, down for a loss."""
    games = len(record)
    won = record.count("W")
    heading = (f"{possessive(name)} LEARNING CURVE: {plural(games, 'GAME')}, "
               f"{won} WON, {games - won} LOST")
    if not games:
        return heading
    per_column = -(-games // width)
    levels = [0]
    for outcome in record:
        levels.append(levels[-1] + (1 if outcome == "W" else -1))
    sampled = [levels[min(games, j * per_column)]
               for j in range(-(-games // per_column) + 1)]
    per_line = max(1, -(-(max(sampled) - min(sampled)) // height))
    scaled = [level // per_line for level in sampled]
    marks: dict[tuple[int, int], str] = {}
    for column, (before, now) in enumerate(zip(scaled, scaled[1:])):
        if now > before:
            marks.update(((line, column), "/") for line in range(before, now))
        elif now < before:
            marks.update(((line, column), "\\") for line in range(now, before))
        else:
            marks[now, column] = "_"
    lines = [line for line, _ in marks]
    columns = len(scaled) - 1
    chart = [heading]
    if per_column > 1 or per_line > 1:
        chart.append(f"(EACH COLUMN {plural(per_column, 'GAME')}, "
                     f"EACH LINE {plural(per_line, 'STEP')})")
    for line in range(max(lines), min(lines) - 1, -1):
        chart.append("".join(marks.get((line, c), " ")
                             for c in range(columns)).rstrip())
    chart.append("+" + "-" * (columns - 1))
    last = str(games)
    chart.append("1" + last.rjust(columns - 1) if columns > len(last) + 1
                 else "1" if games == 1 else f"1-{last}")
    return "\n".join(chart)
