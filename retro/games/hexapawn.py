# Tangled from literate/hexapawn.md: edit the chapter, not this file, then run `retro tangle`.
"""Hexapawn against HER, at the teletype.

Tangled from literate/hexapawn.md, which explains it.
"""
from __future__ import annotations

import random
from dataclasses import replace

from retro.common import plural
from retro.engines.hexapawn_rules import (FIRST, SECOND, Move, Position,
                                          after, board_text, legal_moves,
                                          parse_move, result, start,
                                          why_illegal)
from retro.engines.matchbox import (Box, Draw, Game, Robot, box_for, draw,
                                    fresh, learn, learning_curve, lesson,
                                    robot_changed, robot_changes)
from retro.games.contract import (FROM, Abandoned, FrontEnd, Paper,
                                  RoomCommand, Sitting, is_quit, recorded)
from retro.games.hexapawn_her import (Lesson, Memory, her_so_far, keep,
                                      last_reset, load_her, start_her_again)
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


async def play(tty: Paper, sitting: Sitting, *,
               replay_of: int | None = None) -> None:
    """Games against HER until the player stops or the input ends."""
    tty.say(BANNER)
    tty.say()
    if replay_of is None:
        memory = await her_at_the_start(tty, sitting.store)
    else:
        memory = await her_as_she_was(tty, sitting, replay_of)
    tty.say(INTRODUCTION)
    tty.say()
    tty.say(her_so_far(memory))
    for seed in sitting.seeds():
        try:
            game = await one_game(tty, memory.her, random.Random(seed))
            if game is None:  # QUIT
                raise Abandoned
        except (Abandoned, EOFError, KeyboardInterrupt):
            tty.say("HER BEADS ARE AS THEY WERE.")
            raise
        memory = await finish(tty, sitting, memory, game, seed,
                              keeps=replay_of is None)
        try:
            if not await yes_or_no(tty, "ANOTHER GAME (Y OR N)? ",
                                   ANOTHER_GAME):
                return
        except (EOFError, KeyboardInterrupt):  # every game was finished
            return


async def one_game(tty: Paper, her: Robot, rng: random.Random) -> Game | None:
    """Play one game; None if the player quits in the middle."""
    position, moves, draws = start(), list[Move](), list[Draw]()

    def over() -> Game | None:
        champion, reason = result(position)
        if champion is None:
            return None
        return Game(tuple(moves), champion, reason,
                    {FIRST: (), SECOND: tuple(draws)})

    tty.say()
    tty.draw(board_text(position))
    while True:
        move = await your_move(tty, position)
        if move is None:
            return None
        moves.append(move)
        position = after(position, move)
        if game := over():
            tty.draw(board_text(position))
            return game
        bead = draw(her, position, rng)
        if bead is None:
            box, _ = box_for(position)
            tty.draw(board_text(position))
            tty.say(f"HER OPENS BOX {box.number}. IT IS EMPTY: SHE RESIGNS.")
            return Game(tuple(moves), FIRST, "resigned",
                        {FIRST: (), SECOND: tuple(draws)})
        tty.say(opening_the_box(her, bead))
        draws.append(bead)
        moves.append(bead.move)
        position = after(position, bead.move)
        tty.draw(board_text(position))
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


async def your_move(tty: Paper, position: Position) -> Move | None:
    """A legal move typed by the player, or None for QUIT."""
    legal = legal_moves(position)
    choices = [str(move) for move in legal] + ["HELP", "BOARD", "QUIT"]
    while True:
        answer = await tty.ask("YOUR MOVE? ", choices)
        word = answer.upper()
        if is_quit(word):
            return None
        if word in HELP_WORDS:
            tty.say(RULES)
            tty.say("YOUR MOVES NOW: " + ", ".join(map(str, legal)) + ".")
            continue
        if word in ("B", "BOARD"):
            tty.draw(board_text(position))
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


async def yes_or_no(tty: Paper, question: str, helping: str) -> bool:
    """True for Y; False for N or QUIT; HELP says `helping` and asks again."""
    while True:
        word = (await tty.ask(question, ["Y", "N", "HELP", "QUIT"])).upper()
        if word in ("Y", "YES"):
            return True
        if word in ("N", "NO") or is_quit(word):
            return False
        tty.say(helping if word in HELP_WORDS else "PLEASE ANSWER Y OR N.")


async def her_at_the_start(tty: Paper, store) -> Memory:
    try:
        return await store.run(load_her)
    except StoreError as error:
        tty.say(f"HER MATCHBOXES CANNOT BE READ ({error}); SHE STARTS "
                f"WITH FRESH ONES.")
        return Memory(fresh("HER"))


