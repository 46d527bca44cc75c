# Tangled from literate/hexapawn.md: edit the chapter, not this file, then run `retro tangle`.
"""Hexapawn's rules: the board, the moves, and who has won.

Tangled from literate/hexapawn.md, which explains it.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache

from retro.common import number_in, quoted


FIRST, SECOND = "O", "X"   # O moves first, up the board; X moves down
EMPTY = "."


def other(side: str) -> str:
    return SECOND if side == FIRST else FIRST


@dataclass(frozen=True)
class Move:
    """A pawn's move, from square `start` to square `end` (numbered from 0)."""

    start: int
    end: int

    def __str__(self) -> str:
        return f"{self.start + 1}-{self.end + 1}"


@dataclass(frozen=True)
class Position:
    """The board, row by row from the top (X's home), and whose turn it is."""

    cells: str
    cols: int = 3
    to_move: str = FIRST

    @property
    def rows(self) -> int:
        return len(self.cells) // self.cols

    def row(self, number: int) -> str:
        return self.cells[number * self.cols:(number + 1) * self.cols]

    @property
    def key(self) -> str:
        """The board in one short line, rows apart: 'XXX/.O./O.O'."""
        return "/".join(self.row(r) for r in range(self.rows))


def start(rows: int = 3, cols: int = 3) -> Position:
    """The opening position: a full row of pawns on each side, O to move."""
    if rows < 2 or cols < 1:
        raise ValueError(
            f"a board needs 2 rows and 1 column, not {rows}x{cols}")
    return Position(SECOND * cols + EMPTY * (cols * (rows - 2)) + FIRST * cols,
                    cols)


def ahead(side: str, cols: int) -> int:
    """How far along the board string one step forward goes."""
    return -cols if side == FIRST else cols


def legal_moves(position: Position) -> tuple[Move, ...]:
    """Every move of the side to move, in order of the squares."""
    side, cols, cells = position.to_move, position.cols, position.cells
    enemy, step = other(side), ahead(side, cols)
    moves = []
    for square, pawn in enumerate(cells):
        front = square + step
        if pawn != side or not 0 <= front < len(cells):
            continue
        col = square % cols
        for sideways in (-1, 0, 1):
            if not 0 <= col + sideways < cols:
                continue  # a diagonal must not wrap round the board's edge
            wanted = EMPTY if sideways == 0 else enemy
            if cells[front + sideways] == wanted:
                moves.append(Move(square, front + sideways))
    return tuple(moves)


def after(position: Position, move: Move) -> Position:
    """The position once `move` is made (it must be legal)."""
    cells = list(position.cells)
    cells[move.end], cells[move.start] = cells[move.start], EMPTY
    return Position("".join(cells), position.cols, other(position.to_move))


def winner(position: Position) -> str | None:
    """The side that has won, or None while the game goes on."""
    return result(position)[0]


def result(position: Position) -> tuple[str | None, str]:
    """(winner, why): why is "row", "pawns" or "blocked".

    (None, "") if the game is not over."""
    if FIRST in position.row(0):
        return FIRST, "row"
    if SECOND in position.row(position.rows - 1):
        return SECOND, "row"
    if not legal_moves(position):
        loser = position.to_move
        return other(loser), "blocked" if loser in position.cells else "pawns"
    return None, ""


def mirror_square(square: int, cols: int) -> int:
    row, col = divmod(square, cols)
    return row * cols + cols - 1 - col


def mirror(position: Position) -> Position:
    """The position seen in a mirror held at the side of the board."""
    flipped = "".join(position.row(r)[::-1] for r in range(position.rows))
    return Position(flipped, position.cols, position.to_move)


def mirror_move(move: Move, cols: int) -> Move:
    return Move(mirror_square(move.start, cols), mirror_square(move.end, cols))


@cache
def wins(position: Position) -> bool:
    """True if the side to move can force a win, whatever the other does."""
    for move in legal_moves(position):
        then = after(position, move)
        if winner(then) == position.to_move or not wins(then):
            return True
    return False


def winning_moves(position: Position) -> tuple[Move, ...]:
    """The moves that keep a forced win (none if the position is lost)."""
    return tuple(move for move in legal_moves(position)
                 if winner(then := after(position, move)) == position.to_move
                 or not wins(then))


def board_lines(position: Position) -> list[str]:
    """The board, one string a row, pawns two spaces apart."""
    return ["  ".join(position.row(r)) for r in range(position.rows)]


def board_text(position: Position, indent: int = 4) -> str:
    """The board and, beside it, the numbers of its squares."""
    width = len(str(len(position.cells)))
    lines = []
    for r, pawns in enumerate(board_lines(position)):
        numbers = " ".join(str(r * position.cols + c + 1).rjust(width + 1)
                           for c in range(position.cols))
        lines.append(" " * indent + pawns + " " * 6 + numbers.lstrip())
    return "\n".join(lines)


MOVE_SHAPE = re.compile(r"([0-9]+)(?:(?:\s*(?:-|,|to)\s*|\s+)([0-9]+))?",
                        re.IGNORECASE)


def parse_move(text: str, squares: int = 9) -> Move | str:
    """The move typed as '7-4', '74' or '7 4'; a string says what is wrong."""
    shape = MOVE_SHAPE.fullmatch(text.strip())
    if shape is None or shape.group(2) is None and len(shape.group(1)) < 2:
        return ("TYPE A MOVE AS THE SQUARE YOU LEAVE AND THE SQUARE YOU "
                "GO TO: 7-4.")
    first, second = shape.groups()
    if second is None:          # run together: the last digit is the end
        first, second = first[:-1], first[-1]
    numbers = []
    for typed in (first, second):
        square = number_in(typed)
        if square is None or not 1 <= square <= squares:
            return (f"THERE IS NO SQUARE {quoted(typed)}: THE SQUARES ARE "
                    f"1 TO {squares}.")
        numbers.append(square)
    return Move(numbers[0] - 1, numbers[1] - 1)


def why_illegal(position: Position, move: Move) -> str | None:
    """None if `move` is legal; otherwise why not, in a sentence."""
    if move in legal_moves(position):
        return None
    side, cols, cells = position.to_move, position.cols, position.cells
    mine, enemy = cells[move.start], other(side)
    start, end = move.start + 1, move.end + 1
    if mine == EMPTY:
        return f"THERE IS NO PAWN ON {start}."
    if mine == enemy:
        return f"THE PAWN ON {start} IS NOT YOURS."
    row_step = move.end // cols - move.start // cols
    col_step = move.end % cols - move.start % cols
    if row_step != ahead(side, cols) // cols or abs(col_step) > 1:
        way = "UP" if side == FIRST else "DOWN"
        return (f"{start}-{end} IS NOT A PAWN'S MOVE: A PAWN GOES ONE SQUARE "
                f"{way} THE BOARD, STRAIGHT OR DIAGONALLY.")
    if col_step == 0:
        return (f"{end} IS TAKEN: A PAWN ADVANCES ONLY TO AN EMPTY SQUARE, "
                f"AND CAPTURES ONLY DIAGONALLY.")
    if cells[move.end] == side:
        return f"YOUR OWN PAWN STANDS ON {end}."
    return (f"THERE IS NOTHING TO CAPTURE ON {end}: A PAWN MOVES DIAGONALLY "
            f"ONLY TO CAPTURE.")
