# Tangled from literate/hexapawn.md: edit the chapter, not this file, then run `retro tangle`.
"""`retro hexapawn boxes|train|solve`: HER's boxes, training, the theory.

Tangled from literate/hexapawn.md, which explains it.
"""
from __future__ import annotations

import json
import random
import sys
import time

from retro.common import UsageError, new_seed, plural, whole_number
from retro.engines.hexapawn_rules import FIRST, SECOND, board_lines
from retro.engines.hexapawn_solve import (BUDGET, MAX_ROWS, WIDEST, Search,
                                          brown, solve, winning_openings)
from retro.engines.matchbox import (STRATEGIES, Box, Robot, fresh,
                                    learning_curve, matchboxes, train,
                                    unbeatable)
from retro.games.hexapawn_her import boxes_held, load_her, why_nineteen
from retro.services.store import StoreError


def register(subparsers) -> None:
    """Add `retro hexapawn boxes|train|solve`."""
    hexapawn = subparsers.add_parser(
        "hexapawn", help="HER's matchboxes, training robots, solving the game",
        description="Gardner's hexapawn: HER's matchboxes, training HER and "
                    "HIM, and who wins with perfect play.")
    commands = hexapawn.add_subparsers(title="commands", metavar="COMMAND",
                                       required=True)
    boxes = commands.add_parser(
        "boxes", help="list HER's matchboxes and the beads in them",
        description="HER's matchboxes as the store keeps them: the position "
                    "on each lid, the move it is opened at, and its beads.")
    boxes.add_argument("--all", action="store_true",
                       help="also the boxes for moving first")
    boxes.add_argument("--fresh", action="store_true",
                       help="a new HER's boxes, not the stored HER's")
    boxes.add_argument("--json", action="store_true", help="print JSON")
    boxes.set_defaults(func=boxes_command)

    train = commands.add_parser(
        "train", help="train a fresh robot and report how it learned",
        description="Train a fresh HER or HIM against an opponent. The HER "
                    "you play against is not touched.")
    train.add_argument("--robot", choices=("her", "him"), default="her",
                       type=str.lower, help="the robot to train (default her)")
    train.add_argument("--opponent", choices=("perfect", "random", "her", "him"),
                       default="perfect", type=str.lower,
                       help="who it plays (default perfect)")
    train.add_argument("--games", type=whole_number(1, 100_000), default=100,
                       metavar="N", help="how many games (default 100)")
    train.add_argument("--first", choices=("opponent", "robot", "alternate"),
                       default="opponent", type=str.lower,
                       help="who moves first (default opponent, as in Gardner)")
    train.add_argument("--seed", type=whole_number(0, 2 ** 63 - 1), metavar="S",
                       help="seed the randomness: same seed, same games")
    train.add_argument("--curve", action="store_true",
                       help="draw the learning curve")
    train.add_argument("--json", action="store_true", help="print JSON")
    train.set_defaults(func=train_command)

    solve = commands.add_parser(
        "solve", help="who wins R x N hexapawn with perfect play",
        description="Exhaustive search: which player wins hexapawn on a "
                    "board of R rows and N columns, each side starting with "
                    "a full row of pawns.")
    solve.add_argument("--cols", type=whole_number(1, max(WIDEST.values())),
                       required=True, metavar="N",
                       help="columns: at most " + ", ".join(
                           f"{cols} on {rows} rows"
                           for rows, cols in WIDEST.items()))
    solve.add_argument("--rows", type=whole_number(2, MAX_ROWS), default=3,
                       metavar="R",
                       help=f"rows, 2 to {MAX_ROWS} (default 3)")
    solve.add_argument("--openings", action="store_true",
                       help="also list the first moves that win")
    solve.add_argument("--json", action="store_true", help="print JSON")
    solve.set_defaults(func=solve_command)


def boxes_command(args) -> int:
    her = fresh("HER")
    if not args.fresh:
        from retro.services.store import Store

        store = Store.open()
        try:
            her = load_her(store).her
        except StoreError as error:
            print(f"retro hexapawn boxes: {error}; these are a fresh HER's "
                  f"boxes", file=sys.stderr)
        finally:
            store.close()
    shown = [box for box in matchboxes() if args.all or box.side == SECOND]
    if args.json:
        print(json.dumps([
            {"box": box.number, "side": box.side, "move": box.move,
             "position": box.lid.key,
             "beads": {str(arrow): count
                       for arrow, count in her.beads_in(box)},
             "colours": {str(arrow): box.colour(arrow)
                         for arrow in box.arrows}}
            for box in shown]))
        return 0
    print(boxes_held(her, shown))
    if not args.all:
        print(why_nineteen(shown))
    for row in range(0, len(shown), 4):
        print()
        print_lids(her, shown[row:row + 4])
    return 0