async def her_as_she_was(tty: Paper, sitting: Sitting, number: int) -> Memory:
    """HER as she began game `number`, for a replay of it."""
    found = await recorded(sitting, number)
    her = robot_changed("HER", found.detail.get("from")) if found else None
    if her is None:
        tty.say(f"THERE IS NO GAME {number} OF HEXAPAWN TO PLAY AGAIN.")
        raise Abandoned
    tty.say(f"GAME {number} AGAIN, AGAINST HER AS SHE WAS THEN. NOTHING OF "
            f"IT IS KEPT: THE LAB'S HER IS NOT TOUCHED.")
    return Memory(her)


ENDINGS = {
    (FIRST, "row"): "YOUR PAWN HAS REACHED HER SIDE. YOU WIN.",
    (FIRST, "pawns"): "YOU HAVE TAKEN ALL HER PAWNS. YOU WIN.",
    (FIRST, "blocked"): "HER HAS NO MOVE. YOU WIN.",
    (FIRST, "resigned"): "YOU WIN.",
    (SECOND, "row"): "HER PAWN HAS REACHED YOUR SIDE. HER WINS.",
    (SECOND, "pawns"): "HER HAS TAKEN ALL YOUR PAWNS. HER WINS.",
    (SECOND, "blocked"): "YOU HAVE NO MOVE. HER WINS.",
}


async def finish(tty: Paper, sitting: Sitting, memory: Memory, game: Game,
                 seed: int, *, keeps: bool = True) -> Memory:
    """Teach HER, keep it all in the store, then tell the end of the game."""
    her_won = game.winner == SECOND
    changes = lesson(memory.her, game.draws[SECOND], her_won)
    moves = " ".join(map(str, game.moves))
    lessons = memory.unsaved + (Lesson(changes, her_won, moves, game.reason,
                                       seed, robot_changes(memory.her)),)
    refused, taken = None, changes
    learned = replace(memory, her=learn(memory.her, changes),
                      record=memory.record + ("W" if her_won else "L"),
                      unsaved=lessons if keeps else ())  # a replay owes none
    if keeps:
        try:
            learned, taken = await sitting.store.run(keep, sitting.game.name,
                                                     lessons)
        except StoreError as error:
            refused = error
    tty.say(ENDINGS[game.winner, game.reason])
    for change in taken:
        tty.say(f"HER LOSES THE {change.colour} BEAD FROM BOX "
                f"{change.box.number}: SHE WILL NOT MAKE THAT MOVE THERE AGAIN.")
    if changes and not taken:
        tty.say(f"ANOTHER GAME HAS TAKEN THAT BEAD FROM BOX "
                f"{changes[0].box.number} ALREADY: SHE LOSES NONE.")
    if not her_won and not changes:
        tty.say("SHE HAS NO BEAD TO LOSE.")
    if her_won:
        tty.say("HER PUTS HER BEADS BACK IN THEIR BOXES.")
    tty.say()
    tty.draw(learning_curve(learned.record))
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


async def reset_her(tty: Paper, sitting: Sitting) -> str | None:
    """Give HER fresh matchboxes; she starts again. What the room is told."""
    store = sitting.store
    with saving(tty, "HER FRESH MATCHBOXES"):
        memory = await store.run(load_her)
        if replace(memory, reset=None) == Memory(fresh("HER")):
            tty.say("HER HAS NOT PLAYED SINCE SHE WAS LAST RESET: HER "
                    "MATCHBOXES ARE FRESH ALREADY.")
            return None
        games = len(memory.record)
        tty.say(f"RESET HER? SHE FORGETS ALL SHE LEARNED IN "
                f"{plural(games, 'GAME')}." if games
                else "RESET HER? SHE GETS FRESH MATCHBOXES.")
        if not await yes_or_no(tty, "ARE YOU SURE (Y OR N)? ", RESET_HELP):
            tty.say("HER KEEPS HER BEADS.")
            return None
        await store.run(start_her_again, games)
        tty.say("HER HAS FRESH MATCHBOXES: ONE BEAD FOR EVERY LEGAL MOVE.")
    return (f"RESET HER: SHE FORGOT WHAT SHE LEARNED IN "
            f"{plural(games, 'GAME')}.")


FRONT_END = FrontEnd(play, options=(FROM,), commands=(
    RoomCommand("RESET HER", "Give HER fresh matchboxes; she starts again.",
                reset_her, shared=True),
), lately=lambda store: " ".join(last_reset(load_her(store).reset)))
