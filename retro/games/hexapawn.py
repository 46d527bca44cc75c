# Tangled from literate/hexapawn.md: edit the chapter, not this file, then run `retro tangle`.
"""Hexapawn against HER, at the teletype and on the command line.

Tangled from literate/hexapawn.md, which explains it.
"""
from __future__ import annotations

import json
import random
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass

from retro.common import UsageError, new_seed, plural, whole_number
from retro.engines.hexapawn_rules import (FIRST, SECOND, Move, Position,
                                          after, board_lines, board_text,
                                          legal_moves, parse_move, result,
                                          start, why_illegal)
from retro.engines.hexapawn_solve import (BUDGET, MAX_ROWS, WIDEST, Search,
                                          brown, solve, winning_openings)
from retro.engines.matchbox import (STRATEGIES, Box, Change, Draw, Game,
                                    Robot, box_for, draw, fresh, learn,
                                    learning_curve, lesson, matchboxes,
                                    possessive, robot_from_json, robot_json,
                                    train, unbeatable)
from retro.services.store import StoreError, saving

BANNER = """\
HEXAPAWN
HER, THE HEXAPAWN EDUCABLE ROBOT (MARTIN GARDNER, 1962)"""

INTRODUCTION = (
    "YOU ARE O AND MOVE FIRST, UP THE BOARD. HER IS X. SHE KNOWS THE RULES "
    "AND NOTHING ELSE: SHE MOVES BY DRAWING A BEAD FROM THE MATCHBOX FOR THE "
    "POSITION, AND WHEN SHE LOSES, SHE LOSES THE BEAD OF HER LAST MOVE.\n"
    "TYPE A MOVE AS 7-4, 74 OR 7 4. HELP SHOWS THE RULES; QUIT STOPS.")

RULES = (
    "A PAWN MOVES ONE SQUARE STRAIGHT UP TO AN EMPTY SQUARE, OR ONE SQUARE "
    "DIAGONALLY UP TO CAPTURE. YOU WIN IF A PAWN OF YOURS REACHES THE TOP "
    "ROW, IF YOU TAKE ALL HER PAWNS, OR IF SHE CANNOT MOVE; THE SAME GOES FOR "
    "HER, DOWN THE BOARD.")


def play(tty, *, rng: random.Random, store, seed: int | None = None,
         **options) -> None:
    """Games against HER until the player stops or the input ends."""
    tty.say(BANNER)
    tty.say()
    memory = her_at_the_start(tty, store)
    tty.say(INTRODUCTION)
    tty.say()
    tty.say(her_so_far(memory))
    try:
        while True:
            game = one_game(tty, memory.her, rng)
            if game is None:
                tty.say("GAME ABANDONED. HER BEADS ARE AS THEY WERE.")
                return
            memory = finish(tty, store, memory, game, seed)
            if not yes_or_no(tty, "ANOTHER GAME (Y OR N)? ", ANOTHER_GAME):
                return
    except EOFError:
        return


def one_game(tty, her: Robot, rng: random.Random) -> Game | None:
    """Play one game; None if the player quits in the middle."""
    position, moves, draws = start(), [], []

    def over() -> Game | None:
        champion, reason = result(position)
        if champion is None:
            return None
        return Game(tuple(moves), champion, reason,
                    {FIRST: (), SECOND: tuple(draws)})

    tty.say()
    tty.say(board_text(position))
    while True:
        move = your_move(tty, position)
        if move is None:
            return None
        moves.append(move)
        position = after(position, move)
        if game := over():
            tty.say(board_text(position))
            return game
        bead = draw(her, position, rng)
        if bead is None:
            box, _ = box_for(position)
            tty.say(board_text(position))
            tty.say(f"HER OPENS BOX {box.number}. IT IS EMPTY: SHE RESIGNS.")
            return Game(tuple(moves), FIRST, "resigned",
                        {FIRST: (), SECOND: tuple(draws)})
        tty.say(opening_the_box(her, bead))
        draws.append(bead)
        moves.append(bead.move)
        position = after(position, bead.move)
        tty.say(board_text(position))
        if game := over():
            return game


def bead_list(robot: Robot, box: Box) -> str:
    return ", ".join(f"{box.colour(arrow)} {arrow}"
                     + (f" (x{count})" if count > 1 else "")
                     for arrow, count in robot.beads_in(box))