def print_lids(robot: Robot, boxes: list[Box]) -> None:
    width = 18
    columns = []
    for box in boxes:
        who = "BOX" if box.side == SECOND else "O BOX"
        lines = [f"{who} {box.number}, MOVE {box.move}"]
        lines += ["  " + line for line in board_lines(box.lid)]
        lines += [f"  {box.colour(arrow):<5} {arrow}"
                  + (f" x{count}" if count > 1 else "")
                  for arrow, count in robot.beads_in(box)] or ["  (EMPTY)"]
        columns.append(lines)
    for i in range(max(len(lines) for lines in columns)):
        print("".join((lines[i] if i < len(lines) else "").ljust(width)
                      for lines in columns).rstrip())


def train_command(args) -> int:
    seed = args.seed if args.seed is not None else new_seed()
    robot = fresh(args.robot)
    opponent = fresh(args.opponent) if args.opponent in ("her", "him") \
        else STRATEGIES[args.opponent]
    done = train(robot, opponent, args.games, random.Random(seed),
                 first=args.first)
    report = {"robot": robot.name, "opponent": args.opponent,
              "first": args.first, "seed": seed, "games": args.games,
              "losses": done.losses, "last_loss": done.last_loss,
              "wins": args.games - done.losses,
              "record": done.record, "beads": done.robot.total,
              "unbeatable": {"first": unbeatable(done.robot, FIRST),
                             "second": unbeatable(done.robot, SECOND)}}
    if isinstance(done.opponent, Robot):
        report["opponent_losses"] = done.record.count("W")
    if args.json:
        print(json.dumps(report))
        return 0
    against = {"perfect": "the perfect player", "random": "a random player",
               "her": "another HER",
               "him": "HIM" if robot.name == "HER" else "another HIM"}
    moving = {"opponent": "second", "robot": "first",
              "alternate": "first in the odd games"}[args.first]
    print(f"{robot.name} played {plural(args.games, 'game')} against "
          f"{against[args.opponent]} (seed {seed}), moving {moving}.")
    pronoun = "He" if robot.name == "HIM" else "She"
    if done.losses:
        print(f"{pronoun} lost {done.losses}; the last loss was game "
              f"{done.last_loss}.")
    else:
        print(f"{pronoun} never lost.")
    sides = [name for name, side in (("first", FIRST), ("second", SECOND))
             if report["unbeatable"][name]]
    print(f"{pronoun} is now unbeatable moving " + " and ".join(sides) + "."
          if sides else f"{pronoun} can still be beaten.")
    if args.curve:
        print()
        print(learning_curve(done.record, robot.name))
    return 0


def solve_command(args) -> int:
    widest = WIDEST[args.rows]
    if args.cols > widest:
        raise UsageError(f"argument --cols: must be at most {widest} on "
                         f"{args.rows} rows: {args.cols} (a wider board "
                         f"needs more than {BUDGET})")
    began = time.perf_counter()
    search = Search(args.rows)
    solution = solve(args.rows, args.cols, search)
    openings = (winning_openings(args.rows, args.cols, search)
                if args.openings else None)
    seconds = round(time.perf_counter() - began, 3)
    report = {"rows": args.rows, "cols": args.cols, "winner": solution.winner,
              "positions": len(search.known), "seconds": seconds}
    if args.rows == 3:
        report["brown"] = brown(args.cols)
        report["agrees_with_brown"] = report["brown"] == solution.winner
    if openings is not None:
        report["winning_openings"] = [str(move) for move in openings]
    if args.json:
        print(json.dumps(report))
        return 0
    print(f"{args.rows} x {args.cols} hexapawn: the {solution.winner} player "
          f"wins with perfect play ({plural(report['positions'], 'position')} "
          f"searched, {seconds} s).")
    if args.rows == 3:
        print(f"Brown's rule says the {report['brown']} player: it "
              + ("agrees." if report["agrees_with_brown"] else "DISAGREES."))
    if openings is not None:
        print("First moves that win: "
              + (", ".join(map(str, openings)) if openings else "none") + ".")
    return 0
