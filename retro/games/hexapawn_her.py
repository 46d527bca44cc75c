# Tangled from literate/hexapawn.md: edit the chapter, not this file, then run `retro tangle`.
"""HER's memory in the store: her beads, her record, her lessons, her resets.

Tangled from literate/hexapawn.md, which explains it.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from retro.common import plural
from retro.engines.hexapawn_rules import SECOND
from retro.engines.matchbox import (Box, Change, Robot, fresh, matchboxes,
                                    possessive, robot_from_json, robot_json)


HER_KEY = "hexapawn.her"


@dataclass(frozen=True)
class Memory:
    """HER as the store keeps her, and the lessons the store has not taken."""

    her: Robot
    record: str = ""
    unsaved: tuple[Lesson, ...] = ()
    reset: dict | None = None  # who last reset her, when, after how many games


def memory_from_json(data) -> Memory | None:
    """The HER stored as `data`, or None if `data` is not HER."""
    if not isinstance(data, dict):
        return None
    her, record = robot_from_json(data.get("robot")), data.get("record")
    if her is None or her.name != "HER" or not isinstance(record, str) \
            or set(record) - {"W", "L"}:
        return None
    reset = data.get("reset")
    return Memory(her, record, reset=reset if isinstance(reset, dict) else None)


def load_her(store) -> Memory:
    """HER from the store; a fresh HER if there is none worth believing."""
    data = store.get(HER_KEY, None,
                     valid=lambda data: memory_from_json(data) is not None)
    memory = None if data is None else memory_from_json(data)
    return Memory(fresh("HER")) if memory is None else memory


def memory_json(memory: Memory) -> dict:
    kept = {"robot": robot_json(memory.her), "record": memory.record}
    return kept | ({"reset": memory.reset} if memory.reset else {})


GARDNERS_BOXES = 24


def boxes_held(robot: Robot, boxes: Sequence[Box]) -> str:
    """'HER 19 MATCHBOXES HOLD 47 BEADS.'"""
    beads = sum(count for box in boxes for _, count in robot.beads_in(box))
    return (f"{possessive(robot.name)} "
            f"{plural(len(boxes), 'MATCHBOX', 'MATCHBOXES')} HOLD "
            f"{plural(beads, 'BEAD')}.")


def why_nineteen(boxes: Sequence[Box]) -> str:
    return (f"A POSITION AND ITS MIRROR IMAGE SHARE A BOX: {len(boxes)}, NOT "
            f"GARDNER'S {GARDNERS_BOXES}.")


def her_so_far(memory: Memory) -> str:
    boxes = [box for box in matchboxes() if box.side == SECOND]
    games, won = len(memory.record), memory.record.count("W")
    played = (f"HER HAS PLAYED {plural(games, 'GAME')}: SHE WON {won} AND "
              f"LOST {games - won}." if games else "HER HAS NEVER PLAYED.")
    return "\n".join((played, boxes_held(memory.her, boxes),
                      why_nineteen(boxes)) + last_reset(memory.reset))


def last_reset(reset: dict | None) -> tuple[str, ...]:
    """The line that says who last reset HER, if anyone has."""
    if not reset:
        return ()
    by, at = str(reset.get("by", "?"))[:16], str(reset.get("at", "?"))[:16]
    games = reset.get("games")
    games = games if isinstance(games, int) else 0
    return (f"{by.upper()} LAST RESET HER ({at.replace('T', ' ')} UTC), "
            f"WIPING WHAT SHE HAD LEARNED IN {plural(games, 'GAME')}.",)


@dataclass(frozen=True)
class Lesson:
    """What one finished game teaches HER, and its line in the scores."""

    changes: tuple[Change, ...]
    her_won: bool
    moves: str
    ending: str
    seed: int | None
    start: dict  # her boxes, as they differed from fresh ones, at the start


def keep(store, game: str,
         lessons: Sequence[Lesson]) -> tuple[Memory, tuple[Change, ...]]:
    """HER as stored, taught `lessons`, their games recorded: all or none;
    and what the newest lesson really changed."""
    taken: tuple[Change, ...] = ()
    with store.transaction(serial=False):
        store.put_new(HER_KEY, memory_json(load_her(store)))
        for taught in lessons:
            taken = tuple(change for change in taught.changes
                          if store.adjust(HER_KEY, bead_path(change),
                                          change.beads) is not None)
            games = store.append(HER_KEY, ("record",),
                                 "W" if taught.her_won else "L")
            store.record(
                game, score="0-1" if taught.her_won else "1-0",
                outcome="loss" if taught.her_won else "win", seed=taught.seed,
                detail={"moves": taught.moves, "ending": taught.ending,
                        "her_game": games, "replay": [],
                        "from": taught.start,
                        "beads_lost": [{"box": c.box.number,
                                        "bead": str(c.bead),
                                        "colour": c.colour}
                                       for c in taken]})
        memory = load_her(store)
    return memory, taken


def bead_path(change: Change) -> tuple[str, ...]:
    """Where the bead `change` adds or takes lies in HER's stored value."""
    return ("robot", "beads", change.box.key, str(change.bead))


RESETS_KEY, RESETS_KEPT = "hexapawn.resets", 100


def start_her_again(store, games: int) -> None:
    """Fresh boxes for HER, and the reset recorded: all or none."""
    reset = {"by": store.player,
             "at": store.clock().isoformat(timespec="seconds")[:19],
             "games": games}
    with store.transaction():
        resets = store.get(RESETS_KEY, [],
                           valid=lambda data: isinstance(data, list))
        store.put(RESETS_KEY, (resets + [reset])[-RESETS_KEPT:])
        store.put(HER_KEY, memory_json(Memory(fresh("HER"), reset=reset)))