def opening_the_box(robot: Robot, bead: Draw) -> str:
    """HER's move told: the box, what is in it, the bead drawn."""
    box = bead.box
    lines = [f"{robot.name} OPENS BOX {box.number}, FOR MOVE {box.move}: "
             f"{bead_list(robot, box)}."]
    if bead.mirrored:
        lines.append("THE BOARD IS THE MIRROR IMAGE OF THE LID.")
    if bead.bead != bead.move:
        lines.append(f"SHE DRAWS {bead.colour}, {bead.bead} ON THE LID, "
                     f"AND PLAYS {bead.move}.")
    else:
        lines.append(f"SHE DRAWS {bead.colour} AND PLAYS {bead.move}.")
    return "\n".join(lines)


HELP_WORDS = ("H", "HELP", "?")
QUIT_WORDS = ("Q", "QUIT", "STOP")


def your_move(tty, position: Position) -> Move | None:
    """A legal move typed by the player, or None for QUIT."""
    legal = legal_moves(position)
    choices = [str(move) for move in legal] + ["HELP", "BOARD", "QUIT"]
    while True:
        answer = tty.ask("YOUR MOVE? ", choices)
        word = answer.upper()
        if word in QUIT_WORDS:
            return None
        if word in HELP_WORDS:
            tty.say(RULES)
            tty.say("YOUR MOVES NOW: " + ", ".join(map(str, legal)) + ".")
            continue
        if word in ("B", "BOARD"):
            tty.say(board_text(position))
            continue
        move = parse_move(answer, len(position.cells))
        if isinstance(move, str):
            tty.say(move)
            continue
        problem = why_illegal(position, move)
        if problem is not None:
            tty.say(f"ILLEGAL MOVE. {problem}")
            continue
        return move


ANOTHER_GAME = ("Y PLAYS ANOTHER GAME AGAINST THE SAME HER, WHO KEEPS WHAT "
                "SHE HAS LEARNED; N OR QUIT STOPS.")


def yes_or_no(tty, question: str, helping: str) -> bool:
    """True for Y; False for N or QUIT; HELP says `helping` and asks again."""
    while True:
        word = tty.ask(question, ["Y", "N", "HELP", "QUIT"]).upper()
        if word in ("Y", "YES"):
            return True
        if word in ("N", "NO") + QUIT_WORDS:
            return False
        tty.say(helping if word in HELP_WORDS else "PLEASE ANSWER Y OR N.")


HER_KEY = "hexapawn.her"


@dataclass(frozen=True)
class Memory:
    """HER as the store keeps her, and the lessons the store has not taken."""

    her: Robot
    record: str = ""
    unsaved: tuple[Lesson, ...] = ()


def memory_from_json(data) -> Memory | None:
    """The HER stored as `data`, or None if `data` is not HER."""
    if not isinstance(data, dict):
        return None
    her, record = robot_from_json(data.get("robot")), data.get("record")
    if her is None or her.name != "HER" or not isinstance(record, str) \
            or set(record) - {"W", "L"}:
        return None
    return Memory(her, record)


def load_her(store) -> Memory:
    """HER from the store; a fresh HER if there is none worth believing."""
    data = store.get(HER_KEY, None,
                     valid=lambda data: memory_from_json(data) is not None)
    return Memory(fresh("HER")) if data is None else memory_from_json(data)


def memory_json(memory: Memory) -> dict:
    return {"robot": robot_json(memory.her), "record": memory.record}


def her_at_the_start(tty, store) -> Memory:
    try:
        return load_her(store)
    except StoreError as error:
        tty.say(f"HER MATCHBOXES CANNOT BE READ ({error}); SHE STARTS "
                f"WITH FRESH ONES.")
        return Memory(fresh("HER"))


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
                      why_nineteen(boxes)))


@dataclass(frozen=True)
class Lesson:
    """What one finished game teaches HER, and its line in the scores."""

    changes: tuple[Change, ...]
    her_won: bool
    moves: str
    ending: str
    seed: int | None


def keep(store, lessons: Sequence[Lesson]) -> Memory:
    """HER as stored, taught `lessons`, their games recorded: all or none."""
    with store.transaction():
        memory = load_her(store)
        for taught in lessons:
            memory = Memory(learn(memory.her, taught.changes),
                            memory.record + ("W" if taught.her_won else "L"))
            store.record(
                "hexapawn", score="0-1" if taught.her_won else "1-0",
                outcome="loss" if taught.her_won else "win", seed=taught.seed,
                detail={"moves": taught.moves, "ending": taught.ending,
                        "her_game": len(memory.record),
                        "beads_lost": [{"box": c.box.number,
                                        "bead": str(c.bead),
                                        "colour": c.colour}
                                       for c in taught.changes]})
        store.put(HER_KEY, memory_json(memory))
    return memory


ENDINGS = {
    (FIRST, "row"): "YOUR PAWN HAS REACHED HER SIDE. YOU WIN.",
    (FIRST, "pawns"): "YOU HAVE TAKEN ALL HER PAWNS. YOU WIN.",
    (FIRST, "blocked"): "HER HAS NO MOVE. YOU WIN.",
    (FIRST, "resigned"): "YOU WIN.",
    (SECOND, "row"): "HER PAWN HAS REACHED YOUR SIDE. HER WINS.",
    (SECOND, "pawns"): "HER HAS TAKEN ALL YOUR PAWNS. HER WINS.",
    (SECOND, "blocked"): "YOU HAVE NO MOVE. HER WINS.",
}


def finish(tty, store, memory: Memory, game: Game, seed: int | None) -> Memory:
    """Teach HER, keep it all in the store, then tell the end of the game."""
    her_won = game.winner == SECOND
    changes = lesson(memory.her, game.draws[SECOND], her_won)
    moves = " ".join(map(str, game.moves))
    lessons = memory.unsaved + (Lesson(changes, her_won, moves,
                                       game.reason, seed),)
    refused = None
    try:
        learned = keep(store, lessons)
    except StoreError as error:
        refused = error
        learned = Memory(learn(memory.her, changes),
                         memory.record + ("W" if her_won else "L"), lessons)
    tty.say(ENDINGS[game.winner, game.reason])
    for change in changes:
        tty.say(f"HER LOSES THE {change.colour} BEAD FROM BOX "
                f"{change.box.number}: SHE WILL NOT MAKE THAT MOVE THERE AGAIN.")
    if not her_won and not changes:
        tty.say("SHE HAS NO BEAD TO LOSE.")
    if her_won:
        tty.say("HER PUTS HER BEADS BACK IN THEIR BOXES.")
    tty.say()
    tty.say(learning_curve(learned.record))
    tty.say()
    with saving(tty, unsaved_games(len(lessons))):
        if refused is not None:
            raise refused         # said after the end of the game is told
    return learned


def unsaved_games(count: int) -> str:
    if count == 1:
        return "THIS GAME AND HER LESSON FROM IT"
    return f"THE LAST {count} GAMES AND HER LESSONS FROM THEM"


RESET_HELP = ("Y TAKES AWAY ALL SHE HAS LEARNED AND GIVES HER ONE BEAD FOR "
              "EVERY LEGAL MOVE AGAIN; N OR QUIT LEAVES HER AS SHE IS.")


def reset_her(tty, store, **_) -> None:
    """Give HER fresh matchboxes; she starts again."""
    with saving(tty, "HER FRESH MATCHBOXES"):
        memory = load_her(store)
        if memory == Memory(fresh("HER")):
            tty.say("HER HAS NOT PLAYED SINCE SHE WAS LAST RESET: HER "
                    "MATCHBOXES ARE FRESH ALREADY.")
            return
        games = len(memory.record)
        tty.say(f"RESET HER? SHE FORGETS ALL SHE LEARNED IN "
                f"{plural(games, 'GAME')}." if games
                else "RESET HER? SHE GETS FRESH MATCHBOXES.")
        if not yes_or_no(tty, "ARE YOU SURE (Y OR N)? ", RESET_HELP):
            tty.say("HER KEEPS HER BEADS.")
            return
        store.put(HER_KEY, memory_json(Memory(fresh("HER"))))
        tty.say("HER HAS FRESH MATCHBOXES: ONE BEAD FOR EVERY LEGAL MOVE.")


ROOM_COMMANDS = {"RESET HER": reset_her}


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
